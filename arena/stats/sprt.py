"""The sequential probability ratio test of a gauntlet, on pentanomial counts.

The unit of shared luck is the seat-swapped pair: two games on one seed, the
bots trading seats. A pair scores 0, 1/2, 1, 3/2 or 2 (out of 2) for the
candidate, so the results of a test are five counts, LL, LD, DD+WL, WD, WW
(index = twice the pair's score). Counting pairs instead of games keeps the
test honest: the two games of a pair share their dice, so they are not
independent, and a trinomial (win/draw/loss per game) test would overstate
the evidence.

The test is fishtest's generalized SPRT (GSPRT) in **logistic Elo**, as
``fishtest/server/fishtest/stats/LLRcalc.py`` computes it in
``LLR_logistic``: H0 says the expected score per game is ``L(elo0)``, H1
says ``L(elo1)``, with ``L(x) = 1 / (1 + 10^(-x/400))``; the log-likelihood
ratio is ``N * sum_i p_i log(p1_i / p0_i)``, where ``p`` is the observed
distribution of the five outcomes (zero counts regularised to 1e-3, as
fishtest's ``regularize`` does, and ``N`` the regularised count, as
fishtest's ``results_to_pdf`` returns it) and ``p0``, ``p1`` are the maximum-likelihood
distributions under the constraint that their mean is ``L(elo0)``,
``L(elo1)`` (``MLE_expected``: ``p_i / (1 + x (a_i - s))`` with ``x`` the
root of the secular equation ``sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0``,
``a_i = i/4``; Michel Van den Bergh, "support_MLE_multinomial.pdf",
Proposition 1.1). fishtest finds the root with scipy's ``brentq``; here
bisection does it, on an interval where the function is strictly decreasing,
so plain Python suffices and scipy is not a dependency. The bounds are
Wald's: accept H0 at ``log(beta / (1 - alpha))``, H1 at
``log((1 - beta) / alpha)``.

**Why logistic Elo, not fishtest's default normalized Elo.** The bounds are
then in the Elo that ``arena standings`` prints (400 points for 10:1 odds),
so a bot author can read ``--sprt 0,50`` as "is it 50 Elo better than the
opponent, in the ratings I see?". Normalized Elo measures a difference in
units of the pair's standard deviation, which makes the same bounds mean
very different things at Slyyde (nearly a coin toss per game) and at
Ciclovia; it suits fishtest, which tests tiny changes of one engine at one
game, less so a gauntlet across four games of very different luck.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.stats.pentanomial import pair_bucket

OUTCOMES = 5  # pair scores 0, 1/2, 1, 3/2, 2
NAMES = ("LL", "LD", "DD+WL", "WD", "WW")  # a pair that scores 1: two draws, or a win and a loss
REGULARIZE = 1e-3  # fishtest's LLRcalc.regularize


def logistic_score(elo: float) -> float:
    """Expected score per game of a bot ``elo`` points stronger (``L_`` in fishtest)."""
    odds: float = 10.0 ** (-elo / 400.0)
    return 1.0 / (1.0 + odds)


def pair_outcome(points: Sequence[float]) -> int:
    """The pentanomial index of a pair from the candidate's points in its two
    games (each 0, 1/2 or 1, as :func:`arena.results.points` gives them)."""
    return pair_bucket(sum(points))


def _distribution(counts: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    """The regularised number of pairs and ``(a_i, p_i)``: pair score per
    game and its regularised frequency (fishtest's ``results_to_pdf`` after
    ``regularize``, which returns both)."""
    if len(counts) != OUTCOMES:
        raise ValueError(f"pentanomial counts are five numbers, got {list(counts)!r}")
    regular = [count if count > 0 else REGULARIZE for count in counts]
    total = sum(regular)
    return total, [(i / (OUTCOMES - 1), count / total) for i, count in enumerate(regular)]


def _secular(pdf: list[tuple[float, float]]) -> float:
    """The root ``x`` of ``sum_i p_i a_i / (1 + x a_i) = 0`` between ``-1/max a``
    and ``-1/min a`` (fishtest's ``secular``), by bisection: the function
    decreases strictly there, from plus to minus infinity."""
    values = [a for a, _ in pdf]
    low, high = -1.0 / max(values), -1.0 / min(values)
    if not min(values) < 0 < max(values):
        raise ValueError("the constrained mean must lie strictly between the outcomes")

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mle_expected(pdf: list[tuple[float, float]], mean: float) -> list[tuple[float, float]]:
    """The distribution on the same outcomes most likely to have produced
    ``pdf`` whose mean is ``mean`` (fishtest's ``MLE_expected``)."""
    x = _secular([(a - mean, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - mean))) for a, p in pdf]


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``)
    for pentanomial ``counts`` (fishtest's ``LLR_logistic``); 0 before any pair."""
    if sum(counts) == 0:
        return 0.0
    pairs, pdf = _distribution(counts)
    pdf0, pdf1 = (mle_expected(pdf, logistic_score(elo)) for elo in (elo0, elo1))
    per_pair = sum(p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdf, pdf0, pdf1))
    return pairs * per_pair  # fishtest multiplies by the regularised count too


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: below the first H0 is accepted, above the second H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class Sprt:
    """A test of H0: the candidate is ``elo0`` stronger, against H1: ``elo1``,
    with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt needs elo0 < elo1, got {self.elo0:g},{self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise ValueError(f"--{name} must lie strictly between 0 and 1, got {value:g}")
        if self.alpha + self.beta >= 1:
            raise ValueError(f"alpha + beta must be below 1, got {self.alpha:g} + {self.beta:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    def llr(self, counts: Sequence[float]) -> float:
        return llr_logistic(self.elo0, self.elo1, counts)

    def verdict(self, counts: Sequence[float]) -> str | None:
        """``H1 accepted``, ``H0 accepted``, or None while the test goes on."""
        return self.decide(self.llr(counts))

    def decide(self, llr: float) -> str | None:
        """The verdict of a log-likelihood ratio against Wald's bounds (the
        pentanomial test's, or the luck-adjusted one's: arena.stats.adjusted_sprt)."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1 accepted"
        if llr <= lower:
            return "H0 accepted"
        return None


def version_label(name: str, number: int) -> str:
    """A league version as the log and the site name it: "alpha v2"."""
    return f"{name} v{number}"


def version_test_words(new: str, old: str, sprt: Sprt, counts: Sequence[int], llr: float, verdict: str | None) -> str:
    """A league's test of version ``new`` against its predecessor ``old``
    in words (the log's and the site's): its verdict (``better``, ``not
    better``, ``undecided`` at the pair limit, or None while it goes on)."""
    lower, upper = sprt.bounds
    pairs = sum(counts)
    counted = f"{pairs} pair" + ("" if pairs == 1 else "s")
    if verdict == "better":
        return f"{new} is better than {old} (LLR {llr:.2f} ≥ {upper:.2f}, {counted})"
    if verdict == "not better":
        return f"{new} is not better than {old} by {sprt.elo1:g} Elo (LLR {llr:.2f} ≤ {lower:.2f}, {counted})"
    if verdict == "undecided":
        return f"{new} against {old}: undecided after {counted} (LLR {llr:.2f})"
    detail = ", ".join(f"{name} {count}" for name, count in zip(NAMES, counts))
    return f"{new} against {old}: LLR {llr:.2f} after {counted} ({detail}), bounds {lower:.2f}, {upper:.2f}"
