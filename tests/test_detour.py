"""Detour rules, one test per rule sentence and per decision of
``seeds/detour.md`` (decision numbers in the test names' docstrings), each
built from a named position on our board.

Positions are written in the board's own words: a piece stands
``on("top side", 1, toward="B")``, i.e. on the second space of the top side
heading for wheel B. Pieces of the two-player game are RED_1, RED_2 (seat 0)
and BLUE_1, BLUE_2 (seat 1); with more players GREEN (seat 2) and YELLOW
(seat 3) follow, and in the four-piece game GREEN is seat 0's second colour
and YELLOW seat 1's.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from support import field_names

from arena.games import GAMES
from arena.games.base import CHANCE, TERMINAL, IllegalAction, InvalidOptions, Outcome, Termination
from arena.games.detour.board import BOARD, SEGMENTS, WHEEL_NAMES
from arena.games.detour.engine import (
    CENTRE,
    FINISHES,
    GAME,
    HUBS,
    START_SPACES,
    TURN_CAP,
    DetourState,
    step,
    walk,
)
from arena.games.events import replay
from arena.games.playout import random_playout

RED_1, RED_2, BLUE_1, BLUE_2, GREEN_1, GREEN_2, YELLOW_1, YELLOW_2 = range(8)
OFF = (-1, -1)
A, B, C, D = range(4)
START_WHEELS = tuple(BOARD["start_orientations"])
HUB = dict(zip("ABCD", HUBS))
SEGMENT = {seg["name"]: seg["spaces"] for seg in BOARD["segments"]}
ENDS = {name: tuple("centre" if t[0] == "centre" else WHEEL_NAMES[t[1]] for t in (first, last))
        for name, first, last, *_ in SEGMENTS}
ALL_POSITIONS = list(itertools.product(range(4), repeat=4))


# ------------------------------------------------------------ named positions

def space(segment: str, index: int) -> int:
    return SEGMENT[segment][index]


def on(segment: str, index: int, toward: str) -> tuple[int, int]:
    """A piece on a segment's space, its arrow towards one end of it."""
    first, last = ENDS[segment]
    assert toward in (first, last)
    return (space(segment, index), 1 if toward == last else 0)


def on_start(index: int) -> tuple[int, int]:
    return (BOARD["starts"][index]["space"], BOARD["starts"][index]["arrow"])


def in_hub(wheel: str, end: int) -> tuple[int, int]:
    """A piece in a wheel's holder, its arrow along track end ``end``."""
    return (HUB[wheel], end)


def on_centre(port: int) -> tuple[int, int]:
    return (CENTRE, port)


def position(players: int = 2, pieces: dict[int, tuple[int, int]] | None = None,
             wheels: tuple[int, ...] = START_WHEELS, colour: int = 0,
             four_pieces: bool = False) -> DetourState:
    """A state at the start of ``colour``'s turn (dice not yet rolled); pieces
    not named stand on their START spaces as set up."""
    state = GAME.new_state(players, {"pieces": 4} if four_pieces else {})
    for piece, where in (pieces or {}).items():
        state.pieces[piece] = list(where)
    state.wheels = list(wheels)
    state.colour = colour
    return state


def roll(state: DetourState, *dice: int) -> None:
    assert state.current_player() == CHANCE
    request = state.chance_request()
    assert request.purpose == "roll" and request.count == len(dice)
    state.apply_chance(dice)


def pop(state: DetourState, mover: int, defender: int) -> None:
    assert state.current_player() == CHANCE
    assert state.chance_request().to_json() == {"stream": "popoff", "count": 2, "sides": 6,
                                                "purpose": "popoff"}
    state.apply_chance((mover, defender))


def do(state: DetourState, **action) -> None:
    state.apply_action(action)


def where(state: DetourState, piece: int) -> tuple[int, int]:
    return tuple(state.pieces[piece])


def moves(state: DetourState) -> list[dict]:
    return [e for e in state.last if e["cause"] == "move"]


# ------------------------------------------------------------------- board

def test_every_space_has_coordinates_in_the_box_and_one_kind():
    for s in BOARD["spaces"]:
        assert 0 <= s["x"] <= 100 and 0 <= s["y"] <= 100
        assert s["kind"] in ("path", "start", "finish", "star", "hub", "centre")
    assert json.loads(json.dumps(BOARD)) == BOARD


def test_the_engine_plays_on_the_published_board():
    assert GAME.board is BOARD
    assert GAMES["detour"] is GAME


def test_board_has_two_starts_with_arrows_finishes_a_centre_star_and_four_wheels():
    kinds = [s["kind"] for s in BOARD["spaces"]]
    assert kinds.count("start") == 2 and len(BOARD["starts"]) == 2
    assert kinds.count("finish") == 2
    assert kinds.count("centre") == 1 and len(BOARD["spaces"][CENTRE]["ports"]) == 4
    assert kinds.count("hub") == 4 and len(BOARD["wheels"]) == 4
    for start in BOARD["starts"]:
        link = BOARD["spaces"][start["space"]]["ports"][start["arrow"]]
        assert link["space"] == start["toward"]


