"""Fit the learned luck value estimate (arena/luck/learned.py) to self-play
games and write its weights to arena/luck/learned.json.

Per game and player count with features in ``arena.luck.learned.FEATURES``,
``--games`` greedy self-play games (bench/fit_luck.py's ``self_play``, the
greedy bot's policy in every seat) are played in-process on seeds of their
own (``--seed``; the tests and bench/luck.py adjust others). After every
chance event each pair of seats gives one row: the pair's features and its
result (1, 1/2 or 0, arena.results.pairwise). The weights are the maximum
likelihood fit of ``sigmoid(w . x)`` to them (Newton's method with numpy,
and a small ridge so that a feature that never varies stays at 0). The file
records the games fitted on and, on ``--held-out`` further games, the
log-loss per pair of the learned model and of the calibrated house
evaluation (arena/luck/values.py with its fitted slope): the test
(tests/test_luck.py) checks the learned one is lower on games of its own.

    .venv/bin/python bench/fit_luck_learned.py [--games 300] [--held-out 100] [--seed 920000] [--only roundabout:2]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
from fit_luck import self_play

from arena import results
from arena.games import GAMES
from arena.games.base import State
from arena.house.evaluations import evaluator
from arena.luck.learned import FEATURES, MODELS, features_for
from arena.luck.values import expected_points, slope_for

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "arena" / "luck" / MODELS
RIDGE = 1e-3


def rows(game_name: str, players: int, first: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Over ``count`` self-play games: every position's pair features, the
    pair's result, and the house evaluation's calibrated chance for the pair."""
    features = features_for(game_name)
    evaluate = evaluator(game_name)
    slope = slope_for(game_name, players)

    def observe(state: State) -> tuple[list, list[float]]:
        return features.seats(state.to_json()), evaluate(state)
    xs, ys, house = [], [], []
    for seed in range(first, first + count):
        seen, placements = self_play(game_name, players, seed, observe)
        pairwise = list(results.pairwise(placements))
        for summaries, chances in seen:
            for i, j, score in pairwise:
                xs.append(features.pair(summaries[i], summaries[j]))
                ys.append(score)
                house.append(expected_points([chances[i], chances[j]], slope)[0])
    return np.array(xs, dtype=float), np.array(ys), np.array(house)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The ridge-regularised maximum-likelihood weights of ``y ~ sigmoid(x w)``
    (the log-likelihood is concave: Newton's method from 0 converges)."""
    weights = np.zeros(x.shape[1])
    for _ in range(100):
        predicted = 0.5 * (1.0 + np.tanh(0.5 * x @ weights))
        gradient = x.T @ (y - predicted) - RIDGE * weights
        hessian = (x * (predicted * (1.0 - predicted))[:, None]).T @ x + RIDGE * np.eye(len(weights))
        step = np.linalg.solve(hessian, gradient)
        weights += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return weights


def log_loss(predicted: np.ndarray, y: np.ndarray) -> float:
    """Mean log-loss per pair (a tie, 1/2, counts half each way)."""
    p = np.clip(predicted, 1e-12, 1.0 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="self-play games fitted on, per game and count")
    parser.add_argument("--held-out", type=int, default=100, help="further self-play games the log-losses are on")
    parser.add_argument("--seed", type=int, default=920_000, help="the first self-play seed")
    parser.add_argument("--only", action="append", default=[], metavar="GAME:PLAYERS",
                        help="fit only these (the others keep their stored weights)")
    options = parser.parse_args()
    stored = json.loads(OUTPUT.read_text()) if OUTPUT.exists() else {"games": {}}
    for game_name in sorted(FEATURES):
        game = GAMES[game_name]
        for players in range(max(2, game.min_players), game.max_players + 1):
            if options.only and f"{game_name}:{players}" not in options.only:
                continue
            started = time.perf_counter()
            x, y, _ = rows(game_name, players, options.seed, options.games)
            weights = fit(x, y)
            held_seed = options.seed + options.games
            x_held, y_held, house_held = rows(game_name, players, held_seed, options.held_out)
            learned_loss = log_loss(0.5 * (1.0 + np.tanh(0.5 * x_held @ weights)), y_held)
            house_loss = log_loss(house_held, y_held)
            names = features_for(game_name).NAMES
            stored["games"].setdefault(game_name, {})[str(players)] = {
                "weights": {name: round(float(w), 5) for name, w in zip(names, weights)},
                "games": options.games, "first_seed": options.seed, "pairs": len(y),
                "held_out": {"games": options.held_out, "first_seed": held_seed, "pairs": len(y_held),
                             "log_loss": round(learned_loss, 5), "house_log_loss": round(house_loss, 5)}}
            print(f"{game_name} {players} seats: {len(y)} pairs from {options.games} games; held-out log-loss "
                  f"{learned_loss:.4f} (house {house_loss:.4f}, coin {math.log(2):.4f}) "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
            OUTPUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
