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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from arena import results
from arena.model import StoredGame
from arena.stats.pairs import Z95
from arena.stats.tables import table_name
from arena.stats.units import HeldUnits

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
class Moments:
    """One bot's games at one table, summed over units (module docstring)
    as the interval needs them: games (the sum of each unit's games, c),
    units, games without luck, the sum of c squared, and per measure the
    sums of each unit's total t, of t squared and of t times c. Small
    (never per unit) and exact: a unit's games may come in one at a time,
    each changing the sums by what it changes in its unit's."""

    games: int = 0
    units: int = 0
    unmeasured: int = 0
    squares: int = 0
    sums: list[list[float]] = field(default_factory=lambda: [[0.0, 0.0, 0.0] for _ in MEASURES])

    def add(self, before: list[float], values: tuple[float, ...]) -> None:
        """One game into its unit, which summed ``before`` ([games, one
        total per measure]) without it."""
        count = int(before[0])
        self.games += 1
        self.units += count == 0
        self.squares += 2 * count + 1
        for sums, total, value in zip(self.sums, before[1:], values):
            after = total + value
            sums[0] += value
            sums[1] += after * after - total * total
            sums[2] += after * (count + 1) - total * count

    def clustered_mean(self, measure: int) -> tuple[float | None, float | None, float | None]:
        """The mean per game of a measure, and its 95% normal interval with
        the units as observations; None where there are no games, an
        interval only from two units."""
        if not self.games:
            return None, None, None
        total, squares, products = self.sums[measure]
        mean = total / self.games
        if self.units < 2:
            return mean, None, None
        spread = max(0.0, squares - 2 * mean * products + mean * mean * self.squares)
        half = Z95 * math.sqrt(self.units / (self.units - 1) * spread) / self.games
        return mean, mean - half, mean + half


@dataclass
class LuckTables:
    """Fed stored games one at a time (each unit's in the order they were
    stored), gives each bot's luck row per table. Each unit's running sums
    are held while its games come in; where ``earlier`` can give a game's
    earlier games again (a tally gone on from, or a million games), only
    the latest units are (:class:`arena.stats.units.HeldUnits`), and a unit
    not held is summed again from its earlier games, in the same order: the
    same sums either way."""

    bots: dict[tuple[str, str], Moments] = field(default_factory=dict)
    units: HeldUnits[list[float]] = field(default_factory=HeldUnits)  # (table, bot, *unit) -> [games, totals...]

    def add(self, game: StoredGame, earlier: Callable[[], Iterable[StoredGame]] | None = None) -> None:
        """Count a game; ``earlier`` gives the games stored before it (any,
        in the order they were stored), among which those of its unit
        (needed unless every unit is held: ``units.kept`` None)."""
        assert earlier is not None or self.units.kept is None
        if game.players < 2:
            return
        table = table_name(game.game, game.players)
        unit = _unit(game)
        for seat, bot_id in enumerate(game.seats):
            moments = self.bots.setdefault((table, bot_id), Moments())
            if game.luck is None:
                moments.unmeasured += 1
                continue
            key = (table, bot_id, *unit)
            before = self.units.get(key)
            if before is None:
                before = _unit_sums(bot_id, unit, earlier() if earlier is not None and
                                    self.units.may_have_earlier(key) else ())
            values = _values(game, seat)
            moments.add(before, values)
            self.units.put(key, [before[0] + 1.0, *(total + value for total, value in zip(before[1:], values))])

    def rows(self) -> dict[tuple[str, str], LuckRow]:
        """Each bot's luck row per table, keyed by (table name, bot id)."""
        return {key: _row(key, moments) for key, moments in sorted(self.bots.items())}

    def to_json(self) -> list[Any]:
        """The sums exactly (floats as they are), to go on from."""
        return [[table, bot_id, dataclasses.asdict(moments)] for (table, bot_id), moments in self.bots.items()]

    @classmethod
    def from_json(cls, data: list[Any]) -> LuckTables:
        return cls({(table, bot_id): Moments(**moments) for table, bot_id, moments in data}, HeldUnits(fresh=False))


def _unit(game: StoredGame) -> tuple[Any, ...]:
    """A game's unit: its game and options on its seed between the same bots."""
    return game.game, json.dumps(game.options, sort_keys=True), game.seed, frozenset(game.seats)


def _values(game: StoredGame, seat: int) -> tuple[float, ...]:
    """What a seat adds up per measure: points, points less luck, luck."""
    assert game.luck is not None
    points, luck = results.points(game.placements)[seat], game.luck[seat]
    return points, points - luck, luck


def _unit_sums(bot_id: str, unit: tuple[Any, ...], earlier: Iterable[StoredGame]) -> list[float]:
    """A unit's running sums for one bot ([games, one total per measure]),
    from its earlier games, as :meth:`LuckTables.add` made them."""
    sums = [0.0] * (1 + len(MEASURES))
    for game in earlier:
        if game.players < 2 or game.luck is None or _unit(game) != unit:
            continue
        for seat, seated in enumerate(game.seats):
            if seated == bot_id:
                sums = [sums[0] + 1.0, *(total + value for total, value in zip(sums[1:], _values(game, seat)))]
    return sums


def luck_rows(games: Iterable[StoredGame]) -> dict[tuple[str, str], LuckRow]:
    """Each bot's luck row per table, from the stored games."""
    tables = LuckTables(units=HeldUnits(bounded=False))
    for game in games:
        tables.add(game)
    return tables.rows()


def _row(key: tuple[str, str], moments: Moments) -> LuckRow:
    figures: dict[str, float | None] = {}
    for index, name in enumerate(MEASURES):
        mean, low, high = moments.clustered_mean(index)
        figures |= {name: _round(mean), f"{name}_low": _round(low), f"{name}_high": _round(high)}
    return LuckRow(key[0], key[1], moments.games, moments.unmeasured, moments.units, **figures)


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
