"""The dice and the playouts' random choices draw exactly what Python's
random.randint and randrange draw from the same seeded stream (they skip the
argument checks for speed): recorded seeds must keep meaning the same games."""

from __future__ import annotations

import random

import pytest

from arena.games.base import ChanceRequest
from arena.games.dice import DiceStreams, stream_seed
from arena.games.playout import _below


@pytest.mark.parametrize("sides", [2, 3, 4, 5, 6, 7, 8, 10, 12, 20, 100])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_the_dice_are_what_randint_draws(sides, count):
    dice = DiceStreams(12345)
    request = ChanceRequest("roll", count, sides, "roll")
    reference = random.Random(stream_seed(12345, "roll"))
    for _ in range(200):
        assert dice.draw(request) == tuple(reference.randint(1, sides) for _ in range(count))


def test_a_playout_choice_is_what_randrange_draws():
    ours, reference = random.Random(99), random.Random(99)
    for n in [1, 2, 3, 5, 8, 13, 64, 65, 1000] * 100:
        assert _below(ours, n) == reference.randrange(n)