def test_fixed_links_lead_back_the_way_they_came():
    for s in BOARD["spaces"]:
        for port, link in enumerate(s["ports"]):
            if "space" in link:
                assert BOARD["spaces"][link["space"]]["ports"][link["port"]] == {
                    "space": s["id"], "port": port}
            elif "rim" in link:
                rim = BOARD["wheels"][link["wheel"]]["rims"][link["rim"]]
                assert (rim["space"], rim["port"]) == (s["id"], port)


def test_star_circles_line_up_in_every_wheel_position():
    """Whatever the orientation, each rim point meets a board space and the
    wheel joins the four in two pairs: one through the hub, one by the arc."""
    for wheel, turned in itertools.product(range(4), range(4)):
        wheels = [0, 0, 0, 0]
        wheels[wheel] = turned
        joined = {}
        for rim in BOARD["wheels"][wheel]["rims"]:
            there = step(rim["space"], rim["port"], wheels)
            if there[0] == HUBS[wheel]:
                there = step(*there, wheels)
            joined[rim["space"]] = there[0]
        assert sorted(joined) == sorted(joined.values())
        assert all(joined[joined[s]] == s and joined[s] != s for s in joined)


def test_no_dead_end_in_any_of_the_256_wheel_positions():
    """Every space has a way on in its direction, and going on is reversible
    (no two ways in lead to the same way out), so any count can be moved."""
    states = [(s["id"], p) for s in BOARD["spaces"] for p in range(len(s["ports"]))]
    for wheels in ALL_POSITIONS:
        image = {step(space_, port, list(wheels)) for space_, port in states}
        assert len(image) == len(states)


def test_a_finish_lies_ahead_of_each_start_in_all_256_wheel_positions():
    lengths = set()
    for wheels in ALL_POSITIONS:
        for start in BOARD["starts"]:
            path, _ = walk(start["space"], start["arrow"], 100, list(wheels))
            assert FINISHES & set(path)
            lengths.add(min(path.index(f) for f in FINISHES if f in path) + 1)
    assert min(lengths) >= 18 and max(lengths) >= 60   # the wheels matter


def test_every_loop_passes_a_finish_or_a_star_in_all_256_wheel_positions():
    """Decision 2: no piece can be shut for ever in a loop where it can
    neither finish nor turn a wheel to get out."""
    states = [(s["id"], p) for s in BOARD["spaces"] for p in range(len(s["ports"]))]
    stars = {s["id"] for s in BOARD["spaces"] if s["kind"] in ("star", "hub", "centre")}
    for wheels in ALL_POSITIONS:
        seen = set()
        for state in states:
            if state in seen:
                continue
            loop, here = set(), state
            while here not in seen:
                seen.add(here)
                loop.add(here[0])
                here = step(*here, list(wheels))
            if here == state:
                assert loop & (FINISHES | stars)


def test_starting_wheel_positions_give_each_start_the_same_route_length():
    """Decision 3: from each START the route runs through a hub, an outer
    loop's star and another hub to FINISH, 31 spaces."""
    for start, hubs in zip(BOARD["starts"], (("C", "A"), ("D", "B"))):
        path, _ = walk(start["space"], start["arrow"], 31, list(START_WHEELS))
        assert path[-1] in FINISHES and not FINISHES & set(path[:-1])
        assert [p for p in path if p in HUBS] == [HUB[hubs[0]], HUB[hubs[1]]]
        assert set(BOARD["stars"]) & set(path)


def test_a_quarter_turn_reroutes_the_path_through_a_wheel():
    going_into_c = on("bottom side", 1, toward="C")
    assert walk(*going_into_c, 3, list(START_WHEELS))[0] == [
        space("bottom side", 0), HUB["C"], space("left loop", 21)]
    turned = list(START_WHEELS)
    turned[C] += 1
    assert walk(*going_into_c, 3, turned)[0] == [
        space("bottom side", 0), space("diagonal centre-C", 4), space("diagonal centre-C", 3)]


# ------------------------------------------------------------------ set-up

def test_two_to_four_players_each_with_two_pieces():
    for players in (2, 3, 4):
        assert len(GAME.new_state(players).pieces) == 2 * players
    for players in (1, 5):
        with pytest.raises(InvalidOptions):
            GAME.new_state(players)


