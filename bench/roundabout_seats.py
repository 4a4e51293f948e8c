"""Roundabout seat balance: win share per seat over random playouts.

    python bench/roundabout_seats.py --players 3 --games 20000
    python bench/roundabout_seats.py --players 3 --games 3000 --candidates

Plays ``--games`` seeded random games (``arena.games.playout.random_playout``,
seeds ``--first`` onward) and prints, per seat, the share of games it won
with its standard error (binomial, sqrt(p(1-p)/n)), its distance from a fair
share (1/players) in standard errors, and the draws. The three-player
seating this checks is decision 4 of ``seeds/roundabout.md``.

``--candidates`` plays the same seeds from other three-player set-ups, each
seat still set up alike in its own territory (only the bench swaps them in;
the engine keeps its own), to see whether any of them seats the middle
player fairly.
"""

from __future__ import annotations

import argparse
import math
import time

from arena.games.playout import random_playout
from arena.games.roundabout import engine as roundabout
from arena.games.roundabout.engine import GAME

CW, CCW = 1, -1
# Three-player set-ups for territory 0 as (ring, bar, direction), each seat
# getting the same shifted by four bars per territory.
CANDIDATES: dict[str, list[tuple[int, int, int]]] = {
    "centre bars, rings 0-3, pointing out (the engine's)":
        [(r, 1, CCW) for r in range(4)] + [(r, 2, CW) for r in range(4)],
    "centre bars, rings 1-4, pointing out":
        [(r, 1, CCW) for r in range(1, 5)] + [(r, 2, CW) for r in range(1, 5)],
    "edge bars, rings 0-3, pointing out":
        [(r, 0, CCW) for r in range(4)] + [(r, 3, CW) for r in range(4)],
    "centre bars, rings 0-3, pointing in":
        [(r, 1, CW) for r in range(4)] + [(r, 2, CCW) for r in range(4)],
    "all four bars, rings 0-1, pointing out":
        [(r, b, CCW if b < 2 else CW) for r in range(2) for b in range(4)],
    "all four bars, rings 3-4, pointing out":
        [(r, b, CCW if b < 2 else CW) for r in (3, 4) for b in range(4)],
}


def seat_shares(players: int, games: int, first: int = 0) -> tuple[list[int], int]:
    """Wins per seat and draws over ``games`` random playouts."""
    wins, draws = [0] * players, 0
    for seed in range(first, first + games):
        final, _ = random_playout(GAME, players, seed)
        winners = final.outcome().winners
        if winners:
            wins[winners[0]] += 1
        else:
            draws += 1
    return wins, draws


def report(players: int, wins: list[int], draws: int, n: int) -> None:
    fair = 1.0 / players
    for seat, w in enumerate(wins):
        p = w / n
        se = math.sqrt(p * (1 - p) / n)
        print(f"  seat {seat}: {w:5d} wins  {100 * p:5.1f}% ± {100 * se:.1f}  "
              f"({(p - fair) / se if se else 0.0:+.1f} SE from {100 * fair:.1f}%)")
    print(f"  draws: {draws}")


def candidates(games: int, first: int) -> None:
    """Seat shares of three players from every candidate set-up."""
    engine_setup = roundabout.SETUPS[3]
    try:
        for name, spec in CANDIDATES.items():
            roundabout.SETUPS[3] = [[(r * 16 + (4 * t + b) % 16, d) for r, b, d in spec]
                                    for t in (0, 1, 2)]
            wins, draws = seat_shares(3, games, first)
            print(f"{name}:")
            report(3, wins, draws, games)
    finally:
        roundabout.SETUPS[3] = engine_setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--candidates", action="store_true",
                        help="compare the three-player candidate set-ups")
    args = parser.parse_args()
    if args.candidates:
        candidates(args.games, args.first)
        return
    started = time.perf_counter()
    wins, draws = seat_shares(args.players, args.games, args.first)
    n = args.games
    print(f"roundabout, {args.players} players, {n} random games "
          f"(seeds {args.first}-{args.first + n - 1}), {time.perf_counter() - started:.0f} s")
    report(args.players, wins, draws, n)


if __name__ == "__main__":
    main()
