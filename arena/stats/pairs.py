"""Statistics of one bot against another: the record, its interval, and how
sure we can be that one is the stronger.

The record counts pairwise results as :mod:`arena.results` defines them (the
better placement wins, equal placements draw), so a shared first place is a
draw here as everywhere. :class:`arena.stats.joint.PairTable` adds them up;
this module only reads a record.
"""

from __future__ import annotations

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
    evidence): the probability that the first bot is the stronger."""
    decisive = record.wins + record.losses
    if decisive == 0:
        return 0.5
    return 0.5 * (1 + math.erf((record.wins - record.losses) / math.sqrt(2 * decisive)))


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


def two_sided_p(los: float) -> float:
    """The two-sided p-value of "the two are equal" from a likelihood of
    superiority (a normal approximation): ``2 min(LOS, 1 - LOS)``."""
    return min(1.0, 2.0 * min(los, 1.0 - los))


# The head-to-head colours: family-wise levels (Holm over the pairs of one
# matrix) at which a cell's difference holds, strongest first; the names are
# the site's colour classes.
FAMILY_LEVELS = ((0.01, "strong"), (0.05, ""))


def family_classes(los: Sequence[float]) -> list[str]:
    """The colour class of each of a family of comparisons (one per pair of
    bots in a matrix, given as the LOS of one bot over the other): ``ev-win``
    or ``ev-loss`` where the difference is significant at family-wise 5%
    after Holm's correction for the number of comparisons, ``ev-strong-win``
    or ``ev-strong-loss`` at 1%, ``ev-none`` otherwise. Without the
    correction, among 66 pairs of equal bots three would look significant
    at 5% by chance alone."""
    adjusted = holm([two_sided_p(x) for x in los])
    classes = []
    for value, p in zip(los, adjusted):
        side = "win" if value > 0.5 else "loss"
        name = "ev-none"
        for level, strength in FAMILY_LEVELS:
            if p <= level:
                name = f"ev-{strength}-{side}" if strength else f"ev-{side}"
                break
        classes.append(name)
    return classes


def mirrored(cls: str) -> str:
    """The colour of a cell seen from the other bot: a win is its loss."""
    return cls.replace("win", "@").replace("loss", "win").replace("@", "loss")
