"""Ciclovia rules, one test per rule sentence and per decision of
seeds/ciclovia.md, each played from a named position.

Positions are written the way the rules document speaks: riders at grid
cells (x, y) with a facing, dice on blocks named by (column, row).
"""

from __future__ import annotations

import json
from collections import Counter
from math import factorial
from pathlib import Path

import pytest
from support import field_names

from arena.games import GAMES
from arena.games.base import CHANCE, TERMINAL, IllegalAction, Termination
from arena.games.ciclovia.board import block_id, board_data
from arena.games.ciclovia.engine import (
    GAME,
    QUIET_TURNS,
    TURN_CAP,
    CicloviaState,
    die_points,
    unshuffle,
)
from arena.games.dice import DiceStreams
from arena.games.events import replay
from arena.games.playout import random_playout

BOARD = GAME.board
SPACE = {(s["gx"], s["gy"]): s["id"] for s in BOARD["spaces"] if s["kind"] != "garage"}
GARAGE = BOARD["garage"]
FULL_SET = ["blue 1", "red 1", "green 1", "orange 1"]


# ------------------------------------------------------------ named positions

def at(x: int, y: int) -> int:
    return SPACE[(x, y)]


def block(column: int, row: int) -> int:
    return block_id(column, row)


def die(text: str) -> tuple[str, int]:
    colour, value = text.split()
    return colour, int(value)


def position(riders: list[str], dice: dict[tuple[int, int], str] | None = None, *,
             held: dict[int, list[str]] | None = None, stage: int = 1, to_move: int = 0,
             turn: int = 10, light: int | None = None) -> CicloviaState:
    """A position in play. ``riders`` are "x,y F" (cell and facing) or
    "garage"; ``dice`` maps a block (column, row) to "colour value"; ``held``
    gives a seat's collected dice as "colour value" (a "*" suffix marks a
    doubled die); ``light`` is the seat that reached the light first. All
    other blocks are empty."""
    state = CicloviaState(len(riders))
    for seat, text in enumerate(riders):
        if text == "garage":
            continue
        cell, facing = text.split()
        x, y = (int(v) for v in cell.split(","))
        state.pos[seat] = at(x, y)
        state.facing[seat] = facing
    state.stage = stage
    state.light_first = light
    for (column, row), text in (dice or {}).items():
        state.blocks[block(column, row)] = die(text)
    for seat, texts in (held or {}).items():
        state.dice[seat] = [(*die(t.rstrip("*")), t.endswith("*")) for t in texts]
    state.turn = state.last_progress = turn
    state.phase = "turn"
    state._begin_move(to_move)
    return state


def step(direction: str, x: int, y: int) -> dict:
    return {"step": direction, "to": at(x, y)}


def take(column: int, row: int, state: CicloviaState) -> dict:
    colour, value = state.blocks[block(column, row)]
    return {"take": block(column, row), "colour": colour, "value": value}


LEAVE, STOP, STAY, REVERSE = {"leave": True}, {"stop": True}, {"stay": True}, {"reverse": True}


def play(state: CicloviaState, *actions: dict) -> CicloviaState:
    for action in actions:
        state.apply_action(action)
    return state


def steps_offered(state: CicloviaState) -> set[tuple[str, tuple[int, int]]]:
    spaces = {s["id"]: (s["gx"], s["gy"]) for s in BOARD["spaces"]}
    return {(a["step"], spaces[a["to"]]) for a in state.legal_actions() if "step" in a}


def dice_of(state: CicloviaState, seat: int) -> list[tuple[str, int, bool]]:
    return state.dice[seat]


def finish_setup(state: CicloviaState, shuffle: int = 1, roll: tuple[int, ...] = (3,) * 12):
    assert state.current_player() == CHANCE
    assert state.chance_request().purpose == "shuffle"
    state.apply_chance((shuffle,))
    assert state.chance_request().purpose == "roll"
    state.apply_chance(roll)
    return state


# ------------------------------------------------------------ the board

def test_the_city_has_eight_columns_of_three_blocks_twelve_per_stage():
    blocks = BOARD["blocks"]
    assert len(blocks) == 24
    assert Counter(b["column"] for b in blocks) == {c: 3 for c in range(1, 9)}
    assert [b["id"] for b in blocks if b["stage"] == 1] == list(range(12))
    assert all(b["column"] <= 4 for b in blocks if b["stage"] == 1)


def test_every_block_has_one_door_of_each_number_on_a_street_round_it():
    spaces = {s["id"]: s for s in BOARD["spaces"]}
    for b in BOARD["blocks"]:
        assert [d["number"] for d in b["doors"]] == [1, 2, 3, 4, 5, 6]
        x0, y0 = 3 * b["column"] - 2, 3 * b["row"] - 2
        for d in b["doors"]:
            s = spaces[d["space"]]
            assert s["kind"] == "street"
            inside_x = x0 <= s["gx"] <= x0 + 1
            inside_y = y0 <= s["gy"] <= y0 + 1
            # orthogonally next to one of the block's four cells
            assert ((inside_x and s["gy"] in (y0 - 1, y0 + 2))
                    or (inside_y and s["gx"] in (x0 - 1, x0 + 2)))
        # a door on every side, but a wall to the light street (decision 2)
        sides = {"N", "S", "W"} if b["column"] == 4 else {"N", "E", "S", "W"}
        assert {d["side"] for d in b["doors"]} == sides


def reachable_in_stage(stage: int) -> set[int]:
    """The spaces a rider can stand on during a stage, from the board data
    alone: everything the garage leads to, except the arrival points and, in
    stage 1, the light street (stepping onto it ends the stage)."""
    barred = set(BOARD["arrivals"])
    if stage == 1:
        barred |= set(BOARD["light"]["spaces"])
    seen, queue = {GARAGE}, [GARAGE]
    while queue:
        here = queue.pop()
        for _, there in BOARD["spaces"][here]["exits"]:
            if there not in seen and there not in barred:
                seen.add(there)
                queue.append(there)
    return seen


