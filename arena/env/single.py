"""One seat of a game as a Gymnasium environment: the learner plays seat
``seat``, and every other seat is played in process by an opponent:

* ``"random"``: a uniformly random offered action (seeded from the game seed);
* ``"greedy"``: the house greedy bot (arena/bundled_bots/greedy_bot.py, its
  player as the protocol loop of arena/house/loop.py drives it), for the
  games with a house evaluation;
* an ``arena.house.loop.Player`` (``start``, ``decide``, ``end``);
* any callable ``policy(observation, mask) -> action index``, seeing the
  numbers the learner sees from its own seat.

Observations, masks (``info["action_mask"]``), the JSON state
(``info["state"]``) and the dice are the AEC environment's
(arena/env/aec.py); the reward is the learner's points when the game ends.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import gymnasium
import numpy as np

import arena
from arena.env.aec import ArenaEnv
from arena.env.factory import spec_of
from arena.env.view import Observation, mask, observation, offered_by_index
from arena.games.spec import GameSpec
from arena.house.loop import Player

HOUSE = {"greedy": ("greedy_bot.py", "Greedy")}
HOUSE_SECONDS = 1.0  # the move time a house bot is told it has
Policy = Callable[[Observation, Any], Any]
Opponent = str | Player | Policy


def house_player(name: str) -> Player:
    """A house bot's player, from the bot's own file."""
    if name not in HOUSE:
        raise ValueError(f"unknown house bot: {name!r} (available: random, {', '.join(sorted(HOUSE))})")
    filename, class_name = HOUSE[name]
    path = Path(arena.__file__).resolve().parent / "bundled_bots" / filename
    spec = importlib.util.spec_from_file_location(f"arena_house_{name}", path)
    assert spec is not None and spec.loader is not None, f"{path} is a Python file"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    player: Player = getattr(module, class_name)()
    return player


class _Seat:
    """An opponent at one seat, whatever it was given as."""

    def __init__(self, game: GameSpec, seat: int, opponent: Opponent) -> None:
        self.seat = seat
        self.random = opponent == "random"
        self.player: Player | None = None
        self.policy: Policy | None = None
        if isinstance(opponent, str):
            if not self.random:
                if game.evaluation is None:
                    raise ValueError(f"the house bots do not play {game.name}: it has no evaluation")
                self.player = house_player(opponent)
        elif hasattr(opponent, "decide"):
            self.player = cast(Player, opponent)
        elif callable(opponent):
            self.policy = opponent
        else:
            raise ValueError(f"an opponent is 'random', a house bot's name, a Player or a policy, not {opponent!r}")

    def choose(self, aec: ArenaEnv, chooser: random.Random) -> int:
        info = aec.infos[aec.agent_selection]
        if not info["actions"]:  # the roll step (Encoding.ROLL_STEP): nothing else is offered
            return int(np.flatnonzero(info["action_mask"])[0])
        if self.player is not None:
            assert aec.state is not None, "reset() starts a game"
            state = aec.state.clone()
            pick = state.legal_actions()[self.player.decide(state, HOUSE_SECONDS, time.perf_counter())]
            return aec.encoding.action_index(pick, info["state"])
        if self.policy is not None:
            by_index = offered_by_index(aec.encoding, info["state"], info["actions"])
            return int(self.policy(observation(aec.encoding, info["state"], self.seat), mask(aec.encoding, by_index)))
        return int(chooser.choice(np.flatnonzero(info["action_mask"])))


class SingleAgentEnv(gymnasium.Env[Observation, int]):
    """Seat ``seat`` of ``game`` against ``opponents`` (one per other seat,
    in seat order, or one for all of them)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, game: str | GameSpec, players: int = 2, options: dict[str, Any] | None = None,
                 seat: int = 0, opponents: Opponent | Sequence[Opponent] = "random",
                 render_mode: str | None = None) -> None:
        self.aec = ArenaEnv(spec_of(game), players, options, render_mode)
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat!r} at a table of {players}")
        self.seat = seat
        others = [other for other in range(players) if other != seat]
        chosen: list[Opponent]
        if isinstance(opponents, str) or hasattr(opponents, "decide") or callable(opponents):
            chosen = [cast(Opponent, opponents)] * len(others)
        else:
            chosen = list(opponents)
            if len(chosen) != len(others):
                raise ValueError(f"{len(others)} opponents wanted (one per other seat), got {len(chosen)}")
        self.opponents = {other: _Seat(self.aec.spec, other, opponent) for other, opponent in zip(others, chosen)}
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.aec.possible_agents[seat])  # type: ignore[assignment]
        self.action_space = self.aec.action_space(self.aec.possible_agents[seat])  # type: ignore[assignment]
        self._chooser = random.Random()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._chooser.seed(self.aec.seed)
        for opponent in self.opponents.values():
            if opponent.player is not None:
                opponent.player.start(self.aec.spec.name, len(self.aec.possible_agents),
                                      self._chooser.getrandbits(63))
        self._others_play()
        return self._seen()

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        me = self.aec.possible_agents[self.seat]
        if self.aec.terminations[me]:
            raise ValueError("the game is over: reset() starts another")
        self.aec.step(action)
        self._others_play()
        obs, info = self._seen()
        over = self.aec.terminations[me]
        if over:
            for opponent in self.opponents.values():
                if opponent.player is not None:
                    opponent.player.end()
        return obs, float(self.aec.rewards[me]) if over else 0.0, over, False, info

    def render(self) -> str | None:
        return self.aec.render()

    def _seen(self) -> tuple[Observation, dict[str, Any]]:
        me = self.aec.possible_agents[self.seat]
        return self.aec.observe(me), self.aec.infos[me]

    def _others_play(self) -> None:
        aec, me = self.aec, self.aec.possible_agents[self.seat]
        while not aec.terminations[aec.agent_selection] and aec.agent_selection != me:
            aec.step(self.opponents[aec.possible_agents.index(aec.agent_selection)].choose(aec, self._chooser))
