"""Order-independent ratings for the standings: per table, every bot's
posterior rating with a 95% interval, and the order the standings list
them in.

**Model.** Plackett–Luce over each game's whole placement
(:mod:`arena.stats.plackett`; Bradley–Terry at two seats), on the Elo
scale: a game of k seats is one ranking, not k(k-1)/2 independent pairwise
results. A table's games are reduced to their distinct outcomes with how
often each came, so the fit depends on what happened, never on the order
of the games, and costs what the outcomes cost, not the games.

**Prior.** The posterior of :mod:`arena.stats.posterior`, the one the
league's matchmaker reads: every bot plays virtual draws against a virtual
bot rated 1500 (Coulom's Whole-History Rating prior, close to BayesElo's
virtual draws), their number fitted to the field (empirical Bayes,
:func:`arena.stats.posterior.fit_to_field`) and shown wherever the ratings
are. Every bot therefore has a finite rating and an honest interval from
its first game: a bot that won every game is rated high with a wide
interval, not "unbounded". The 95% interval is the posterior's
(the Laplace approximation at its mode, as BayesElo and WHR use) for the
bot's standing in the field (its rating less the field's mean).

**Groups.** Bots that no chain of games links (A and B played each other,
C and D each other, never across) fall into groups, numbered from 0;
their ratings meet only through the prior, so comparisons between groups
mean nothing, and the standings say so.

**Order.** The standings list a table's bots by *tier*, then by rating. The
tiers are the strongly connected parts of the "scored a point against"
graph (a win, a draw or, in a pod, a place ahead or shared), highest
first: every bot of a tier scored against every other bot of it, directly
or through others of it, and no bot of a lower tier ever scored against
one of a higher tier it met. So a bot never stands below a bot it beat in
every game they played, unless that bot beat it back through others (A
beat B every time, B beat C, C beat A): such bots share a tier, no order
can put each above every bot it beat, and their ratings order them. A
rating alone would sometimes break the rule (a new bot that beat the
leader in its one game is rated below it), so the order is the tier's
first and the rating's within it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.model import StoredGame
from arena.results import pairwise_between_bots
from arena.stats import posterior
from arena.stats.pairs import Z95, Record
from arena.stats.tables import table_name

INITIAL = posterior.ANCHOR


@dataclass(frozen=True)
class JointRating:
    """One bot's posterior rating and the half-width of its 95% interval,
    its pairwise games and points, its group (ratings compare only within
    a group; usually there is one) and its tier within the group, from 0
    at the top (see Order above)."""

    bot_id: str
    rating: float
    error: float
    games: int
    points: float
    group: int = 0
    tier: int = 0

    @property
    def low(self) -> float:
        return self.rating - self.error

    @property
    def high(self) -> float:
        return self.rating + self.error

    def to_json(self) -> dict[str, Any]:
        return {"bot_id": self.bot_id, "rating": round(self.rating, 1), "error": round(self.error, 1),
                "low": round(self.low, 1), "high": round(self.high, 1), "games": self.games, "group": self.group,
                "tier": self.tier}


class Fitted(dict[str, JointRating]):
    """Ratings by bot, with the covariance of every two bots' ratings (for
    the likelihood that one is stronger than another), the number of
    groups and the prior's virtual draws the fit used."""

    def __init__(self) -> None:
        super().__init__()
        self.covariance: dict[tuple[str, str], float] = {}
        self.groups = 0  # connected groups of bots: ratings of two groups share no games
        self.prior_draws = posterior.PRIOR_DRAWS

    def group_of(self, bot: str) -> int | None:
        """The bot's group counted from 1 where there are several, None
        where there is one (or the bot is not rated): what standings, the
        ratings table and the pages show beside a rating."""
        rating = self.get(bot)
        return rating.group + 1 if rating is not None and self.groups > 1 else None

    def order_key(self, bot: str) -> tuple[int, int, float]:
        """Where the bot stands in its table: group by group, then tier by
        tier, then by rating (see Order above); a bot not rated here (it
        played only itself) after them all."""
        rating = self.get(bot)
        if rating is None:
            return self.groups, 0, 0.0
        return rating.group, rating.tier, -rating.rating

    def superiority(self, a: str, b: str) -> float | None:
        """P(a is stronger than b) from the fitted difference and its
        standard error ``sqrt(V_aa + V_bb - 2 V_ab)`` (normal approximation,
        as BayesElo's ``los``); None for a bot against itself, a bot not
        rated here, or two bots of different groups (only the prior links
        them)."""
        if a == b or (a, b) not in self.covariance or self[a].group != self[b].group:
            return None
        variance = self.covariance[a, a] + self.covariance[b, b] - 2 * self.covariance[a, b]
        difference = self[a].rating - self[b].rating
        if variance <= 0:
            return 0.5 if difference == 0 else float(difference > 0)
        return 0.5 * (1 + math.erf(difference / math.sqrt(2 * variance)))