def test_every_door_of_every_stage_faces_a_space_reachable_in_its_own_stage():
    """"coletar o dado na porta que tem o número igual a do dado": every
    number a die can show must have a door a rider can reach while that
    stage's dice lie on the blocks."""
    for stage in (1, 2):
        where = reachable_in_stage(stage)
        for b in BOARD["blocks"]:
            if b["stage"] == stage:
                lost = [d["number"] for d in b["doors"] if d["space"] not in where]
                assert lost == [], f"block {b['id']} (stage {stage}): doors {lost} unreachable"


def test_no_stage_one_door_faces_the_light_street():
    light = set(BOARD["light"]["spaces"])
    assert not [(b["id"], d["number"]) for b in BOARD["blocks"] if b["stage"] == 1
                for d in b["doors"] if d["space"] in light]


@pytest.mark.parametrize("stage", [1, 2])
def test_every_die_value_on_every_block_can_be_taken_in_its_stage(stage):
    """For every door, a rider on a reachable neighbouring space steps onto
    the door's space and is offered the die showing the door's number."""
    cells = {s["id"]: (s["gx"], s["gy"]) for s in BOARD["spaces"]}
    where = reachable_in_stage(stage) - {GARAGE}
    for b in BOARD["blocks"]:
        if b["stage"] != stage:
            continue
        for d in b["doors"]:
            approaches = [(direction, here) for here in sorted(where)
                          for direction, there in BOARD["spaces"][here]["exits"]
                          if there == d["space"]]
            assert approaches, f"block {b['id']} door {d['number']}: no way in"
            direction, here = approaches[0]
            x, y = cells[here]
            state = position([f"{x},{y} {direction}", "garage"],
                             {(b["column"], b["row"]): f"blue {d['number']}"}, stage=stage)
            play(state, step(direction, *cells[d["space"]]))
            assert take(b["column"], b["row"], state) in state.legal_actions()


def test_some_points_face_two_doors_in_each_stage():
    faced = Counter(d["space"] for b in BOARD["blocks"] for d in b["doors"])
    doubles = [s for s, n in faced.items() if n == 2]
    xs = {s["id"]: s["gx"] for s in BOARD["spaces"]}
    assert sum(xs[s] < 12 for s in doubles) >= 10
    assert sum(xs[s] > 12 for s in doubles) >= 10


def test_streets_are_grey_except_the_brown_fast_lanes():
    for s in BOARD["spaces"]:
        if s["kind"] in ("street", "crossing"):
            brown = s["gy"] in (0, 9) or s["gx"] in (6, 18)
            assert s["lane"] == ("brown" if brown else "grey")


def test_the_traffic_light_is_the_whole_street_after_column_four_in_the_middle():
    light = BOARD["light"]
    assert light["column"] == 4 and light["gx"] == 12
    assert light["spaces"] == [at(12, y) for y in range(10)]
    assert BOARD["grid"]["width"] == 25  # x 0..24: x = 12 is the middle street


def test_four_arrival_points_lie_east_of_the_city():
    arrivals = BOARD["arrivals"]
    assert arrivals == [at(25, y) for y in (0, 3, 6, 9)]
    for y in (0, 3, 6, 9):
        assert ["E", at(25, y)] in BOARD["spaces"][at(24, y)]["exits"]


def test_every_space_door_and_block_has_drawing_coordinates_in_the_box():
    width, height = BOARD["width"], BOARD["height"]
    points = [(s["x"], s["y"]) for s in BOARD["spaces"]]
    points += [(b["x"], b["y"]) for b in BOARD["blocks"]]
    points += [(d["x"], d["y"]) for b in BOARD["blocks"] for d in b["doors"]]
    assert all(0 <= x <= width and 0 <= y <= height for x, y in points)
    assert len({(s["x"], s["y"]) for s in BOARD["spaces"]}) == len(BOARD["spaces"])
    json.dumps(BOARD)


def test_the_engine_plays_on_the_registered_board_data():
    assert GAMES["ciclovia"] is GAME
    assert GAME.board == board_data()


# ------------------------------------------------------------ set-up and chance

def test_all_riders_start_together_in_the_garage_facing_east_for_every_player_count():
    for players in (2, 3, 4):
        state = GAME.new_state(players)
        riders = state.to_json()["riders"]
        assert {(r["space"], r["facing"]) for r in riders} == {(GARAGE, "E")}
        assert len({json.dumps({k: v for k, v in r.items() if k != "seat"}) for r in riders}) == 1


def test_the_garage_leads_east_to_the_four_street_ends():
    state = position(["garage", "garage"])
    assert steps_offered(state) == {("E", (0, y)) for y in (0, 3, 6, 9)}
    assert STAY in state.legal_actions() and REVERSE not in state.legal_actions()


def test_a_street_end_taken_by_a_rider_cannot_be_entered_from_the_garage():
    state = position(["garage", "0,3 E"])
    assert ("E", (0, 3)) not in steps_offered(state)


def test_stage_one_is_dealt_three_dice_of_each_colour_then_rolled_and_seat_zero_starts():
    state = GAME.new_state(3)
    request = state.chance_request()
    assert (request.stream, request.count, request.sides, request.purpose) == (
        "board", 1, factorial(12), "shuffle")
    state.apply_chance((factorial(12),))
    request = state.chance_request()
    assert (request.stream, request.count, request.sides, request.purpose) == (
        "board", 12, 6, "roll")
    state.apply_chance((1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1))
    stage_one = state.blocks[:12]
    assert Counter(c for c, _ in stage_one) == {"blue": 3, "red": 3, "green": 3, "orange": 3}
    assert [v for _, v in stage_one] == [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1]
    assert state.blocks[12:] == [None] * 12
    assert state.current_player() == 0


def test_a_shuffle_is_one_draw_decoded_as_a_permutation():
    deck = ("a", "b", "c", "d")
    assert unshuffle(1, deck) == ["a", "b", "c", "d"]
    assert unshuffle(factorial(4), deck) == ["d", "c", "b", "a"]
    assert len({tuple(unshuffle(n, deck)) for n in range(1, 25)}) == 24


