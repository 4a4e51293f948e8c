"""Random-play speed of every registered game engine.

Plays seeded random games in process (arena.games.playout.random_playout:
chance from the seeded streams, uniform random decisions, the record built
as the referee builds it) and prints plies per second per game and player
count. A ply is one event: a chance draw or a decision.

    python bench/engines.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import time

from arena.games import GAMES
from arena.games.playout import random_playout


def measure(name: str, players: int, seconds: float) -> tuple[float, float, int]:
    game = GAMES[name]
    plies = decisions = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        _, events = random_playout(game, players, seed=games)
        plies += len(events)
        decisions += sum(1 for e in events if e["kind"] == "decision")
        games += 1
    elapsed = time.perf_counter() - started
    return plies / elapsed, decisions / elapsed, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and player count")
    args = parser.parse_args()
    print(f"{'game':12} {'players':>7} {'plies/s':>10} {'decisions/s':>12} {'games':>7} {'plies/game':>11}")
    for name, game in sorted(GAMES.items()):
        for players in range(game.min_players, game.max_players + 1):
            plies, decisions, games = measure(name, players, args.seconds)
            print(f"{name:12} {players:7} {plies:10.0f} {decisions:12.0f} {games:7} "
                  f"{plies * args.seconds / games:11.1f}")


if __name__ == "__main__":
    main()
