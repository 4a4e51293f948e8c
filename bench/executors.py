"""Games per second: the local executor with 1 and 2 jobs against Dask with 1
and 2 local worker processes, on the same seeded tournament.

    .venv/bin/python bench/executors.py [--bots 4] [--rounds 10] [--games slyyde]

Each run plays the whole plan into a fresh database through ``play_missing``
(the path ``arena tournament`` takes), so a Dask figure includes starting its
local cluster; "after first" is the rate from the first stored game on, which
leaves start-up out. Bots are copies of bots/random_bot.py.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from arena.model import DiceKey, Limits  # noqa: E402
from arena.play.dask_executor import DaskExecutor  # noqa: E402
from arena.play.executors import LocalExecutor  # noqa: E402
from arena.play.tournament import check_request, plan_tournament, play_missing  # noqa: E402
from arena.store import Store  # noqa: E402


def measure(label: str, executor, plan, limits: Limits, folder: Path) -> None:
    stamps: list[float] = []
    with Store(folder / f"{label.replace(' ', '-')}.db", writer=True) as store:
        started = time.perf_counter()
        played = play_missing(plan, store, executor, limits, None,
                              on_game=lambda record: stamps.append(time.perf_counter()))
        elapsed = time.perf_counter() - started
    assert played == len(plan.jobs), f"{label}: played {played} of {len(plan.jobs)}"
    after_first = (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 1 and stamps[-1] > stamps[0] else 0.0
    print(f"{label:24} {played:6} games {elapsed:7.2f} s {played / elapsed:8.1f} games/s "
          f"{after_first:8.1f} games/s after first (first after {stamps[0] - started:.2f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=4, help="copies of the random bot")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--games", default="slyyde", help="comma-separated games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="arena-bench-executors-"))
    try:
        bots = folder / "bots"
        bots.mkdir()
        for n in range(args.bots):
            shutil.copy(REPO / "bots" / "random_bot.py", bots / f"random{n}.py")
        limits = Limits()
        plan = plan_tournament([bots], check_request(args.games.split(",")), args.rounds,
                              DiceKey.from_seed(args.seed), limits)
        print(f"{len(plan.jobs)} games of {args.games}, {args.bots} random bots, {args.rounds} rounds")
        for jobs in (1, 2):
            measure(f"local, {jobs} job{'s' * (jobs > 1)}", LocalExecutor(jobs), plan, limits, folder)
        for workers in (1, 2):
            measure(f"dask, {workers} worker{'s' * (workers > 1)}", DaskExecutor(workers), plan, limits, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