def test_two_players_may_control_four_pieces_of_two_colours():
    state = GAME.new_state(2, {"pieces": 4})
    data = state.to_json()
    assert data["pieces_per_player"] == 4
    assert [c["seat"] for c in data["colours"]] == [0, 1, 0, 1]
    for players in (3, 4):
        with pytest.raises(InvalidOptions):
            GAME.new_state(players, {"pieces": 4})
    for bad in (3, True, "4", 4.0):
        with pytest.raises(InvalidOptions):
            GAME.new_state(2, {"pieces": bad})


def test_first_turn_puts_one_piece_on_each_start_pointing_as_its_arrow():
    state = GAME.new_state(3)
    for colour in range(3):
        assert where(state, 2 * colour) == on_start(0)
        assert where(state, 2 * colour + 1) == on_start(1)
    heading = [p["heading"] for p in state.to_json()["pieces"][:2]]
    assert heading == [s["toward"] for s in BOARD["starts"]]


def test_wheels_start_in_the_position_of_the_set_up():
    assert GAME.new_state(2).wheels == list(START_WHEELS)


def test_seat_zero_goes_first_and_play_passes_to_the_left():
    """Decision 17: no roll-off; seat 0 is the rulebook's youngest player."""
    state = GAME.new_state(3)
    assert state.chance_request().stream == "seat:0"
    roll(state, 1, 2)
    do(state, piece=RED_1, die=1)
    assert state.chance_request().stream == "seat:1"


# ------------------------------------------------------------------- moving

def test_roll_both_dice_then_choose_which_die_moves_which_piece():
    """Decision 4: one decision picks the piece that moves first and its die;
    the other piece moves the other die."""
    state = position()
    assert state.chance_request().to_json() == {"stream": "seat:0", "count": 2, "sides": 6,
                                                "purpose": "roll"}
    roll(state, 3, 5)
    assert state.current_player() == 0
    assert state.legal_actions() == [{"piece": RED_1, "die": 3}, {"piece": RED_1, "die": 5},
                                     {"piece": RED_2, "die": 3}, {"piece": RED_2, "die": 5}]
    do(state, piece=RED_2, die=3)
    assert [(m["piece"], m["die"]) for m in moves(state)] == [(RED_2, 3), (RED_1, 5)]


def test_doubles_still_choose_which_piece_moves_first():
    state = position()
    roll(state, 4, 4)
    assert state.legal_actions() == [{"piece": RED_1, "die": 4}, {"piece": RED_2, "die": 4}]


def test_a_piece_moves_the_full_count_keeping_its_direction():
    state = position(pieces={RED_1: on("top side", 1, toward="B")})
    roll(state, 5, 1)
    do(state, piece=RED_1, die=5)
    first = moves(state)[0]
    assert first["path"] == [space("top side", i) for i in range(1, 7)]
    assert where(state, RED_1) == on("top side", 6, toward="B")


def test_passing_through_a_wheel_hub_without_landing_goes_straight_on():
    state = position()
    roll(state, 1, 5)
    do(state, piece=RED_1, die=1)
    assert moves(state)[1]["path"] == [on_start(1)[0], *SEGMENT["bottom side"][6:],
                                       HUB["D"], space("right loop", 21)]
    assert state.chance_request().stream == "seat:1"


def test_a_pieces_direction_is_the_port_its_arrow_points_out_of():
    """Decision 8: two pieces on one START go the ways their arrows point,
    and the published heading is the first space of the next move."""
    state = position(pieces={RED_1: (on_start(0)[0], 1)})
    heading = state.to_json()["pieces"][RED_1]["heading"]
    assert heading == space("bottom side", 4)
    assert state.to_json()["pieces"][BLUE_1]["heading"] == space("bottom side", 2)
    roll(state, 1, 3)
    do(state, piece=RED_1, die=1)
    assert moves(state)[0]["path"] == [on_start(0)[0], heading]


def test_pieces_may_pass_other_pieces():
    state = position(pieces={RED_1: on("right side", 1, toward="D"),
                             BLUE_1: on("right side", 2, toward="D"),
                             RED_2: on("right side", 4, toward="D")})
    roll(state, 4, 2)
    do(state, piece=RED_1, die=4)
    assert where(state, RED_1) == on("right side", 5, toward="D")
    assert where(state, BLUE_1) == on("right side", 2, toward="D")


def test_only_start_spaces_hold_more_than_one_piece():
    """Landing on a START where pieces stand does nothing (decision 13): the
    piece keeps its own direction, not the START's arrow."""
    state = position(pieces={RED_1: on("bottom side", 1, toward="D")})
    roll(state, 2, 1)
    do(state, piece=RED_1, die=2)
    assert where(state, RED_1) == (on_start(0)[0], 1)
    assert where(state, BLUE_1) == on_start(0)
    assert state.current_player() == CHANCE


