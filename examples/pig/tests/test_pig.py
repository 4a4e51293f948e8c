"""Pig's rules, one test per rule of rules.md, and seeded random games
through arena's own playout and replay."""

from __future__ import annotations

import json

import pytest
from arena_pig import SPEC
from arena_pig.engine import GAME, HOLD, ROLL_AGAIN, TURN_CAP, PigState

from arena.games.base import CHANCE, TERMINAL, IllegalAction, InvalidOptions, Termination
from arena.games.events import replay
from arena.games.playout import random_playout

ROLL = {"choice": "roll"}


def test_a_turn_starts_with_a_roll_of_the_turn_players_own_die():
    state = GAME.new_state(3)
    assert state.current_player() == CHANCE
    assert state.chance_request().stream == "seat:0" and state.chance_request().sides == 6


def test_a_one_loses_the_turns_points_and_passes_the_turn():
    state = GAME.new_state(2)
    state.apply_chance((4,))
    state.apply_action(ROLL)
    state.apply_chance((1,))
    data = state.to_json()
    assert data["scores"] == [0, 0] and data["turn"] == 1 and data["turn_total"] == 0
    assert {"cause": "bust", "seat": 0, "lost": 4} in data["last"]
    assert state.chance_request().stream == "seat:1"


def test_two_to_six_add_up_and_the_player_chooses_roll_or_hold_in_that_order():
    state = GAME.new_state(2)
    state.apply_chance((6,))
    state.apply_action(ROLL)
    state.apply_chance((3,))
    assert state.current_player() == 0 and state.to_json()["turn_total"] == 9
    assert state.legal_actions() == [ROLL_AGAIN, HOLD]


def test_holding_banks_the_points_and_passes_the_turn():
    state = GAME.new_state(2)
    state.apply_chance((5,))
    state.apply_action(HOLD)
    data = state.to_json()
    assert data["scores"] == [5, 0] and data["turn"] == 1 and data["turns"] == 1 and data["phase"] == "roll"


def test_reaching_the_target_wins_at_once_and_the_others_place_by_score():
    state = GAME.new_state(3, {"target": 10})
    state.apply_chance((4,))
    state.apply_action(HOLD)                       # seat 0: 4
    state.apply_chance((2,))
    state.apply_action(HOLD)                       # seat 1: 2
    state.apply_chance((6,))
    state.apply_action(ROLL)
    state.apply_chance((5,))                       # seat 2: 11, wins without choosing
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome.placements == (2, 3, 1) and outcome.winners == (2,) and outcome.scores == (4.0, 2.0, 11.0)


def test_the_target_option_is_checked():
    for bad in (9, 1001, "50", True):
        with pytest.raises(InvalidOptions):
            GAME.new_state(2, {"target": bad})


def test_a_seat_retiring_on_its_turn_loses_the_turns_points_and_is_placed_last():
    state = GAME.new_state(3)
    state.apply_chance((3,))
    state.apply_action(HOLD)                       # seat 0: 3
    state.apply_chance((6,))                       # seat 1 has 6 this turn
    state.retire(1)
    data = state.to_json()
    assert data["turn"] == 2 and data["turn_total"] == 0 and data["turns"] == 1 and data["scores"] == [3, 0, 0]
    state.retire(2)                                # one seat left: it wins
    assert state.outcome().placements == (1, 2, 2)
    with pytest.raises(IllegalAction):
        state.retire(0)


def test_the_turn_cap_is_a_draw_between_the_seats_still_in_the_game():
    state = GAME.new_state(2)
    for _ in range(TURN_CAP):
        state.apply_chance((1,))
    assert state.current_player() == TERMINAL
    assert state.outcome().placements == (1, 1) and state.outcome().termination is Termination.TURN_CAP


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_random_games_end_round_trip_and_replay(players):
    for seed in range(30):
        for options in SPEC.conformance.get(players, [{}]):
            final, events = random_playout(GAME, players, seed, options)
            assert final.is_terminal() and final.outcome().placements.count(1) >= 1
            again = PigState.from_json(json.loads(json.dumps(final.to_json())))
            assert again.to_json() == final.to_json()
            *_, replayed = replay(GAME, players, options, events)
            assert replayed.to_json() == final.to_json()


def test_the_spec_names_the_installed_rules_and_the_words_describe_every_effect():
    assert SPEC.rules_path().read_text(encoding="utf-8").startswith("# Pig, as arena plays it")
    view = SPEC.describer(["you", "bot"])
    final, events = random_playout(GAME, 2, 7)
    for state in replay(GAME, 2, {}, events):
        data = state.to_json()
        assert all(not line.startswith("{") for line in view.effects(data))
        view.position(data)
