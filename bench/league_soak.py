"""Does a league's memory stay flat? A real ``arena league`` (real bot
processes in their boxes, a real SQLite file and site) run for a while, its
resident memory sampled.

    nice -n 19 .venv/bin/python bench/league_soak.py [--minutes 10] [--bots 12] [--game slyyde]

The league plays ``--bots`` copies of the bundled random bot (fast games:
the point is many of them) with ``--move-timeout 0.2`` on both cores; every
``--every`` seconds the resident set of the league process (from
/proc/PID/status, VmRSS) and the number of games stored are read. Printed:
each sample, then the league process's growth over the second half of the
run in MB per 1,000 games, and the games played, with how many hours of a
league of 40 bots at 50 games a minute (a busy club's) that is.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def stored(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as conn:
            return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--bots", type=int, default=12)
    parser.add_argument("--game", default="slyyde")
    parser.add_argument("--every", type=float, default=15.0)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arena-soak-"))
    bots = work / "bots"
    bots.mkdir()
    for k in range(args.bots):
        shutil.copy(REPO / "arena" / "bundled_bots" / "random_bot.py", bots / f"random{k:02d}.py")
    db = work / "league.db"
    with open(work / "league.out", "w") as out:
        league = subprocess.Popen([sys.executable, "-m", "arena.cli", "league", "--bots", str(bots), "--games",
                                   args.game, "--move-timeout", "0.2", "--jobs", "2", "--db", str(db), "--out",
                                   str(work / "site")], cwd=work, stdout=out, stderr=out,
                                  env=dict(os.environ, PYTHONPATH=str(REPO)))
    samples: list[tuple[float, int, float]] = []
    started = time.monotonic()
    try:
        while time.monotonic() - started < args.minutes * 60:
            time.sleep(args.every)
            if league.poll() is not None:
                raise SystemExit(f"the league ended ({league.returncode}): see {work / 'league.out'}")
            sample = (time.monotonic() - started, stored(db), resident_mb(league.pid))
            samples.append(sample)
            print(f"{sample[0]:7.0f} s  {sample[1]:6d} games  league {sample[2]:7.1f} MB", flush=True)
    finally:
        league.send_signal(signal.SIGTERM)
        league.wait(timeout=60)
    half = samples[len(samples) // 2:]
    (_, games0, rss0), (_, games1, rss1) = half[0], half[-1]
    per_thousand = (rss1 - rss0) / max(1, games1 - games0) * 1000
    games = samples[-1][1]
    print(f"second half: {rss0:.1f} -> {rss1:.1f} MB over {games1 - games0} games: "
          f"{per_thousand:+.2f} MB per 1,000 games")
    print(f"{games} games in {args.minutes:g} minutes: {games / 3000:.1f} hours of a 40-bot league at "
          f"50 games a minute")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
