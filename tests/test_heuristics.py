"""The house bots' evaluations (each game's evaluation.py, wrapped by
arena/house/evaluations.py): each is a chance of
winning per seat, a finished game is worth its result, and each game's
strength moves the way its docstring in bots/greedy_bot.py says."""

from __future__ import annotations

import copy
import random

import pytest

from arena.games import get_game, get_spec
from arena.games.base import CHANCE
from arena.games.dice import DiceStreams
from arena.house.evaluations import evaluated_games, evaluator


def heuristic(game_name: str):
    return make_heuristic(game_name, get_game(game_name).board)


def make_heuristic(game_name: str, board):
    evaluation = get_spec(game_name).evaluation
    assert evaluation is not None
    return evaluation(board)


def positions(game_name: str, players: int, seed: int):
    """Every decision position of one random game, and its final state."""
    game = get_game(game_name)
    state = game.new_state(players)
    dice, chooser = DiceStreams(seed), random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_chance(dice.draw(state.chance_request()))
            continue
        yield state
        state.apply_action(chooser.choice(state.legal_actions()))
    yield state


@pytest.mark.parametrize("game_name", evaluated_games())
def test_every_position_gets_a_chance_per_seat_and_the_end_its_result(game_name):
    game = get_game(game_name)
    evaluate = evaluator(game_name)
    for players in range(max(2, game.min_players), game.max_players + 1):
        for seed in range(3):
            for state in positions(game_name, players, seed):
                chances = evaluate(state)
                assert len(chances) == players
                assert all(0.0 <= c <= 1.0 for c in chances)
                assert sum(chances) == pytest.approx(1.0)
            winners = state.outcome().winners or range(players)  # a draw shares the point
            assert chances == [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]


def start_json(game_name: str) -> dict:
    """The first decision position of a two-player game, as bots see it."""
    return next(positions(game_name, 2, 0)).to_json()


def test_slyyde_a_pawn_nearer_the_centre_needs_fewer_turns_and_rates_higher():
    slyyde = heuristic("slyyde")
    centre = get_game("slyyde").board["centre"]
    assert slyyde.turns[centre] == 0.0
    assert slyyde.turns[centre - 1] < slyyde.turns[centre // 2] < slyyde.turns[0]
    data = start_json("slyyde")
    data.update(phase="roll", positions=[centre - 3, 0])
    ahead = slyyde(data)
    data["positions"] = [0, centre - 3]
    assert ahead[0] > 0.5 > slyyde(data)[0]


def test_slyyde_the_table_takes_the_diagonals_where_they_save_turns():
    board = get_game("slyyde").board
    with_diagonals = heuristic("slyyde").turns
    without = make_heuristic("slyyde", dict(board, black=[])).turns
    assert all(a <= b + 1e-9 for a, b in zip(with_diagonals, without))
    assert any(with_diagonals[b["square"]] < without[b["square"]] - 0.01 for b in board["black"])


def test_detour_a_finished_piece_helps_and_the_slowest_piece_counts_most():
    detour = heuristic("detour")
    data = start_json("detour")
    data.update(phase="roll", queue=[], popoff=None)
    even = detour(data)
    one_home = copy.deepcopy(data)
    one_home["pieces"][0]["finished"] = True
    assert detour(one_home)[0] > even[0]
    both_home = copy.deepcopy(one_home)
    both_home["pieces"][1]["finished"] = True
    assert detour(both_home)[0] > detour(one_home)[0]


def test_detour_a_pending_popoff_is_a_coin_flip_between_its_outcomes():
    detour = heuristic("detour")
    data = start_json("detour")
    data.update(phase="popoff", queue=[], popoff={"mover": 0, "defender": 2, "loser": None})
    places = [None if p["finished"] else (p["space"], p["port"]) for p in data["pieces"]]
    outcomes = []
    for loser in (0, 2):
        trial = list(places)
        trial[loser] = detour.starts[0]
        outcomes.append(detour._chances(data, trial))
    assert detour(data) == pytest.approx([(a + b) / 2 for a, b in zip(*outcomes)])


def test_ciclovia_points_and_missing_colours_move_the_strength():
    ciclovia = heuristic("ciclovia")
    data = start_json("ciclovia")
    rider = data["riders"][0]
    base = ciclovia.strength(data, 0)
    richer = copy.deepcopy(data)
    richer["riders"][0]["score"] = rider["score"] + 5
    assert ciclovia.strength(richer, 0) == pytest.approx(base + 5)
    fewer_missing = copy.deepcopy(data)
    fewer_missing["riders"][0]["missing"] = rider["missing"][1:]
    assert ciclovia.strength(fewer_missing, 0) > base
    arrived = copy.deepcopy(data)
    arrived["riders"][0]["arrived"] = True
    assert ciclovia.strength(arrived, 0) == rider["score"]


def test_ciclovia_a_colour_no_die_can_supply_any_more_costs_most():
    ciclovia = heuristic("ciclovia")
    data = start_json("ciclovia")
    data["stage"] = 2
    data["riders"][0]["missing"] = ["green"]
    data["blocks"] = [None] * 24
    data["blocks"][12] = {"colour": "green", "value": 1}
    findable = ciclovia.strength(data, 0)
    data["blocks"][12] = {"colour": "blue", "value": 1}
    assert ciclovia.strength(data, 0) < findable
    lost = ciclovia.strength(data, 0)
    data["phase"], data["blocks"] = "deal", [None] * 24   # stage 2 not dealt yet
    assert ciclovia.strength(data, 0) > lost


def test_roundabout_a_captured_dart_costs_and_a_dart_nearer_home_rates_higher():
    roundabout = heuristic("roundabout")
    data = start_json("roundabout")
    dart = next(d for d in data["darts"] if d["owner"] == 0 and d["space"] is not None)
    free = roundabout.need(data, 0, set())
    assert roundabout.need(data, 0, {dart["id"]}) == pytest.approx(free + 5.0 / 8.0)
    entry = roundabout.territory_bars[data["homes"][0]][0 if dart["dir"] > 0 else -1]
    distances = []
    for steps in (5, 4):
        moved = copy.deepcopy(data)
        target = next(d for d in moved["darts"] if d["id"] == dart["id"])
        target["bar"] = (entry - dart["dir"] * steps) % roundabout.bars
        distances.append(roundabout.need(moved, 0, set()))
    assert distances[1] == pytest.approx(distances[0] - 1.0 / 8.0)


@pytest.mark.parametrize("game_name", evaluated_games())
def test_a_retired_seat_has_no_chance_and_the_others_share_it(game_name):
    evaluate = evaluator(game_name)
    for seed in range(3):
        for number, state in enumerate(positions(game_name, 3, seed)):
            if number == 5 and not state.is_terminal():
                state = state.clone()
                state.retire(1)
                chances = evaluate(state)
                assert chances[1] == 0.0 and sum(chances) == pytest.approx(1.0)
                break