def test_landing_on_your_own_piece_on_a_start_space_is_sharing_it():
    """"If you land by exact count on your own playing piece: Both your
    playing pieces must return to the START Spaces and your turn is over"
    does not apply on a START, which "can accommodate more than one playing
    piece" (decision 13): RED_1 comes round the bottom side onto START 0,
    where RED_2 stands; both stay, and RED_2 still moves the other die."""
    state = position(pieces={RED_1: on("bottom side", 1, toward="D"), RED_2: on_start(0)})
    roll(state, 2, 1)
    do(state, piece=RED_1, die=2)
    assert not [e for e in state.last if e["cause"] == "sent_back"]
    assert [(m["piece"], m["from"], m["to"]) for m in moves(state)] == [
        (RED_1, space("bottom side", 1), on_start(0)[0]),
        (RED_2, on_start(0)[0], space("bottom side", 2))]
    assert where(state, RED_1) == (on_start(0)[0], 1)
    assert state.current_player() == CHANCE and state.chance_request().stream == "seat:1"


def test_passing_through_the_centre_keeps_the_direction():
    """Decision 8: the centre is a crossing; straight on is the opposite port."""
    state = position(pieces={RED_1: on("diagonal A-centre", 3, toward="centre")})
    roll(state, 4, 1)
    do(state, piece=RED_1, die=4)
    assert moves(state)[0]["path"][1:] == [space("diagonal A-centre", 4), CENTRE,
                                           space("diagonal centre-D", 0),
                                           space("diagonal centre-D", 1)]


def test_an_arc_with_no_space_is_one_step_from_rim_to_rim():
    """Decision 5: the hub is a space; the bare arc is not."""
    state = position(pieces={RED_1: on("bottom side", 1, toward="C")}, wheels=(3, 3, 2, 1))
    roll(state, 2, 1)
    do(state, piece=RED_1, die=2)
    assert where(state, RED_1) == on("diagonal centre-C", 4, toward="centre")


# ---------------------------------------------------------------- star spaces

def test_exact_landing_on_a_star_turns_any_one_wheel_in_any_direction():
    """Decision 6: a quarter turn clockwise or anticlockwise, or a half turn,
    of any one wheel."""
    state = position()
    roll(state, 4, 2)
    do(state, piece=RED_1, die=4)
    assert where(state, RED_1) == in_hub("C", 1)
    assert state.current_player() == 0
    assert state.legal_actions() == [{"wheel": w, "turn": t} for w in range(4)
                                     for t in ("cw", "ccw", "half")]
    do(state, wheel=B, turn="ccw")
    assert state.wheels[B] == (START_WHEELS[B] - 1) % 4


def test_turn_any_one_wheel_in_any_direction_includes_the_half_turn():
    """"Turn any ONE of the four Detour Wheels in any direction" (decision 6):
    the star circles line up after a half turn as after a quarter, so it is
    offered; it reaches the one position neither quarter turn does. Here RED_1
    has just landed in C's holder, heading up the left loop: a quarter turn
    points it along the left or the bottom side, only the half turn down the
    diagonal to the centre."""
    state = position()
    roll(state, 4, 2)
    do(state, piece=RED_1, die=4)
    heading = {}
    for turn in ("cw", "ccw", "half"):
        turned = state.clone()
        do(turned, wheel=C, turn=turn)
        heading[turn] = turned.to_json()["pieces"][RED_1]["heading"]
    assert heading == {"cw": space("left side", 0), "ccw": space("bottom side", 0),
                       "half": space("diagonal centre-C", 4)}
    do(state, wheel=C, turn="half")
    assert state.wheels[C] == (START_WHEELS[C] + 2) % 4
    assert state.last[0] == {"cause": "wheel", "wheel": C, "turn": "half",
                             "orientation": (START_WHEELS[C] + 2) % 4, "carried": [RED_1]}


def test_a_wheel_turn_cannot_be_declined():
    """Decision 6: the rulebook says turn; every offered action turns one."""
    state = position()
    roll(state, 4, 2)
    do(state, piece=RED_1, die=4)
    assert all("wheel" in action for action in state.legal_actions())
    with pytest.raises(IllegalAction):
        do(state, **{"pass": True})


def test_plain_star_spaces_on_the_loops_also_turn_a_wheel():
    """Decision 2."""
    state = position(pieces={RED_1: on("left loop", 9, toward="C")})
    roll(state, 2, 1)
    do(state, piece=RED_1, die=2)
    assert where(state, RED_1)[0] in BOARD["stars"]
    assert state.phase == "wheel"


def test_the_first_pieces_wheel_turn_comes_before_the_second_piece_moves():
    state = position()
    roll(state, 4, 5)
    do(state, piece=RED_1, die=4)
    do(state, wheel=D, turn="cw")
    assert moves(state)[0]["path"] == [on_start(1)[0], *SEGMENT["bottom side"][6:],
                                       HUB["D"], space("diagonal centre-D", 4)]


