"""The one scoring rule (arena.results): placements to pairwise results,
points and win/draw/loss, for two to four seats."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from support import stored_game

from arena import results
from arena.model import Termination
from arena.results import Verdict
from arena.stats.elo import standings

placements = st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=4)


def test_winners_are_placed_first_and_everyone_else_tied_behind_them():
    assert results.placements_from_winners(2, [1]) == (2, 1)
    assert results.placements_from_winners(3, [2]) == (2, 2, 1)
    # competition ranking: two seats tied first, the next is third
    assert results.placements_from_winners(4, [0, 2]) == (1, 3, 1, 3)
    assert results.placements_from_winners(3, []) == (1, 1, 1)


def test_the_better_placement_wins_and_equal_placements_draw():
    assert list(results.pairwise((2, 1, 3))) == [(0, 1, 0.0), (0, 2, 1.0), (1, 2, 1.0)]
    assert list(results.pairwise((1, 1))) == [(0, 1, 0.5)]


def test_a_bot_holding_two_seats_has_no_result_against_itself():
    assert list(results.pairwise_between_bots(["a", "b", "a"], (1, 2, 3))) == [("a", "b", 1.0), ("b", "a", 1.0)]


def test_points_are_the_share_of_pairwise_results():
    assert results.points((1, 2)) == (1.0, 0.0)
    assert results.points((1, 1)) == (0.5, 0.5)
    assert results.points((1, 2, 3, 4)) == (1.0, 2 / 3, 1 / 3, 0.0)
    assert results.points((1, 1, 2)) == (0.75, 0.75, 0.0)
    assert results.points((1,)) == (0.0,)


@given(placements)
def test_points_of_a_game_add_up_to_half_its_pairs_of_seats(places):
    seats = len(places)
    assert abs(sum(results.points(places)) - seats / 2) < 1e-9


@given(placements)
def test_a_seat_placed_ahead_of_another_never_has_fewer_points(places):
    points = results.points(places)
    for i in range(len(places)):
        for j in range(len(places)):
            if places[i] < places[j]:
                assert points[i] > points[j]


def test_a_game_is_won_first_alone_drawn_first_shared_and_lost_otherwise():
    assert [results.verdict((1, 2, 2), seat) for seat in range(3)] == [Verdict.WIN, Verdict.LOSS, Verdict.LOSS]
    assert [results.verdict((1, 1, 2), seat) for seat in range(3)] == [Verdict.DRAW, Verdict.DRAW, Verdict.LOSS]
    assert [results.verdict((1, 1), seat) for seat in range(2)] == [Verdict.DRAW, Verdict.DRAW]


def test_one_first_place_is_shared_by_those_who_hold_it():
    assert results.first_place_shares((1, 2)) == (1.0, 0.0)
    assert results.first_place_shares((1, 1, 2, 1)) == (1 / 3, 1 / 3, 0.0, 1 / 3)


def test_a_shared_win_is_a_draw_in_the_standings_columns_and_in_elo():
    """Ciclovia can end with two seats sharing the win: a draw between them,
    the same in the wins column as in the rating."""
    shared = stored_game("ciclovia", ["a", "b"], [0, 1])
    drawn = stored_game("ciclovia", ["a", "b"], [], termination=Termination.TURN_CAP)
    for game in (shared, drawn):
        rows = {row.bot_id: row for row in standings([game], {}) if row.game == "ciclovia"}
        assert (rows["a"].wins, rows["a"].draws, rows["a"].losses) == (0, 1, 0)
        assert rows["a"].elo == rows["b"].elo == 1500.0


def test_who_placed_first_in_words():
    assert results.first_place_words(["alpha", "beta"], (1, 2)) == "alpha wins"
    assert results.first_place_words(["red", "you"], (2, 1)) == "you win"
    assert results.first_place_words(["a", "b", "c"], (1, 1, 3)) == "a and b share first place"
    assert results.first_place_words(["a", "b"], (1, 1)) == "a draw"
    assert results.first_place_words(["solo"], (1,)) == "solo wins"
    assert [results.ordinal(place) for place in (1, 2, 3, 4)] == ["1st", "2nd", "3rd", "4th"]