def test_no_seat_ever_rolls_chance_is_only_the_board_and_the_restock():
    streams = Counter()
    for seed in range(40):
        _, events = random_playout(GAME, 3, seed)
        streams.update(e["stream"] for e in events if e["kind"] == "chance")
    assert set(streams) == {"board", "restock"}


def test_chance_values_out_of_range_are_refused():
    state = GAME.new_state(2)
    with pytest.raises(IllegalAction):
        state.apply_chance((0,))
    state.apply_chance((1,))
    with pytest.raises(IllegalAction):
        state.apply_chance((7,) * 12)


# ------------------------------------------------------------ moving

def test_on_grey_a_rider_steps_one_space_forward_or_sideways_never_back():
    state = position(["3,3 E", "garage"])
    assert steps_offered(state) == {("N", (3, 2)), ("E", (4, 3)), ("S", (3, 4))}
    play(state, step("E", 4, 3))
    assert state.pos[0] == at(4, 3) and state.current_player() == 1


def test_facing_west_forward_is_west():
    state = position(["3,3 W", "garage"])
    assert steps_offered(state) == {("N", (3, 2)), ("W", (2, 3)), ("S", (3, 4))}


# "Se um jogador quiser mudar sua direção durante o jogo ele gasta uma
# ação/movimento para fazer essa inversão" (decision 5).

def test_reversing_spends_one_step_so_on_grey_it_is_the_whole_move():
    state = position(["1,3 E", "garage"])
    play(state, REVERSE)
    assert state.facing[0] == "W" and state.pos[0] == at(1, 3)
    assert state.current_player() == 1 and state.turn == 11
    assert state.to_json()["last"] == [{"cause": "reverse", "rider": 0, "facing": "W"}]


def test_on_brown_a_rider_that_reverses_keeps_its_second_step():
    state = position(["3,0 E", "garage"])
    play(state, REVERSE)
    assert state.current_player() == 0 and state.facing[0] == "W"
    assert steps_offered(state) == {("W", (2, 0)), ("S", (3, 1))}
    play(state, step("W", 2, 0))
    assert state.pos[0] == at(2, 0) and state.current_player() == 1


def test_a_rider_may_reverse_after_a_step_if_its_move_has_a_step_left():
    state = position(["0,0 E", "garage"])
    play(state, step("E", 1, 0))
    assert state.legal_actions() == [step("E", 2, 0), STOP, REVERSE]
    play(state, REVERSE)
    assert state.pos[0] == at(1, 0) and state.facing[0] == "W" and state.current_player() == 1


def test_a_green_extra_step_may_be_spent_turning_round():
    state = position(["3,1 E", "garage"], {(1, 1): "green 1"})
    play(state, step("S", 3, 2), take(1, 1, state))
    assert REVERSE in state.legal_actions()
    play(state, REVERSE)
    assert state.pos[0] == at(3, 2) and state.facing[0] == "N" and state.current_player() == 1


def test_a_rider_faces_the_way_it_last_stepped_so_north_then_south_is_a_reversal():
    state = position(["3,3 E", "4,6 E"])
    play(state, step("N", 3, 2))
    assert state.facing[0] == "N"
    play(state, STAY)
    assert steps_offered(state) == {("N", (3, 1))}
    assert state.legal_actions() == [step("N", 3, 1), STAY, REVERSE]


def test_turning_a_corner_is_a_sideways_step_and_costs_nothing():
    state = position(["3,3 N", "garage"])
    assert steps_offered(state) == {("N", (3, 2)), ("E", (4, 3)), ("W", (2, 3))}
    play(state, step("E", 4, 3))
    assert state.facing[0] == "E" and state.current_player() == 1


def test_a_rider_does_not_reverse_twice_in_a_row():
    state = position(["0,0 E", "garage"])
    play(state, REVERSE)
    assert REVERSE not in state.legal_actions() and STOP in state.legal_actions()


def test_reversing_at_a_door_takes_no_die():
    state = position(["3,2 S", "garage"], {(1, 1): "blue 1"})
    play(state, REVERSE)
    assert state.current_player() == 1 and dice_of(state, 0) == []


def test_a_rider_may_choose_not_to_move():
    state = position(["1,3 E", "garage"])
    play(state, STAY)
    assert state.pos[0] == at(1, 3) and state.facing[0] == "E" and state.current_player() == 1


def test_on_brown_a_rider_steps_two_spaces():
    state = position(["0,0 E", "garage"])
    play(state, step("E", 1, 0))
    assert steps_offered(state) == {("E", (2, 0))}
    play(state, step("E", 2, 0))
    assert state.pos[0] == at(2, 0) and state.current_player() == 1


def test_the_second_brown_step_may_be_declined():
    state = position(["0,0 E", "garage"])
    play(state, step("E", 1, 0))
    assert STOP in state.legal_actions()
    play(state, STOP)
    assert state.pos[0] == at(1, 0) and state.current_player() == 1


def test_leaving_brown_for_grey_keeps_the_second_step_on_grey():
    state = position(["3,0 E", "garage"])
    play(state, step("S", 3, 1))
    assert state.current_player() == 0
    play(state, step("S", 3, 2))
    assert state.pos[0] == at(3, 2)


def test_a_second_step_on_brown_needs_the_first_on_brown():
    state = position(["3,1 E", "garage"])
    play(state, step("N", 3, 0))
    assert state.pos[0] == at(3, 0) and state.current_player() == 1


def test_a_move_never_turns_straight_back():
    state = position(["6,3 E", "garage"])
    play(state, step("N", 6, 2))
    assert steps_offered(state) == {("N", (6, 1))}


def test_a_blocked_rider_goes_another_way():
    state = position(["3,3 E", "4,3 E"])
    assert steps_offered(state) == {("N", (3, 2)), ("S", (3, 4))}


def test_a_blocked_rider_in_mid_street_can_only_wait_or_turn():
    state = position(["1,3 E", "2,3 E"])
    assert state.legal_actions() == [STAY, REVERSE]


