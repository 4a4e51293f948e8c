"""The standings people read: per table, each bot's Elo, its joint
(order-independent) rating with a 95% interval, and its counts. The joint
rating is the posterior of :mod:`arena.stats.joint`: finite for every bot
from its first game, its prior's weight (virtual draws against a bot rated
1500, fitted to the field) in ``joint_prior_draws``. A table's rows come in
the joint fit's order: group by group, tier by tier (``joint_tier`` from 1:
a bot never stands below a bot it beat in every game they played, unless
that bot beat it back through others), then best joint rating first.
Where a table's bots fall into several groups that no game links (A and B
played each other, C and D each other, never across), their ratings meet
only through the prior and cannot be compared: ``joint_group`` numbers the
row's group from 1; with one group it is None. Each row's ``pairs`` lists
the bot's seat-swapped pair statistics against every bot it met in pairs at
that table (:class:`arena.stats.pentanomial.PairStats`, this bot as ``a``):
counts, score, Elo difference and interval, LOS, draw ratio. ``score`` is
pairwise points per game (:mod:`arena.results`), as everywhere;
``first_place_share`` is first places per game, a shared one shared. What
``arena standings`` prints and what a tournament writes to the ``ratings``
table of the database are these rows, computed from a :class:`Tally` of the
stored games (the one saved with the cache and the games stored since, or
every game: arena.ratings_cache): the table in the database is a cache of
them, never a second truth.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from arena import results
from arena.model import StoredGame
from arena.stats.elo import Ladder
from arena.stats.joint import Fitted, JointTables
from arena.stats.luck import LUCK_FIELDS, LuckRow, with_luck
from arena.stats.pentanomial import PAIR_SCORES, SeatSwappedPairs
from arena.stats.tables import table_name


@dataclass(frozen=True)
class StandingsRow:
    """One bot at one table: Elo and counts (:class:`arena.stats.elo.Standing`),
    the joint rating and its interval, and its seat-swapped pair statistics
    (the module's docstring says what each is). ``to_json`` is a row of
    ``arena standings --format json`` and of the ``ratings`` table."""

    bot: str
    bot_id: str
    version: str
    table_name: str
    game: str
    players: int | None
    elo: float
    games: int
    wins: int
    losses: int
    draws: int
    forfeits: int
    forfeits_by_reason: dict[str, int]
    score: float
    first_place_share: float
    joint_group: int | None
    joint_tier: int | None
    joint: float | None
    joint_low: float | None
    joint_high: float | None
    joint_prior_draws: float | None
    pairs: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Standings:
    """Rows (one per table and bot, in each table the joint fit's order),
    and per
    table how often each seat placed first (first places shared among those
    who share them): seat advantage is real, and this shows it. (The rating
    history is the ladder's: :meth:`arena.stats.elo.Ladder.take_history`.)"""

    rows: list[StandingsRow]
    seats: dict[str, SeatShares]
    pairs: SeatSwappedPairs


@dataclass
class SeatShares:
    games: int
    first: list[float]  # first places won from each seat

    def shares(self) -> list[float]:
        return [won / self.games for won in self.first]


def json_rows(rows: Iterable[StandingsRow]) -> list[dict[str, Any]]:
    return [row.to_json() for row in rows]


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
    tally = Tally.empty(names)
    for game in games:
        tally.add(game)
    return tally.standings()


@dataclass
class Tally:
    """Everything the standings are computed from, added up one game at a
    time in rating order: Elo and counts (:class:`Ladder`), the joint fit's
    tables, seat-swapped pairs and first places by seat. It is small (per
    table and pair of bots, never per game) and saved exactly
    (:meth:`to_json`), so that a run can go on from the tally of the games
    stored before it and add only its own (the joint fit is then made
    again from the sums: it depends on the bots, not on the games)."""

    ladder: Ladder
    joint: JointTables
    pairs: SeatSwappedPairs
    seats: dict[str, SeatShares]

    @classmethod
    def empty(cls, names: dict[str, str], record_history: bool = False,
              earlier_pairs: Callable[[StoredGame], Iterable[StoredGame]] | None = None) -> Tally:
        """No game counted; ``record_history``: the ladder records the
        rating history (:class:`Ladder`); ``earlier_pairs``: see
        :meth:`from_json` (without it, every game still waiting for its
        seat-swapped partner is held)."""
        return cls(Ladder(names, record_history=record_history), JointTables(), SeatSwappedPairs(earlier=earlier_pairs),
                   {})

    def add(self, game: StoredGame) -> None:
        self.ladder.add(game)
        self.joint.add(game)
        self.pairs.add(game)
        add_seat_shares(self.seats, game)

    def to_json(self) -> dict[str, Any]:
        return {"ladder": self.ladder.to_json(), "joint": self.joint.to_json(), "pairs": self.pairs.to_json(),
                "seats": {table: [shares.games, shares.first] for table, shares in self.seats.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any], names: dict[str, str],
                  earlier_pairs: Callable[[StoredGame], Iterable[StoredGame]], record_history: bool = False) -> Tally:
        """A saved tally; ``earlier_pairs`` gives the games before a new one
        in rating order that may be its seat-swapped partner
        (:class:`arena.stats.pentanomial.SeatSwappedPairs`)."""
        return cls(Ladder.from_json(data["ladder"], names, record_history), JointTables.from_json(data["joint"]),
                   SeatSwappedPairs.from_json(data["pairs"], earlier_pairs),
                   {table: SeatShares(games, first) for table, (games, first) in data["seats"].items()})

    def standings(self) -> Standings:
        """The rows from the sums, the joint ratings fitted now."""
        ladder, pairs = self.ladder, self.pairs
        fitted = self.joint.fit()
        rows = []
        standings = ladder.ranked()
        tables = list(dict.fromkeys(standing.game for standing in standings))
        for standing in sorted(standings, key=lambda s: (tables.index(s.game),
                                                         fitted.get(s.game, Fitted()).order_key(s.bot_id))):
            table_fit = fitted.get(standing.game)
            rating = table_fit.get(standing.bot_id) if table_fit is not None else None
            opponents = sorted({b for a, b in _met(pairs, standing.game) if a == standing.bot_id}
                               | {a for a, b in _met(pairs, standing.game) if b == standing.bot_id})
            rows.append(StandingsRow(
                **standing.to_json(),
                joint_group=table_fit.group_of(standing.bot_id) if table_fit is not None else None,
                joint_tier=rating.tier + 1 if rating else None,
                joint=round(rating.rating, 1) if rating else None,
                joint_low=round(rating.low, 1) if rating else None,
                joint_high=round(rating.high, 1) if rating else None,
                joint_prior_draws=round(table_fit.prior_draws, 3) if rating and table_fit is not None else None,
                pairs=[stats.to_json() for other in opponents
                       if (stats := pairs.between(standing.game, standing.bot_id, other)) is not None]))
        return Standings(rows, dict(sorted(self.seats.items())), pairs)


def _met(pairs: SeatSwappedPairs, table: str) -> list[tuple[str, str]]:
    return list(pairs.counts.get(table, {}))


GROUPS_APART = ("no game links one group to another, so ratings compare only within a group "
                "(the prior pulls each group toward 1500)")


def text_table(rows: list[StandingsRow]) -> list[str]:
    """The rows as ``arena standings`` prints them: a table where a
    table's bots fall into several groups is printed group by group, each
    block headed by its group and why the blocks are apart."""
    lines = [f"{'table':15} {'bot':20} {'version':12} {'elo':>7} {'joint (95%)':>22} {'games':>6} {'wins':>5} "
             f"{'losses':>6} {'draws':>5} {'forfeits':>8} {'score':>6} {'first':>6}"]
    groups: dict[str, int] = {}
    for row in rows:
        if row.joint_group is not None:
            groups[row.table_name] = max(groups.get(row.table_name, 0), row.joint_group)
    block = None
    for row in rows:
        if row.joint_group is not None and (row.table_name, row.joint_group) != block:
            block = row.table_name, row.joint_group
            lines.append(f"{row.table_name}: group {row.joint_group} of {groups[row.table_name]}"
                         + (f" ({GROUPS_APART})" if row.joint_group == 1 else ""))
        joint = "" if row.joint is None else f"{row.joint:.0f} ({row.joint_low:.0f} to {row.joint_high:.0f})"
        lines.append(f"{row.table_name:15} {row.bot[:20]:20} {row.version:12} {row.elo:7.1f} {joint:>22} "
                     f"{row.games:6} {row.wins:5} {row.losses:6} {row.draws:5} {row.forfeits:8} "
                     f"{row.score:6.3f} {row.first_place_share:6.3f}")
    return lines + prior_notes(rows)


def prior_notes(rows: list[StandingsRow]) -> list[str]:
    """Which prior made each table's joint ratings, and the order's rule."""
    priors = {row.table_name: row.joint_prior_draws for row in rows if row.joint_prior_draws is not None}
    if not priors:
        return []
    return ["joint: the Plackett–Luce posterior, each bot given virtual draws against a bot rated 1500 "
            "(their number fitted to the field): " + ", ".join(f"{table} {draws:g}" for table, draws in priors.items()),
            "order: by tier, then joint rating: a bot never stands below a bot it beat in every game they played, "
            "unless that bot beat it back through others"]


def to_csv(rows: list[StandingsRow], luck: dict[tuple[str, str], LuckRow] | None = None) -> str:
    """The rows as CSV, one column per field of the JSON rows, in their
    order, but ``pairs`` (a list per row: :func:`pairs_csv` gives them a CSV
    of their own): an empty cell for none (a bot that played only
    itself has no joint rating), forfeits by reason as compact JSON; with ``luck``, the luck
    fields after them (:mod:`arena.stats.luck`)."""
    columns = [field.name for field in dataclasses.fields(StandingsRow) if field.name != "pairs"]
    if luck is None:
        return _csv(columns, json_rows(rows))
    return _csv(columns + list(LUCK_FIELDS), with_luck(json_rows(rows), luck))


# The pentanomial counts as CSV columns: pairs in which the row's bot scored
# 0, 0.5, 1, 1.5 or 2 points of 2 (the JSON's "counts", in that order).
PAIR_COUNT_COLUMNS = tuple(f"pairs_scoring_{score:g}_of_2" for score in PAIR_SCORES)


def pairs_csv(rows: list[StandingsRow]) -> str:
    """Every row's seat-swapped pair statistics (its ``pairs``) as CSV, one
    line per table, bot and opponent, the counts in a column each."""
    names = {row.bot_id: row.bot for row in rows}
    stats = [{"table_name": row.table_name, "bot": row.bot, "bot_id": row.bot_id, "opponent": names.get(pair["b"], ""),
              "opponent_id": pair["b"], **dict(zip(PAIR_COUNT_COLUMNS, pair["counts"])), **pair}
             for row in rows for pair in row.pairs]
    columns = ["table_name", "bot", "bot_id", "opponent", "opponent_id", "pairs", *PAIR_COUNT_COLUMNS, "score", "elo",
               "elo_bound", "elo_low", "elo_high", "interval_missing", "los", "draw_ratio"]
    return _csv(columns, stats)


def _csv(columns: list[str], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({name: _cell(row[name]) for name in columns})
    return out.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    return value
