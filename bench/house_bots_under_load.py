"""Benchmark: how close the house bots come to the move time on a loaded machine.

Runs ``arena tournament`` (the command, in a process of its own) between the
bundled bots (random, greedy, search) at every game, two seats (or
``--players N``: pods of N, with copies of the random bot filling the seats
beyond three), with ``--move-timeout 0.2`` by default, while ``--burners`` processes (default:
one per core) spin on the CPU for the whole run. Then prints, for each bot,
as median, p99, p99.9 and maximum, as a share of the move time:

* the bot's own time: from reading a ``decide`` line to writing its
  answer, garbage collection and the machine's pauses included (the greedy
  and search bots run as folder bots whose ``main.py`` wraps their standard
  input and output to note these times on stderr, then runs the bot);
* the referee's time for each decision, from the database: from when the
  bot's process could run to when its answer was read, which adds the
  wait to be scheduled after the wake-up and the referee's own lateness;

and its forfeits on time.

    .venv/bin/python bench/house_bots_under_load.py [--rounds 3] [--move-timeout 0.2] [--burners 2]
        [--players 4] [--keep DIR]

docs/explanation/house-bots.md and search_bot.py's docstring give the margin
chosen from these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from arena.store import register_functions  # noqa: E402

BUNDLED = REPO / "arena" / "bundled_bots"
TIMED = ("greedy_bot", "search_bot")
# A folder bot's main.py: the bot (bot.py) with its stdin and stdout wrapped
# to note on stderr how long each decide took from read to answer.
TIMER = """
import os, runpy, sys, time

class Input:
    def __init__(self, stream):
        self.stream, self.decide_at = stream, None
    def __iter__(self):
        for line in self.stream:
            self.decide_at = time.perf_counter() if '"decide"' in line else None
            yield line
    def __getattr__(self, name):
        return getattr(self.stream, name)

class Output:
    # Timed as the answer is written: the box runs Python unbuffered, so the
    # referee may read it, and stop the bot, before flush returns.
    def __init__(self, stream):
        self.stream = stream
    def write(self, text):
        if sys.stdin.decide_at is not None:
            print(f"decide took {time.perf_counter() - sys.stdin.decide_at:.6f}", file=sys.stderr, flush=True)
            sys.stdin.decide_at = None
        return self.stream.write(text)
    def __getattr__(self, name):
        return getattr(self.stream, name)

sys.stdin, sys.stdout = Input(sys.stdin), Output(sys.stdout)
sys.argv[0] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bot.py")
runpy.run_path(sys.argv[0], run_name="__main__")
"""

BURN = [sys.executable, "-c", "while True: pass"]


def decision_times(db: Path) -> tuple[dict[str, list[float]], dict[str, int], int]:
    """Each bot's decision times, its forfeits on time, and the games."""
    times: dict[str, list[float]] = {}
    timeouts: dict[str, int] = {}
    with closing(sqlite3.connect(db)) as conn:
        register_functions(conn)
        rows = conn.execute("SELECT seats, arena_events(record, replay), arena_json(decision_times), forfeits "
                            "FROM games").fetchall()
    for seats_text, events_text, times_text, forfeits_text in rows:
        seats = [bot_id.partition("@")[0] for bot_id in json.loads(seats_text)]
        deciders = [event["seat"] for event in json.loads(events_text) if event["kind"] == "decision"]
        for seat, seconds in zip(deciders, json.loads(times_text)):
            times.setdefault(seats[seat], []).append(seconds)
        for forfeit in json.loads(forfeits_text):
            if forfeit["termination"] == "timeout":
                timeouts[seats[forfeit["seat"]]] = timeouts.get(seats[forfeit["seat"]], 0) + 1
    return times, timeouts, len(rows)


def own_times(logs: Path, bot: str) -> list[float]:
    """What a timed bot noted on stderr, every game of it."""
    return [float(line.split()[-1]) for log in logs.glob(f"*/*-{bot}.stderr.log")
            for line in log.read_text().splitlines() if line.startswith("decide took ")]


def quantile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(seconds: list[float], limit: float) -> str:
    ordered = sorted(seconds)
    shares = ", ".join(f"{name} {quantile(ordered, share) / limit:.0%}"
                       for name, share in (("median", 0.5), ("p99", 0.99), ("p99.9", 0.999)))
    return f"{len(ordered):5} decisions, {shares}, max {ordered[-1] / limit:.0%} ({ordered[-1] * 1000:.0f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--move-timeout", type=float, default=0.2)
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--players", type=int, default=2, help="seats a game (pods beyond two)")
    parser.add_argument("--keep", type=Path, default=None, help="run in this folder and keep it")
    arguments = parser.parse_args()
    folder = arguments.keep or Path(tempfile.mkdtemp(prefix="arena-load-"))
    bots = folder / "bots"
    bots.mkdir(parents=True, exist_ok=True)
    shutil.copy(BUNDLED / "random_bot.py", bots / "random_bot.py")
    for copy in range(2, arguments.players - 1):
        shutil.copy(BUNDLED / "random_bot.py", bots / f"random_bot_{copy}.py")
    for name in TIMED:
        (bots / name).mkdir()
        shutil.copy(BUNDLED / f"{name}.py", bots / name / "bot.py")
        (bots / name / "main.py").write_text(TIMER)
        (bots / name / "bot.json").write_text(json.dumps({"command": [sys.executable, "main.py"]}))
    burners = [subprocess.Popen(BURN) for _ in range(arguments.burners)]
    try:
        subprocess.run([sys.executable, "-m", "arena.cli", "tournament", "--bots", str(bots), "--rounds",
                        str(arguments.rounds), "--players", str(arguments.players), "--move-timeout",
                        str(arguments.move_timeout), "--db", str(folder / "arena.db"),
                        "--out", str(folder / "leaderboard")],
                       cwd=folder, check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "PYTHONPATH": str(REPO)})
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    times, timeouts, games = decision_times(folder / "arena.db")
    limit = arguments.move_timeout
    print(f"{games} games of {arguments.players} seats at --move-timeout {limit:g} with "
          f"{arguments.burners} CPU burners on {os.cpu_count()} cores "
          f"(load average before the run's end: {os.getloadavg()[0]:.1f}); "
          "as a share of the move time:")
    for bot in sorted(times):
        print(f"  {bot}: forfeits on time {timeouts.get(bot, 0)}")
        own = own_times(folder / "logs" / "bots", bot)
        if own:
            print(f"    bot's own, read to answer: {figures(own, limit)}")
        print(f"    referee's clock:           {figures(times[bot], limit)}")
    if arguments.keep is None:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
