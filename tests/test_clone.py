"""``clone()`` gives a copy for search that shares nothing with its
original: for every registered game at every player count from two to four,
random games are cloned at random points, one side is played on, and the
other must be exactly as it was (its JSON, whose turn it is, its legal
actions or its chance request), including when a caller changes the list
of legal actions it was handed."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from arena.games import GAMES
from arena.games.base import CHANCE, TERMINAL, State
from arena.games.dice import DiceStreams

SEEDS = range(3)
CLONES_PER_GAME = 6
STEPS_AFTER_CLONING = 40

CASES = [(name, players) for name, game in sorted(GAMES.items())
         for players in range(max(2, game.min_players), min(4, game.max_players) + 1)]


def snapshot(state: State) -> str:
    """Everything a player or a search reads from a state, as text."""
    seat = state.current_player()
    pending = (dataclasses.asdict(state.chance_request()) if seat == CHANCE
               else None if seat == TERMINAL else state.legal_actions())
    return json.dumps([seat, state.to_json(), pending], sort_keys=True, default=repr)


def step(state: State, dice: DiceStreams, chooser: random.Random) -> bool:
    """One random step (a decision or a chance draw); False at the end."""
    seat = state.current_player()
    if seat == TERMINAL:
        return False
    if seat == CHANCE:
        state.apply_chance(dice.draw(state.chance_request()))
    else:
        state.apply_action(chooser.choice(state.legal_actions()))
    return True


def play_on(state: State, seed: int, steps: int) -> None:
    dice, chooser = DiceStreams(seed), random.Random(seed)
    for _ in range(steps):
        if not step(state, dice, chooser):
            return


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_clone_and_its_original_play_on_without_touching_each_other(name, players):
    for seed in SEEDS:
        state = GAMES[name].new_state(players)
        dice, chooser = DiceStreams(seed), random.Random(seed)
        moments = sorted(random.Random(f"{name}/{players}/{seed}").sample(range(400), CLONES_PER_GAME))
        steps = 0
        for moment in moments:
            while steps < moment and step(state, dice, chooser):
                steps += 1
            before = snapshot(state)
            clone = state.clone()
            assert snapshot(clone) == before
            play_on(clone, seed + moment, STEPS_AFTER_CLONING)
            assert snapshot(state) == before, f"playing a clone changed its original ({name}, {players})"
            untouched = state.clone()
            play_on(state, seed + moment + 1, STEPS_AFTER_CLONING)
            assert snapshot(untouched) == before, f"playing the original changed its clone ({name}, {players})"
            state = untouched


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_clone_has_a_list_of_legal_actions_of_its_own(name, players):
    """A search may reorder or extend the list it is handed (a shuffle, a
    move ordering): on a clone, that must not change the original's."""
    for seed in SEEDS:
        state = GAMES[name].new_state(players)
        dice, chooser = DiceStreams(seed), random.Random(seed)
        while step(state, dice, chooser):
            if state.current_player() >= 0:
                before = snapshot(state)
                state.clone().legal_actions().append({"not": "offered"})
                assert snapshot(state) == before, f"a clone of {name} shares its original's list of legal actions"
