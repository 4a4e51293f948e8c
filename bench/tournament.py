"""Benchmark: a whole tournament, site included, on one core and on two.

Runs ``arena tournament`` (the command, in a process of its own) with
copies of bots/random_bot.py at every game, ``--rounds 20`` by default,
once with ``--jobs 1`` and once with ``--jobs 2``, each into a fresh folder,
and prints games per second of each and their ratio (wall time from the
command's start to its exit: planning, play, ratings and the site), the CPU
time the run used (so a machine shared with other work shows as fewer cores
busy than jobs asked for), where the end of each run goes (the tournament
logs it), and the peak resident set of each run (the command and its
workers and bots), and that of a run planned at about 100,000 games,
stopped after half a minute of play.

    .venv/bin/python bench/tournament.py [--bots 4] [--rounds 20] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
END_OF_RUN = re.compile(r"end of run: played (\d+) games in ([\d.]+) s \((\d+) replay entries made as their luck "
                        r"was stored\); .*; ratings ([\d.]+) s, site ([\d.]+) s")


def timed_tournament(folder: Path, arguments: list[str], code: Path = REPO) -> tuple[float, Any]:
    """``arena tournament`` with ``arguments`` into a new ``folder`` (its
    database, site and logs), with arena's code from ``code``: its wall
    seconds and the resource usage of it and every process it waited for
    (os.wait4). A failed run ends the benchmark with arena's error."""
    folder.mkdir(parents=True)
    command = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())", "tournament",
               *arguments, "--db", str(folder / "arena.db"), "--out", str(folder / "leaderboard"),
               "--log-dir", str(folder / "logs")]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(code)})
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"arena tournament {' '.join(arguments)} failed:\n{errors.decode(errors='replace')}")
    return wall, usage


def run(folder: Path, bots: Path, rounds: int, jobs: int) -> float:
    """One tournament into ``folder``; prints its figures, returns games/s."""
    wall, usage = timed_tournament(folder, ["--bots", str(bots), "--rounds", str(rounds), "--jobs", str(jobs)])
    with closing(sqlite3.connect(folder / "arena.db")) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    end = END_OF_RUN.search((folder / "logs" / "arena.log").read_text())
    assert end is not None, "the tournament logged no end of run"
    played, play, pages, ratings, site = int(end[1]), float(end[2]), int(end[3]), float(end[4]), float(end[5])
    rate = games / wall
    cpu = usage.ru_utime + usage.ru_stime
    print(f"--jobs {jobs}: {games} games in {wall:.2f} s, {rate:.1f} games/s (site included); "
          f"{cpu:.1f} CPU s in all (the command, workers, wardens and bots: {cpu / wall:.2f} cores busy); "
          f"peak RSS {usage.ru_maxrss / 1024:.0f} MiB")
    print(f"  play {play:.2f} s ({pages} replay entries made as their luck was stored, of {played} played); "
          f"end of run: ratings {ratings:.2f} s + site {site:.2f} s = {ratings + site:.2f} s, "
          f"{100 * (ratings + site) / play:.1f}% of the play time; the rest ({wall - play - ratings - site:.2f} s) "
          f"is start-up, checking the bots and planning")
    return rate


def big_plan_memory(folder: Path, bots: Path, rounds: int, seconds: float) -> None:
    """The peak resident set of a tournament planned at ``rounds`` (about
    100,000 games at 2,100), stopped with SIGTERM after ``seconds`` of play:
    the plan, the stored keys and the workers of a run that size. (A whole
    database that size, its ratings and its site: bench/leaderboard.py.)"""
    folder.mkdir(parents=True)
    process = subprocess.Popen([sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())",
                                "tournament", "--bots", str(bots), "--rounds", str(rounds), "--jobs", "2"],
                               cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(REPO)})
    time.sleep(seconds)
    process.send_signal(signal.SIGTERM)
    assert process.stderr is not None
    errors = process.stderr.read().decode(errors="replace")
    _, _, usage = os.wait4(process.pid, 0)
    planned = re.search(r"(\d+) games planned", errors)
    print(f"a tournament of {planned[1] if planned else '?'} planned games, stopped after {seconds:.0f} s: "
          f"peak RSS {usage.ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=4, help="copies of the random bot")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--keep", type=Path, default=None, help="run here and keep the results")
    parser.add_argument("--big-rounds", type=int, default=2100, help="rounds of the big plan whose memory is measured")
    parser.add_argument("--big-seconds", type=float, default=30.0, help="how long the big plan plays")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="arena-bench-tournament-"))
    shutil.rmtree(work, ignore_errors=True)
    try:
        bots = work / "bots"
        bots.mkdir(parents=True)
        for n in range(args.bots):
            shutil.copy(REPO / "bots" / "random_bot.py", bots / f"random{n}.py")
        print(f"arena tournament: {args.bots} random bots, every game, --rounds {args.rounds}, on "
              f"{os.cpu_count()} cores")
        one = run(work / "jobs-1", bots, args.rounds, 1)
        two = run(work / "jobs-2", bots, args.rounds, 2)
        print(f"games/s with --jobs 2 / --jobs 1: {two / one:.2f}")
        big_plan_memory(work / "big", bots, args.big_rounds, args.big_seconds)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept in {work}")


if __name__ == "__main__":
    main()
