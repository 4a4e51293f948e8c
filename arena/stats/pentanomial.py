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

Two edges give no number. A bot that won (lost) every pair has a score of 1
(0): its Elo is unbounded, not finite, and ``elo_bound`` says so ("won every
pair", "lost every pair"). Below :data:`MIN_PAIRS` pairs the interval and the
LOS are not given at all (``interval_missing`` says why): see there.

Points come from :mod:`arena.results` (a shared first place is a draw).

For other modules (the SPRT in ``arena.stats.sprt`` may import them):
:func:`pentanomial` turns a list of pair scores into counts, and
:class:`SeatSwappedPairs` finds pairs in stored games and counts them per
table and pair of bots.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from arena import results
from arena.model import StoredGame
from arena.stats.pairs import Z95
from arena.stats.tables import OVERALL, table_name
from arena.stats.units import HeldUnits

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)  # what counts[k] counts: a pair scoring k/2 of 2

# Fewer pairs than this give no interval and no LOS. Both rest on the
# normal approximation with the variance estimated from the pairs
# themselves, which is unusable on a handful: from one pair the estimate is
# always 0 (a zero-width interval), and the chance that every pair scored
# alike, giving 0 again, falls only as p**N. Simulated (bench/pair_interval.py:
# 200,000 draws of N pairs from pentanomial distributions from even to 60%
# of pairs won 2-0), the nominal 95% interval holds the true score in as
# few as 48% of the draws at 2 pairs and 80% at 6 (and is zero-width in up
# to 65% of them), in 88-96% from 10 pairs on (92-94% at 30): 10 is where
# it starts to mean roughly what it says.
MIN_PAIRS = 10


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
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: an even score is 0, not -0.0


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

    def elo_interval(self, z: float = Z95) -> tuple[float | None, float | None]:
        """95% interval of the Elo difference, an end at a score of 0 or 1
        unbounded (None, as JSON has no infinity): the one interval the
        standings, the site and the gauntlet (:func:`arena.play.gauntlet.summary`)
        print, from MIN_PAIRS pairs on."""
        low, high = logistic_elo(self.score - z * self.error), logistic_elo(self.score + z * self.error)
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

    @property
    def elo_bound(self) -> str | None:
        """Why the Elo difference is unbounded ("won every pair", "lost
        every pair"), or None where it is a number."""
        if self.pairs and self.counts[4] == self.pairs:
            return "won every pair"
        if self.pairs and self.counts[0] == self.pairs:
            return "lost every pair"
        return None

    @property
    def interval_missing(self) -> str | None:
        """Why there is no interval and no LOS (fewer than MIN_PAIRS pairs), or None."""
        return f"too few pairs ({self.pairs} < {MIN_PAIRS})" if self.pairs < MIN_PAIRS else None

    def to_json(self) -> dict[str, Any]:
        """The statistics as standings print them: ``elo`` None with
        ``elo_bound`` saying why where it is unbounded; the interval and the
        LOS None with ``interval_missing`` saying why below MIN_PAIRS (an
        interval's end alone None where it is unbounded)."""
        low, high = (None, None) if self.interval_missing else self.elo_interval()
        return {"a": self.a, "b": self.b, "pairs": self.pairs, "counts": list(self.counts),
                "score": round(self.score, 4), "elo": rounded_elo(self.elo), "elo_bound": self.elo_bound,
                "elo_low": rounded_elo(low), "elo_high": rounded_elo(high),
                "interval_missing": self.interval_missing,
                "los": None if self.interval_missing else round(self.los, 4),
                "draw_ratio": round(self.draw_ratio, 4)}


def rounded_elo(value: float | None) -> float | None:
    """An Elo as JSON gives it: to a tenth, never -0.0, None for none (or infinite)."""
    return None if value is None or math.isinf(value) else round(value, 1) + 0.0


