#!/usr/bin/env python3
"""The verdict of a tournament between the learned bot and the random bot,
read from its database (examples/learned_bot/README.md).

    python examples/learned_bot/evaluate.py learned.db [--bot learned] [--vs random_bot]

The unit is the seat-swapped pair, not the game: a tournament plays the two
games of a round on one seed, the bots trading seats, so they share the
dice and are not independent; the pairs are (each its own seed, and fresh
bot processes for every game). A pair is won (2 or 1.5 of its 2 points),
lost (0 or 0.5) or even (1: a win each, or two draws).

The test is the exact one-sided sign test on the decided pairs: if the two
bots were equally strong (swapping them in a pair would not change how
likely any outcome is), each decided pair would be won or lost with
probability 1/2, independently, so the won pairs among n decided would be
Binomial(n, 1/2), and p = P(Bin(n, 1/2) >= won) = sum over k >= won of
C(n, k) / 2^n. Even pairs carry no evidence either way and are left out. A
pair holding a referee failure (no one's fault, counted for no one) is
void and left out too; a forfeit counts as the loss it is, and is shown.
"""

from __future__ import annotations

import argparse
import json
import math
import sqlite3
import sys
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Tally:
    """The bot's games and pairs against the other bot."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: dict[str, int] = field(default_factory=dict)  # termination -> games, whoever forfeited
    pair_points: list[float] = field(default_factory=list)
    void: int = 0  # pairs left out: a referee failure, or a game missing

    @property
    def won_pairs(self) -> int:
        return sum(points > 1 for points in self.pair_points)

    @property
    def lost_pairs(self) -> int:
        return sum(points < 1 for points in self.pair_points)

    @property
    def even_pairs(self) -> int:
        return sum(points == 1 for points in self.pair_points)


def one_sided_sign_test(won: int, lost: int) -> float:
    """P(Bin(won + lost, 1/2) >= won), exactly (integers until the one division)."""
    decided = won + lost
    return sum(math.comb(decided, k) for k in range(won, decided + 1)) / (1 << decided)


def tally(db: Path, bot: str, other: str, game: str | None = None) -> Tally:
    """Every two-seat game between ``bot`` and ``other`` (by name, any
    version), grouped into its pairs by game, round and seed."""
    query = "SELECT game, round, seed, seats, placements, termination, forfeit_seat FROM games WHERE players = 2"
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        rows = conn.execute(query).fetchall()
    pairs: dict[tuple[str, int, int], list[float | None]] = {}
    found = Tally()
    for played, round_, seed, seats_text, placements_text, termination, forfeit_seat in rows:
        names = [bot_id.split("@")[0] for bot_id in json.loads(seats_text)]
        if sorted(names) != sorted([bot, other]) or (game is not None and played != game):
            continue
        games = pairs.setdefault((played, round_, seed), [])
        if termination == "referee_failure":
            games.append(None)
            continue
        if forfeit_seat is not None:
            found.forfeits[termination] = found.forfeits.get(termination, 0) + 1
        places = json.loads(placements_text)
        mine, theirs = places[names.index(bot)], places[names.index(other)]
        points = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        found.wins += points == 1.0
        found.draws += points == 0.5
        found.losses += points == 0.0
        games.append(points)
    for games in pairs.values():
        if len(games) != 2 or None in games:
            found.void += 1
            continue
        found.pair_points.append(sum(point for point in games if point is not None))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", type=Path, help="the tournament's database (arena tournament --db)")
    parser.add_argument("--bot", default="learned", help="the bot tested")
    parser.add_argument("--vs", default="random_bot", help="the bot it is tested against")
    parser.add_argument("--game", help="one game only (default: every game they played)")
    args = parser.parse_args(argv)
    if not args.db.is_file():
        sys.exit(f"no database at {str(args.db)!r}")
    found = tally(args.db, args.bot, args.vs, args.game)
    if not found.pair_points:
        sys.exit(f"no complete pair of {args.bot} against {args.vs} in {args.db}")
    games = found.wins + found.draws + found.losses
    forfeits = ", ".join(f"{count} {kind}" for kind, count in sorted(found.forfeits.items())) or "none"
    print(f"games: {games}, {args.bot} {found.wins} wins, {found.draws} draws, {found.losses} losses "
          f"(score {(found.wins + found.draws / 2) / games:.3f}); forfeits: {forfeits}")
    print(f"pairs: {len(found.pair_points)} (void: {found.void}), {found.won_pairs} won, {found.lost_pairs} lost, "
          f"{found.even_pairs} even")
    p = one_sided_sign_test(found.won_pairs, found.lost_pairs)
    print(f"one-sided exact sign test on the {found.won_pairs + found.lost_pairs} decided pairs, "
          f"H0 {args.bot} no stronger than {args.vs}: p = {p:.3g}")


if __name__ == "__main__":
    main()
