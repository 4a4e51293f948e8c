"""The conformance suite every registered game passes: seeded random games
for every player count (and option set) end, never crash, keep the
interface's invariants, round-trip through JSON and replay identically."""

from __future__ import annotations

import json

import pytest

from arena.games import GAMES
from arena.games.base import CHANCE, TERMINAL, IllegalAction
from arena.games.dice import DiceStreams
from arena.games.playout import random_playout
from arena.play.events import replay

GAMES_PER_COUNT = 1000
CHECKED_STEP_BY_STEP = 20

VARIANTS = [
    (name, players, options)
    for name, game in sorted(GAMES.items())
    for players in range(game.min_players, game.max_players + 1)
    for options in getattr(game.state_class, "CONFORMANCE_OPTIONS", {}).get(players, [{}])
]


def variant_id(variant):
    name, players, options = variant
    suffix = "-" + "-".join(f"{k}={v}" for k, v in sorted(options.items())) if options else ""
    return f"{name}-{players}p{suffix}"


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_random_games_end_and_replay(variant):
    name, players, options = variant
    game = GAMES[name]
    for seed in range(GAMES_PER_COUNT):
        final, events = random_playout(game, players, seed, options)
        outcome = final.outcome()
        assert all(0 <= seat < players for seat in outcome.winners)
        assert outcome.ending in ("normal", "turn_cap", "stalemate")
        assert (outcome.ending != "normal") == (outcome.winners == ())
        json.dumps(final.to_json())
        *_, replayed = replay(game, players, options, events)
        assert replayed.to_json() == final.to_json()


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_state_is_consistent_and_round_trips(variant):
    name, players, options = variant
    game = GAMES[name]
    for seed in range(CHECKED_STEP_BY_STEP):
        _, events = random_playout(game, players, seed, options)
        for state in replay(game, players, options, events):
            seat = state.current_player()
            data = state.to_json()
            assert json.loads(json.dumps(data)) == data
            restored = game.state_from_json(data)
            assert restored.to_json() == data
            assert restored.current_player() == seat
            if seat >= 0:
                actions = state.legal_actions()
                assert actions, "a seat to decide must have a choice"
                assert restored.legal_actions() == actions
                assert len({json.dumps(a, sort_keys=True) for a in actions}) == len(actions)
            elif seat == CHANCE:
                request = state.chance_request()
                assert request.count >= 1 and request.sides >= 2
            else:
                assert seat == TERMINAL


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_same_seed_same_transcript(variant):
    name, players, options = variant
    game = GAMES[name]
    for seed in (1, 2, 3):
        assert random_playout(game, players, seed, options)[1] == random_playout(game, players, seed, options)[1]


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_actions_not_offered_are_refused(variant):
    name, players, options = variant
    game = GAMES[name]
    state = game.new_state(players, options)
    dice = DiceStreams(7)
    while state.current_player() == CHANCE:
        state.apply_chance(dice.draw(state.chance_request()))
    if state.current_player() >= 0:
        before = state.to_json()
        with pytest.raises(IllegalAction):
            state.apply_action({"no such": "action"})
        assert state.to_json() == before
