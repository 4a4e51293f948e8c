"""Benchmark: what measuring the luck of the dice costs a tournament (issue 28:
it must not slow one).

Runs the same ``arena tournament`` (the command, in a process of its own:
copies of bots/random_bot.py at Detour and Roundabout, ``--rounds 10`` of
two bots by default: 40 games, ``--jobs 2``) several ways, each into a
fresh folder:

- ``without luck``: arena as it was before luck was stored (``--baseline``,
  a git revision, exported with ``git archive``);
- ``luck-workers N`` for each N of ``--luck-workers`` (default: 0, the
  cores --jobs leaves free, and every core): luck measured while games
  play by N processes at idle CPU priority, the rest after the last game
  (N = 0: all of it after).

For each: wall time from the command's start to its exit, the CPU time of
the command and everything it started (workers, bots, luck), and the run's
own account of its end (the tournament logs it). ``--repeat`` runs each
way that many times, interleaved, and prints the median.

    .venv/bin/python bench/luck_cost.py [--rounds 10] [--jobs 2] [--luck-workers 0,2] [--repeat 3]
                                        [--baseline 0cee36c]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from tournament import timed_tournament

REPO = Path(__file__).resolve().parent.parent
END_OF_RUN = re.compile(r"end of run: played \d+ games in ([\d.]+) s.*")
LUCK_AFTER = re.compile(r"of \d+ after, in ([\d.]+) s")


Figures = tuple[float, float, float, float]  # wall, CPU, play and luck-after seconds


def run(folder: Path, bots: Path, rounds: int, jobs: int, code: Path, extra: list[str]) -> tuple[Figures, str]:
    """One tournament into ``folder`` with arena from ``code``: wall and CPU
    seconds, the seconds of play and of luck measured after it, and its
    end-of-run line."""
    wall, usage = timed_tournament(folder, ["--bots", str(bots), "--games", "detour,roundabout", "--rounds",
                                            str(rounds), "--jobs", str(jobs), "--seed", "1", *extra], code)
    end = END_OF_RUN.search((folder / "logs" / "arena.log").read_text())
    assert end is not None, "the tournament logged no end of run"
    after = LUCK_AFTER.search(end[0])
    return (wall, usage.ru_utime + usage.ru_stime, float(end[1]), float(after[1]) if after else 0.0), end[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--luck-workers", default=None, help="comma-separated counts of luck workers to try")
    parser.add_argument("--baseline", default="0cee36c", help="git revision of arena before luck was stored")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arena-bench-luck-cost-"))
    try:
        baseline = work / "baseline"
        baseline.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.baseline, "arena"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(baseline)], input=archive, check=True)
        bots = work / "bots"
        bots.mkdir()
        for n in range(2):
            shutil.copy(REPO / "bots" / "random_bot.py", bots / f"random{n}.py")
        cores = os.cpu_count() or 1
        counts = ([int(n) for n in args.luck_workers.split(",")] if args.luck_workers
                  else sorted({0, max(0, cores - args.jobs), cores}))
        ways = {"without luck": (baseline, []),
                **{f"luck-workers {n}": (REPO, ["--luck-workers", str(n)]) for n in counts}}
        figures: dict[str, list[Figures]] = {way: [] for way in ways}
        print(f"arena tournament: 2 random bots, detour and roundabout, --rounds {args.rounds}, --jobs {args.jobs}, on "
              f"{os.cpu_count()} cores; baseline {args.baseline}")
        for attempt in range(args.repeat):
            for way, (code, extra) in ways.items():
                measured, end = run(work / f"{way}-{attempt}".replace(" ", "-"), bots, args.rounds, args.jobs, code,
                                     extra)
                figures[way].append(measured)
                print(f"  {way:16} run {attempt + 1}: {measured[0]:6.2f} s wall, {measured[1]:6.2f} CPU s; {end}",
                      flush=True)
        print("median of each way: wall, CPU (the command and all it started), play (first game to last), "
              "luck measured after the last game")
        for way, runs in figures.items():
            wall, cpu, play, after = (statistics.median(run[n] for run in runs) for n in range(4))
            print(f"{way:16} {wall:6.2f} s wall, {cpu:6.2f} CPU s, play {play:6.2f} s, luck after {after:5.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