class PairTable:
    """Games and points between every pair of bots: all the fit needs, and
    the wins and draws behind the points, which head-to-head shows.

    Adding results in any order gives the same table (sums commute), which is
    why the fit cannot depend on the order of games."""

    def __init__(self) -> None:
        self.games: dict[tuple[str, str], int] = {}
        self.points: dict[tuple[str, str], float] = {}  # points of the pair's first bot
        self.wins: dict[tuple[str, str], int] = {}  # games the pair's first bot won
        self.draws: dict[tuple[str, str], int] = {}

    def add(self, a: str, b: str, score: float) -> None:
        if a == b:
            return
        if b < a:
            a, b, score = b, a, 1.0 - score
        self.games[a, b] = self.games.get((a, b), 0) + 1
        self.points[a, b] = self.points.get((a, b), 0.0) + score
        if score == 1.0:
            self.wins[a, b] = self.wins.get((a, b), 0) + 1
        elif score == 0.5:
            self.draws[a, b] = self.draws.get((a, b), 0) + 1

    def add_placement(self, seats: Sequence[str], placements: Sequence[int]) -> None:
        for a, b, score in pairwise_between_bots(seats, placements):
            self.add(a, b, score)

    def to_json(self) -> list[list[Any]]:
        """Each pair's sums, in the order they were first met (exact: the
        sums go on from these as they would have)."""
        return [[a, b, count, self.points[a, b], self.wins.get((a, b), 0), self.draws.get((a, b), 0)]
                for (a, b), count in self.games.items()]

    @classmethod
    def from_json(cls, rows: list[list[Any]]) -> PairTable:
        table = cls()
        for a, b, count, points, wins, draws in rows:
            table.games[a, b], table.points[a, b] = count, points
            if wins:
                table.wins[a, b] = wins
            if draws:
                table.draws[a, b] = draws
        return table

    def bots(self) -> list[str]:
        return sorted({bot for pair in self.games for bot in pair})

    def record(self, a: str, b: str) -> tuple[int, float]:
        """Games between a and b and a's points against b."""
        if a <= b:
            return self.games.get((a, b), 0), self.points.get((a, b), 0.0)
        n = self.games.get((b, a), 0)
        return n, n - self.points.get((b, a), 0.0)

    def head_to_head(self, a: str, b: str) -> Record | None:
        """a's wins, draws and losses against b, or None if they never met.
        Games give scores of 0, 1/2 and 1 only; any other score (``fit``
        accepts them) is neither a win nor a draw here."""
        first, second = (a, b) if a <= b else (b, a)
        games = self.games.get((first, second), 0)
        if a == b or not games:
            return None
        wins, draws = self.wins.get((first, second), 0), self.draws.get((first, second), 0)
        losses = games - wins - draws
        return Record(wins, draws, losses) if a <= b else Record(losses, draws, wins)