def test_a_brown_move_cannot_jump_over_a_rider():
    state = position(["0,0 E", "2,0 W"])
    play(state, step("E", 1, 0))
    assert state.pos[0] == at(1, 0) and state.legal_actions() == [STOP, REVERSE]


# ------------------------------------------------------------ collecting

def test_a_rider_at_the_door_showing_the_die_value_may_take_it():
    # block (1,1) has door 1 on its east side at (3,2)
    state = position(["3,1 E", "garage"], {(1, 1): "blue 1"})
    play(state, step("S", 3, 2))
    assert state.legal_actions() == [take(1, 1, state), LEAVE]
    play(state, take(1, 1, state))
    assert dice_of(state, 0) == [("blue", 1, False)]
    assert state.blocks[block(1, 1)] is None and state.current_player() == 1


def test_a_door_that_does_not_show_the_die_value_offers_nothing():
    state = position(["3,1 E", "garage"], {(1, 1): "blue 2"})
    play(state, step("S", 3, 2))
    assert state.current_player() == 1 and dice_of(state, 0) == []


def test_a_rider_may_leave_a_matching_die():
    state = position(["3,1 E", "garage"], {(1, 1): "blue 1"})
    play(state, step("S", 3, 2), LEAVE)
    assert state.blocks[block(1, 1)] == ("blue", 1) and dice_of(state, 0) == []


def test_dice_are_taken_only_after_a_step_not_when_staying_at_the_door():
    state = position(["3,2 E", "garage"], {(1, 1): "blue 1"})
    play(state, STAY)
    assert state.current_player() == 1 and dice_of(state, 0) == []


def test_a_corner_point_facing_two_doors_takes_two_dice_in_the_order_chosen():
    # (4,3) faces door 2 of block (2,1) and door 5 of block (2,2)
    state = position(["3,3 E", "garage"], {(2, 1): "orange 2", (2, 2): "red 5"})
    play(state, step("E", 4, 3))
    assert state.legal_actions() == [take(2, 1, state), take(2, 2, state), LEAVE]
    play(state, take(2, 1, state))
    assert state.legal_actions() == [take(2, 2, state), LEAVE]
    play(state, take(2, 2, state))
    assert dice_of(state, 0) == [("orange", 2, False), ("red", 5, True)]
    assert state.current_player() == 1


def test_on_the_fast_lane_passing_two_matching_doors_takes_both():
    # (6,1) faces door 2 of block (3,1); (6,2) faces door 5 of block (2,1)
    state = position(["6,0 E", "garage"], {(3, 1): "blue 2", (2, 1): "green 5"})
    play(state, step("S", 6, 1), take(3, 1, state), step("S", 6, 2), take(2, 1, state))
    assert [d[0] for d in dice_of(state, 0)] == ["blue", "green"]


def test_a_green_die_gives_one_extra_step_on_grey():
    state = position(["3,1 E", "garage"], {(1, 1): "green 1"})
    play(state, step("S", 3, 2), take(1, 1, state))
    assert state.current_player() == 0
    assert steps_offered(state) == {("S", (3, 3))} and STOP in state.legal_actions()
    play(state, step("S", 3, 3))
    assert state.current_player() == 1


def test_a_green_extra_step_can_collect_a_second_die():
    # (1,3) faces door 3 of block (1,2); (2,3) faces door 6 of block (1,1)
    state = position(["0,3 E", "garage"], {(1, 2): "green 3", (1, 1): "red 6"})
    play(state, step("E", 1, 3), take(1, 2, state), step("E", 2, 3))
    assert state.legal_actions() == [take(1, 1, state), LEAVE]
    play(state, take(1, 1, state))
    assert dice_of(state, 0) == [("green", 3, False), ("red", 6, False)]
    assert state.current_player() == 1


def test_on_the_fast_lane_a_green_die_gives_a_third_step():
    # (6,1) faces door 2 of block (3,1)
    state = position(["6,0 E", "garage"], {(3, 1): "green 2"})
    play(state, step("S", 6, 1), take(3, 1, state), step("S", 6, 2))
    assert state.current_player() == 0
    play(state, step("S", 6, 3))
    assert state.pos[0] == at(6, 3) and state.current_player() == 1


def test_two_green_dice_in_one_move_give_only_one_extra_step():
    # corner point (4,3): door 2 of block (2,1), door 5 of block (2,2)
    state = position(["3,3 E", "garage"], {(2, 1): "green 2", (2, 2): "green 5"})
    play(state, step("E", 4, 3), take(2, 1, state), take(2, 2, state))
    assert state.move.allowance == 2
    play(state, step("E", 5, 3))
    assert state.current_player() == 1


# ------------------------------------------------------------ colours and scores

def test_a_green_taken_on_the_extra_step_gives_no_further_step():
    # (1,3) faces door 3 of block (1,2); (2,3) faces door 6 of block (1,1)
    state = position(["0,3 E", "garage"], {(1, 2): "green 3", (1, 1): "green 6"})
    play(state, step("E", 1, 3), take(1, 2, state), step("E", 2, 3), take(1, 1, state))
    assert state.current_player() == 1 and state.pos[0] == at(2, 3)


def test_blue_scores_one_more_red_one_less_green_and_orange_their_value():
    assert die_points("blue", 4, False) == 5
    assert die_points("red", 4, False) == 3
    assert die_points("green", 4, False) == 4
    assert die_points("orange", 4, False) == 4


def test_a_red_one_scores_nothing_but_is_still_a_die():
    state = position(["garage", "garage"], held={0: ["red 1"], 1: []}, stage=2)
    assert die_points("red", 1, False) == 0
    assert state.totals() == [0 + 3, 0]  # it wins the most-dice bonus


