"""Random-play speed of every registered game engine, at every player count.

Plays seeded random games in process (arena.games.playout.random_playout:
chance from the seeded streams, uniform random decisions, the record built
as the referee builds it) and prints plies per second for every game and
every player count it seats, against the target of 100,000, with a pass or
fail mark, and the peak RSS. A ply is one event: a chance draw or a
decision.

Speeds are per second of this process's CPU time, and the best of
``--repeats`` slices of ``--seconds``: other work on the machine then slows
a figure down less (on a quiet machine CPU and wall time agree).

    python bench/engines.py [--seconds 3] [--repeats 3] [--game roundabout]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.games import GAMES  # noqa: E402
from arena.games.playout import random_playout  # noqa: E402

TARGET = 100_000  # plies per second, every game at every player count


def measure(name: str, players: int, seconds: float, repeats: int) -> tuple[float, float, int, int]:
    """The best rates (plies and decisions per CPU second) over ``repeats``
    slices, the games played and the plies played in all."""
    game = GAMES[name]
    best_plies = best_decisions = 0.0
    seed = total = 0
    for _ in range(repeats):
        plies = decisions = 0
        started = time.process_time()
        while (elapsed := time.process_time() - started) < seconds / repeats:
            _, events = random_playout(game, players, seed=seed)
            plies += len(events)
            decisions += sum(1 for e in events if e["kind"] == "decision")
            seed += 1
        best_plies = max(best_plies, plies / elapsed)
        best_decisions = max(best_decisions, decisions / elapsed)
        total += plies
    return best_plies, best_decisions, seed, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per game and player count")
    parser.add_argument("--repeats", type=int, default=3, help="slices of that time; the best one counts")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    print(f"target: {TARGET:,} plies per CPU second, every game at every player count")
    print(f"{'game':12} {'players':>7} {'plies/s':>10} {'decisions/s':>12} {'games':>7} {'plies/game':>11}  target")
    failed = []
    for name, game in sorted(GAMES.items()):
        if args.game and name not in args.game:
            continue
        for players in range(game.min_players, game.max_players + 1):
            plies, decisions, games, total = measure(name, players, args.seconds, args.repeats)
            mark = "pass" if plies >= TARGET else "FAIL"
            if plies < TARGET:
                failed.append(f"{name} {players}p")
            print(f"{name:12} {players:7} {plies:10.0f} {decisions:12.0f} {games:7} {total / games:11.1f}  {mark}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MiB")
    print("every game and player count at or above the target" if not failed
          else f"below the target: {', '.join(failed)}")


if __name__ == "__main__":
    main()
