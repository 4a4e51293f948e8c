"""The gauntlet's sequential test on luck-adjusted pair scores (``--luck-adjusted``).

A pair's **adjusted score** is the mean of the candidate's luck-adjusted
results in its two games: its points (1, 1/2 or 0) less the luck the dice
gave it (``arena.luck``), a real number instead of one of five values. The
adjustment has mean zero whatever the value estimate, so a candidate
``elo`` points stronger expects the same per game adjusted as raw:
``L(elo) = 1 / (1 + 10^(-elo/400))``, the logistic score of the pentanomial
test (:func:`arena.stats.sprt.logistic_score`). H0 says the pair scores have
mean ``s0 = L(elo0)``, H1 ``s1 = L(elo1)``.

The test is the generalized SPRT for a continuous outcome under a normal
model: the N pair scores ``x_i`` are taken as independent normal draws of
unknown variance; under each hypothesis the variance is its maximum
likelihood estimate given that mean, ``r_j = (1/N) sum_i (x_i - s_j)^2``,
and the log-likelihood ratio is ``N/2 log(r0 / r1)`` (fishtest's
``LLR_alt`` in ``server/fishtest/stats/LLRcalc.py``, whose first-order form
``N (s1 - s0)(2 mean - s0 - s1) / (2 var)`` is its ``LLR_alt2``, the
"normalized" test). Wald's bounds and the alpha, beta, elo0, elo1 of the
pentanomial test (:class:`arena.stats.sprt.Sprt`) are kept as they are.

No verdict comes before :data:`MIN_PAIRS` pairs (the number the
pentanomial intervals wait for): the variance is estimated from the pairs
themselves, and from a handful it is often too small (adjusted scores are a
mixture: most pairs near the mean, a few a whole point off), so a test that
would stop within a few pairs stops too soon, on the wrong side too often.
Simulated (``bench/sprt_luck.py --gaps 100,200 --ratios 0.9 --batch 2
--runs 2000 --adjusted-only``, with ``--min-pairs 0`` and 10), H1 true:
6.3% and 5.9% of the tests accepted H0 at 0,100 and 0,200 without the
wait (beta is 5%, the standard error 0.5%), 3.5% and 1.1% with it; tests
that need more pairs than that are not changed by it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from arena.stats.pairs import Z95
from arena.stats.pentanomial import MIN_PAIRS, logistic_elo, rounded_elo
from arena.stats.sprt import Sprt, logistic_score

FLOOR = 1e-12  # the least mean square deviation a logarithm is taken of (all pair scores equal)


@dataclass(frozen=True)
class Moments:
    """What the test needs of the pair scores: their number, sum and sum of
    squares (so a long test costs the same at every look)."""

    pairs: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, score: float) -> Moments:
        return Moments(self.pairs + 1, self.total + score, self.squares + score * score)

    @classmethod
    def of(cls, scores: list[float]) -> Moments:
        return cls(len(scores), math.fsum(scores), math.fsum(score * score for score in scores))

    @property
    def mean(self) -> float:
        return self.total / self.pairs if self.pairs else 0.0

    def square_deviation(self, centre: float) -> float:
        """The mean of ``(x - centre)^2`` over the pair scores."""
        return max(self.squares / self.pairs - 2 * centre * self.mean + centre * centre, FLOOR)

    @property
    def variance(self) -> float:
        """The spread of one pair's score (divided by N, as ``PairStats.variance``)."""
        return self.square_deviation(self.mean) if self.pairs else 0.0

    @property
    def error(self) -> float:
        """The standard error of the mean adjusted score."""
        return math.sqrt(self.variance / self.pairs) if self.pairs else 0.0


def llr_normal(elo0: float, elo1: float, moments: Moments) -> float:
    """The normal GSPRT log-likelihood ratio of H1 (``elo1``) against H0
    (``elo0``) for adjusted pair scores (module docstring); 0 before any pair."""
    if not moments.pairs:
        return 0.0
    r0, r1 = (moments.square_deviation(logistic_score(elo)) for elo in (elo0, elo1))
    return moments.pairs / 2 * math.log(r0 / r1)


def llr(sprt: Sprt, moments: Moments) -> float:
    return llr_normal(sprt.elo0, sprt.elo1, moments)


def verdict(sprt: Sprt, moments: Moments, min_pairs: int = MIN_PAIRS) -> str | None:
    """``H1 accepted``, ``H0 accepted``, or None while the test goes on
    (always before ``min_pairs`` pairs: bench/sprt_luck.py tries others)."""
    return sprt.decide(llr(sprt, moments)) if moments.pairs >= min_pairs else None


def estimate(moments: Moments) -> dict[str, Any]:
    """The adjusted score per game and the logistic Elo it means, with the
    95% interval of the mean mapped through the same function, in the shape
    of the pentanomial estimate (``PairStats.to_json``): no interval below
    MIN_PAIRS pairs (``interval_missing`` says why), an Elo or an end whose
    score is at or beyond 0 or 1 None (``elo_bound`` says so for the Elo)."""
    score, error = moments.mean, moments.error
    elo = logistic_elo(score)
    missing = f"too few pairs ({moments.pairs} < {MIN_PAIRS})" if moments.pairs < MIN_PAIRS else None
    low, high = (None, None) if missing else (logistic_elo(score - Z95 * error), logistic_elo(score + Z95 * error))
    return {"pairs": moments.pairs, "score": round(score, 4), "error": round(error, 4),
            "elo": rounded_elo(elo),
            "elo_bound": f"adjusted score {score:.3f} is not between 0 and 1" if math.isinf(elo) else None,
            "elo_low": rounded_elo(low), "elo_high": rounded_elo(high), "interval_missing": missing}