@dataclass
class SeatSwappedPairs:
    """Finds seat-swapped pairs among stored two-seat games, fed one game at
    a time in rating order: two games of the same game and options, on the
    same seed, between the same two bots with their seats swapped. A game
    whose partner is missing (not played yet, or one game of a match) is
    left out. Pairs are counted per table (``detour``) and overall; in each,
    the pair of bots is keyed in name order, the first bot's scores counted.

    Each pair of bots on a seed is a unit (:mod:`arena.stats.units`): where
    ``earlier`` gives, for a new game, the games before it in rating order
    that may be its partners (the same game and seed), only the latest
    units' waiting games are held, and those of a unit let go are found
    again by pairing its earlier games among themselves. Going on from
    saved counts (:meth:`from_json`), the games that still waited are not
    saved (they may be most of the games: a store of unpaired games), and
    every unit not held is found again so."""

    counts: dict[str, dict[tuple[str, str], list[int]]] = field(default_factory=dict)
    earlier: Callable[[StoredGame], Iterable[StoredGame]] | None = None
    fresh: bool = True  # no game was counted before (else: gone on from saved counts)

    def __post_init__(self) -> None:
        # Games waiting for their partner, by what a partner shares: their
        # seats and placements, in the order they came.
        self._waiting: HeldUnits[list[tuple[tuple[str, ...], results.Placements]]] = HeldUnits(
            self.fresh, bounded=self.earlier is not None)

    def add(self, game: StoredGame) -> None:
        if game.players != 2 or game.seats[0] == game.seats[1]:
            return
        key = (game.game, json.dumps(game.options, sort_keys=True), game.seed, frozenset(game.seats))
        waiting = self._waiting.get(key)
        if waiting is None:
            waiting = []
            if self.earlier is not None and self._waiting.may_have_earlier(key):
                before = SeatSwappedPairs()
                for rated in self.earlier(game):
                    before.add(rated)
                waiting = before._waiting.get(key) or []
        for other in waiting:
            if other[0] == game.seats[::-1]:
                waiting.remove(other)
                self._count(game.game, other, (game.seats, game.placements))
                if waiting:
                    self._waiting.put(key, waiting)
                else:
                    self._waiting.drop(key)
                return
        waiting.append((game.seats, game.placements))
        self._waiting.put(key, waiting)

    def _count(self, game: str, *pair: tuple[tuple[str, ...], results.Placements]) -> None:
        a, b = sorted(pair[0][0])
        score = sum(results.points(placements)[seats.index(a)] for seats, placements in pair)
        for table in (table_name(game, 2), OVERALL):
            row = self.counts.setdefault(table, {}).setdefault((a, b), [0] * 5)
            row[pair_bucket(score)] += 1

    def to_json(self) -> dict[str, Any]:
        """The counts, to go on from (without the games still waiting)."""
        return {table: [[a, b, row] for (a, b), row in rows.items()] for table, rows in self.counts.items()}

    @classmethod
    def from_json(cls, data: dict[str, Any], earlier: Callable[[StoredGame], Iterable[StoredGame]]
                  ) -> SeatSwappedPairs:
        """Counts saved by :meth:`to_json`, going on with ``earlier`` (see above)."""
        return cls({table: {(a, b): row for a, b, row in rows} for table, rows in data.items()}, earlier, fresh=False)

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


def elo_text(stats: dict[str, Any]) -> str:
    """The Elo estimate of :meth:`PairStats.to_json` (or the gauntlet's
    summary) in words: "+35 (-20 to +91)", "+35 (no interval: too few pairs
    (4 < 10))", "unbounded (won every pair)"; an unbounded end is +inf or -inf."""
    if stats["elo_bound"]:
        return f"unbounded ({stats['elo_bound']})"
    if stats["interval_missing"]:
        return f"{_signed(stats['elo'])} (no interval: {stats['interval_missing']})"
    low = "-inf" if stats["elo_low"] is None else _signed(stats["elo_low"])
    high = "+inf" if stats["elo_high"] is None else _signed(stats["elo_high"])
    return f"{_signed(stats['elo'])} ({low} to {high})"


def _signed(elo: float) -> str:
    return f"{round(elo):+d}"  # round() first: -0.4 is "+0", not "-0"
