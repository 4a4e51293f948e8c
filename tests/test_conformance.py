"""The conformance suite every registered game passes: seeded random games
for every player count (and option set) end, never crash, keep the
interface's invariants, round-trip through JSON and replay identically."""

from __future__ import annotations

import json
import random

import pytest
from support import LONG_TESTS

from arena.games import GAMES, SPECS
from arena.games.base import CHANCE, TERMINAL, IllegalAction, Termination
from arena.games.dice import DiceStreams
from arena.games.events import chance_event, decision_event, full_events, replay, retire_event
from arena.games.playout import random_playout
from arena.model import stored_events

# Random games per variant that must end and replay: 300 (about 15 s for
# all of them on one core), 1,000 with ARENA_LONG_TESTS=1.
GAMES_PER_COUNT = 1000 if LONG_TESTS else 300
CHECKED_STEP_BY_STEP = 20
GAMES_WITH_RETIREMENTS = 60
RETIRE_CHANCE = 0.01   # before each event, a random seat still in the game retires

VARIANTS = [
    (name, players, options)
    for name, spec in sorted(SPECS.items())
    for players in range(spec.game.min_players, spec.game.max_players + 1)
    for options in spec.conformance.get(players, [{}])
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
        assert outcome.termination in (Termination.NORMAL, Termination.TURN_CAP, Termination.STALEMATE)
        assert_well_placed(outcome, players, [])
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


def assert_well_placed(outcome, players, retired):
    """Competition ranking, retired seats tied last, and a turn cap or a
    stalemate tying every seat still in the game."""
    places = outcome.placements
    assert len(places) == players
    assert all(place == 1 + sum(other < place for other in places) for place in places)
    active = [seat for seat in range(players) if seat not in retired]
    assert all(places[seat] == len(active) + 1 for seat in retired)
    assert all(places[seat] <= len(active) for seat in active)
    if outcome.termination is not Termination.NORMAL:
        assert all(places[seat] == 1 for seat in active)
    if len(active) == 1 and players > 1:
        assert outcome.termination is Termination.NORMAL and outcome.winners == tuple(active)


def playout_with_retirements(game, players, options, seed):
    """A random game in which, before each event, a random seat still in
    the game may retire: at its own decision, someone else's, or a chance
    step. Returns the final state and the events, retirements included."""
    state = game.new_state(players, options)
    dice, chooser = DiceStreams(seed), random.Random(seed)
    events = []
    while not state.is_terminal():
        retired = state.to_json()["retired"]
        if players > 1 and chooser.random() < RETIRE_CHANCE:
            seat = chooser.choice([s for s in range(players) if s not in retired])
            events.append(retire_event(seat, "crash"))
            state.retire(seat)
            continue
        seat = state.current_player()
        assert seat not in retired, "a retired seat is never asked to decide"
        if seat == CHANCE:
            request = state.chance_request()
            assert request.stream not in {f"seat:{s}" for s in retired}, "nor rolls"
            values = dice.draw(request)
            events.append(chance_event(state, values))
            state.apply_chance(values)
        else:
            offered = state.legal_actions()
            chosen = chooser.randrange(len(offered))
            events.append(decision_event(seat, offered, chosen))
            state.apply_action(offered[chosen])
    return state, events


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_random_retirements_end_well_placed_round_trip_and_replay(variant):
    name, players, options = variant
    game = GAMES[name]
    for seed in range(GAMES_WITH_RETIREMENTS):
        final, events = playout_with_retirements(game, players, options, seed)
        retired = final.to_json()["retired"]
        assert retired == [e["seat"] for e in events if e["kind"] == "retire"]
        assert_well_placed(final.outcome(), players, retired)
        for state in replay(game, players, options, events):
            data = state.to_json()
            assert json.loads(json.dumps(data)) == data
            assert game.state_from_json(data).to_json() == data
        assert state.to_json() == final.to_json()
        with pytest.raises(IllegalAction):
            final.retire(0)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_a_seat_cannot_retire_twice_nor_be_a_seat_that_does_not_exist(variant):
    name, players, options = variant
    state = GAMES[name].new_state(players, options)
    for seat in (-1, players, "0"):
        with pytest.raises(IllegalAction):
            state.retire(seat)
    if players > 2:
        state.retire(0)
        with pytest.raises(IllegalAction):
            state.retire(0)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_a_stored_record_without_offered_actions_is_made_whole_again(variant):
    """A record stored without each decision's offered actions (they are the
    engine's legal actions there) is made whole by the engine, retirements
    included; one made under other rules is refused, not read wrong."""
    name, players, options = variant
    game = GAMES[name]
    for seed in range(10):
        _, events = playout_with_retirements(game, players, options, seed)
        stored, digest = stored_events(events)
        assert all("offered" not in event for event in stored)
        assert full_events(game, players, options, stored, digest) == events
        decisions = [number for number, event in enumerate(events) if event["kind"] == "decision"]
        if not decisions:
            continue
        other_rules = [dict(event) for event in events]
        other_rules[decisions[-1]]["offered"] = [*events[decisions[-1]]["offered"], {"not": "offered"}]
        with pytest.raises(IllegalAction, match="other rules"):
            full_events(game, players, options, stored, stored_events(other_rules)[1])
        changed = [dict(event) for event in stored]
        changed[decisions[0]]["action"] = {"not": "offered"}
        with pytest.raises(IllegalAction, match="other rules"):
            full_events(game, players, options, changed, digest)