def test_a_piece_landing_in_a_holder_points_the_way_it_travels():
    state = position()
    roll(state, 4, 2)
    do(state, piece=RED_1, die=4)
    assert state.to_json()["pieces"][RED_1]["heading"] == space("left loop", 21)


def test_a_piece_in_a_holder_turns_with_the_wheel_whoever_turns_it():
    """Decision 6: its arrow turns too, so it heads down the new path."""
    state = position(pieces={RED_1: in_hub("C", 1), BLUE_1: on("left loop", 9, toward="C")},
                     colour=1)
    roll(state, 2, 1)
    do(state, piece=BLUE_1, die=2)
    do(state, wheel=C, turn="cw")
    assert [e["carried"] for e in state.last if e["cause"] == "wheel"] == [[RED_1]]
    assert where(state, RED_1) == in_hub("C", 1)
    assert state.to_json()["pieces"][RED_1]["heading"] == space("left side", 0)


def test_landing_on_the_centre_turns_a_wheel():
    state = position(pieces={RED_1: on("diagonal A-centre", 3, toward="centre")})
    roll(state, 2, 1)
    do(state, piece=RED_1, die=2)
    assert where(state, RED_1)[0] == CENTRE
    assert state.phase == "wheel"


def test_from_the_centre_next_turn_the_piece_may_go_any_of_four_ways():
    """Decision 7: any of the four paths, back the way it came included,
    chosen when the piece sets off after the roll."""
    state = position(pieces={RED_1: on_centre(1)})
    roll(state, 3, 1)
    do(state, piece=RED_1, die=3)
    assert state.phase == "direction" and state.current_player() == 0
    assert state.legal_actions() == [{"toward": space("diagonal B-centre", 4)},
                                     {"toward": space("diagonal centre-D", 0)},
                                     {"toward": space("diagonal centre-C", 0)},
                                     {"toward": space("diagonal A-centre", 4)}]
    do(state, toward=space("diagonal A-centre", 4))
    assert where(state, RED_1) == on("diagonal A-centre", 2, toward="A")


def test_the_centre_choice_also_comes_to_the_piece_moved_second():
    state = position(pieces={RED_2: on_centre(1)})
    roll(state, 1, 2)
    do(state, piece=RED_1, die=1)
    assert state.phase == "direction"
    do(state, toward=space("diagonal B-centre", 4))
    assert where(state, RED_2) == on("diagonal B-centre", 3, toward="B")


# ----------------------------------------------------------- landing on pieces

def test_landing_on_ones_own_piece_sends_both_to_start_and_ends_the_turn():
    """Decision 11: one on each START; the second die is lost."""
    state = position(pieces={RED_1: on("bottom side", 2, toward="C"),
                             RED_2: on("bottom side", 0, toward="C")})
    roll(state, 2, 5)
    do(state, piece=RED_1, die=2)
    assert where(state, RED_1) == on_start(0) and where(state, RED_2) == on_start(1)
    assert [e["reason"] for e in state.last if e["cause"] == "sent_back"] == ["own", "own"]
    assert state.current_player() == CHANCE and state.chance_request().stream == "seat:1"


def test_landing_on_ones_own_piece_on_a_star_turns_no_wheel():
    state = position(pieces={RED_2: in_hub("C", 1)})
    roll(state, 4, 5)
    do(state, piece=RED_1, die=4)
    assert state.phase == "roll" and state.colour == 1


