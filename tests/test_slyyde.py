"""Slyyde rules, one test per rule sentence and per decision of
seeds/slyyde.md, each played out from a named position on the real board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import field_names

from arena.games import GAMES
from arena.games.base import CHANCE, TERMINAL, IllegalAction, InvalidOptions, Outcome, Termination
from arena.games.dice import DiceStreams
from arena.games.events import chance_event, replay, retire_event
from arena.games.playout import random_playout
from arena.games.slyyde.board import board_data, spiral_cells
from arena.games.slyyde.engine import (
    BACK6_SQUARES,
    CENTRE,
    DIAGONAL,
    GAME,
    IMMUNE,
    START,
    TRIANGLE,
    TURN_CAP,
    SlyydeState,
)
from arena.model import BotSpec, DiceKey
from arena.play.plan import Entrant, plan_round_robin

SEATS = ("red", "blue", "green", "yellow")
RED, BLUE, GREEN, YELLOW = range(4)


# ------------------------------------------------------------ named positions

def position(to_move: str = "red", turns: int = 0, **squares: int) -> SlyydeState:
    """A game in progress: each named seat's pawn on its square (seats in
    order red, blue, green, yellow), ``to_move`` about to roll."""
    names = list(squares)
    assert names == list(SEATS[:len(names)]), f"seats must be named in order, got {names}"
    players = len(names)
    turn = SEATS.index(to_move)
    return SlyydeState(players, [squares[name] for name in names], [0] * players, "roll",
                       turn, turn, [], None, turns, None, None, [])


def roll(state: SlyydeState, die: int) -> SlyydeState:
    """The player to move rolls ``die`` from his own stream."""
    assert state.current_player() == CHANCE
    request = state.chance_request()
    assert request.stream == f"seat:{state.turn}" and request.count == 1
    state.apply_chance((die,))
    return state


def choose(state: SlyydeState, action: dict) -> SlyydeState:
    state.apply_action(action)
    return state


def causes(state: SlyydeState) -> list[str]:
    return [effect["cause"] for effect in state.last]


def effect(state: SlyydeState, cause: str, seat: int) -> dict:
    [found] = [e for e in state.last if e["cause"] == cause and e["seat"] == seat]
    return found


def to_roll(state: SlyydeState) -> int:
    """The seat whose die chance rolls next."""
    assert state.current_player() == CHANCE
    return int(state.chance_request().stream.split(":")[1])


def ring(square: int) -> int:
    col, row = CELLS[square]
    return min(col, row, 9 - col, 9 - row)


CELLS = spiral_cells()
BOARD = GAME.board


# ------------------------------------------------------------------ the board

def test_the_track_is_a_spiral_from_the_start_to_the_centre():
    coords = [(s["x"], s["y"]) for s in BOARD["squares"]]
    assert len(coords) == len(set(coords)) == 100
    assert [s["n"] for s in BOARD["squares"]] == list(range(100))
    for (x1, y1), (x2, y2) in zip(coords, coords[1:]):
        assert abs(x1 - x2) + abs(y1 - y2) == BOARD["cell"]
    assert all(0 < x < 100 and 0 < y < 100 for x, y in coords)
    assert (START, CENTRE) == (0, 99)
    assert ring(START) == 0 and ring(CENTRE) == 4
    assert [ring(n) for n in range(100)] == sorted(ring(n) for n in range(100))


def test_the_engine_uses_the_board_data_it_publishes():
    assert json.loads(json.dumps(BOARD)) == board_data() == BOARD
    assert TRIANGLE == {t["square"]: (t["safe"], tuple(t["path"])) for t in BOARD["triangles"]}
    assert DIAGONAL == {b["square"]: b["diagonal"] for b in BOARD["black"]}
    assert BACK6_SQUARES == set(BOARD["back6"])
    assert IMMUNE == set(BOARD["safe"]) | {START}
    kinds = {s["n"]: s["kind"] for s in BOARD["squares"]}
    assert {n for n, k in kinds.items() if k == "triangle"} == set(TRIANGLE)
    assert {n for n, k in kinds.items() if k == "black"} == set(DIAGONAL)
    assert {n for n, k in kinds.items() if k == "back6"} == BACK6_SQUARES
    assert {n for n, k in kinds.items() if k == "safe"} == set(BOARD["safe"])


def test_square_kinds_do_not_overlap():  # decision 19
    groups = [set(BOARD["safe"]), set(TRIANGLE), set(DIAGONAL), BACK6_SQUARES, {START, CENTRE}]
    assert sum(len(g) for g in groups) == len(set().union(*groups))


def test_each_triangle_path_is_the_straight_line_to_its_safe_square():
    for triangle, (safe, path) in TRIANGLE.items():
        (tx, ty), (sx, sy) = CELLS[triangle], CELLS[safe]
        assert tx == sx or ty == sy, f"triangle {triangle} and safe {safe} not in a row/column"
        between = [(tx + (sx - tx) * k // max(abs(sx - tx), abs(sy - ty)),
                    ty + (sy - ty) * k // max(abs(sx - tx), abs(sy - ty)))
                   for k in range(1, max(abs(sx - tx), abs(sy - ty)))]
        assert [CELLS[p] for p in path] == between, f"triangle {triangle}"
        assert safe in BOARD["safe"]


def sweep_distances() -> dict[tuple[int, int], int]:
    """Every sweep the board can make: (from square, safe square) -> squares back."""
    return {(square, safe): square - safe
            for safe, path in TRIANGLE.values()
            for square in path if square not in IMMUNE and square not in TRIANGLE}


def test_every_sweep_goes_back_between_8_and_69_squares():
    distances = sweep_distances()
    assert min(distances.values()) == 8 and max(distances.values()) == 69
    assert [k for k, v in distances.items() if v == 8] == [(64, 56)]
    assert [k for k, v in distances.items() if v == 69] == [(90, 21)]


def test_the_fun_fact_on_the_board():
    assert TRIANGLE[37][0] == 56 and 64 in TRIANGLE[37][1]
    assert TRIANGLE[6][0] == 21 and {41, 90} <= set(TRIANGLE[6][1])
    assert sweep_distances()[(41, 21)] == 20


def test_every_triangle_is_a_shortcut_for_the_lander():
    assert all(triangle < safe for triangle, (safe, _) in TRIANGLE.items())


def test_each_black_square_points_one_step_inward_and_ahead():
    for black, diagonal in DIAGONAL.items():
        (bx, by), (dx, dy), (nx, ny) = CELLS[black], CELLS[diagonal], CELLS[black + 1]
        assert abs(dx - bx) == abs(dy - by) == 1
        assert ring(diagonal) == ring(black) + 1
        assert (dx - bx, dy - by) != (nx - bx, ny - by)
        assert (dx - bx) * (nx - bx) + (dy - by) * (ny - by) == 1, "the diagonal leans ahead"


# -------------------------------------------------------------------- set-up

def test_everyone_starts_on_the_start_square():
    state = GAME.new_state(4)
    assert state.positions == [START] * 4 and state.rolls == [0] * 4


def test_the_highest_roll_starts():
    state = GAME.new_state(3)
    assert state.chance_request().to_json() == {"stream": "rolloff", "count": 3, "sides": 6,
                                                "purpose": "rolloff"}
    state.apply_chance((2, 5, 3))
    assert state.first_player == BLUE and to_roll(state) == BLUE


def test_players_tied_for_highest_roll_again_among_themselves():  # decision 15
    state = GAME.new_state(4)
    state.apply_chance((6, 2, 6, 1))
    assert state.contenders == [RED, GREEN]
    assert state.chance_request().stream == "rolloff" and state.chance_request().count == 2
    state.apply_chance((3, 5))
    assert state.first_player == GREEN and to_roll(state) == GREEN


def test_rolloff_rolls_are_not_turns():  # decision 15
    state = GAME.new_state(2)
    state.apply_chance((4, 4))
    state.apply_chance((1, 2))
    assert state.rolls == [0, 0] and state.turns == 0


def test_the_first_player_option_skips_the_rolloff():
    state = GAME.new_state(3, {"first_player": 2})
    assert to_roll(state) == GREEN and state.first_player == GREEN


def test_each_new_game_starts_with_a_rolloff_so_each_bot_of_a_pair_starts_once():
    """"For each new game, the winner of the previous game goes first" is not
    played (decision 21): a tournament's seat-swapped pair is two games on one
    seed, the bots trading seats. Neither game sets ``first_player``, so both
    begin with a roll-off on the same ``rolloff`` stream, the same seat wins
    it, and so each bot starts exactly one game of the pair, whoever won
    the other."""
    bots = [Entrant(BotSpec(name, ("true",), "/bin/true", name * 8), frozenset(["slyyde"]))
            for name in ("north", "south", "west")]
    jobs = plan_round_robin(bots, ["slyyde"], 2, DiceKey.from_seed(7))
    pairs: dict[int, list] = {}
    for job in jobs:
        pairs.setdefault(job.seed, []).append(job)
    assert len(pairs) == 6 and all(len(pair) == 2 for pair in pairs.values())
    for pair in pairs.values():
        starters = []
        for job in pair:
            assert job.options == {}
            state = GAME.new_state(len(job.seats), job.options)
            assert state.phase == "rolloff"
            dice = DiceStreams(job.seed)
            while state.phase == "rolloff":
                state.apply_chance(dice.draw(state.chance_request()))
            starters.append(job.seats[state.first_player])
        assert sorted(starters) == sorted(pair[0].seats)


@pytest.mark.parametrize("bad", [3, -1, "1", True, 1.0])
def test_first_player_must_be_a_seat(bad):
    with pytest.raises(InvalidOptions):
        GAME.new_state(3, {"first_player": bad})


def test_solo_play_has_no_rolloff():
    assert to_roll(GAME.new_state(1)) == RED


def test_turns_go_clockwise():  # decision 16
    state = roll(position(red=10, blue=20, green=30, to_move="green"), 3)
    assert state.positions == [10, 20, 33] and to_roll(state) == RED


# --------------------------------------------------------------------- a turn

def test_roll_one_die_and_move_forward_that_many_squares():
    state = roll(position(red=11, blue=20), 4)
    assert state.positions == [15, 20]
    assert effect(state, "move", RED)["path"] == [11, 12, 13, 14, 15]
    assert state.rolls == [1, 0] and to_roll(state) == BLUE


def test_a_turn_without_a_choice_is_pure_chance():
    state = roll(position(red=11, blue=20), 2)
    assert state.current_player() == CHANCE and state.legal_actions() == []


def test_a_six_gives_another_turn():
    state = roll(position(red=11, blue=20), 6)
    assert state.positions == [17, 20] and to_roll(state) == RED
    assert causes(state)[-1] == "extra_turn"


def test_the_extra_turn_comes_after_everything_the_landing_set_off():
    state = roll(position(red=38, blue=44, green=20), 6)  # onto the Back-6 square 44, occupied
    assert state.positions == [44, 38, 20]  # blue bumped first
    assert state.current_player() == RED
    choose(state, {"back6": GREEN})
    assert state.positions == [44, 38, 14] and to_roll(state) == RED


def test_decisions_are_only_real_choices():
    for players in range(1, 5):
        for seed in range(40):
            final, events = random_playout(GAME, players, seed)
            assert all(len(e["offered"]) >= 2 for e in events if e["kind"] == "decision")


# -------------------------------------------------------------- safe squares

def test_any_number_of_pawns_share_a_safe_square():
    state = roll(position(red=17, blue=21, green=21), 4)
    assert state.positions == [21, 21, 21] and "bump" not in causes(state)


def test_a_pawn_on_a_safe_square_is_not_swept():
    state = roll(position(red=2, blue=88), 4)  # triangle 6, line through 88
    assert state.positions == [21, 88]


def test_a_pawn_on_a_safe_square_cannot_be_picked_for_back_6():
    state = roll(position(red=40, blue=49, green=30), 4)
    assert state.positions == [44, 49, 24]  # green was the only one to pick


# ------------------------------------------------------------- black squares

def test_a_one_on_a_black_square_offers_the_diagonal():
    state = roll(position(red=16, blue=20), 1)
    assert state.current_player() == RED
    assert state.legal_actions() == [{"move": "roll", "to": 17}, {"move": "diagonal", "to": 50}]
    choose(state, {"move": "diagonal", "to": 50})
    assert state.positions == [50, 20] and to_roll(state) == BLUE
    assert effect(state, "diagonal", RED)["path"] == [16, 50]


def test_the_player_may_move_normally_instead():
    state = choose(roll(position(red=16, blue=20), 1), {"move": "roll", "to": 17})
    assert state.positions == [17, 20] and to_roll(state) == BLUE


def test_a_six_used_for_the_diagonal_still_gives_another_turn():
    state = roll(position(red=16, blue=20), 6)
    assert state.legal_actions() == [{"move": "roll", "to": 22}, {"move": "diagonal", "to": 50}]
    choose(state, {"move": "diagonal", "to": 50})
    assert state.positions == [50, 20] and to_roll(state) == RED


@pytest.mark.parametrize("die", [2, 3, 4, 5])
def test_other_rolls_on_a_black_square_just_move(die):
    state = roll(position(red=16, blue=30), die)
    assert state.positions == [16 + die, 30] and state.current_player() == CHANCE


def test_only_a_turn_that_begins_on_the_black_square_offers_it():
    state = roll(position(red=12, blue=20), 4)  # lands on black 16
    assert state.positions == [16, 20] and to_roll(state) == BLUE


def test_an_extra_turn_begun_on_a_black_square_offers_it():  # decision 11
    state = roll(roll(position(red=10, blue=20), 6), 1)
    assert state.positions == [16, 20] and state.current_player() == RED
    assert {"move": "diagonal", "to": 50} in state.legal_actions()


# ---------------------------------------------------------- slyyde triangles

def test_landing_on_a_triangle_slyydes_to_its_safe_square():
    state = roll(position(red=31, blue=20), 6)
    assert state.positions == [56, 20]
    assert effect(state, "slyyde", RED)["path"] == [37, 64, 83, 82, 81, 80, 79, 56]


def test_fun_fact_triangle_37_sweeps_a_pawn_on_64_back_8():
    state = roll(position(red=31, blue=64), 6)
    assert state.positions == [56, 56]
    sweep = effect(state, "sweep", BLUE)
    assert (sweep["from"], sweep["to"], sweep["by"]) == (64, 56, RED)


def test_fun_fact_triangle_6_sweeps_41_back_20_and_90_back_69():
    state = roll(position(red=2, blue=41, green=90, yellow=88), 4)
    assert state.positions == [21, 21, 21, 88]
    assert effect(state, "sweep", GREEN)["path"] == [90, 75, 52, 21]


def test_pawns_off_the_line_are_not_swept():
    state = roll(position(red=31, blue=65, green=57), 6)
    assert state.positions == [56, 65, 57]


def test_a_pawn_moved_backward_onto_a_triangle_slyydes():
    state = roll(position(red=40, blue=43), 3)
    assert state.positions == [43, 56]
    assert causes(state) == ["roll", "move", "bump", "slyyde"]


def test_a_pawn_sent_back_onto_a_triangle_sweeps_everyone_on_the_line():  # decision 5
    # Red lands on the Back-6 square 78; blue, the only one to pick, goes back
    # from 35 to triangle 29, whose line (row 7) runs through 78: red is swept.
    state = roll(position(red=75, blue=35), 3)
    assert state.positions == [49, 49]
    sweep = effect(state, "sweep", RED)
    assert (sweep["from"], sweep["to"], sweep["by"]) == (78, 49, BLUE)


def test_a_slyyde_or_sweep_sets_off_nothing_more():  # decision 7
    state = roll(position(red=31, blue=64, green=56), 6)  # all meet on Safe 56
    assert state.positions == [56, 56, 56]
    assert causes(state) == ["roll", "move", "slyyde", "sweep", "extra_turn"]


# ---------------------------------------------------------------- back 6

def test_back_6_lets_the_lander_choose_an_opponent():
    state = roll(position(red=5, blue=30, green=14), 4)
    assert state.current_player() == RED
    assert state.legal_actions() == [{"back6": BLUE}, {"back6": GREEN}]
    choose(state, {"back6": GREEN})
    assert state.positions == [9, 30, 8] and to_roll(state) == BLUE
    assert effect(state, "back6", GREEN)["path"] == [14, 13, 12, 11, 10, 9, 8]


def test_back_6_with_one_eligible_opponent_needs_no_choice():  # decision 12
    state = roll(position(red=5, blue=30, green=21), 4)
    assert state.positions == [9, 24, 21] and to_roll(state) == BLUE


def test_back_6_does_nothing_if_every_opponent_is_safe():
    state = roll(position(red=5, blue=10, green=START), 4)  # decision 1: the Start is safe
    assert state.positions == [9, 10, START] and to_roll(state) == BLUE
    assert "back6_none" in causes(state)


def test_an_occupied_back_6_square_first_bumps_then_offers_the_choice():
    state = roll(position(red=40, blue=44, green=20), 4)
    assert state.positions == [44, 38, 20]
    assert state.legal_actions() == [{"back6": BLUE}, {"back6": GREEN}]


def test_the_pawn_just_bumped_may_be_picked_again():  # decision 12
    state = choose(roll(position(red=40, blue=44, green=20), 4), {"back6": BLUE})
    assert state.positions == [44, 32, 20]


def test_a_pawn_picked_for_back_6_slyydes_from_a_triangle():
    state = choose(roll(position(red=5, blue=19, green=30), 4), {"back6": BLUE})
    assert state.positions == [9, 32, 30]  # 19 - 6 = 13, triangle to Safe 32


# ------------------------------------------------------ landing on a pawn

def test_landing_on_an_opponent_sends_it_back_six():
    state = roll(position(red=17, blue=20), 3)
    assert state.positions == [20, 14]
    assert effect(state, "bump", BLUE)["path"] == [20, 19, 18, 17, 16, 15, 14]


def test_a_pawn_sent_back_onto_a_pawn_shares_its_square():  # decision 3
    state = roll(position(red=17, blue=20, green=14), 3)
    assert state.positions == [20, 14, 14]


def test_every_opponent_on_the_landing_square_goes_back():  # decision 6
    state = roll(position(red=17, blue=20, green=20), 3)
    assert state.positions == [20, 14, 14]
    assert [(e["seat"], e["cause"]) for e in state.last][2:] == [(BLUE, "bump"), (GREEN, "bump")]


def test_no_bump_can_sweep_the_lander_or_empty_the_square_on_this_board():  # decisions 6, 13
    for square in range(1, CENTRE):
        if square in IMMUNE or square in TRIANGLE:
            continue
        triangle = square - 6
        assert not (triangle in TRIANGLE and square in TRIANGLE[triangle][1])


def test_back_below_the_start_stops_on_the_start():  # decision 2
    state = roll(position(red=START, blue=3), 3)
    assert state.positions == [3, START]


def test_a_pawn_sent_back_onto_a_back_6_square_does_nothing_there():  # decision 4
    state = roll(position(red=47, blue=50, green=20), 3)
    assert state.positions == [50, 44, 20] and to_roll(state) == BLUE


def test_a_pawn_sent_back_onto_a_black_square_may_use_it_next_turn():  # decisions 4, 11
    state = roll(position(red=36, blue=39), 3)
    assert state.positions == [39, 33] and to_roll(state) == BLUE
    roll(state, 1)
    assert state.legal_actions() == [{"move": "roll", "to": 34}, {"move": "diagonal", "to": 63}]


def test_only_the_last_square_of_a_move_acts():  # decision 8
    state = roll(position(red=4, blue=5), 3)  # over blue and triangle 6
    assert state.positions == [7, 5]
    assert causes(state) == ["roll", "move"]


# ---------------------------------------------------- the diagonal is a move

def test_a_diagonal_onto_a_triangle_slyydes_and_sweeps():  # decision 10
    state = choose(roll(position(red=1, blue=64), 1), {"move": "diagonal", "to": 37})
    assert state.positions == [56, 56]


def test_a_diagonal_onto_a_back_6_square_gives_its_choice():  # decision 10
    state = choose(roll(position(red=33, blue=20, green=30), 1), {"move": "diagonal", "to": 63})
    assert state.legal_actions() == [{"back6": BLUE}, {"back6": GREEN}]


def test_a_diagonal_onto_an_opponent_bumps_it():  # decision 10
    state = choose(roll(position(red=58, blue=80), 6), {"move": "diagonal", "to": 80})
    assert state.positions == [80, 74] and to_roll(state) == RED


def test_a_diagonal_onto_a_safe_square_shares_it():  # decision 10
    state = choose(roll(position(red=70, blue=88), 1), {"move": "diagonal", "to": 88})
    assert state.positions == [88, 88]


# ------------------------------------------------------- reaching the centre

def test_the_exact_roll_reaches_the_centre_and_wins():
    state = roll(position(red=95, blue=20), 4)
    assert state.current_player() == TERMINAL
    assert state.outcome() == Outcome((1, 2), Termination.NORMAL, None) and state.outcome().winners == (RED,)


def test_a_roll_too_high_stays_and_is_not_a_landing():  # decision 9
    state = roll(position(red=97, blue=97), 5)
    assert state.positions == [97, 97] and to_roll(state) == BLUE
    assert causes(state) == ["roll", "stay"]


def test_a_six_too_high_still_gives_another_turn():
    state = roll(position(red=96, blue=20), 6)
    assert state.positions == [96, 20] and to_roll(state) == RED


def test_reaching_the_centre_ends_the_game_at_once():  # decision 14
    state = roll(position(red=93, blue=20), 6)
    assert state.is_terminal() and state.winner == RED
    assert causes(state) == ["roll", "move", "win"]


# ------------------------------------------------------------------ solo play

def test_solo_counts_every_roll_and_scores_the_count():  # decision 18
    state = position(red=90)
    for die in (6, 6, 5, 3):  # 96; too high but a 6; too high; centre
        roll(state, die)
    assert state.is_terminal() and state.rolls == [4]
    assert state.outcome() == Outcome((1,), Termination.NORMAL, (4,)) and state.outcome().winners == (RED,)


def test_solo_back_6_does_nothing():
    state = roll(position(red=5), 4)
    assert state.positions == [9] and causes(state) == ["roll", "move"]


def test_solo_triangles_and_black_squares_work():
    assert roll(position(red=31), 6).positions == [56]
    assert roll(position(red=16), 1).legal_actions()[1] == {"move": "diagonal", "to": 50}


def test_multiplayer_keeps_each_seats_roll_count():
    state = roll(roll(roll(position(red=11, blue=20), 6), 2), 3)
    assert state.rolls == [2, 1] and state.turns == 3


# ------------------------------------------------------------------ turn cap

def test_the_turn_cap_ends_the_game_as_a_draw():  # decision 17
    state = roll(position(red=11, blue=20, turns=TURN_CAP - 1), 6)
    assert state.is_terminal() and state.turns == TURN_CAP
    assert state.outcome() == Outcome((1, 1), Termination.TURN_CAP, None) and state.outcome().winners == ()


def test_a_win_on_the_last_turn_counts():  # decision 17
    state = roll(position(red=97, blue=20, turns=TURN_CAP - 1), 2)
    assert state.outcome().winners == (RED,)


def test_random_games_stay_far_below_the_cap():  # decision 17
    longest = max(random_playout(GAME, 4, seed)[0].turns for seed in range(200))
    assert longest < TURN_CAP // 4


# ---------------------------------------------------------- state and JSON

def test_a_decision_state_round_trips_through_json():
    state = roll(position(red=40, blue=44, green=20), 4)
    data = state.to_json()
    restored = GAME.state_from_json(json.loads(json.dumps(data)))
    assert restored.to_json() == data
    assert restored.legal_actions() == state.legal_actions()
    choose(restored, {"back6": GREEN})
    assert restored.positions == [44, 38, 14]


def test_clone_is_independent():
    state = position(red=11, blue=20)
    copy = state.clone()
    roll(copy, 3)
    assert state.positions == [11, 20] and copy.positions == [14, 20]


def test_actions_not_offered_are_refused():
    state = roll(position(red=16, blue=20), 1)
    with pytest.raises(IllegalAction):
        state.apply_action({"move": "diagonal", "to": 51})


def test_slyyde_is_registered():
    assert GAMES["slyyde"] is GAME
    assert (GAME.min_players, GAME.max_players, GAME.turn_cap) == (1, 4, TURN_CAP)


def test_every_field_a_bot_receives_is_described_in_the_rules_document():
    """Every key of the board and of the states a bot is sent (and every
    cause in ``last``) is named in seeds/slyyde.md."""
    document = (Path(__file__).resolve().parent.parent / "seeds" / "slyyde.md").read_text()
    names = field_names(GAME.board)
    for players in (1, 2, 3, 4):
        for seed in range(10):
            _, events = random_playout(GAME, players, seed)
            for state in replay(GAME, players, {}, events):
                field_names(state.to_json(), names)
    assert {"sweep", "bump", "contenders", "triangles"} <= names
    missing = sorted(n for n in names if f"`{n}`" not in document and f'"{n}"' not in document)
    assert missing == []


# ---------------------------------------------------------------- placements and retiring

def test_the_first_home_wins_and_the_others_tie_for_second():  # decision 22
    state = roll(position(red=95, blue=20, green=90), 4)
    assert state.outcome().placements == (1, 2, 2)
    state = roll(position("blue", red=3, blue=97, green=90, yellow=98), 2)
    assert state.outcome().placements == (2, 1, 2, 2)
    assert state.outcome().winners == (BLUE,)


def test_at_the_turn_cap_every_seat_still_in_ties_and_the_retired_come_last():  # decision 22
    state = position(red=30, blue=40, green=50, turns=TURN_CAP - 1)
    state.retire(GREEN)
    roll(state, 1)
    assert state.outcome().termination is Termination.TURN_CAP
    assert state.outcome().placements == (1, 1, 3) and state.outcome().winners == (RED, BLUE)


def test_a_seat_retiring_before_its_roll_loses_its_turn():  # decisions 23, 24
    state = position("blue", red=30, blue=40, green=50)
    state.retire(BLUE)
    assert state.retired == [BLUE] and causes(state) == ["retire"]
    assert to_roll(state) == GREEN
    roll(state, 3)
    assert to_roll(state) == RED
    roll(state, 3)
    assert to_roll(state) == GREEN, "the turn order skips the retired seat"


def test_a_retired_pawn_is_out_of_play():  # decision 23
    state = position(red=37, blue=40, green=41)   # 41 is on the line of triangle 6
    state.retire(BLUE)
    roll(state, 3)                                 # red lands on blue's square: no bump
    assert state.positions == [40, 40, 41] and "bump" not in causes(state)
    state = position(red=3, blue=41, green=50)
    state.retire(BLUE)
    roll(state, 3)                                 # red slyydes from 6: green is not swept
    assert state.positions[RED] == 21 and state.positions[BLUE] == 41
    assert "sweep" not in causes(state)


def test_a_seat_retiring_at_its_black_square_choice_ends_its_turn():  # decision 24
    state = roll(position(red=1, blue=40, green=50), 6)
    assert state.current_player() == RED
    state.retire(RED)
    assert state.positions[RED] == 1 and to_roll(state) == BLUE, "no move, no extra turn"


def test_a_seat_retiring_at_its_back_6_choice_sends_nobody_back():  # decision 24
    state = roll(position(red=5, blue=30, green=14), 4)
    state.retire(RED)
    assert state.positions == [9, 30, 14] and to_roll(state) == BLUE


def test_an_opponent_retiring_during_a_back_6_choice_leaves_the_other_to_go_back():  # decision 25
    state = roll(position(red=5, blue=30, green=14, yellow=60), 4)
    assert state.legal_actions() == [{"back6": BLUE}, {"back6": GREEN}, {"back6": YELLOW}]
    state.retire(BLUE)
    assert state.legal_actions() == [{"back6": GREEN}, {"back6": YELLOW}]
    state.retire(YELLOW)
    assert state.positions == [9, 30, 8, 60] and to_roll(state) == GREEN


def test_a_seat_retiring_during_the_rolloff_leaves_it():  # decision 24
    state = GAME.new_state(3)
    state.apply_chance((6, 6, 2))
    assert state.contenders == [RED, BLUE]
    state.retire(RED)
    assert state.contenders == [] and to_roll(state) == BLUE and state.first_player == BLUE


def test_the_last_seat_standing_wins():  # decision 26
    state = position(red=30, blue=40, green=50)
    state.retire(GREEN)
    assert not state.is_terminal()
    state.retire(RED)
    assert state.is_terminal()
    assert state.outcome() == Outcome((2, 1, 2), Termination.NORMAL, None) and state.outcome().winners == (BLUE,)
    with pytest.raises(IllegalAction):
        state.retire(BLUE)


def test_retiring_is_a_recorded_event_and_replays():  # decision 23
    state = GAME.new_state(3)
    events = [chance_event(state, (5, 3, 1))]
    state.apply_chance((5, 3, 1))
    events.append(retire_event(GREEN, "timeout"))
    state.retire(GREEN)
    *_, replayed = replay(GAME, 3, {}, events)
    assert replayed.to_json() == state.to_json() and replayed.to_json()["retired"] == [GREEN]


def test_the_only_seat_of_a_solo_game_cannot_retire():  # decision 23
    with pytest.raises(IllegalAction):
        GAME.new_state(1).retire(RED)
