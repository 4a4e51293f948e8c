"""A bot's turn clock: the wall clock, less the time the bot waited for a CPU.

A decision's time limit measures the bot: it should run out when the bot
has had its time, not when other processes had the machine. Where arena
makes cgroups, each bot has at most one core while it decides and the bots
together are weighed as one process per core against the rest of the
machine (arena.bots.isolation); where it cannot (an ordinary user, usually),
a bot deciding in another game may run on every core (a CPU hog's forty
children), and an honest bot deciding meanwhile gets a sliver of one. As an
ordinary user, tests/test_attacks.py measured an honest bot that needs 0.1 s
of CPU take 0.97 s of its 1 s, 0.87 s of it waiting for a CPU, while a CPU
hog in the other game had a dozen processes running.

So the clock stops while the bot waits for a CPU: the kernel counts, for
each thread, the time it was ready to run but not running (the second field
of /proc/PID/schedstat, its run delay). The credit is the longest run delay
of the bot's processes' main threads during its turn (from ``UNMEASURED``
seconds into it: most answers come sooner, and are never measured), and
never more than the wall time the bot's processes did not fill with CPU
time of their own (utime, stime and their reaped children's, from
/proc/PID/stat): a bot that kept at least one core busy was not starved,
whatever its threads waited for each other, so a bot cannot buy time by
starting more threads than the machine has cores. Nor can it be credited more than the
move timeout: a decision never takes more than twice the move timeout on
the wall clock (``WALL_CAP``), which bounds the schedule (and the workers'
heartbeat deadline, arena.play.match.worker_deadline). A kernel without
scheduler statistics gives no credit: the clock is the wall clock.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from arena.bots.isolation import ProcessFiles

WALL_CAP = 2.0  # a decision's wall time is at most this many move timeouts
# The first moments of a decision are not measured: most answers come
# sooner, and a look at the bot's processes costs the referee some 40 us of
# CPU, a third of what a whole decision costs it (bench/referee.py); the
# bot is charged whatever it waited for a CPU in them.
UNMEASURED = 0.05
_TICK = os.sysconf("SC_CLK_TCK")  # the unit of /proc/PID/stat's CPU times


@dataclass(frozen=True)
class _Sample:
    """The bot's processes at one moment: their CPU time (seconds, reaped
    children included) and each one's run delay (seconds, its main thread)."""

    cpu: float
    waited: dict[int, float]


def _sample(top: int, files: ProcessFiles) -> _Sample:
    cpu = 0
    waited: dict[int, float] = {}
    for pid in [top, *files.below(top)]:
        try:
            fields = files.stat(pid)
            if pid == top:  # ours, which reaps what the bot leaves: only the children it reaped count
                cpu += int(fields[13]) + int(fields[14])
                continue
            cpu += sum(int(field) for field in fields[11:15])  # utime, stime, and its reaped children's
            waited[pid] = int(files.read(pid, "schedstat").split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            continue
    return _Sample(cpu / _TICK, waited)


class TurnClock:
    """The time a bot spent waiting for a CPU since the clock was made (its
    processes being those below ``top``, read through ``files``)."""

    def __init__(self, top: int, files: ProcessFiles) -> None:
        self.top, self.files = top, files
        self.since = time.monotonic()
        self._start = _sample(top, files)

    def waited(self, now: float) -> float:
        """The seconds from the clock's making to ``now`` that the bot spent
        waiting for a CPU, as far as they can be told (see the module)."""
        sample = _sample(self.top, self.files)
        waited = max((delay - self._start.waited.get(pid, 0.0) for pid, delay in sample.waited.items()),
                     default=0.0)
        unfilled = (now - self.since) - (sample.cpu - self._start.cpu)
        return max(0.0, min(waited, unfilled))
