"""Luck-adjusted standings (issue 28): for each bot at each table, its
score (pairwise points per game, :mod:`arena.results`, as the standings
count it), its luck-adjusted score (points less the luck of the dice,
:mod:`arena.luck`) and the luck it received, each a mean with its 95%
interval, over the games whose luck is stored.

The unit of the intervals is the seat rotation: the games of a game and
options on one seed between the same bots (at two seats a seat-swapped
pair) share their dice, so they are not independent; each is one
observation. The interval is the normal one of a ratio estimator over
those units (mean = total / games; variance = U / (U - 1) times the sum
over units of (unit total - mean * unit games)^2, over games^2: the
cluster-robust interval), which needs two units. The luck received
hovers around zero whoever the bot is: a bot far from zero over many games
points at an engine or dice problem, or a cheat.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arena import results
from arena.model import StoredGame
from arena.stats.pairs import Z95
from arena.stats.tables import table_name

MEASURES = ("raw_score", "adjusted_score", "luck")  # what each unit sums, per game of the bot


@dataclass(frozen=True)
class LuckRow:
    """One bot at one table: each of ``MEASURES`` with its interval (None
    with fewer than two units), over the ``luck_games`` whose luck is
    stored, in ``luck_units`` units; ``luck_unmeasured`` games of the bot at
    the table have none yet. ``raw_score`` is the standings' score over
    those games only, to compare like with like."""

    table_name: str
    bot_id: str
    luck_games: int
    luck_unmeasured: int
    luck_units: int
    raw_score: float | None
    raw_score_low: float | None
    raw_score_high: float | None
    adjusted_score: float | None
    adjusted_score_low: float | None
    adjusted_score_high: float | None
    luck: float | None
    luck_low: float | None
    luck_high: float | None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# The fields a standings row gains with --luck (its table and bot it has).
LUCK_FIELDS = tuple(f.name for f in dataclasses.fields(LuckRow) if f.name not in ("table_name", "bot_id"))


@dataclass
class _Units:
    """One bot's games at one table, summed per unit: [games, score, adjusted, luck]."""

    sums: dict[tuple[Any, ...], list[float]] = field(default_factory=dict)
    unmeasured: int = 0


@dataclass
class LuckTables:
    """Fed stored games one at a time (any order), gives each bot's luck
    row per table."""

    bots: dict[tuple[str, str], _Units] = field(default_factory=dict)

    def add(self, game: StoredGame) -> None:
        if game.players < 2:
            return
        table = table_name(game.game, game.players)
        unit = (game.game, json.dumps(game.options, sort_keys=True), game.seed, frozenset(game.seats))
        points = results.points(game.placements)
        for seat, bot_id in enumerate(game.seats):
            units = self.bots.setdefault((table, bot_id), _Units())
            if game.luck is None:
                units.unmeasured += 1
                continue
            sums = units.sums.setdefault(unit, [0.0] * (1 + len(MEASURES)))
            luck = game.luck[seat]
            for index, value in enumerate((1.0, points[seat], points[seat] - luck, luck)):
                sums[index] += value

    def rows(self) -> dict[tuple[str, str], LuckRow]:
        """Each bot's luck row per table, keyed by (table name, bot id)."""
        return {key: _row(key, units) for key, units in sorted(self.bots.items())}

    def to_json(self) -> list[Any]:
        """The sums exactly (floats as they are, units in the order they
        came: the order they are summed in), to go on from."""
        return [[table, bot_id, units.unmeasured, [[game, options, seed, sorted(seats), sums]
                                                    for (game, options, seed, seats), sums in units.sums.items()]]
                for (table, bot_id), units in self.bots.items()]

    @classmethod
    def from_json(cls, data: list[Any]) -> LuckTables:
        return cls({(table, bot_id): _Units({(game, options, seed, frozenset(seats)): [float(v) for v in sums]
                                             for game, options, seed, seats, sums in units}, unmeasured)
                    for table, bot_id, unmeasured, units in data})


def luck_rows(games: Iterable[StoredGame]) -> dict[tuple[str, str], LuckRow]:
    """Each bot's luck row per table, from the stored games."""
    tables = LuckTables()
    for game in games:
        tables.add(game)
    return tables.rows()


def _row(key: tuple[str, str], units: _Units) -> LuckRow:
    figures: dict[str, float | None] = {}
    for index, name in enumerate(MEASURES, start=1):
        mean, low, high = clustered_mean([(sums[0], sums[index]) for sums in units.sums.values()])
        figures |= {name: _round(mean), f"{name}_low": _round(low), f"{name}_high": _round(high)}
    games = int(sum(sums[0] for sums in units.sums.values()))
    return LuckRow(key[0], key[1], games, units.unmeasured, len(units.sums), **figures)


def clustered_mean(units: list[tuple[float, float]]) -> tuple[float | None, float | None, float | None]:
    """The mean per game over units of (games, total), and its 95% normal
    interval with the units as observations (module docstring); None where
    there are no games, an interval only from two units."""
    games = sum(count for count, _ in units)
    if not games:
        return None, None, None
    mean = sum(total for _, total in units) / games
    if len(units) < 2:
        return mean, None, None
    spread = sum((total - mean * count) ** 2 for count, total in units)
    half = Z95 * math.sqrt(len(units) / (len(units) - 1) * spread) / games
    return mean, mean - half, mean + half


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def with_luck(rows: list[dict[str, Any]], luck: dict[tuple[str, str], LuckRow]) -> list[dict[str, Any]]:
    """Standings rows as JSON (``json_rows``) with their luck fields
    (``LUCK_FIELDS``; None for a bot without games at the table)."""
    empty = dict.fromkeys(LUCK_FIELDS)
    return [{**row, **({name: getattr(found, name) for name in LUCK_FIELDS}
                       if (found := luck.get((row["table_name"], row["bot_id"]))) else empty)} for row in rows]


def luck_lines(rows: dict[tuple[str, str], LuckRow], names: dict[str, str]) -> list[str]:
    """The rows as ``arena standings --luck`` prints them below the standings."""
    lines = ["luck of the dice: score, luck-adjusted score (points less luck) and luck received, per game, "
             "95% normal intervals over seat-rotation units (the games on the same dice)",
             f"{'table':15} {'bot':20} {'games':>6} {'score (95%)':>22} {'adjusted (95%)':>22} "
             f"{'luck received (95%)':>24}"]
    for (table, bot_id), row in rows.items():
        lines.append(f"{table:15} {names.get(bot_id, bot_id)[:20]:20} {row.luck_games:6} "
                     f"{_with_interval(row.raw_score, row.raw_score_low, row.raw_score_high):>22} "
                     f"{_with_interval(row.adjusted_score, row.adjusted_score_low, row.adjusted_score_high):>22} "
                     f"{_with_interval(row.luck, row.luck_low, row.luck_high, signed=True):>24}")
    unmeasured = sum(row.luck_unmeasured for row in rows.values())
    if unmeasured:
        lines.append(f"  ({unmeasured} seats of games without stored luck are not counted)")
    return lines


def _with_interval(mean: float | None, low: float | None, high: float | None, signed: bool = False) -> str:
    if mean is None:
        return "-"
    style = "+.3f" if signed else ".3f"
    if low is None or high is None:
        return f"{mean:{style}} (no interval)"
    return f"{mean:{style}} ({low:{style}} to {high:{style}})"
