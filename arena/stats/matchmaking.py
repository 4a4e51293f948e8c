"""Which unit a league plays next: a pure function of the posteriors and the
counts, so a restarted league chooses as the one it replaces would have.

A unit is a seat-swapped pair (two seats) or a pod's rotations (three or
four), at one rating table. In order:

1. **Provisional burst.** A version with fewer than ``PROVISIONAL_UNITS``
   units at a table it plays goes first (the one with fewest, then by name),
   as Kaggle's simulation competitions give a new submission its first
   games at once: its interval is widest, and its rank matters most to its
   author.
2. **Guaranteed share.** An active version left out of the last
   ``share_window`` units (by default ``SHARE_FACTOR`` times the units a
   round robin would need for every version to play once: an eighth of its
   round-robin share) goes next, whatever the information says, so that no
   version is starved because its place looks settled.
3. **Information.** Otherwise the unit whose result is expected to shrink
   the uncertainty of the standings most, per game: the fall of the
   posterior covariance's trace (arena.stats.posterior, "Value of a unit"),
   over every pair of a two-seat table and, at three or four seats, pods
   built greedily (the best pair, then the version that adds most, until
   the pod is full; the exact k-seat information scores each step).

A version forced in by 1 or 2 gets its partners by 3's value. Ties go to
the first in name order, so the choice is deterministic.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from arena.stats.posterior import Posterior, unit_values

PROVISIONAL_UNITS = 6
SHARE_FACTOR = 8


@dataclass(frozen=True)
class Table:
    """One rating table as the league sees it: its game and seats, the
    posterior of every version rated there, the active versions that play
    it, and the units each has played there."""

    name: str
    players: int
    posterior: Posterior
    active: tuple[str, ...]
    units: Mapping[str, int]


@dataclass(frozen=True)
class Choice:
    table: str
    versions: tuple[str, ...]  # the unit's versions, in name order (the league rotates the seats)
    reason: str  # "provisional", "share" or "information"
    value: float  # expected fall of the covariance's trace per game (Elo^2)


def share_window(active: int, seats: int) -> int:
    """Units within which every active version plays at least once: an
    eighth of the share a round robin would give it."""
    return max(1, math.ceil(SHARE_FACTOR * active / seats))


def choose(tables: Sequence[Table], waited: Mapping[str, int], window: int | None = None) -> Choice | None:
    """The next unit, or None where no table has enough active versions.
    ``waited``: units since each active version last played (any table);
    ``window``: the guaranteed share's, by default :func:`share_window` of
    the active versions and the smallest seat count."""
    playable = [table for table in tables if len(table.active) >= table.players]
    if not playable:
        return None
    provisional = [(table.units.get(version, 0), version, n, table) for n, table in enumerate(playable)
                   for version in table.active if table.units.get(version, 0) < PROVISIONAL_UNITS]
    if provisional:
        _, version, _, table = min(provisional, key=lambda entry: entry[:3])
        return _best(table, (version,), "provisional")
    everyone = sorted({version for table in playable for version in table.active})
    if window is None:
        window = share_window(len(everyone), min(table.players for table in playable))
    starved = [(-waited.get(version, 0), version) for version in everyone if waited.get(version, 0) >= window]
    if starved:
        _, version = min(starved)
        options = [_best(table, (version,), "share") for table in playable if version in table.active]
        return max(options, key=lambda choice: choice.value)
    return max((_best(table, (), "information") for table in playable), key=lambda choice: choice.value)


def _best(table: Table, forced: tuple[str, ...], reason: str) -> Choice:
    """The most informative unit of ``table`` holding the ``forced`` versions."""
    posterior = table.posterior
    index = {version: posterior.versions.index(version) for version in table.active}
    names = sorted(table.active)
    pod = [index[version] for version in forced]
    candidates = [index[version] for version in names if version not in forced]
    if not pod:
        pairs = np.array(list(itertools.combinations(candidates, 2)), dtype=np.intp)
        values = unit_values(posterior, pairs, 2)
        pod = [int(v) for v in pairs[int(np.argmax(values))]]
        value = float(values.max())
    while len(pod) < table.players:
        rest = [k for k in candidates if k not in pod]
        pods = np.array([pod + [k] for k in rest], dtype=np.intp)
        values = unit_values(posterior, pods, len(pod) + 1)
        best = int(np.argmax(values))
        pod, value = pod + [rest[best]], float(values[best])
    return Choice(table.name, tuple(sorted(posterior.versions[k] for k in pod)), reason, value)
