"""Ratings recomputed from the stored games.

Incremental Elo (the ``elo`` package) per table, always in rating order
(plan by plan, each in its own order: ``plan``, ``job_order``, then key; see
arena.store), so the same stored results give the same ratings whatever
order the games finished in. A table is a game at a player count
(``detour`` for two players, ``detour/3p``, ``detour/4p``) or every game and
count together (``overall``). A game of more than two seats counts as one
result between every pair of seats, by placement, all computed from the
ratings before the game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import elo

from arena import results
from arena.model import StoredGame
from arena.stats.tables import OVERALL, table_name, table_parts

INITIAL = 1500.0
K_FACTOR = 16
CHART_POINTS = 300  # at most, of a bot's rating history at a table (HistorySample)
_ELO = elo.Elo(k_factor=K_FACTOR, initial=INITIAL, beta=200)


@dataclass
class Standing:
    bot_id: str
    name: str
    game: str  # the table (see table_name)
    elo: float = INITIAL
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    forfeits: int = 0
    forfeits_by_reason: dict[str, int] = field(default_factory=dict)
    points: float = 0.0  # pairwise points (arena.results.points), summed over games
    first_places: float = 0.0  # first places, a shared one shared (arena.results.first_place_shares)

    @property
    def score(self) -> float:
        """Pairwise points per game: the share of the seats it met that it
        placed ahead of, ties counting half (what Elo and the joint fit count)."""
        return self.points / self.games if self.games else 0.0

    @property
    def first_place_share(self) -> float:
        """First places per game, a first place shared by m seats counting 1/m:
        what a bot that plays only to win maximises."""
        return self.first_places / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        game, players = table_parts(self.game)
        return {"bot": self.name, "bot_id": self.bot_id, "version": self.bot_id.split("@")[-1],
                "table_name": self.game, "game": game, "players": players, "elo": round(self.elo, 1),
                "games": self.games,
                "wins": self.wins, "losses": self.losses, "draws": self.draws,
                "forfeits": self.forfeits, "forfeits_by_reason": dict(sorted(self.forfeits_by_reason.items())),
                "score": round(self.score, 4), "first_place_share": round(self.first_place_share, 4)}


def standings(games: Iterable[StoredGame], names: dict[str, str]) -> list[Standing]:
    """Standings per game and overall (game ``"overall"``), sorted by table
    then by Elo, best first. ``games`` must come in rating order."""
    ladder = Ladder(names)
    for game in games:
        ladder.add(game)
    return ladder.ranked()


@dataclass
class HistorySample:
    """A bounded sample of one bot's rating history at one table, for its
    chart, extended one game at a time: every ``stride``-th point of the
    history (stride 1, doubled whenever more than ``CHART_POINTS - 1`` are
    kept) and always the last one. The sample of a history depends on the
    history alone, so a sample saved and gone on from and one made from
    every game hold the same points."""

    count: int = 0  # points of the history seen
    stride: int = 1
    points: list[tuple[int, int, float]] = field(default_factory=list)  # (index in the history, game number, Elo)
    last: tuple[int, int, float] | None = None

    def add(self, number: int, elo: float) -> None:
        self.last = (self.count, number, elo)
        if self.count % self.stride == 0:
            self.points.append(self.last)
            if len(self.points) > CHART_POINTS - 1:
                self.stride *= 2
                self.points = [point for point in self.points if point[0] % self.stride == 0]
        self.count += 1

    def chart(self) -> list[tuple[int, int, float]]:
        """The points a chart draws, the last one included (at most ``CHART_POINTS``)."""
        if self.last is None or (self.points and self.points[-1] == self.last):
            return list(self.points)
        return [*self.points, self.last]

    def to_json(self) -> list[Any]:
        return [self.count, self.stride, self.points, self.last]

    @classmethod
    def from_json(cls, data: list[Any]) -> HistorySample:
        count, stride, points, last = data
        return cls(count, stride, [(int(i), int(n), float(e)) for i, n, e in points],
                   None if last is None else (int(last[0]), int(last[1]), float(last[2])))


# A point of the rating history: (table, bot id, the table's game number (from
# 1), that game's key, the table's player count (None for overall), the bot's
# Elo after that game), as the ``rating_history`` table holds it.
HistoryRow = tuple[str, str, int, str, int | None, float]


@dataclass
class Ladder:
    """Every table's standings, built up one game at a time in rating order,
    with each bot's Elo after each of its games (the rating history: the
    table's game number n, from 1, and the Elo after it).

    ``arena standings`` and the site both add games up here, so the table a
    user reads in the terminal and the one on the site are the same sums.
    A ladder may go on from a saved one (:meth:`from_json`: the standings
    and each table's game count, without the history): games added since are
    numbered on from there. Whatever it goes on from, ``samples`` sample
    each bot's whole history at each table (:class:`HistorySample`, saved
    with the standings: what the site's charts draw). With
    ``record_history`` the points of the history are recorded too, until
    taken (:meth:`take_history`): the whole history of a million games is
    hundreds of MB, so whoever records it takes it a batch at a time."""

    names: dict[str, str]
    tables: dict[str, dict[str, Standing]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # games rated per table
    samples: dict[tuple[str, str], HistorySample] = field(default_factory=dict)
    record_history: bool = True
    history: list[HistoryRow] = field(default_factory=list)  # recorded and not taken yet

    def add(self, game: StoredGame) -> None:
        """Rate one game into its table and the overall one; a solo game has
        no opponent and is left out."""
        if game.players < 2:
            return
        for table in (table_name(game.game, game.players), OVERALL):
            rows = self.tables.setdefault(table, {})
            rate_game(rows, table, game, self.names)
            index = self.counts[table] = self.counts.get(table, 0) + 1
            players = None if table == OVERALL else game.players
            for bot_id in dict.fromkeys(game.seats):
                elo = rows[bot_id].elo
                if self.record_history:
                    self.history.append((table, bot_id, index, game.key, players, elo))
                self.samples.setdefault((table, bot_id), HistorySample()).add(index, elo)

    def take_history(self) -> list[HistoryRow]:
        """The points of the history recorded since last taken."""
        taken, self.history = self.history, []
        return taken

    def ranked(self) -> list[Standing]:
        """Game tables by name, then overall; best Elo first in each."""
        order = sorted(self.tables, key=lambda t: (t == OVERALL, t))
        return [s for t in order for s in sorted(self.tables[t].values(), key=lambda s: (-s.elo, s.name, s.bot_id))]

    def to_json(self) -> dict[str, Any]:
        """The standings, game counts and history samples, exactly (floats
        as they are), to go on from."""
        return {"tables": {table: [dataclasses.asdict(standing) for standing in rows.values()]
                           for table, rows in self.tables.items()},
                "counts": self.counts,
                "samples": [[table, bot_id, sample.to_json()] for (table, bot_id), sample in self.samples.items()]}

    @classmethod
    def from_json(cls, data: dict[str, Any], names: dict[str, str], record_history: bool = True) -> Ladder:
        """A ladder saved by :meth:`to_json`, its bots named as ``names`` says now."""
        tables = {table: {row["bot_id"]: Standing(**{**row, "name": names.get(row["bot_id"], row["bot_id"])})
                          for row in rows} for table, rows in data["tables"].items()}
        counts = {table: int(count) for table, count in data["counts"].items()}
        samples = {(table, bot_id): HistorySample.from_json(sample) for table, bot_id, sample in data["samples"]}
        return cls(names, tables, counts=counts, samples=samples, record_history=record_history)


def rate_game(standings: dict[str, Standing], table: str, game: StoredGame, names: dict[str, str]) -> None:
    """Update ``standings`` (those of the rating table ``table``, by bot id)
    with one stored game. The site's rating history steps through the same
    function (:class:`Ladder`), so chart and table always agree. Every pair of seats held by
    two bots is one Elo result (arena.results), all from the ratings before
    the game."""
    seats = game.seats
    rows = [standings.setdefault(b, Standing(b, names.get(b, b), table)) for b in seats]
    before = {bot: standings[bot].elo for bot in set(seats)}
    deltas = dict.fromkeys(before, 0.0)
    for a, b, score in results.pairwise_between_bots(seats, game.placements):
        if score == 0.5:
            new_a, new_b = _ELO.rate_1vs1(before[a], before[b], drawn=True)
        elif score == 1.0:
            new_a, new_b = _ELO.rate_1vs1(before[a], before[b])
        else:
            new_b, new_a = _ELO.rate_1vs1(before[b], before[a])
        deltas[a] += float(new_a) - before[a]
        deltas[b] += float(new_b) - before[b]
    for bot, delta in deltas.items():
        standings[bot].elo += delta
    points = results.points(game.placements)
    first = results.first_place_shares(game.placements)
    for seat, row in enumerate(rows):
        row.games += 1
        row.points += points[seat]
        row.first_places += first[seat]
        verdict = results.verdict(game.placements, seat)
        if verdict is results.Verdict.WIN:
            row.wins += 1
        elif verdict is results.Verdict.DRAW:
            row.draws += 1
        else:
            row.losses += 1
    for forfeit in game.forfeits:
        row = rows[forfeit.seat]
        row.forfeits += 1
        reason = forfeit.termination.value
        row.forfeits_by_reason[reason] = row.forfeits_by_reason.get(reason, 0) + 1
