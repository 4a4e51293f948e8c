"""Running sums kept per unit of games, for the latest units only.

A unit is a few games that belong together: the two games of a seat-swapped
pair (:mod:`arena.stats.pentanomial`), a seat rotation on the same dice
(:mod:`arena.stats.luck`). Counting a million games, one unit's games come
close together in a tournament but anywhere at all in a store filled some
other way, and holding every unit's sums would cost memory per game. So
only the latest ``kept`` units are held; the sums of a unit let go are made
again from its earlier games, read from the store, when another of its games
comes. Which units were let go is remembered in a fixed number of bits (of
their hashes, so within one process): a unit neither held nor let go has no
earlier game and is not looked for, and a unit wrongly taken for one let go
(two hashes sharing a bit) only costs reading its earlier games, which give
the same sums.
"""

from __future__ import annotations

import collections
from collections.abc import Hashable
from typing import Generic, TypeVar

UNITS_KEPT = 50_000  # units held at once where their earlier games can be read again
LET_GO_BITS = 1 << 26  # 8 MiB, made when the first unit is let go

Sums = TypeVar("Sums")


class HeldUnits(Generic[Sums]):
    """The sums of the latest ``UNITS_KEPT`` units by unit (``bounded``
    False: of every unit, where there is nothing to read them again from).
    ``fresh`` False: units were counted before this object (a tally gone on
    from), so any unit not held may have earlier games."""

    def __init__(self, fresh: bool = True, bounded: bool = True) -> None:
        self.kept = UNITS_KEPT if bounded else None
        self.fresh = fresh
        self._held: collections.OrderedDict[Hashable, Sums] = collections.OrderedDict()
        self._let_go: bytearray | None = None

    def __len__(self) -> int:
        return len(self._held)

    def get(self, unit: Hashable) -> Sums | None:
        """A held unit's sums (it is then the latest used), else None."""
        sums = self._held.get(unit)
        if sums is not None:
            self._held.move_to_end(unit)
        return sums

    def may_have_earlier(self, unit: Hashable) -> bool:
        """Whether a unit not held may have games counted before: its sums
        must then be made again from them."""
        if not self.fresh:
            return True
        bit = hash(unit) % LET_GO_BITS
        return self._let_go is not None and bool(self._let_go[bit >> 3] & (1 << (bit & 7)))

    def put(self, unit: Hashable, sums: Sums) -> None:
        """Hold a unit's sums as the latest used, letting the oldest go past ``kept``."""
        self._held[unit] = sums
        self._held.move_to_end(unit)
        if self.kept is not None and len(self._held) > self.kept:
            gone, _ = self._held.popitem(last=False)
            if self._let_go is None:
                self._let_go = bytearray(LET_GO_BITS // 8)
            bit = hash(gone) % LET_GO_BITS
            self._let_go[bit >> 3] |= 1 << (bit & 7)

    def drop(self, unit: Hashable) -> None:
        """Forget a unit whose sums are back where a unit starts (a pair
        completed): the same as never seen."""
        self._held.pop(unit, None)
