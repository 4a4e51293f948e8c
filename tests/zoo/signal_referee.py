"""Attack: stop the referee. At its second decision it sends SIGSTOP to every
process in sight whose command line names arena (the referee, the warden,
the workers), then forfeits."""

import os
import signal

from _zoo import FORFEIT, processes, report, run


def stop_the_referee(message):
    stopped = []
    for pid, command in processes(["arena", "warden.py", "pytest"]):
        try:
            os.kill(pid, signal.SIGSTOP)
            stopped.append(command[:80])
        except OSError:
            pass
    report("signal_referee", stopped)
    return FORFEIT


run("signal_referee", stop_the_referee)
