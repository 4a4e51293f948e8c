"""What the games' evaluations share (each game's package has its own
``evaluation.py``, named in its GameSpec; the house bots use them through
arena.house.evaluations).

An evaluation turns a position (a state's ``to_json()``) into every seat's
chance of winning: a per-seat strength (fewer turns still needed in a
race, more points in a points game), adjusted for who moves next, through a
softmax. A game's ``GameSpec.evaluation`` is a factory: the board data in,
the evaluation out (the tables it builds from the board are made once).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

Evaluation = Callable[[dict[str, Any]], list[float]]
EvaluationFactory = Callable[[dict[str, Any]], Evaluation]


def softmax(strengths: list[float], scale: float) -> list[float]:
    """Chances of winning from strengths (higher is better)."""
    top = max(strengths)
    weights = [math.exp((s - top) / scale) for s in strengths]
    total = sum(weights)
    return [w / total for w in weights]


def order_offsets(players: int, mover: int | None, left: float = 1.0) -> list[float]:
    """How far behind in the turn order each seat is, in turns: the seats
    after the mover wait their turn (a fraction each), and the mover, with
    ``left`` of its turn still to play (1 before its roll, 0 once its dice
    are used), waits for the rest of the round. This keeps a position in the
    middle of a turn comparable with one at its end."""
    if mover is None:
        return [0.0] * players
    return [1.0 - left if seat == mover else ((seat - mover) % players) / players
            for seat in range(players)]