def test_an_orange_die_doubles_the_next_die_collected_even_on_a_later_turn():
    # (1,3) faces door 3 of block (1,2); (4,0) faces door 3 of block (2,1)
    state = position(["0,3 E", "3,0 E"], {(1, 2): "orange 3", (2, 1): "blue 3", (1, 1): "blue 6"})
    play(state, step("E", 1, 3), take(1, 2, state))           # seat 0's turn ends
    play(state, step("E", 4, 0), LEAVE, STOP)                  # seat 1 rides on
    assert state.double_next[0]
    play(state, step("E", 2, 3), take(1, 1, state))            # door 6 of block (1,1)
    assert dice_of(state, 0) == [("orange", 3, False), ("blue", 6, True)]
    assert state.to_json()["riders"][0]["dice"][1]["points"] == 14  # (6 + 1) x 2
    assert not state.double_next[0]


def test_an_orange_die_taken_after_an_orange_is_doubled_and_doubles_the_next():
    state = position(["3,3 E", "garage"], {(2, 1): "orange 2", (2, 2): "orange 5"})
    play(state, step("E", 4, 3), take(2, 1, state), take(2, 2, state))
    assert dice_of(state, 0) == [("orange", 2, False), ("orange", 5, True)]
    assert state.double_next[0]


def test_a_doubled_red_one_is_still_worth_nothing():
    assert die_points("red", 1, True) == 0


# "Esse que vale o dobro vai para a área cinza da contagem de dados" (decision 10).

def test_a_doubled_die_goes_to_the_grey_area_not_to_its_colour():
    state = position(["24,3 E", "garage"], held={0: ["orange 2", "blue 4*", "red 3", "green 1"]},
                     stage=2)
    assert state.to_json()["riders"][0]["missing"] == ["blue"]
    assert ("E", (25, 3)) not in steps_offered(state)


def test_a_doubled_die_still_scores_double_and_counts_as_a_die():
    state = position(["garage", "garage"], held={0: ["orange 2", "blue 4*"], 1: ["red 6"]},
                     stage=2)
    assert state.totals() == [2 + 10 + 3, 5]


def test_the_colour_of_a_doubled_die_must_be_found_again_undoubled():
    state = position(["13,3 E", "garage"], {(5, 1): "blue 2"},
                     held={0: ["orange 2", "blue 4*", "red 3", "green 1"]}, stage=2)
    play(state, step("E", 14, 3), take(5, 1, state))   # door 2 of block (5,1) is at (14,3)
    assert state.to_json()["riders"][0]["missing"] == []


def pending_double_one_blue_left() -> CicloviaState:
    """Stage 2: seat 0 lacks only blue, an orange double waits, and the one
    blue die left would be doubled; seat 1 cannot complete either."""
    state = position(["13,3 E", "garage"], {(5, 1): "blue 2", (6, 1): "orange 4"},
                     held={0: ["red 3", "green 1", "orange 2"], 1: ["red 1"]}, stage=2)
    state.double_next[0] = True
    return state


def test_a_pending_double_with_no_die_to_spend_it_on_leaves_no_way_to_complete():
    state = pending_double_one_blue_left()
    assert not state.can_still_complete(0)
    play(state, STAY)
    assert state.current_player() == TERMINAL and state.ending == "exhausted"


def test_a_pending_double_can_be_spent_on_a_die_not_needed():
    state = pending_double_one_blue_left()
    state.blocks[block(5, 2)] = die("red 5")
    assert state.can_still_complete(0)
    play(state, STAY)
    assert state.current_player() == 1


# ------------------------------------------------------------ the traffic light

def stage_one_near_the_light() -> CicloviaState:
    """Seat 1 of three is one step from the light; dice are left on stage 1."""
    return position(["5,3 E", "11,3 E", "garage"],
                    {(1, 1): "blue 6", (2, 2): "red 3", (4, 3): "blue 2"}, to_move=1)


def test_reaching_the_light_ends_the_move_and_the_first_stage():
    state = stage_one_near_the_light()
    play(state, step("E", 12, 3))
    assert state.current_player() == CHANCE
    assert state.chance_request().stream == "restock"
    assert state.blocks[:12] == [None] * 12
    assert state.light_first == 1 and state.totals() == [0, 2, 0]
    assert state.to_json()["last"][-1]["gathered"] == {"blue": 2, "red": 1, "green": 0, "orange": 0}


def test_a_rider_on_the_fast_lane_loses_the_rest_of_its_move_at_the_light():
    state = position(["11,0 E", "garage"])
    assert state.move.allowance == 2
    play(state, step("E", 12, 0))
    assert state.current_player() == CHANCE and state.pos[0] == at(12, 0)
    assert state.move is None and state.turn == 11


def test_stage_two_is_refilled_from_the_box_to_three_of_each_colour_and_rolled():
    state = GAME.new_state(3)
    assert state.box == {c: 3 for c in ("blue", "red", "green", "orange")}  # 24 - 12 dealt
    state = play(stage_one_near_the_light(), step("E", 12, 3))
    # blue 2, red 1 gathered: the box gives blue 1, red 2, green 3, orange 3
    assert state.box == {"blue": 2, "red": 1, "green": 0, "orange": 0}
    state.apply_chance((1,))
    assert state.chance_request().purpose == "roll"
    state.apply_chance((6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6))
    assert state.blocks[12:] == [("blue", 6), ("blue", 5), ("blue", 4), ("red", 3), ("red", 2),
                                 ("red", 1), ("green", 1), ("green", 2), ("green", 3),
                                 ("orange", 4), ("orange", 5), ("orange", 6)]
    assert state.stage == 2


def test_after_the_restock_riders_keep_their_places_and_the_next_seat_plays():
    state = play(stage_one_near_the_light(), step("E", 12, 3))
    finish_setup(state)
    assert state.pos == [at(5, 3), at(12, 3), GARAGE]
    assert state.current_player() == 2


def test_the_light_is_always_first_reached_at_a_crossing_facing_no_door():
    faced = {d["space"] for b in BOARD["blocks"] for d in b["doors"]}
    entries = {to for s in BOARD["spaces"] if s["kind"] != "garage" and s["gx"] == 11
               for d, to in s["exits"] if d == "E"}
    assert entries == {at(12, y) for y in (0, 3, 6, 9)}
    assert not entries & faced


