"""Order-independent ratings: the Bradley-Terry maximum-likelihood fit of
two-seat tables, and the Plackett–Luce fit of tables with pods
(:mod:`arena.stats.plackett`, which is Bradley–Terry at two seats), with the
separation rules and groups both share.

Incremental Elo depends on the order of the games; this fit does not. As in
Ordo, a game between seats i and j is a score s (1 win, 1/2 draw, 0 loss)
and the model says i scores against j with expectation

    p_ij = 1 / (1 + 10 ** ((r_j - r_i) / 400))

so ratings are on the Elo scale. The ratings maximise the log-likelihood

    sum over games of  s log p_ij + (1 - s) log (1 - p_ij)

which depends only on how many games each pair played and how many points
each scored, never on their order. A game of more than two seats is *not*
a set of independent pairwise results (its pairs share one game): tables
holding such games are fitted by :func:`fit_placements`, over each game's
whole placement. The pair table still gives head-to-head records and the
"scored against" graph of the separation rules below.

Only rating differences are identified, so each group of bots connected by
games is anchored with its mean at 1500.

**Separation.** A bot, or a set of bots, that won every game against the
rest (or lost every game) has no finite maximum-likelihood rating: the
likelihood keeps rising as the gap grows. By default (``prior_draws`` 0)
the fit says so instead of inventing a number. Within a connected group the
bots split into *tiers*, the strongly connected parts of the "scored a
point against" graph (Zermelo's condition): inside a tier every difference
is finite; between tiers the maximum-likelihood gap is infinite. If the
group is one tier, every bot gets its rating. Otherwise the largest tier of
at least two bots (ties: more games inside it, then the higher tier) is
rated from the games inside it, which is where the maximum lies (the games
between tiers pull the gap to infinity and say nothing about differences
inside a tier), and every other bot gets a ``bound`` instead of a rating:
``"never lost"`` (no bot outside its tier ever scored against it),
``"never won"`` (it never scored against a bot outside its tier) or
``"separated"`` (it won every game against some bots and lost every game to
others). A bound bot's ``rating`` is only an ordering key (the fit with one
virtual draw per pair, as BayesElo's prior) and is never shown.

``prior_draws`` above 0 adds that many drawn games between every pair of
bots that met (the BayesElo style prior): every rating is then finite and
none is bound, and whoever shows them must say which prior made them.

The 95% intervals come from the curvature of the log-likelihood at its
maximum (the Laplace approximation BayesElo uses with its covariance
command): the Hessian is a weighted graph Laplacian L, the covariance of the
centred ratings is its pseudo-inverse ``(L + J/n)^-1 - J/n`` (J all ones),
and the interval is the rating plus or minus 1.96 standard deviations.

Bradley–Terry is pure Python here: a tournament has tens of bots, not
thousands, and the games are first reduced to a table of pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from arena.model import StoredGame
from arena.results import pairwise_between_bots
from arena.stats import plackett
from arena.stats.pairs import Z95, Record
from arena.stats.tables import table_name

INITIAL = 1500.0
PRIOR_DRAWS = 0.0  # no prior: separation is reported, not hidden
ORDER_PRIOR_DRAWS = 1.0  # only to order bound bots among themselves
_C = math.log(10.0) / 400.0  # d p / d r at p = 1/2 is _C / 4
_MAX_ITERATIONS = 200
_TOLERANCE = 1e-10
_Pair = tuple[int, int, float, float]  # (i, j, games, points of i), a pair table of bot indices


@dataclass(frozen=True)
class MLRating:
    """One bot's fitted rating and the half-width of its 95% interval.

    ``group`` numbers the set of bots connected to this one by games
    (ratings compare only within a group; usually there is one)."""

    bot_id: str
    rating: float
    error: float
    games: int
    points: float
    group: int = 0
    bound: str | None = None  # "never lost", "never won" or "separated": no finite rating
    tier: tuple[str, ...] = ()  # a bound bot's tier but itself: the bots its bound does not count

    @property
    def defined(self) -> bool:
        """Whether the data define a finite rating (see Separation above)."""
        return self.bound is None

    def bound_words(self, names: dict[str, str]) -> str:
        """What the bound means, in words true of the bot's own results
        (``names`` by bot id). "never won" alone would sit badly beside the
        wins a bot scored against bots of its own tier."""
        assert self.bound is not None, "a rated bot has no bound"
        return bound_words(self.bound, [names.get(bot, bot) for bot in self.tier])

    @property
    def low(self) -> float:
        return self.rating - self.error

    @property
    def high(self) -> float:
        return self.rating + self.error

    def to_json(self) -> dict[str, Any]:
        if self.bound:
            return {"bot_id": self.bot_id, "rating": None, "error": None, "low": None, "high": None,
                    "bound": self.bound, "games": self.games, "group": self.group}
        return {"bot_id": self.bot_id, "rating": round(self.rating, 1),
                "error": round(self.error, 1), "low": round(self.low, 1),
                "high": round(self.high, 1), "bound": None, "games": self.games, "group": self.group}


BOUND_WORDS = {"never lost": "won every game", "never won": "lost every game",
               "separated": "won every game against some bots, lost every game to the others it met"}


def bound_words(bound: str, others: list[str]) -> str:
    """A bound in words true of the bot's results: against every bot
    outside its tier (``others`` names the rest of the tier) it won every
    game ("never lost"), lost every game ("never won"), or either, bot by
    bot ("separated"); inside its tier anything may have happened. In a pod
    a game counts against every seat in it: "won" is first place alone."""
    words = BOUND_WORDS[bound]
    if not others:
        return words
    if bound == "separated":
        return f"apart from {', '.join(others)}: {words}"
    return f"{words} except against {', '.join(others)}"


class Fitted(dict[str, MLRating]):
    """Ratings by bot, with the covariance of the rated bots' ratings (pairs
    of bots rated together from one tier), for the likelihood that one is
    stronger than another."""

    def __init__(self) -> None:
        super().__init__()
        self.covariance: dict[tuple[str, str], float] = {}
        self.groups = 0  # connected groups of bots: ratings of two groups share no scale

    def group_of(self, bot: str) -> int | None:
        """The bot's group counted from 1 where there are several, None
        where there is one (or the bot is not rated): what standings, the
        ratings table and the pages show beside a rating."""
        rating = self.get(bot)
        return rating.group + 1 if rating is not None and self.groups > 1 else None

    def superiority(self, a: str, b: str) -> float | None:
        """P(a is stronger than b) from the fitted difference and its
        standard error ``sqrt(V_aa + V_bb - 2 V_ab)`` (normal approximation,
        as BayesElo's ``los``); None unless both have finite ratings fitted
        together."""
        if a == b or (a, b) not in self.covariance:
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

    def add_game(self, game: StoredGame) -> None:
        for a, b, score in pairwise_between_bots(game.seats, game.placements):
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


def fit(results: Iterable[tuple[str, str, float]] | PairTable, prior_draws: float = PRIOR_DRAWS,
        anchor: float = INITIAL) -> Fitted:
    """Fit ratings to results ``(a, b, score of a)`` or to a PairTable.

    Without a prior, bots whose rating has no finite maximum get a ``bound``
    (see Separation above) instead of a rating."""
    if prior_draws < 0:
        raise ValueError(f"prior_draws must be at least 0, got {prior_draws!r}")
    if isinstance(results, PairTable):
        table = results
    else:
        table = PairTable()
        for a, b, score in results:
            if not 0.0 <= score <= 1.0:
                raise ValueError(f"a score is between 0 and 1, got {score!r} for {a!r} vs {b!r}")
            table.add(a, b, score)
    ratings = Fitted()
    groups = _groups(table)
    ratings.groups = len(groups)
    for group, members in enumerate(groups):
        if prior_draws > 0:
            _fit_group(table, members, prior_draws, anchor, group, ratings)
        else:
            def rate(bots: list[str], out: Fitted, group: int = group) -> None:
                _fit_group(table, bots, 0.0, anchor, group, out, inside_only=True)
            _fit_tiers(table, members, anchor, group, ratings, rate)
    return ratings


def fit_placements(table: PlacementTable, anchor: float = INITIAL) -> Fitted:
    """The Plackett–Luce fit of whole placements (:mod:`arena.stats.plackett`),
    without a prior, separation handled as in :func:`fit`: the tiers come
    from the same pairwise "placed ahead of" graph, since a finite maximum
    of Plackett–Luce exists exactly where that graph is strongly connected
    (Hunter 2004, Assumption 1; a tie counts both ways). The main tier is
    rated from each game's placement restricted to its bots: with the
    bots above it at plus and those below at minus infinity (every game
    places them wholly above or below it, or they would share its tier),
    that is where the likelihood's maximum lies."""
    ratings = Fitted()
    totals = _totals(table.pairs)
    groups = _groups(table.pairs)
    ratings.groups = len(groups)
    for group, members in enumerate(groups):
        def rate(bots: list[str], out: Fitted, group: int = group) -> None:
            _fit_placements(table, bots, anchor, group, totals, out)
        _fit_tiers(table.pairs, members, anchor, group, ratings, rate)
    return ratings


class PlacementTable:
    """The games of a table, each as its ``(place, bot)`` pairs in order
    (a game's outcome whatever the seats), with how often each came, and
    the pair table of the same games (for separation, head-to-head and the
    counts)."""

    def __init__(self) -> None:
        self.games: dict[tuple[tuple[int, str], ...], int] = {}
        self.pairs = PairTable()
        self.pods = False  # holds a game of more than two seats

    def add_game(self, game: StoredGame) -> None:
        self.pairs.add_game(game)
        outcome = tuple(sorted(zip(game.placements, game.seats)))
        self.games[outcome] = self.games.get(outcome, 0) + 1
        self.pods = self.pods or game.players > 2

    def to_json(self) -> dict[str, Any]:
        return {"outcomes": [[[list(seat) for seat in outcome], count] for outcome, count in self.games.items()],
                "pairs": self.pairs.to_json(), "pods": self.pods}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlacementTable:
        table = cls()
        table.games = {tuple((place, bot) for place, bot in outcome): count for outcome, count in data["outcomes"]}
        table.pairs = PairTable.from_json(data["pairs"])
        table.pods = data["pods"]
        return table

    def tie_groups(self) -> list[tuple[list[list[str]], int]]:
        """Every distinct outcome as its tie groups (the bots placed equal,
        best first) and its count; a game of one bot in every seat says
        nothing and is left out."""
        found = []
        for outcome, count in self.games.items():
            if len({bot for _, bot in outcome}) < 2:
                continue
            groups: list[list[str]] = []
            for k, (place, bot) in enumerate(outcome):
                if k and place == outcome[k - 1][0]:
                    groups[-1].append(bot)
                else:
                    groups.append([bot])
            found.append((groups, count))
        return found


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


def _fit_placements(table: PlacementTable, members: list[str], anchor: float, group: int,
                    totals: dict[str, tuple[int, float]], out: Fitted) -> None:
    """Plackett–Luce over every game's placement restricted to ``members``
    (a game left with fewer than two seats says nothing about them)."""
    index = {bot: k for k, bot in enumerate(members)}
    games = []
    for groups, count in table.tie_groups():
        kept = [[index[bot] for bot in tied if bot in index] for tied in groups]
        kept = [tied for tied in kept if tied]
        if sum(len(tied) for tied in kept) >= 2:
            games.append((kept, float(count)))
    ratings, covariance = plackett.fit(len(members), plackett.Rankings(games))
    for bot, k in index.items():
        games_played, points = totals[bot]
        out[bot] = MLRating(bot, anchor + float(ratings[k]), Z95 * math.sqrt(max(0.0, float(covariance[k, k]))),
                            games_played, points, group)
        for other, j in index.items():
            out.covariance[bot, other] = float(covariance[k, j])


def _fit_tiers(table: PairTable, members: list[str], anchor: float, group: int, out: Fitted,
               rate: Callable[[list[str], Fitted], None]) -> None:
    """The maximum-likelihood fit of one connected group without a prior:
    rate the main tier, bound the rest (see Separation above). ``rate``
    fits a set of bots from the games among them (Bradley–Terry on the pair
    table, or Plackett–Luce on the placements) into a Fitted."""
    tiers = tiers_of(table, members)
    if len(tiers) == 1:
        rate(members, out)
        return
    tier_of = {bot: k for k, tier in enumerate(tiers) for bot in tier}
    scored_out = [False] * len(tiers)  # scored a point against a bot of another tier
    conceded_out = [False] * len(tiers)  # a bot of another tier scored against it
    inside = [0] * len(tiers)  # games inside the tier
    for (a, b), count in table.games.items():
        if a not in tier_of:
            continue
        ta, tb = tier_of[a], tier_of[b]
        if ta == tb:
            inside[ta] += count
            continue
        scored = table.points[a, b]
        if scored > 0:
            scored_out[ta] = conceded_out[tb] = True
        if count - scored > 0:
            scored_out[tb] = conceded_out[ta] = True
    candidates = [k for k, tier in enumerate(tiers) if len(tier) >= 2]
    main = max(candidates, key=lambda k: (len(tiers[k]), inside[k], -k)) if candidates else None
    order = Fitted()
    _fit_group(table, members, ORDER_PRIOR_DRAWS, anchor, group, order)
    if main is not None:
        rate(tiers[main], out)
    for k, tier in enumerate(tiers):
        if k == main:
            continue
        bound = "never lost" if not conceded_out[k] else "never won" if not scored_out[k] else "separated"
        for bot in tier:
            rated = order[bot]
            out[bot] = MLRating(bot, rated.rating, 0.0, rated.games, rated.points, group, bound,
                                tuple(other for other in tier if other != bot))
    if main is not None:  # games and points count every game, not only those inside the tier
        for bot in tiers[main]:
            rated = order[bot]
            out[bot] = MLRating(bot, out[bot].rating, out[bot].error, rated.games, rated.points, group)


def tiers_of(table: PairTable, members: list[str]) -> list[list[str]]:
    """The strongly connected parts of the "scored a point against" graph
    among ``members`` (each sorted), strongest first: a bot of an earlier
    tier may have beaten one of a later tier in every game, never the other
    way round. One tier means every rating is finite."""
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


def _fit_group(table: PairTable, members: list[str], prior: float, anchor: float,
               group: int, out: Fitted, inside_only: bool = False) -> None:
    """Fit ``members`` (with ``inside_only``, from the games among them
    only) and put their ratings and covariance into ``out``."""
    n = len(members)
    index = {bot: k for k, bot in enumerate(members)}
    # (i, j, games, points of i) with the prior's virtual draws included.
    pairs: list[_Pair] = []
    games = [0] * n
    points = [0.0] * n
    for (a, b), count in table.games.items():
        if a not in index or (inside_only and b not in index):
            continue
        i, j, scored = index[a], index[b], table.points[a, b]
        games[i] += count
        games[j] += count
        points[i] += scored
        points[j] += count - scored
        pairs.append((i, j, count + prior, scored + prior / 2))
    pairs.sort()
    r = [0.0] * n
    for _ in range(_MAX_ITERATIONS):
        gradient, laplacian = _derivatives(n, pairs, r)
        step = _solve(_centred(laplacian), gradient)
        before = _log_likelihood(pairs, r)
        scale = 1.0
        while True:
            trial = [x + scale * d for x, d in zip(r, step)]
            if _log_likelihood(pairs, trial) >= before - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        r = trial
        if max((abs(scale * d) for d in step), default=0.0) < _TOLERANCE:
            break
    mean = sum(r) / n
    _, laplacian = _derivatives(n, pairs, r)
    covariance = _inverse(_centred(laplacian))
    for bot, k in index.items():
        out[bot] = MLRating(bot, anchor + r[k] - mean, Z95 * math.sqrt(max(0.0, covariance[k][k] - 1.0 / n)),
                            games[k], points[k], group)
        for other, j in index.items():
            out.covariance[bot, other] = covariance[k][j] - 1.0 / n


def _derivatives(n: int, pairs: list[_Pair], r: list[float]) -> tuple[list[float], list[list[float]]]:
    """Gradient of the log-likelihood and minus its Hessian (a Laplacian)."""
    gradient = [0.0] * n
    laplacian = [[0.0] * n for _ in range(n)]
    for i, j, count, scored in pairs:
        p = _expected(r[i] - r[j])
        g = _C * (scored - count * p)
        gradient[i] += g
        gradient[j] -= g
        w = _C * _C * count * p * (1.0 - p)
        laplacian[i][i] += w
        laplacian[j][j] += w
        laplacian[i][j] -= w
        laplacian[j][i] -= w
    return gradient, laplacian


def _log_likelihood(pairs: list[_Pair], r: list[float]) -> float:
    total = 0.0
    for i, j, count, scored in pairs:
        x = _C * (r[i] - r[j])
        # log p = -log(1 + e^-x), log(1 - p) = -log(1 + e^x), computed stably
        total -= scored * _softplus(-x) + (count - scored) * _softplus(x)
    return total


def _softplus(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _expected(diff: float) -> float:
    x = _C * diff
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _centred(laplacian: list[list[float]]) -> list[list[float]]:
    """L + J/n: invertible for a connected group, and its inverse minus J/n
    is the pseudo-inverse of L."""
    n = len(laplacian)
    return [[value + 1.0 / n for value in row] for row in laplacian]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    inverse = _inverse(matrix)
    return [sum(a * b for a, b in zip(row, vector)) for row in inverse]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting (the matrix is symmetric positive
    definite, so this is stable)."""
    n = len(matrix)
    work = [list(row) + [1.0 if i == k else 0.0 for k in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda row: abs(work[row][col]))
        if abs(work[pivot][col]) < 1e-300:
            raise ValueError("singular information matrix")
        work[col], work[pivot] = work[pivot], work[col]
        lead = work[col][col]
        pivot_row = [value / lead for value in work[col]]
        work[col] = pivot_row
        for row in range(n):
            if row != col and work[row][col] != 0.0:
                factor = work[row][col]
                target = work[row]
                work[row] = [t - factor * p for t, p in zip(target, pivot_row)]
    return [row[n:] for row in work]


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
            table.add_game(game)

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
        """Fitted ratings per table and bot, without a prior: Bradley–Terry
        where a table holds only two-seat games (Plackett–Luce at two seats,
        fitted from the smaller pair table), Plackett–Luce over whole
        placements where it holds a pod game (a game table of 3 or 4 seats,
        or ``overall`` with pods in it: one model for every count)."""
        return {name: fit_placements(table) if table.pods else fit(table.pairs)
                for name, table in self.placements.items()}