class PlacementTable:
    """The games of a table, each as its ``(place, bot)`` pairs in order
    (a game's outcome whatever the seats), with how often each came, and
    the pair table of the same games (for tiers, head-to-head and the
    counts)."""

    def __init__(self) -> None:
        self.games: dict[tuple[tuple[int, str], ...], int] = {}
        self.pairs = PairTable()

    def add(self, seats: Sequence[str], placements: Sequence[int]) -> None:
        """One game: each seat's bot and place (1 best, ties allowed)."""
        self.pairs.add_placement(seats, placements)
        outcome = tuple(sorted(zip(placements, seats)))
        self.games[outcome] = self.games.get(outcome, 0) + 1

    def to_json(self) -> dict[str, Any]:
        return {"outcomes": [[[list(seat) for seat in outcome], count] for outcome, count in self.games.items()],
                "pairs": self.pairs.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlacementTable:
        table = cls()
        table.games = {tuple((place, bot) for place, bot in outcome): count for outcome, count in data["outcomes"]}
        table.pairs = PairTable.from_json(data["pairs"])
        return table


def fit_table(table: PlacementTable) -> Fitted:
    """The posterior ratings of a table's bots (see Prior above), their
    groups and tiers (see Groups and Order)."""
    outcomes = posterior.Outcomes()
    for outcome, count in table.games.items():
        outcomes.add([bot for _, bot in outcome], [place for place, _ in outcome], float(count))
    ratings = Fitted()
    if not outcomes.versions:
        return ratings
    fitted = posterior.fit_to_field(outcomes)
    covariance = fitted.centred()
    totals = _totals(table.pairs)
    groups = _groups(table.pairs)
    ratings.groups = len(groups)
    ratings.prior_draws = fitted.prior_draws
    for group, members in enumerate(groups):
        for tier, bots in enumerate(tiers_of(table.pairs, members)):
            for bot in bots:
                k = outcomes.index[bot]
                games, points = totals[bot]
                ratings[bot] = JointRating(bot, float(fitted.mean[k]), Z95 * math.sqrt(max(0.0, covariance[k, k])),
                                           games, points, group, tier)
    for bot, k in outcomes.index.items():
        for other, j in outcomes.index.items():
            ratings.covariance[bot, other] = float(covariance[k, j])
    return ratings


def _totals(table: PairTable) -> dict[str, tuple[int, float]]:
    """Pairwise games and points of every bot of a pair table."""
    totals: dict[str, tuple[int, float]] = {}
    for (a, b), count in table.games.items():
        scored = table.points[a, b]
        games_a, points_a = totals.get(a, (0, 0.0))
        games_b, points_b = totals.get(b, (0, 0.0))
        totals[a] = games_a + count, points_a + scored
        totals[b] = games_b + count, points_b + count - scored
    return totals


def tiers_of(table: PairTable, members: list[str]) -> list[list[str]]:
    """The strongly connected parts of the "scored a point against" graph
    among ``members`` (each sorted), strongest first: a bot of an earlier
    tier may have beaten one of a later tier in every game, never the other
    way round."""
    index = {bot: k for k, bot in enumerate(members)}
    scored: list[set[int]] = [set() for _ in members]
    for (a, b), count in table.games.items():
        if a in index and b in index:
            if table.points[a, b] > 0:
                scored[index[a]].add(index[b])
            if count - table.points[a, b] > 0:
                scored[index[b]].add(index[a])
    reach = [_reachable(k, scored) for k in range(len(members))]
    tiers: list[list[int]] = []
    placed: set[int] = set()
    for k in range(len(members)):
        if k not in placed:
            tier = sorted(j for j in reach[k] if k in reach[j])
            placed.update(tier)
            tiers.append(tier)
    # A tier above another reaches it (scored against it, maybe through others)
    # and is not reached back: more tiers reached means higher.
    tiers.sort(key=lambda tier: (-len(reach[tier[0]]), tier[0]))
    return [[members[k] for k in tier] for tier in tiers]


def _reachable(start: int, links: list[set[int]]) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        for other in links[stack.pop()] - seen:
            seen.add(other)
            stack.append(other)
    return seen


def _groups(table: PairTable) -> list[list[str]]:
    """Connected groups of bots, each sorted, in order of their first bot."""
    neighbours: dict[str, set[str]] = {}
    for a, b in table.games:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen: set[str] = set()
    groups = []
    for bot in sorted(neighbours):
        if bot in seen:
            continue
        stack, members = [bot], []
        seen.add(bot)
        while stack:
            here = stack.pop()
            members.append(here)
            for other in neighbours[here] - seen:
                seen.add(other)
                stack.append(other)
        groups.append(sorted(members))
    return groups


class JointTables:
    """The placement and pair tables of every game and player count and of
    all games together (table ``overall``): what the fit and head-to-head
    read. The site adds games one at a time, in the same pass that feeds
    :class:`arena.stats.elo.Ladder`; ``games`` adds a whole list at once.
    Solo games have no pairs and are left out."""

    def __init__(self, games: Iterable[StoredGame] = (), overall: str = "overall") -> None:
        self.overall = overall
        self.placements: dict[str, PlacementTable] = {}
        self.pairs: dict[str, PairTable] = {}
        for game in games:
            self.add(game)

    def add(self, game: StoredGame) -> None:
        if game.players < 2:
            return
        for name in (table_name(game.game, game.players), self.overall):
            table = self.placements.get(name)
            if table is None:
                table = self.placements[name] = PlacementTable()
                self.pairs[name] = table.pairs
            table.add(game.seats, game.placements)

    def to_json(self) -> dict[str, Any]:
        """Every table's sums, to go on from (the fit needs nothing else)."""
        return {name: table.to_json() for name, table in self.placements.items()}

    @classmethod
    def from_json(cls, data: dict[str, Any], overall: str = "overall") -> JointTables:
        tables = cls(overall=overall)
        for name, table in data.items():
            tables.placements[name] = PlacementTable.from_json(table)
            tables.pairs[name] = tables.placements[name].pairs
        return tables

    def fit(self) -> dict[str, Fitted]:
        """The posterior ratings per table and bot (:func:`fit_table`): one
        model for every seat count, ``overall`` included."""
        return {name: fit_table(table) for name, table in self.placements.items()}
