"""Statistics of two bots over seat-swapped pairs: the pentanomial model.

A tournament plans two-seat games in *pairs*: two games on one seed, the
bots' seats swapped, so each bot meets the same dice from both seats. The
two games of a pair share that luck, so they are not independent results;
the pair is. A pair scores 0, 1/2, 1, 3/2 or 2 points out of 2 for the first
bot (the pentanomial counts, as fishtest and fastchess count them), and the
statistics below treat the pairs as the independent samples:

* score ``mu``: the mean of the pair scores divided by 2 (points per game);
* its variance: the spread of the per-game pair scores ``x = pair score / 2``
  over the N pairs, ``sigma^2 = sum p_k (x_k - mu)^2``, and the variance of
  ``mu`` is ``sigma^2 / N``;
* Elo difference ``-400 log10(1 / mu - 1)`` with the 95% interval of ``mu``
  (``mu +- 1.96 sqrt(sigma^2 / N)``) mapped through the same function; an
  end at a score of 0 or 1 or beyond is unbounded (None);
* LOS, the likelihood of superiority: ``Phi((mu - 1/2) / sqrt(sigma^2 / N))``;
* draw ratio: the share of pairs that scored exactly 1 of 2 (fastchess's
  "DrawRatio": a drawn pair, whether two draws or a win and a loss).

Points come from :mod:`arena.results` (a shared first place is a draw).

For other modules (the SPRT in ``arena.stats.sprt`` may import them):
:func:`pentanomial` turns a list of pair scores into counts, and
:class:`SeatSwappedPairs` finds pairs in stored games and counts them per
table and pair of bots.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arena import results
from arena.model import StoredGame
from arena.stats.pairs import Z95
from arena.stats.tables import OVERALL, table_name

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)  # what counts[k] counts: a pair scoring k/2 of 2


def pair_bucket(pair_score: float) -> int:
    """Which pentanomial count a pair adds to: the index in PAIR_SCORES of
    its score (the first bot's points over the two games, 0 to 2 by halves)."""
    k = round(2 * pair_score)
    if not 0 <= k <= 4 or abs(2 * pair_score - k) > 1e-9:
        raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2, got {pair_score!r}")
    return k


def pentanomial(pair_scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    """Counts of pairs that scored 0, 1/2, 1, 3/2 and 2 points of 2 (each
    pair score is the first bot's points over the two games)."""
    counts = [0] * 5
    for score in pair_scores:
        counts[pair_bucket(score)] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def elo_difference(score: float) -> float | None:
    """The Elo difference that expects ``score`` per game; None at 0 or 1."""
    elo = logistic_elo(score)
    return None if math.isinf(elo) else elo


def logistic_elo(score: float) -> float:
    """The Elo difference that expects ``score`` per game (fishtest's
    logistic Elo, the inverse of ``1 / (1 + 10^(-elo/400))``); infinite at
    a score of 0 or 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class PairStats:
    """One bot (``a``) against another (``b``) over seat-swapped pairs."""

    a: str
    b: str
    counts: tuple[int, int, int, int, int]

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def score(self) -> float:
        """a's points per game."""
        if not self.pairs:
            return 0.5
        return sum(n * k / 4 for k, n in enumerate(self.counts)) / self.pairs

    @property
    def variance(self) -> float:
        """The variance of one pair's per-game score (``sigma^2``)."""
        if not self.pairs:
            return 0.0
        mu = self.score
        return sum(n * (k / 4 - mu) ** 2 for k, n in enumerate(self.counts)) / self.pairs

    @property
    def error(self) -> float:
        """The standard error of ``score``."""
        return math.sqrt(self.variance / self.pairs) if self.pairs else 0.0

    @property
    def elo(self) -> float | None:
        return elo_difference(self.score)

    def elo_bounds(self, z: float = Z95) -> tuple[float, float]:
        """95% interval of the Elo difference, an end at a score of 0 or 1
        infinite: the one interval the standings, the site and the
        gauntlet (:func:`arena.stats.sprt.estimate`) print."""
        return logistic_elo(self.score - z * self.error), logistic_elo(self.score + z * self.error)

    def elo_interval(self, z: float = Z95) -> tuple[float | None, float | None]:
        """:meth:`elo_bounds` with an unbounded end None (as JSON has no infinity)."""
        low, high = self.elo_bounds(z)
        return (None if math.isinf(low) else low), (None if math.isinf(high) else high)

    @property
    def los(self) -> float:
        """P(a is stronger than b), normal approximation over pairs."""
        if self.error == 0.0:
            return 0.5 if self.score == 0.5 else float(self.score > 0.5)
        return 0.5 * (1 + math.erf((self.score - 0.5) / (self.error * math.sqrt(2))))

    @property
    def draw_ratio(self) -> float:
        return self.counts[2] / self.pairs if self.pairs else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.elo_interval()
        return {"a": self.a, "b": self.b, "pairs": self.pairs, "counts": list(self.counts),
                "score": round(self.score, 4), "elo": _round(self.elo), "elo_low": _round(low),
                "elo_high": _round(high), "los": round(self.los, 4), "draw_ratio": round(self.draw_ratio, 4)}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


@dataclass
class SeatSwappedPairs:
    """Finds seat-swapped pairs among stored two-seat games, fed one game at
    a time in any order: two games of the same game and options, on the same
    seed, between the same two bots with their seats swapped. A game whose
    partner is missing (not played yet, or one game of a match) is left
    out. Pairs are counted per table (``detour``) and overall; in each, the
    pair of bots is keyed in name order, the first bot's scores counted."""

    counts: dict[str, dict[tuple[str, str], list[int]]] = field(default_factory=dict)
    _waiting: dict[tuple[Any, ...], list[StoredGame]] = field(default_factory=dict)

    def add(self, game: StoredGame) -> None:
        if game.players != 2 or game.seats[0] == game.seats[1]:
            return
        key = (game.game, json.dumps(game.options, sort_keys=True), game.seed, frozenset(game.seats))
        waiting = self._waiting.setdefault(key, [])
        for other in waiting:
            if other.seats == game.seats[::-1]:
                waiting.remove(other)
                self._count(other, game)
                return
        waiting.append(game)

    def _count(self, first: StoredGame, second: StoredGame) -> None:
        a, b = sorted(first.seats)
        score = sum(_points_of(a, g) for g in (first, second))
        for table in (table_name(first.game, 2), OVERALL):
            row = self.counts.setdefault(table, {}).setdefault((a, b), [0] * 5)
            row[pair_bucket(score)] += 1

    def stats(self, table: str) -> list[PairStats]:
        """Every pair of bots of a table with pairs, in name order."""
        return [PairStats(a, b, (c[0], c[1], c[2], c[3], c[4]))
                for (a, b), c in sorted(self.counts.get(table, {}).items())]

    def between(self, table: str, a: str, b: str) -> PairStats | None:
        """a against b (either order), or None without pairs."""
        first, second = sorted((a, b))
        c = self.counts.get(table, {}).get((first, second))
        if c is None:
            return None
        if first == a:
            return PairStats(a, b, (c[0], c[1], c[2], c[3], c[4]))
        return PairStats(a, b, (c[4], c[3], c[2], c[1], c[0]))


def _points_of(bot: str, game: StoredGame) -> float:
    return results.points(game.placements)[game.seats.index(bot)]