def test_the_light_has_no_effect_in_stage_two():
    state = position(["11,3 E", "garage"], {(5, 1): "blue 1", (5, 2): "red 1", (5, 3): "green 1",
                                             (6, 1): "orange 1"}, stage=2)
    play(state, step("E", 12, 3))
    assert state.current_player() == 1 and state.stage == 2


def test_an_orange_taken_in_stage_one_doubles_the_first_die_of_stage_two():
    # (10,6) faces door 1 of block (4,3); (13,6) faces door 1 of block (5,2)
    state = position(["9,6 E", "11,3 E"], {(4, 3): "orange 1", (1, 1): "red 2"})
    play(state, step("E", 10, 6), take(4, 3, state))
    play(state, step("E", 12, 3))                      # seat 1 ends stage 1
    finish_setup(state, shuffle=1, roll=(1,) * 12)     # blocks (5,1)-(5,3) get blue 1s
    play(state, step("E", 11, 6), STAY, step("E", 12, 6), STAY, step("E", 13, 6))
    play(state, take(5, 2, state))
    assert dice_of(state, 0) == [("orange", 1, False), ("blue", 1, True)]
    assert state.to_json()["riders"][0]["dice"][1]["points"] == 4


# ------------------------------------------------------------ arriving and the end

def full_house() -> CicloviaState:
    """Three riders in stage 2; seat 1 holds every colour at an east street end."""
    return position(["20,3 E", "24,3 E", "22,6 E"], {(8, 1): "blue 2"},
                    held={0: ["blue 6"], 1: FULL_SET, 2: ["red 4", "orange 2"]},
                    stage=2, to_move=1)


def test_an_arrival_point_can_be_entered_only_holding_every_colour():
    state = position(["24,3 E", "garage"], held={0: ["blue 1", "red 1", "green 1"]}, stage=2)
    assert ("E", (25, 3)) not in steps_offered(state)
    state = full_house()
    assert ("E", (25, 3)) in steps_offered(state)


def test_a_rider_facing_west_cannot_enter_an_arrival_point():
    state = position(["24,3 W", "garage"], held={0: FULL_SET}, stage=2)
    assert ("E", (25, 3)) not in steps_offered(state)


def test_a_rider_facing_north_turns_east_into_an_arrival_point():
    state = position(["24,3 N", "garage"], held={0: FULL_SET}, stage=2)
    assert ("E", (25, 3)) in steps_offered(state)


def test_after_the_first_arrival_every_other_rider_has_one_last_move():
    state = full_house()
    play(state, step("E", 25, 3))
    assert state.arrived[1] and state.arrival_first == 1
    assert state.current_player() == 2
    play(state, STAY)
    assert state.current_player() == 0
    play(state, STAY)
    assert state.current_player() == TERMINAL and state.ending == "arrival"
    assert state.outcome().termination is Termination.NORMAL


def test_the_last_moves_are_played_even_when_nobody_else_can_complete_the_colours():
    state = full_house()   # no red or green dice left for seats 0 and 2
    assert not state.can_still_complete(0) and not state.can_still_complete(2)
    play(state, step("E", 25, 3))
    assert state.current_player() == 2


def test_the_last_moves_are_played_even_past_the_turn_cap():
    state = full_house()
    state.turn = TURN_CAP - 1
    play(state, step("E", 25, 3))
    assert state.current_player() == 2
    play(state, STAY, STAY)
    assert state.outcome().termination is Termination.NORMAL


def test_another_rider_may_arrive_in_its_last_move_without_the_bonus():
    state = position(["24,3 E", "24,6 E"], held={0: FULL_SET, 1: FULL_SET}, stage=2)
    play(state, step("E", 25, 3), step("E", 25, 6))
    assert state.arrived == [True, True] and state.current_player() == TERMINAL
    assert state.totals() == [4 + 2 + 3, 4 + 3]


def test_an_arrived_rider_keeps_its_arrival_point():
    state = position(["garage", "24,3 E"], held={0: FULL_SET, 1: FULL_SET}, stage=2, to_move=1)
    state.pos[0], state.arrived[0], state.arrival_first, state.final = at(25, 3), True, 0, []
    assert steps_offered(state) == {("N", (24, 2)), ("S", (24, 4))}


def test_a_rider_kept_out_of_an_occupied_arrival_point_loses_nothing_by_it():
    """Decision 19: seat 0 has arrived at (25,3); seat 1, behind it with
    every colour, cannot arrive there in its last move, and needs not."""
    state = position(["garage", "24,3 E"], held={0: FULL_SET, 1: FULL_SET + ["blue 6", "blue 6"]},
                     stage=2, to_move=1)
    state.pos[0], state.arrived[0], state.arrival_first, state.final = at(25, 3), True, 0, []
    assert ("E", (25, 3)) not in steps_offered(state)
    play(state, STAY)
    assert state.ending == "arrival"
    assert state.outcome().scores == (4.0 + 2, 4.0 + 7 + 7 + 3)
    assert state.outcome().winners == (1,)


def test_bonus_two_for_the_first_at_the_light():
    state = position(["garage", "garage"], held={0: ["blue 1"], 1: ["blue 1"]}, stage=2, light=1)
    assert state.totals() == [2 + 3, 2 + 3 + 2]


def test_bonus_two_for_the_first_to_arrive():
    state = full_house()
    play(state, step("E", 25, 3))
    assert state.totals()[1] == 4 + 2 + 3


def test_bonus_three_for_the_most_dice_shared_when_tied():
    state = position(["garage", "garage", "garage"],
                     held={0: ["red 1", "red 1"], 1: ["green 5"], 2: ["green 1", "blue 1"]},
                     stage=2)
    assert state.totals() == [0 + 3, 5, 3 + 3]


def test_no_most_dice_bonus_while_nobody_has_a_die():
    state = position(["garage", "garage"], stage=2)
    assert state.totals() == [0, 0]


def finished(held: dict[int, list[str]], light: int | None = None) -> CicloviaState:
    """A finished game with these dice held, one rider per entry."""
    state = position(["garage"] * len(held), held=held, stage=2, light=light)
    state._finish("arrival")
    return state


