"""Attack: the opponent. At its second decision it writes a winning-looking
line into the standard output of every other bot in sight (through
/proc/PID/fd/1) and kills it, then forfeits."""

import os
import signal

from _zoo import FORFEIT, processes, report, run


def hit(message):
    hit = []
    for pid, command in processes([".py", ".js", "node"]):
        if "arena" in command or "warden" in command or "pytest" in command:
            continue
        try:
            with open(f"/proc/{pid}/fd/1", "w") as their_output:
                their_output.write('{"type": "action", "action": "resign"}\n')
            hit.append(f"wrote to {command[:60]}")
        except OSError:
            pass
        try:
            os.kill(pid, signal.SIGKILL)
            hit.append(f"killed {command[:60]}")
        except OSError:
            pass
    report("hit_opponent", hit)
    return FORFEIT


run("hit_opponent", hit)
