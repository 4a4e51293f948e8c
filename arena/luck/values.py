"""The value estimate luck is measured with: each seat's expected result,
in the points the ratings use (``arena.results.points``), from a position.

A finished game is worth its points. Otherwise the house evaluation
(``arena.house.evaluations``) gives each seat a chance of winning ``p``;
each pair of seats is scored as a logistic of the log ratio of their
chances, ``sigmoid(slope * (ln p_i - ln p_j))``, and a seat's value is the
mean over its opponents, as its points are the mean of its pairwise results.
At two seats and slope 1 this is the evaluation itself. Where a learned
estimate is fitted (``arena.luck.learned``: Roundabout at two seats, whose
evaluation does not see what the dice in hand are worth), it is used
instead. The slope is
fitted per game and player count to the results of self-play games
(bench/fit_luck.py writes ``calibration.json``, package data beside this
module); a game or count without a fitted slope uses 1. Any estimate keeps
the adjusted result unbiased: the slope only decides how much of the dice
it removes.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from importlib import resources
from typing import Any

from arena import results
from arena.games.base import TERMINAL, State
from arena.house.evaluations import evaluator
from arena.luck.learned import has_model, learned_values

CALIBRATION = "calibration.json"
LOOK = 0  # own decisions looked ahead by default: looking ahead cost more spread than it removed (bench/luck.py --look)
FLOOR = 1e-9  # the least chance a log ratio is taken of (a retired seat's is 0)

PointValues = Callable[[State], list[float]]  # a state to each seat's expected points


@functools.cache
def load_calibration() -> dict[str, dict[str, Any]]:
    """The fitted slopes, ``{game: {players: {"slope": ..., ...}}}`` (read
    once: a worker measures every game's luck with them)."""
    text = resources.files(__package__).joinpath(CALIBRATION).read_text(encoding="utf-8")
    data: dict[str, dict[str, Any]] = json.loads(text)["games"]
    return data


def slope_for(game_name: str, players: int) -> float:
    fitted = load_calibration().get(game_name, {}).get(str(players))
    return 1.0 if fitted is None else float(fitted["slope"])


def expected_points(chances: list[float], slope: float) -> list[float]:
    """Each seat's expected points from its chance of winning (module docstring)."""
    players = len(chances)
    if players == 1:
        return [0.0]
    logs = [math.log(max(chance, FLOOR)) for chance in chances]
    values = []
    for i in range(players):
        total = 0.0
        for j in range(players):
            if j != i:
                total += 1.0 / (1.0 + math.exp(-slope * (logs[i] - logs[j])))
        values.append(total / (players - 1))
    return values


def point_values(game_name: str, players: int, slope: float | None = None,
                 look: int = LOOK) -> PointValues:
    """The value estimate of a game at a player count: the learned one
    (``arena.luck.learned``) where one is fitted for it, else the house
    evaluation with the fitted slope unless ``slope`` is given (the fitting
    script tries its own); ``look`` is how many decisions of the mover's own
    are tried ahead (0: none)."""
    if slope is None and look == LOOK and has_model(game_name, players):
        return learned_values(game_name, players)
    chances = evaluator(game_name)
    used = slope_for(game_name, players) if slope is None else slope

    def static(state: State) -> list[float]:
        if state.current_player() == TERMINAL:
            return list(results.points(state.outcome().placements))
        return expected_points(chances(state), used)

    def value(state: State) -> list[float]:
        return best_for_mover(state, static, look)
    return value


def best_for_mover(state: State, static: PointValues, look: int) -> list[float]:
    """The values after the mover's best ``look`` decisions of its own (by
    its own value), or as the state stands where chance or another seat
    acts next: a roll is worth what the mover can make of it."""
    mover = state.current_player()
    if look <= 0 or mover < 0:
        return static(state)
    best: list[float] | None = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values = best_for_mover(child, static, look - 1) if child.current_player() == mover \
            else static(child)
        if best is None or values[mover] > best[mover]:
            best = values
    assert best is not None, "a deciding seat always has an action"
    return best
