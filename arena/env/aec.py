"""A registered game as a PettingZoo AEC environment: one agent per seat,
``player_0`` to ``player_{N-1}``, taking turns as the game's rules say.

* Actions: ``Discrete(n)`` over the game's fixed action indices
  (arena.games.encoding, listed in its rules document); the legal ones are
  ``infos[agent]["action_mask"]`` (int8, 1 = offered), as PettingZoo's
  classic games with a flat observation carry it.
* Observations: ``Box(0, 1, (size,), float32)``, the seat's view of the
  state as its encoding writes it. ``infos[agent]`` also holds the JSON
  state a bot is sent (``state``) and the offered actions (``actions``),
  for the agent to decide.
* Chance is no agent: after every decision the environment rolls from the
  game's own seeded streams (arena.games.dice) until a seat decides or the
  game ends, so ``reset(seed=s)`` gives the dice a referee would roll for
  seed s, and the same actions give the same game. A game whose encoding
  has a roll step (``Encoding.ROLL_STEP``: Slyyde, where half the two-seat
  games have no choice at all) asks the roller for it, alone offered, before
  each roll from the seat's own stream; ``infos[agent]["actions"]`` is then
  empty, as the engine offers nothing.
* Rewards: zero until the game ends, then each seat's points by the one
  scoring rule (arena.results.points: 1 a win, 0 a loss, 1/2 a two-seat
  draw; a share of the pairwise results with more seats). The placements
  and the ending are in ``infos[agent]["placements"]`` and
  ``["termination"]``. A turn cap ends the game by its rules (a draw): a
  termination, not a truncation.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena import results
from arena.env.view import Observation, encoding_for, mask, observation, offered_by_index
from arena.games.base import CHANCE, TERMINAL, Action, State
from arena.games.dice import DiceStreams
from arena.games.spec import GameSpec


class ArenaEnv(AECEnv):  # pettingzoo ships no type information: AECEnv is Any
    """One game at one table (a player count and option set)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, spec: GameSpec, players: int, options: dict[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {', '.join(self.metadata['render_modes'])}, "
                             f"not {render_mode!r}")
        if players == 1:
            # The scoring rule gives one seat nothing to win (arena.results.points: 0), and a
            # solo game may end in the dice alone, while PettingZoo asks for a decision after
            # every reset (most of Slyyde's solo games have none).
            raise ValueError(f"{spec.name} has no environment for one seat: a solo game has no opponent to score "
                             "against")
        self.spec = spec
        self.encoding = encoding_for(spec, players, options)
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"arena_{spec.name}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        box = spaces.Box(0.0, 1.0, (self.encoding.size,), np.float32)
        self.observation_spaces = {agent: box for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.encoding.action_count) for agent in self.possible_agents}
        # Another space object per agent: each agent's space is seeded alone (seed_test).
        for agent in self.possible_agents[1:]:
            self.observation_spaces[agent] = spaces.Box(0.0, 1.0, (self.encoding.size,), np.float32)
        self._idle: dict[str, Any] = {"action_mask": np.zeros(self.encoding.action_count, dtype=np.int8)}
        self._seeds = random.Random()
        self.seed: int | None = None
        self.state: State | None = None
        self._json: dict[str, Any] = {}
        self._by_index: dict[int, Action] = {}
        self._observed: dict[int, Observation] = {}
        self._rolling = False  # the seat deciding is asked for its roll (Encoding.ROLL_STEP)

    # -- PettingZoo's API ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Box:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` is the game seed the dice are drawn from (as
        a referee's); without one, the next from a generator seeded by the
        last seed given (or by the system's entropy before any)."""
        if seed is not None:
            self._seeds.seed(seed)
            self.seed = seed
        else:
            self.seed = self._seeds.getrandbits(63)
        self.state = self.spec.game.new_state(len(self.possible_agents), self.options)
        self.dice = DiceStreams(self.seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._idle for agent in self.agents}
        self._roll_on()

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        seen = self._observed.get(seat)
        if seen is None:
            seen = self._observed[seat] = observation(self.encoding, self._json, seat)
        return seen

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._by_index.get(action) if isinstance(action, (int, np.integer)) else None
        if chosen is None:
            raise ValueError(f"action {action!r} is not offered to {agent} (the offered indices: "
                             f"{sorted(self._by_index)})")
        state = self.state
        assert state is not None, "reset() starts a game"
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = self._idle
        if self._rolling:
            state.apply_chance(self.dice.draw(state.chance_request()))
        else:
            # Chosen from the state's own legal list: the engine's apply without
            # the second look it takes at that list (apply_action).
            state._apply(chosen)
        self._roll_on()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = "\n".join(self.words())
        if self.render_mode == "human":
            print(text)  # noqa: T201 -- render_mode "human" is printing, by PettingZoo's convention
            return None
        return text

    def close(self) -> None:
        self.state = None

    # -- arena's own -------------------------------------------------------------------------

    def words(self) -> list[str]:
        """The position and the offered actions in words, through the game's text view."""
        view = self.spec.describer(list(self.possible_agents))
        lines = view.position(self._json)
        assert self.state is not None, "reset() starts a game"
        if self.state.current_player() == TERMINAL:
            outcome = self.state.outcome()
            return lines + view.result(list(outcome.placements), list(outcome.scores) if outcome.scores else None)
        lines.append(f"{self.agent_selection} to decide:")
        lines += [f"  {index}: {view.action(action, self._json)}" for index, action in self._by_index.items()]
        return lines

    def _roll_on(self) -> None:
        """Roll until a seat decides or the game ends; then say so."""
        state = self.state
        assert state is not None, "reset() starts a game"
        roll_step = self.encoding.ROLL_STEP
        self._rolling = False
        while (seat := state.current_player()) == CHANCE:
            request = state.chance_request()
            if roll_step is not None and request.stream.startswith("seat:"):
                seat, self._rolling = int(request.stream[5:]), True
                break
            state.apply_chance(self.dice.draw(request))
        self._json = state.to_json()
        self._observed = {}
        if seat == TERMINAL:
            outcome = state.outcome()
            points = results.points(outcome.placements)
            final = {"action_mask": self._idle["action_mask"], "state": self._json,
                     "placements": list(outcome.placements), "termination": outcome.termination.value}
            for agent, point in zip(self.possible_agents, points):
                self.rewards[agent] = point
                self.terminations[agent] = True
                self.infos[agent] = final
            self._by_index = {}
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        if self._rolling:
            offered: list[Action] = []
            self._by_index = {roll_step: {}}  # type: ignore[dict-item]  # roll_step is set when rolling
        else:
            offered = state.legal_actions()
            self._by_index = offered_by_index(self.encoding, self._json, offered)
        self.agent_selection = agent = self.possible_agents[seat]
        self.infos[agent] = {"action_mask": mask(self.encoding, self._by_index), "state": self._json,
                             "actions": offered}