def test_the_highest_total_of_dice_and_bonuses_wins():
    state = finished({0: ["blue 6"], 1: ["red 6", "green 3"]})
    assert state.outcome().scores == (7.0, 5.0 + 3 + 3)
    assert state.outcome().winners == (1,)
    state = finished({0: ["blue 6"], 1: ["red 6", "green 3"]}, light=0)
    assert state.outcome().scores == (9.0, 11.0) and state.outcome().winners == (1,)


def test_a_tie_on_points_goes_to_the_rider_with_more_dice():
    # seat 0: 6 + 0 + 0 and the most-dice bonus = 9; seat 1: 5 + (3 + 1) = 9
    state = finished({0: ["green 6", "red 1", "red 1"], 1: ["green 5", "blue 3"]})
    assert state.outcome().scores == (9.0, 9.0)
    assert state.outcome().winners == (0,)


def test_a_tie_on_points_and_dice_is_a_shared_win():
    # 6 + (5 - 1) + 3 against (5 + 1) + 4 + 3, both with two dice
    state = finished({0: ["green 6", "red 5"], 1: ["blue 5", "orange 4"]})
    assert state.outcome().scores == (13.0, 13.0)
    # both placed first: between the two of them a draw (arena.results)
    assert state.outcome().placements == (1, 1) and state.outcome().termination is Termination.NORMAL
    assert state.outcome().winners == ()


# "Para encerrar um jogo cada jogador deve ter coletado pelo menos 1 dado de
# cada cor" (decision 20).

def last_orange_for_seat_one() -> CicloviaState:
    """Stage 2, two riders: seat 0 holds every colour at an east street end;
    seat 1 holds high dice of three colours, one step from the orange it
    lacks (door 2 of block (5,1) is at (14,3))."""
    return position(["24,3 E", "13,3 E"], {(5, 1): "orange 2"},
                    held={0: FULL_SET, 1: ["blue 6", "red 6", "green 6"]}, stage=2)


def test_a_rider_without_every_colour_at_the_end_cannot_beat_one_with_them():
    state = play(last_orange_for_seat_one(), step("E", 25, 3), STAY)
    assert state.ending == "arrival"
    assert state.outcome().scores == (4.0 + 2 + 3, 18.0)
    assert state.outcome().winners == (0,)


def test_the_last_move_may_complete_the_colours_and_then_points_decide():
    state = last_orange_for_seat_one()
    play(state, step("E", 25, 3), step("E", 14, 3), take(5, 1, state))
    assert state.ending == "arrival" and state.dice[1][-1] == ("orange", 2, False)
    assert state.outcome().scores == (4.0 + 2 + 3, 18.0 + 2 + 3)
    assert state.outcome().winners == (1,)


def test_among_riders_holding_every_colour_the_highest_total_wins():
    state = finished({0: FULL_SET + ["blue 6"], 1: FULL_SET, 2: ["green 6", "green 6", "green 5"]})
    assert state.outcome().scores == (4.0 + 7 + 3, 4.0, 17.0)
    assert state.outcome().winners == (0,)


def test_when_nobody_holds_every_colour_the_totals_decide_among_all():
    state = finished({0: ["blue 6", "red 6"], 1: ["green 2"]})
    assert state.outcome().scores == (12.0 + 3, 2.0)
    assert state.outcome().winners == (0,)


# ------------------------------------------------------------ games that cannot finish

def no_red_left() -> CicloviaState:
    """Stage 2: the red dice are all gone and neither rider holds one."""
    return position(["20,3 E", "14,6 E"], {(8, 1): "blue 2", (7, 2): "green 5"},
                    held={0: ["blue 6", "green 2", "orange 3"], 1: ["orange 1"]}, stage=2)


def test_the_game_ends_when_no_rider_can_complete_the_colours_any_more():
    state = no_red_left()
    play(state, STAY)
    assert state.current_player() == TERMINAL and state.ending == "exhausted"
    outcome = state.outcome()
    assert outcome.termination is Termination.NORMAL and outcome.winners == (0,)
    assert outcome.scores == (7.0 + 2 + 3 + 3, 1.0)


def test_the_game_goes_on_while_one_rider_can_still_arrive():
    state = no_red_left()
    state.dice[1] = [("red", 2, False), ("orange", 1, False), ("blue", 1, False)]
    play(state, STAY)
    assert state.current_player() == 1


def test_stage_one_never_runs_out_because_the_restock_brings_every_colour():
    state = position(["5,3 E", "garage"], {}, held={0: [], 1: []})
    play(state, STAY)
    assert state.current_player() == 1


def every_colour_on_the_board(turn: int) -> CicloviaState:
    """Stage 2 with every colour still on a block, ``turn`` turns played."""
    return position(["13,3 E", "garage"], {(5, 1): "blue 2", (5, 2): "red 1", (5, 3): "green 1",
                                           (6, 1): "orange 1"},
                    held={0: ["blue 4"]}, stage=2, turn=turn)


def test_a_hundred_turns_in_stage_two_with_nothing_taken_end_the_game():
    state = every_colour_on_the_board(turn=300)
    state.last_progress = 300 - QUIET_TURNS + 1
    play(state, STAY)
    assert state.current_player() == TERMINAL and state.ending == "quiet"
    assert state.outcome().winners == (0,) and state.outcome().termination is Termination.NORMAL
    assert QUIET_TURNS == 100


def test_a_die_taken_restarts_the_quiet_count():
    state = every_colour_on_the_board(turn=300)
    state.last_progress = 300 - QUIET_TURNS + 1
    play(state, step("E", 14, 3), take(5, 1, state))  # door 2 of block (5,1) is at (14,3)
    assert state.current_player() == 1 and state.last_progress == 301


def test_stage_one_never_ends_quietly():
    state = position(["5,3 E", "garage"], turn=300)
    state.last_progress = 0
    play(state, STAY)
    assert state.current_player() == 1


