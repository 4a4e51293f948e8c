"""Fit the slopes of the luck value estimate (arena/luck/values.py) to
self-play games and write them to arena/luck/calibration.json.

Per game and player count, ``--games`` games are played in-process with the
greedy bot's policy (bots/greedy_bot.py, its ``choose``) in every seat, on
seeds of their own (``--seed``, far from the seeds bench/luck.py and the
tests adjust). After every chance event the house evaluation's chances of
winning are kept with the game's final placements; the slope is the
maximum-likelihood fit of every pair of seats' result (1, 1/2 or 0, the
pairwise points of arena.results) to ``sigmoid(slope * (ln p_i - ln p_j))``
(bisection on the likelihood's derivative, with numpy). The file records the
games, positions and pairs each slope was fitted on.

    .venv/bin/python bench/fit_luck.py [--games 60] [--seed 900000] [--only detour:2]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bots"))

import greedy_bot  # noqa: E402

from arena import results  # noqa: E402
from arena.games import GAMES, get_game  # noqa: E402
from arena.games.base import CHANCE, TERMINAL, State  # noqa: E402
from arena.games.dice import DiceStreams  # noqa: E402
from arena.house.evaluations import evaluated_games, evaluator  # noqa: E402
from arena.luck.values import CALIBRATION, FLOOR  # noqa: E402

OUTPUT = REPO / "arena" / "luck" / CALIBRATION


def self_play(game_name: str, players: int, seed: int,
              observe: Callable[[State], Any] | None = None) -> tuple[list[Any], tuple[int, ...]]:
    """One greedy self-play game: what ``observe`` (by default the house
    evaluation's chances) sees after every chance event, and the placements."""
    evaluate = evaluator(game_name)
    look = observe or evaluate
    state = get_game(game_name).new_state(players)
    dice, chooser = DiceStreams(seed), random.Random(seed)
    seen: list[Any] = []
    while (seat := state.current_player()) != TERMINAL:
        if seat == CHANCE:
            state.apply_chance(dice.draw(state.chance_request()))
            if not state.is_terminal():
                seen.append(look(state))
        else:
            state.apply_action(state.legal_actions()[greedy_bot.choose(state, evaluate, chooser)])
    return seen, state.outcome().placements


def pair_data(seen: list[list[float]], placements: tuple[int, ...]) -> tuple[list[float], list[float]]:
    """Each position's log ratio of chances for every pair of seats, and the pair's result."""
    ratios, scores = [], []
    pairwise = list(results.pairwise(placements))
    for chances in seen:
        logs = [math.log(max(chance, FLOOR)) for chance in chances]
        for i, j, score in pairwise:
            ratios.append(logs[i] - logs[j])
            scores.append(score)
    return ratios, scores


def fit_slope(ratios: np.ndarray, scores: np.ndarray, top: float = 20.0) -> float:
    """The maximum-likelihood slope of ``scores ~ sigmoid(slope * ratios)``
    in [0, top]: the log-likelihood is concave in the slope, so its
    derivative falls as the slope grows, and bisection finds its zero."""
    def derivative(slope: float) -> float:
        predicted = 0.5 * (1.0 + np.tanh(0.5 * slope * ratios))  # the sigmoid, without overflow
        return float(np.sum((scores - predicted) * ratios))
    low, high = 0.0, top
    if derivative(low) <= 0.0:
        return low
    if derivative(high) >= 0.0:
        return high
    while high - low > 1e-6:
        middle = 0.5 * (low + high)
        if derivative(middle) > 0.0:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="self-play games per game and player count")
    parser.add_argument("--seed", type=int, default=900_000, help="the first self-play seed")
    parser.add_argument("--only", action="append", default=[], metavar="GAME:PLAYERS",
                        help="refit only these (the others keep their stored slopes)")
    options = parser.parse_args()
    stored = json.loads(OUTPUT.read_text()) if OUTPUT.exists() else {"games": {}}
    for game_name in evaluated_games():
        game = GAMES[game_name]
        for players in range(max(2, game.min_players), game.max_players + 1):
            if options.only and f"{game_name}:{players}" not in options.only:
                continue
            started = time.perf_counter()
            ratios: list[float] = []
            scores: list[float] = []
            positions = 0
            for number in range(options.games):
                seen, placements = self_play(game_name, players, options.seed + number)
                positions += len(seen)
                more_ratios, more_scores = pair_data(seen, placements)
                ratios += more_ratios
                scores += more_scores
            slope = fit_slope(np.array(ratios), np.array(scores))
            stored["games"].setdefault(game_name, {})[str(players)] = {
                "slope": round(slope, 4), "games": options.games, "positions": positions,
                "pairs": len(scores), "first_seed": options.seed}
            print(f"{game_name} {players} seats: slope {slope:.4f} from {options.games} games, "
                  f"{positions} positions ({time.perf_counter() - started:.1f} s)", flush=True)
            OUTPUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
