"""Statistics of one bot against another: the record, its interval, and how
sure we can be that one is the stronger.

The record counts pairwise results as :mod:`arena.results` defines them (the
better placement wins, equal placements draw), so a shared first place is a
draw here as everywhere. :class:`arena.stats.joint.PairTable` adds them up;
this module only reads a record.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


@dataclass
class Record:
    """One bot's pairwise results against another."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def wilson(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson interval of a score fraction over ``games`` games:
    unlike the normal interval it stays inside [0, 1] and is honest about
    a 10-0 record."""
    if games == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def superiority(record: Record) -> float:
    """Likelihood of superiority from decisive games (draws carry no
    evidence): the probability that the first bot is the stronger, given
    its wins and losses, with every win probability equally likely before
    (``P(Beta(w + 1, l + 1) > 1/2) = P(Bin(w + l + 1, 1/2) <= w)``). Exact
    at any count; the normal approximation it replaces called a 5-0 record
    99.9% sure."""
    return 1.0 - binomial_tail(record.wins + 1, record.wins + record.losses + 1)


def sign_test(record: Record) -> float:
    """The exact two-sided p-value of "the two bots are equal" from the
    decisive games (the binomial sign test; draws carry no evidence):
    ``2 P(Bin(n, 1/2) >= max(w, l))``, at most 1. With few games it cannot
    go below what the count allows (5-0 gives 1/16), where the normal
    approximation gave .025 and coloured 7.7% of cells between equal bots."""
    decisive = record.wins + record.losses
    if decisive == 0:
        return 1.0
    return min(1.0, 2.0 * binomial_tail(max(record.wins, record.losses), decisive))


def binomial_tail(k: int, n: int) -> float:
    """``P(Bin(n, 1/2) >= k)``, as the regularised incomplete beta function
    ``I_{1/2}(k, n - k + 1)`` (so large counts cost no more than small ones)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return _incomplete_beta(float(k), float(n - k + 1), 0.5)


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function by its continued fraction
    (Numerical Recipes' ``betai``, modified Lentz), on the side where it
    converges fast."""
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300

    def guard(value: float) -> float:
        return value if abs(value) >= tiny else tiny

    c, d = 1.0, 1.0 / guard(1.0 - (a + b) * x / (a + 1.0))
    result = d
    for m in range(1, 100_000):
        step = m * (b - m) * x / ((a - 1.0 + 2 * m) * (a + 2 * m))
        d = 1.0 / guard(1.0 + step * d)
        c = guard(1.0 + step / c)
        result *= d * c
        step = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1.0 + 2 * m))
        d = 1.0 / guard(1.0 + step * d)
        c = guard(1.0 + step / c)
        result *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return result


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values for a family of m tests: a test is
    significant at family-wise level alpha where its adjusted p is at most
    alpha. Sorted ascending, the k-th (from 0) is multiplied by m - k, capped
    at 1, and the adjusted values are kept non-decreasing in that order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


class Evidence(enum.Enum):
    """What a head-to-head record shows once the whole family of pairs is
    taken into account: a difference that holds at family-wise 1%
    (``STRONG_``), at 5%, or none."""

    NONE = "none"
    WIN = "win"
    LOSS = "loss"
    STRONG_WIN = "strong-win"
    STRONG_LOSS = "strong-loss"

    def mirrored(self) -> Evidence:
        """The same evidence seen from the other bot: a win is its loss."""
        return Evidence(self.value.replace("win", "@").replace("loss", "win").replace("@", "loss"))


# Family-wise levels (Holm over the pairs of one matrix) at which a
# difference holds, strongest first.
FAMILY_LEVELS = ((0.01, {"win": Evidence.STRONG_WIN, "loss": Evidence.STRONG_LOSS}),
                 (0.05, {"win": Evidence.WIN, "loss": Evidence.LOSS}))


def family_evidence(records: Sequence[Record]) -> list[Evidence]:
    """The evidence of each of a family of comparisons (one per pair of
    bots in a matrix, given as one bot's record against the other): ``WIN``
    or ``LOSS`` where the exact sign test (:func:`sign_test`) is significant
    at family-wise 5% after Holm's correction for the number of
    comparisons, ``STRONG_WIN`` or ``STRONG_LOSS`` at 1%, ``NONE``
    otherwise. Without the correction, among 66 pairs of equal bots three
    would look significant at 5% by chance alone; without the exact test, a
    pair of equal bots over 5 games would show a difference 7.7% of the time
    instead of at most 5%."""
    adjusted = holm([sign_test(record) for record in records])
    found = []
    for record, p in zip(records, adjusted):
        side = "win" if record.wins > record.losses else "loss"
        found.append(next((by_side[side] for level, by_side in FAMILY_LEVELS if p <= level), Evidence.NONE))
    return found
