#!/usr/bin/env python3
"""Train the learned bot's policy by self-play, numpy only
(examples/learned_bot/README.md).

    python examples/learned_bot/train.py [--games 1000] [--seed 1] [--out PATH]

The policy is the bot's own (bots/learned/bot.py, ``LinearPolicy``): a
score per action index, linear in the observation, and a softmax over the
offered indices' scores. Both seats of every training game are that one
policy, sampling from its softmax, in arena's PettingZoo environment
(``arena.env.raw_env``), so the dice, observations and masks are those a
referee and ``serve_policy`` give the bot.

Learning is advantage actor-critic: a linear critic estimates each seat's
points (1 a win, 0 a loss, 1/2 a draw) from its observation, and after each
game every decision with a choice moves the policy towards the index taken
in proportion to its advantage, the generalised advantage estimate (GAE,
lambda) from the critic's values at that seat's decisions and its final
points. Decisions with one offered index teach nothing and are skipped.

Every ``--eval-every`` games it plays ``--eval-games`` games of the greedy
policy (the best offered score, as the bot plays) against uniformly random
play, alternating seats, on fixed seeds, and prints the win rate; at the
end it saves the weights, the game and the last measurement to ``--out``.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from arena.env import raw_env

HERE = Path(__file__).resolve().parent
BOT = HERE / "bots" / "learned"
GAME = "ciclovia"
EVAL_SEEDS = 10**9  # evaluation game i is dealt from seed EVAL_SEEDS + i, never a training seed
Vector = np.ndarray[Any, Any]


def bot_module() -> ModuleType:
    """The bot's own file, for its policy class: what is trained is what plays."""
    spec = importlib.util.spec_from_file_location("learned_bot", BOT / "bot.py")
    assert spec is not None and spec.loader is not None, f"{BOT / 'bot.py'} is a Python file"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Decision:
    """One decision with a choice, as the learner saw and took it."""

    seen: Vector  # the indices of the observation's numbers that are not zero
    values: Vector  # those numbers
    offered: Vector  # the offered action indices
    probabilities: Vector  # the softmax over the offered indices
    choice: int  # the place of the index taken among the offered
    value: float  # the critic's estimate of the seat's points


class Trainer:
    def __init__(self, game: str, seed: int, learning_rate: float, critic_rate: float, lam: float) -> None:
        self.table = raw_env(game, players=2)
        encoding = self.table.encoding
        self.policy = bot_module().LinearPolicy.untrained(game, encoding.action_count, encoding.size)
        self.critic = np.zeros(encoding.size)
        self.critic_bias = 0.5
        self.learning_rate, self.critic_rate, self.lam = learning_rate, critic_rate, lam
        self.random = np.random.default_rng(seed)

    def self_play(self) -> None:
        """One game, both seats sampling from the policy; then learn from it."""
        table, policy = self.table, self.policy
        table.reset(seed=int(self.random.integers(2**62)))
        decisions: dict[str, list[Decision]] = {agent: [] for agent in table.possible_agents}
        points: dict[str, float] = {}
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, info = table.last()
            if terminated or truncated:
                points[agent] = reward
                table.step(None)
                continue
            offered = np.flatnonzero(info["action_mask"])
            if len(offered) == 1:
                table.step(int(offered[0]))
                continue
            seen = np.flatnonzero(observation)
            values = observation[seen].astype(np.float64)
            scores = policy.scores(observation, offered)
            probabilities = np.exp(scores - scores.max())
            probabilities /= probabilities.sum()
            choice = int(self.random.choice(len(offered), p=probabilities))
            value = float(self.critic[seen] @ values + self.critic_bias)
            decisions[agent].append(Decision(seen, values, offered, probabilities, choice, value))
            table.step(int(offered[choice]))
        for agent, taken in decisions.items():
            self.learn(taken, points[agent])

    def learn(self, taken: list[Decision], points: float) -> None:
        """GAE(lambda) advantages back from the end (no discount: only the
        result counts), then one gradient step per decision for the policy
        (log-probability of the choice times its advantage) and the critic
        (towards its lambda-return)."""
        advantage, after = 0.0, points
        for decision in reversed(taken):
            advantage = after - decision.value + self.lam * advantage
            after = decision.value
            step = -decision.probabilities
            step[decision.choice] += 1.0
            rows, columns = decision.offered, decision.seen
            self.policy.weights[np.ix_(rows, columns)] += (self.learning_rate * advantage) * np.outer(step,
                                                                                                    decision.values)
            self.policy.bias[rows] += self.learning_rate * advantage * step
            self.critic[columns] += self.critic_rate * advantage * decision.values
            self.critic_bias += self.critic_rate * advantage

    def win_rate(self, games: int) -> float:
        """The greedy policy's points per game against uniformly random play,
        seats alternating, on the fixed evaluation seeds."""
        table, policy = self.table, self.policy
        chooser = np.random.default_rng(EVAL_SEEDS)
        total = 0.0
        for number in range(games):
            table.reset(seed=EVAL_SEEDS + number)
            learner = table.possible_agents[number % 2]
            for agent in table.agent_iter():
                observation, reward, terminated, truncated, info = table.last()
                if terminated or truncated:
                    total += reward if agent == learner else 0.0
                    table.step(None)
                elif agent == learner:
                    table.step(policy(observation, info["action_mask"]))
                else:
                    table.step(int(chooser.choice(np.flatnonzero(info["action_mask"]))))
        return total / games


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="self-play games to train on")
    parser.add_argument("--seed", type=int, default=1, help="seeds the dice of the training games and the sampling")
    parser.add_argument("--out", type=Path, default=BOT / "weights.npz", help="where the weights go (.npz)")
    parser.add_argument("--game", default=GAME, help="the game, at two players")
    parser.add_argument("--eval-every", type=int, default=100, help="games between measurements against random")
    parser.add_argument("--eval-games", type=int, default=200, help="games per measurement against random")
    parser.add_argument("--learning-rate", type=float, default=0.01, help="the policy's step size")
    parser.add_argument("--critic-rate", type=float, default=0.002, help="the critic's step size")
    parser.add_argument("--lam", type=float, default=0.9, help="GAE's lambda")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    trainer = Trainer(args.game, args.seed, args.learning_rate, args.critic_rate, args.lam)
    rate = trainer.win_rate(args.eval_games)
    print(f"{args.game}, untrained (the first offered index): {rate:.3f} a game against random over "
          f"{args.eval_games} games", flush=True)
    for played in range(1, args.games + 1):
        trainer.self_play()
        if played % args.eval_every == 0 or played == args.games:
            rate = trainer.win_rate(args.eval_games)
            print(f"{played} games: {rate:.3f} a game against random over {args.eval_games} games "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    trainer.policy.save(args.out, games=args.games, seed=args.seed, win_rate=rate, eval_games=args.eval_games)
    print(f"saved {args.out} ({args.out.stat().st_size // 1024} KB); trained in "
          f"{time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
