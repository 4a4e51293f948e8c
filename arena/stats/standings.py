"""The standings people read: per table, each bot's Elo, its joint
(order-independent) rating with a 95% interval, and its counts. What
``arena standings`` prints and what a tournament writes to the ``ratings``
table of the database are these rows, computed from the stored games every
time: the table in the database is a cache of them, never a second truth.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arena import results
from arena.model import StoredGame
from arena.stats.elo import Ladder
from arena.stats.joint import JointTables
from arena.stats.tables import table_name


@dataclass(frozen=True)
class Standings:
    """Rows (one per table and bot, best Elo first in each table), each
    bot's Elo after each of its games per table (the rating history), and
    per table how often each seat placed first (first places shared among
    those who share them): seat advantage is real, and this shows it."""

    rows: list[dict[str, Any]]
    history: dict[tuple[str, str], list[tuple[int, float]]]
    seats: dict[str, SeatShares]


@dataclass
class SeatShares:
    games: int
    first: list[float]  # first places won from each seat

    def shares(self) -> list[float]:
        return [won / self.games for won in self.first]


def add_seat_shares(seats: dict[str, SeatShares], game: StoredGame) -> None:
    """Count one game's first places by seat into its table."""
    if game.players < 2:
        return
    shares = seats.setdefault(table_name(game.game, game.players), SeatShares(0, [0.0] * game.players))
    shares.games += 1
    for seat, share in enumerate(results.first_place_shares(game.placements)):
        shares.first[seat] += share


def compute(games: Iterable[StoredGame], names: dict[str, str]) -> Standings:
    """Standings from stored games, which must come in rating order."""
    ladder = Ladder(names)
    joint = JointTables()
    seats: dict[str, SeatShares] = {}
    for game in games:
        ladder.add(game)
        joint.add(game)
        add_seat_shares(seats, game)
    fitted = joint.fit()
    rows = []
    for standing in ladder.ranked():
        row = standing.to_json()
        rating = fitted.get(standing.game, {}).get(standing.bot_id)
        row["joint"] = None if rating is None else round(rating.rating, 1)
        row["joint_low"] = None if rating is None else round(rating.low, 1)
        row["joint_high"] = None if rating is None else round(rating.high, 1)
        rows.append(row)
    return Standings(rows, ladder.history, dict(sorted(seats.items())))


def to_csv(rows: list[dict[str, Any]]) -> str:
    """The rows as CSV, one column per field of the JSON rows, in their
    order: an empty cell for none (a joint rating the data cannot define),
    a nested value (forfeits by reason) as compact JSON."""
    out = io.StringIO()
    columns = list(rows[0]) if rows else []
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({name: _cell(row.get(name)) for name in columns})
    return out.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    return value