def test_landing_on_an_opponent_starts_a_pop_off():
    state = position(pieces={RED_1: on("bottom side", 2, toward="C"),
                             BLUE_1: on("bottom side", 0, toward="C")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    assert state.current_player() == CHANCE
    assert state.to_json()["popoff"] == {"mover": RED_1, "defender": BLUE_1,
                                         "space": space("bottom side", 0), "pops": [],
                                         "loser": None}


def test_both_keep_popping_until_one_pops_a_six():
    """Decision 9: both sixes, or none, pop again; the mover's pop comes first."""
    state = position(pieces={RED_1: on("bottom side", 2, toward="C"),
                             BLUE_1: on("bottom side", 0, toward="C")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 3, 4)
    pop(state, 6, 6)
    assert state.current_player() == CHANCE
    pop(state, 6, 2)
    assert state.popoff["pops"] == [[3, 4], [6, 6], [6, 2]]
    assert state.last == [{"cause": "popoff", "pops": [6, 2], "mover": RED_1,
                           "defender": BLUE_1, "winner": RED_1}]


def test_the_pop_off_loser_chooses_a_start_space():
    """Decision 10: the loser's seat decides; the piece points as that START's arrow."""
    state = position(pieces={RED_1: on("bottom side", 2, toward="C"),
                             BLUE_1: on("bottom side", 0, toward="C")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 6, 1)
    assert state.current_player() == 1
    assert state.legal_actions() == [{"start": 0}, {"start": 1}]
    do(state, start=1)
    assert where(state, BLUE_1) == on_start(1)
    assert where(state, RED_1) == on("bottom side", 0, toward="C")


def test_remember_the_other_die_the_second_piece_moves_it_after_the_pop_off():
    state = position(pieces={RED_1: on("bottom side", 2, toward="C"),
                             BLUE_1: on("bottom side", 0, toward="C"),
                             RED_2: on("top side", 1, toward="B")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 2, 6)
    assert state.current_player() == 0
    do(state, start=0)
    assert where(state, RED_1) == on_start(0)
    assert where(state, BLUE_1) == on("bottom side", 0, toward="C")
    assert where(state, RED_2) == on("top side", 4, toward="B")


def test_sending_an_opponent_back_while_standing_on_a_star_turns_a_wheel():
    """Decisions 10 and 19: the pop-off first, then the winner's wheel turn."""
    state = position(pieces={RED_1: on("bottom side", 1, toward="C"),
                             BLUE_1: in_hub("C", 0)})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 6, 5)
    do(state, start=0)
    assert state.phase == "wheel" and state.current_player() == 0
    assert where(state, RED_1) == in_hub("C", 1)


def test_losing_a_pop_off_on_a_star_turns_no_wheel():
    """Decision 19."""
    state = position(pieces={RED_1: on("bottom side", 1, toward="C"),
                             BLUE_1: in_hub("C", 0)})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 5, 6)
    do(state, start=1)
    assert moves(state)[0]["piece"] == RED_2
    assert state.phase == "roll" and state.colour == 1


def test_a_second_piece_that_loses_its_pop_off_ends_the_turn_at_start():
    """Decision 12: the mover's second piece goes back and the turn is over."""
    state = position(pieces={RED_1: on("top side", 6, toward="B"),
                             RED_2: on("bottom side", 2, toward="C"),
                             BLUE_1: on("bottom side", 0, toward="C")})
    roll(state, 1, 2)
    do(state, piece=RED_1, die=1)
    pop(state, 1, 6)
    do(state, start=1)
    assert where(state, RED_2) == on_start(1)
    assert state.phase == "roll" and state.colour == 1


def test_a_piece_sent_back_does_not_move_again_that_turn():
    """Decision 12: dice stay with the pieces they were given."""
    state = position(pieces={RED_1: on("bottom side", 2, toward="C"),
                             BLUE_1: on("bottom side", 0, toward="C")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 2, 6)
    do(state, start=0)
    assert [m["piece"] for m in moves(state)] == [RED_2]
    assert where(state, RED_1) == on_start(0)


# ------------------------------------------------------------------- finishing

def test_exact_landing_on_a_finish_removes_the_piece():
    state = position(pieces={RED_1: on("top side", 1, toward="B")})
    roll(state, 2, 1)
    do(state, piece=RED_1, die=2)
    assert where(state, RED_1) == OFF
    assert state.to_json()["pieces"][RED_1]["finished"] is True


def test_a_piece_that_cannot_land_on_finish_moves_on_and_must_come_round():
    """Decision 14."""
    state = position(pieces={RED_1: on("top side", 1, toward="B")})
    roll(state, 6, 1)
    do(state, piece=RED_1, die=6)
    assert where(state, RED_1) == on("top side", 7, toward="B")
    assert set(moves(state)[0]["path"]) >= FINISHES


def test_with_one_piece_left_roll_one_die_and_move_it():
    """Decision 15: no choice to make, so the move is made at once."""
    state = position(pieces={RED_1: OFF, RED_2: on("top side", 6, toward="A")})
    roll(state, 4)
    assert moves(state)[0]["path"][-1] == space("top side", 2)
    assert state.chance_request().stream == "seat:1"


def test_the_first_player_to_remove_both_pieces_wins_at_once():
    """Decision 20: the game ends the moment the last piece is off."""
    state = position(players=3, pieces={RED_1: on("top side", 1, toward="B"),
                                        RED_2: on("top side", 5, toward="A")})
    roll(state, 2, 2)
    do(state, piece=RED_1, die=2)
    assert state.current_player() == TERMINAL
    assert state.outcome() == Outcome((1, 2, 2), Termination.NORMAL) and state.outcome().winners == (0,)
    assert state.last[-1] == {"cause": "win", "seat": 0}


def test_one_piece_off_is_not_a_win():
    state = position(pieces={RED_1: on("top side", 1, toward="B")})
    roll(state, 2, 1)
    do(state, piece=RED_1, die=2)
    assert state.current_player() == CHANCE


def test_the_turn_cap_ends_the_game_as_a_draw():
    """Decision 18."""
    state = position()
    state.turns = TURN_CAP - 1
    roll(state, 1, 2)
    do(state, piece=RED_1, die=1)
    assert state.current_player() == TERMINAL
    assert state.outcome() == Outcome((1, 1), Termination.TURN_CAP) and state.outcome().winners == ()


# ------------------------------------------------------------ four pieces each

def test_four_piece_colours_take_turns_in_order_with_their_seats_dice():
    """Decision 16: colours 0, 1, 2, 3 play in turn; seat 0 rolls for 0 and 2."""
    state = position(four_pieces=True)
    streams = []
    for doubles in (1, 2, 3, 5):     # each colour to spaces of its own
        streams.append(state.chance_request().stream)
        roll(state, doubles, doubles)
        do(state, **state.legal_actions()[0])
    assert streams == ["seat:0", "seat:1", "seat:0", "seat:1"]


def test_four_piece_a_colour_with_one_piece_left_rolls_one_die():
    state = position(four_pieces=True, pieces={GREEN_1: OFF}, colour=2)
    assert state.chance_request().count == 1


def test_four_piece_landing_on_your_other_colour_is_landing_on_your_own():
    """Decisions 11 and 16: both go back; the player places them, one on each START."""
    state = position(four_pieces=True, pieces={RED_1: on("bottom side", 2, toward="C"),
                                               GREEN_1: on("bottom side", 0, toward="C")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    assert state.phase == "own_start" and state.current_player() == 0
    do(state, start=1)
    assert where(state, RED_1) == on_start(1) and where(state, GREEN_1) == on_start(0)
    assert state.phase == "roll" and state.colour == 1


def test_four_piece_a_player_wins_only_with_all_four_off_and_a_done_colour_is_skipped():
    state = position(four_pieces=True, pieces={RED_2: OFF, RED_1: on("top side", 1, toward="B")})
    roll(state, 2)
    assert where(state, RED_1) == OFF
    for colour, doubles in ((1, 2), (2, 3), (3, 5)):
        assert state.current_player() == CHANCE and state.colour == colour
        roll(state, doubles, doubles)
        do(state, **state.legal_actions()[0])
    assert state.colour == 1


def test_four_piece_all_four_off_wins():
    state = position(four_pieces=True, colour=2,
                     pieces={RED_1: OFF, RED_2: OFF, GREEN_1: OFF,
                             GREEN_2: on("top side", 1, toward="B")})
    roll(state, 2)
    assert state.outcome().winners == (0,)


# ---------------------------------------------------------- state as data

def test_the_json_state_round_trips_mid_pop_off_and_shows_the_path():
    state = position(pieces={RED_1: on("bottom side", 2, toward="C"),
                             BLUE_1: on("bottom side", 0, toward="C")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 1, 1)
    data = state.to_json()
    assert json.loads(json.dumps(data)) == data
    restored = DetourState.from_json(data)
    assert restored.to_json() == data
    assert restored.current_player() == CHANCE
    pop(restored, 6, 1)
    assert restored.legal_actions() == [{"start": 0}, {"start": 1}]


def test_last_describes_the_move_along_its_real_path():
    state = position()
    roll(state, 4, 2)
    do(state, piece=RED_1, die=4)
    assert moves(state)[0] == {"cause": "move", "piece": RED_1, "die": 4,
                               "from": on_start(0)[0], "to": HUB["C"],
                               "path": [on_start(0)[0], *reversed(SEGMENT["bottom side"][:3]),
                                        HUB["C"]]}


def test_clone_is_independent():
    state = position()
    twin = state.clone()
    roll(twin, 4, 2)
    do(twin, piece=RED_1, die=4)
    assert state.to_json() == position().to_json()
    assert twin.to_json() != state.to_json()


def test_start_spaces_are_where_the_board_says():
    assert START_SPACES == tuple(s["space"] for s in BOARD["starts"])


def test_a_hubs_port_p_is_its_track_end_p():
    """What the rules document says of a hub's ports: port p leads along
    track end p, to the board space at rim (p + k) % 4."""
    for wheel in BOARD["wheels"]:
        hub = BOARD["spaces"][wheel["hub"]]
        assert hub["ports"] == [{"wheel": wheel["id"], "end": 0}, {"wheel": wheel["id"], "end": 1}]
        for k in range(4):
            for p in (0, 1):
                rim = wheel["rims"][(p + k) % 4]
                wheels = [0, 0, 0, 0]
                wheels[wheel["id"]] = k
                assert step(wheel["hub"], p, wheels)[0] == rim["space"]


def test_every_field_a_bot_receives_is_described_in_the_rules_document():
    """Every key of the board and of the states a bot is sent (and every
    cause in ``last``) is named in seeds/detour.md."""
    document = (Path(__file__).resolve().parent.parent / "seeds" / "detour.md").read_text()
    names = field_names(BOARD)
    for players, options in [(2, {}), (2, {"pieces": 4}), (3, {}), (4, {})]:
        for seed in range(5):
            _, events = random_playout(GAME, players, seed, options)
            for state in replay(GAME, players, options, events):
                field_names(state.to_json(), names)
    assert {"popoff", "sent_back", "wheel", "mover", "carried"} <= names
    missing = sorted(n for n in names if f"`{n}`" not in document and f'"{n}"' not in document)
    assert missing == []


# ------------------------------------------------------------ placements and retiring

def test_the_first_home_wins_and_the_others_tie_for_second_at_four():
    """Decision 21."""
    state = position(players=4, colour=2, pieces={GREEN_1: on("top side", 1, toward="B"),
                                                  GREEN_2: OFF})
    roll(state, 2)
    assert state.outcome().placements == (2, 2, 1, 2) and state.outcome().winners == (2,)


def test_a_seat_retiring_before_its_roll_loses_its_turn_and_its_pieces():
    """Decisions 22 and 24."""
    state = position(players=3, colour=1, pieces={BLUE_1: on("bottom side", 0, toward="C")})
    turns = state.turns
    state.retire(1)
    assert state.last == [{"cause": "retire", "seat": 1, "pieces": [BLUE_1, BLUE_2]}]
    for piece in (BLUE_1, BLUE_2):
        data = state.to_json()["pieces"][piece]
        assert data["space"] is None and data["heading"] is None and data["finished"] is False
    assert state.colour == 2 and state.current_player() == CHANCE and state.turns == turns
    assert state.chance_request().stream == "seat:2"


def test_a_retired_seats_finished_piece_stays_finished():
    """Decision 22: only the pieces still on the board leave it unfinished."""
    state = position(players=3, colour=1, pieces={BLUE_1: on("bottom side", 0, toward="C"), BLUE_2: OFF})
    assert state.to_json()["pieces"][BLUE_2]["finished"] is True
    state.retire(1)
    assert state.last == [{"cause": "retire", "seat": 1, "pieces": [BLUE_1]}]
    pieces = state.to_json()["pieces"]
    assert pieces[BLUE_2]["finished"] is True and pieces[BLUE_1]["finished"] is False
    assert pieces[BLUE_1]["space"] is None and pieces[BLUE_2]["space"] is None
    again = DetourState.from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json()


def test_a_retired_piece_blocks_and_contests_nothing():
    """Decision 22: landing where its piece stood starts no pop-off."""
    state = position(players=3, pieces={RED_1: on("bottom side", 2, toward="C"),
                                        BLUE_1: on("bottom side", 0, toward="C")})
    state.retire(1)
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    assert state.popoff is None and where(state, RED_1) == on("bottom side", 0, toward="C")


def test_a_pop_off_against_a_retiring_seat_is_called_off_and_the_mover_plays_on():
    """Decision 23: pops still to come."""
    state = position(players=3, pieces={RED_1: on("bottom side", 2, toward="C"),
                                        BLUE_1: on("bottom side", 0, toward="C"),
                                        RED_2: on("top side", 1, toward="B")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    assert state.phase == "popoff"
    state.retire(1)
    assert state.popoff is None and where(state, RED_1) == on("bottom side", 0, toward="C")
    assert {"cause": "popoff_void", "piece": RED_1, "space": space("bottom side", 0)} in state.last
    assert where(state, RED_2) == on("top side", 4, toward="B"), "the other die is played"
    assert state.colour == 2


def test_a_seat_retiring_while_it_chooses_its_start_leaves_the_winner_on_its_star():
    """Decision 23: the loser's START still to choose; on a star the mover turns a wheel."""
    state = position(players=3, pieces={RED_1: on("bottom side", 1, toward="C"),
                                        BLUE_1: in_hub("C", 0)})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 6, 5)
    assert state.phase == "popoff_start" and state.current_player() == 1
    state.retire(1)
    assert state.phase == "wheel" and state.current_player() == 0
    assert where(state, RED_1) == in_hub("C", 1)


def test_a_mover_retiring_in_the_middle_of_its_turn_loses_the_rest_of_it():
    """Decision 24: another seat's pop-off piece stays where it stands."""
    state = position(players=3, pieces={RED_1: on("bottom side", 2, toward="C"),
                                        BLUE_1: on("bottom side", 0, toward="C")})
    roll(state, 2, 3)
    do(state, piece=RED_1, die=2)
    pop(state, 2, 6)
    assert state.current_player() == 0     # red lost and chooses its START
    state.retire(0)
    assert where(state, BLUE_1) == on("bottom side", 0, toward="C")
    assert state.popoff is None and state.colour == 1 and state.phase == "roll"


def test_the_last_seat_standing_wins():
    """Decision 25."""
    state = position(players=2)
    roll(state, 2, 3)
    state.retire(0)
    assert state.is_terminal()
    assert state.outcome() == Outcome((2, 1), Termination.NORMAL) and state.outcome().winners == (1,)
    assert state.to_json()["retired"] == [0]
