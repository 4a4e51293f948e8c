#!/usr/bin/env python3
"""The learned bot: a linear softmax policy over the game's action indices,
trained by self-play (examples/learned_bot/train.py), played greedily (the
offered index with the highest score).

It sees what every policy sees (``arena.env.serve_policy``): the
observation vector and the mask of offered indices, the numbers the
environments gave it in training. No search, no engine: one matrix product
a decision. The weights, and the game they were trained on, are in
``weights.npz`` beside this file.

Its ``bot.json`` runs ``python3 bot.py``: run arena from its virtual
environment (``. .venv/bin/activate``), so that the ``python3`` the box
starts is the one with numpy and arena (mounted there read-only).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

WEIGHTS = Path(__file__).resolve().parent / "weights.npz"
NAME = "learned"

try:
    import numpy as np

    from arena.env import serve_policy
except ImportError as exc:  # the python3 on PATH is not arena's
    sys.exit(f"{NAME}: {sys.executable} cannot import numpy and arena ({exc}); run arena from its virtual "
             "environment (. .venv/bin/activate) so that python3 is the one arena runs with")


class LinearPolicy:
    """A score per action index, linear in the observation: ``weights @
    observation + bias``. Training samples from the softmax of the offered
    indices' scores; the bot takes the best of them."""

    def __init__(self, game: str, weights: np.ndarray[Any, Any], bias: np.ndarray[Any, Any]) -> None:
        self.game = game
        self.weights = weights
        self.bias = bias

    @classmethod
    def untrained(cls, game: str, actions: int, size: int) -> LinearPolicy:
        """All scores zero: training starts from uniform play."""
        return cls(game, np.zeros((actions, size)), np.zeros(actions))

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        with np.load(path) as saved:
            return cls(str(saved["game"]), saved["weights"].astype(np.float64), saved["bias"].astype(np.float64))

    def save(self, path: Path, **about: Any) -> None:
        """Float32 is plenty for a policy played greedily, and half the file."""
        np.savez_compressed(path, game=self.game, weights=self.weights.astype(np.float32),
                            bias=self.bias.astype(np.float32), **about)

    def scores(self, observation: np.ndarray[Any, Any], offered: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The offered indices' scores. Observations are mostly zeros (one-hot
        fields), so only the columns of the numbers that are not are read."""
        seen = np.flatnonzero(observation)
        scores: np.ndarray[Any, Any] = self.weights[np.ix_(offered, seen)] @ observation[seen] + self.bias[offered]
        return scores

    def __call__(self, observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        offered = np.flatnonzero(mask)
        return int(offered[np.argmax(self.scores(observation, offered))])


def main() -> None:
    policy = LinearPolicy.load(WEIGHTS)
    serve_policy(policy, name=NAME, games=[policy.game])


if __name__ == "__main__":
    main()
