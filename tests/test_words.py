"""Every game's words (its TextView, arena.games.text_view): the one
describer the terminal, the play page and the replays share. Random games
of every game at every player count, a seat forfeiting in some: every
offered action, every effect and every step is worded by the game's own
words, never by the compact-JSON fallback, and never raises."""

from __future__ import annotations

import random

import pytest

from arena.games import GAMES, get_spec
from arena.games.base import CHANCE
from arena.games.dice import DiceStreams
from arena.games.events import chance_event, decision_event, retire_event
from arena.games.text_view import compact


def _steps(game: str, players: int, seed: int, retire_at: int | None):
    """(state before, event, state after) for every event of a random game;
    at event ``retire_at`` the last seat forfeits."""
    state = GAMES[game].new_state(players, {})
    dice, rng = DiceStreams(seed), random.Random(seed)
    number = 0
    while not state.is_terminal():
        before = state.to_json()
        if number == retire_at:
            event = retire_event(players - 1, "timeout")
            state.retire(players - 1)
        elif state.current_player() == CHANCE:
            request = state.chance_request()
            values = dice.draw(request)
            event = chance_event(state, values, request)
            state.apply_chance(values)
        else:
            offered = state.legal_actions()
            event = decision_event(state.current_player(), offered, rng.randrange(len(offered)))
            state.apply_action(offered[event["chosen"]])
        number += 1
        yield before, event, state.to_json()


def _counts(game: str) -> range:
    definition = GAMES[game]
    return range(max(2, definition.min_players), min(4, definition.max_players) + 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_action_effect_and_step_is_worded_by_the_game(game):
    causes: set[str] = set()
    for players in _counts(game):
        view = get_spec(game).describer(["you", "bot", "bot", "bot"][:players], you=0)
        if players > 2:  # one bot in several seats: named by seat
            assert view.legend().startswith("A = you (seat 0)   B = bot (seat 1)   C = bot (seat 2)")
        for seed in range(4):
            retire_at = 40 + seed if players > 2 and seed % 2 else None
            for before, event, after in _steps(game, players, seed, retire_at):
                if event["kind"] == "decision":
                    for action in event["offered"]:
                        words = view.describe_action(action, before)
                        assert words != compact(action) and "{" not in words, (action, words)
                for effect in after.get("last") or []:
                    causes.add(effect["cause"])
                    words = view.describe_effect(effect, after)
                    assert words != compact(effect) and "{" not in (words or ""), (effect, words)
                assert not [line for line in view.position(after) if "{" in line]
                step = view.step(before, event, after)
                assert step["line"] and "{" not in step["line"], (event, step)
                if event["kind"] == "decision":
                    assert len(step["offered"]) == len(event["offered"])
                    assert step["forced"] == (len(event["offered"]) == 1)
    assert "retire" in causes or max(_counts(game)) == 2


def test_the_person_is_spoken_to_and_the_bots_spoken_of():
    view = get_spec("detour").describer(["you", "alpha"], you=0)
    roll = {"cause": "roll", "seat": 0, "colour": 0, "dice": [3, 5]}
    assert view.describe_effect(roll, {}) == "you roll 3 and 5"
    assert view.describe_effect({**roll, "seat": 1}, {}) == "alpha rolls 3 and 5"
    assert view.describe_effect({"cause": "win", "seat": 0}, {}) == "you win"
    assert view.describe_effect({"cause": "retire", "seat": 0, "pieces": []}, {}) == "you are out of the game"
    assert view.says(0, "has won") == "you have won" and view.says(1, "has won") == "alpha has won"
    assert view.says(0, "misses the turn") == "you miss the turn" and view.says(0, "reaches") == "you reach"
    assert view.whose(0) == "your" and view.whose(1) == "alpha's"
    slyyde = get_spec("slyyde").describer(["alpha", "you"], you=1)
    assert slyyde.describe_effect({"cause": "win", "seat": 1}, {}) == "you reach the centre and win"
    assert slyyde.describe_effect({"cause": "extra_turn", "seat": 1}, {}) == "you rolled a 6 and play again"
    retire = slyyde.step({}, retire_event(1, "move_timeout"), {"last": []})
    assert retire["line"] == "you forfeit (move timeout) and are out of the game"


def test_roundabout_names_its_spaces_by_ring_and_bar():
    """As the terminal's grid and the board drawing number them."""
    spec = get_spec("roundabout")
    view = spec.describer(["you", "alpha"], you=0)
    move = {"cause": "move", "seat": 1, "dart": 4, "die": 3, "way": "ring", "from": 39, "to": 42, "path": [39, 42]}
    assert view.describe_effect(move, {}) == "alpha moves a dart 3 round its ring from ring 2 bar 7 to ring 2 bar 10"
    state = spec.game.new_state(2, {}).to_json()
    lines = view.position(state)
    assert any("a dart on ring " in line for line in lines)