def test_the_turn_cap_ends_the_game_without_a_winner():
    state = position(["5,3 E", "garage"], turn=TURN_CAP - 1, held={0: ["blue 3"]})
    play(state, STAY)
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome.winners == () and outcome.termination is Termination.TURN_CAP
    assert outcome.scores == (7.0, 0.0)
    assert GAME.turn_cap == TURN_CAP == 1000


# ------------------------------------------------------------ what a bot sees

def test_the_json_state_holds_a_move_in_progress_and_round_trips():
    state = position(["6,0 E", "4,3 W"], {(3, 1): "green 2", (2, 1): "blue 5"},
                     held={1: ["orange 2"]})
    state.double_next[1] = True
    play(state, step("S", 6, 1))
    data = state.to_json()
    assert data["to_move"] == 0 and data["phase"] == "turn" and data["stage"] == 1
    assert data["move"] == {"steps": 1, "allowance": 2, "green_extra": False,
                            "last_step": "S", "at_doors": True}
    assert data["riders"][1]["double_next"]
    assert data["riders"][1]["missing"] == ["blue", "red", "green"]
    assert data["blocks"][block(3, 1)] == {"colour": "green", "value": 2}
    assert data["last"] == [{"cause": "step", "rider": 0, "from": at(6, 0), "to": at(6, 1),
                             "path": [at(6, 0), at(6, 1)], "dir": "S"}]
    assert json.loads(json.dumps(data)) == data
    restored = CicloviaState.from_json(data)
    assert restored.to_json() == data
    assert restored.legal_actions() == state.legal_actions() == [take(3, 1, state), LEAVE]


def test_the_effects_of_a_take_are_listed_for_the_replay():
    state = position(["3,1 E", "garage"], {(1, 1): "blue 1"})
    play(state, step("S", 3, 2), take(1, 1, state))
    assert state.to_json()["last"] == [{"cause": "take", "rider": 0, "block": block(1, 1),
                                        "colour": "blue", "value": 1, "doubled": False,
                                        "points": 2}]


def test_actions_not_offered_are_refused():
    state = position(["3,3 E", "garage"])
    with pytest.raises(IllegalAction):
        state.apply_action(step("W", 2, 3))


def test_a_clone_is_independent_of_the_original():
    state = position(["6,0 E", "garage"], {(3, 1): "green 2"})
    play(state, step("S", 6, 1))
    before = state.to_json()
    copy = state.clone()
    play(copy, take(3, 1, copy), step("S", 6, 2))
    assert state.to_json() == before
    assert copy.to_json() != before and copy.legal_actions() != state.legal_actions()


# ------------------------------------------------------------ placements and retiring

ALL_TWOS = ["blue 2", "red 2", "green 2", "orange 2"]   # every colour, 8 points, 4 dice


def test_every_seat_is_placed_colours_first_then_points_then_dice():
    # Decision 21: two complete riders tie (8 + 3 each), the riders without
    # every colour come behind them whatever their points, in points order.
    state = finished({0: ALL_TWOS, 1: ALL_TWOS, 2: ["blue 6"] * 3})
    assert state.outcome().placements == (1, 1, 3)
    state = finished({0: ALL_TWOS, 1: ALL_TWOS[:3], 2: ["blue 6"] * 3, 3: ALL_TWOS})
    assert state.outcome().placements == (1, 4, 3, 1)


def test_a_rider_retiring_in_its_move_ends_it_and_the_next_rider_moves():
    # Decision 22.
    state = position(["garage", "garage", "garage"], to_move=1)
    state.retire(1)
    assert state.retired == [1] and state.current_player() == 2
    assert state.to_json()["retired"] == [1]


def test_a_rider_retiring_while_the_city_is_dealt_never_moves():
    # Decision 22: seat 0 retires before the first roll; seat 1 starts.
    state = GAME.new_state(3)
    state.retire(0)
    dice = DiceStreams(3)
    while state.current_player() == CHANCE:
        state.apply_chance(dice.draw(state.chance_request()))
    assert state.current_player() == 1


def test_a_game_ended_by_retirement_between_shuffle_and_roll_keeps_no_dice_in_the_deck():
    # Decision 25: the game is over; the shuffled dice are never rolled.
    state = GAME.new_state(2)
    state.apply_chance(DiceStreams(3).draw(state.chance_request()))   # the shuffle
    assert state.to_json()["phase"] == "roll" and len(state.to_json()["deck"]) == 12
    state.retire(0)
    data = state.to_json()
    assert state.is_terminal() and data["deck"] is None
    assert all(block is None for block in data["blocks"])
    assert CicloviaState.from_json(json.loads(json.dumps(data))).to_json() == data


def test_a_retired_rider_leaves_the_last_moves_and_the_most_dice_bonus():
    # Decisions 22 and 24.
    state = position(["garage", "garage", "garage"], held={0: ALL_TWOS, 1: ["blue 2"] * 5,
                                                           2: ALL_TWOS})
    state.final = [1, 2]
    state.retire(1)
    assert state.final == [2]
    assert state.totals() == [8 + 3, 15, 8 + 3]


def test_the_last_rider_standing_wins():
    # Decision 25.
    state = position(["garage", "garage", "garage"], held={0: ALL_TWOS})
    state.retire(0)
    state.retire(2)
    assert state.is_terminal() and state.ending == "retired"
    assert state.outcome().placements == (2, 1, 2) and state.outcome().termination is Termination.NORMAL
    with pytest.raises(IllegalAction):
        state.retire(1)


def test_every_field_a_bot_receives_is_described_in_the_rules_document():
    """Every key of the board and of the states a bot is sent (and every
    cause in ``last``) is named in the rules document (seeds/ciclovia.md)."""
    document = (Path(__file__).resolve().parent.parent / "seeds" / "ciclovia.md").read_text()
    names = field_names(BOARD)
    assert {"door_positions", "block_cells"} <= names
    for players in (2, 3, 4):
        for seed in range(5):
            _, events = random_playout(GAME, players, seed, {})
            for state in replay(GAME, players, {}, events):
                field_names(state.to_json(), names)
    missing = sorted(n for n in names if f"`{n}`" not in document and f'"{n}"' not in document)
    assert missing == []
