"""Statistics of one bot against another: the record, its interval, and how
sure we can be that one is the stronger.

The record counts pairwise results as :mod:`arena.results` defines them (the
better placement wins, equal placements draw), so a shared first place is a
draw here as everywhere. :class:`arena.stats.joint.PairTable` adds them up;
this module only reads a record.
"""

from __future__ import annotations

import math
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


# How sure the likelihood of superiority makes us, strongest first; the
# names are the site's colour classes for the head-to-head matrix.
EVIDENCE = ((0.99, "ev-strong-win"), (0.95, "ev-win"), (0.8, "ev-lean-win"))
AGAINST = ((0.01, "ev-strong-loss"), (0.05, "ev-loss"), (0.2, "ev-lean-loss"))


def evidence_class(los: float) -> str:
    """The evidence a likelihood of superiority gives, as one of seven
    levels from strong win to strong loss (``ev-none`` between)."""
    for limit, name in EVIDENCE:
        if los >= limit:
            return name
    for limit, name in AGAINST:
        if los <= limit:
            return name
    return "ev-none"
