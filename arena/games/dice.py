"""Seeded chance streams.

Every stream is its own ``random.Random`` seeded from the game seed and the
stream's name through SHA-256, so a stream's values depend only on
(seed, name) and on how many values were drawn from it before: seat 0 gets
the same rolls whatever the bots decide and whoever sits in seat 0. That is
what makes seat-swapped pairs share their luck.
"""

from __future__ import annotations

import hashlib
import random

from arena.games.base import ChanceRequest


def stream_seed(seed: int, name: str) -> int:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits: fits an SQLite INTEGER


class DiceStreams:
    """Named, independent, reproducible random streams for one game."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._streams: dict[str, random.Random] = {}

    def draw(self, request: ChanceRequest) -> tuple[int, ...]:
        stream = self._streams.get(request.stream)
        if stream is None:
            stream = self._streams[request.stream] = random.Random(stream_seed(self.seed, request.stream))
        # Exactly stream.randint(1, sides) per die (CPython's randint is
        # 1 + _randbelow(sides): getrandbits of sides.bit_length() bits,
        # drawn again while too large), without its argument checks: the
        # dice are the hottest call of a playout.
        getrandbits, sides = stream.getrandbits, request.sides
        bits = sides.bit_length()
        if request.count == 1:
            value = getrandbits(bits)
            while value >= sides:
                value = getrandbits(bits)
            return (value + 1,)
        values = []
        for _ in range(request.count):
            value = getrandbits(bits)
            while value >= sides:
                value = getrandbits(bits)
            values.append(value + 1)
        return tuple(values)
