"""The standings people read: per table, each bot's Elo, its joint
(order-independent) rating with a 95% interval, and its counts. What
``arena standings`` prints and what a tournament writes to the ``ratings``
table of the database are these rows, computed from the stored games every
time: the table in the database is a cache of them, never a second truth.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arena.model import StoredGame
from arena.stats.elo import Ladder
from arena.stats.joint import JointTables


@dataclass(frozen=True)
class Standings:
    """Rows (one per table and bot, best Elo first in each table) and each
    bot's Elo after each of its games per table (the rating history)."""

    rows: list[dict[str, Any]]
    history: dict[tuple[str, str], list[tuple[int, float]]]


def compute(games: Iterable[StoredGame], names: dict[str, str]) -> Standings:
    """Standings from stored games, which must come in rating order."""
    ladder = Ladder(names)
    joint = JointTables()
    for game in games:
        ladder.add(game)
        joint.add(game)
    fitted = joint.fit()
    rows = []
    for standing in ladder.ranked():
        row = standing.to_json()
        rating = fitted.get(standing.game, {}).get(standing.bot_id)
        row["joint"] = None if rating is None else round(rating.rating, 1)
        row["joint_low"] = None if rating is None else round(rating.low, 1)
        row["joint_high"] = None if rating is None else round(rating.high, 1)
        rows.append(row)
    return Standings(rows, ladder.history)
