"""Elo from stored results: zero-sum, order-fixed, counts right."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import stored_game

from arena.model import StoredGame, Termination
from arena.stats.elo import INITIAL, standings
from arena.stats.tables import OVERALL


def game(order: int, seats: list[str], winners: list[int], name: str = "slyyde",
         termination: str = "normal", forfeit_seat: int | None = None) -> StoredGame:
    return stored_game(name, seats, winners, termination=Termination(termination),
                       forfeit_seat=forfeit_seat, job_order=order)


results = st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(["a", "b", "c"]),
                             st.sampled_from([[0], [1], []])).filter(lambda t: t[0] != t[1]),
                   min_size=1, max_size=40)


@given(results)
def test_elo_changes_sum_to_zero(items):
    rows = standings([game(n, [a, b], w) for n, (a, b, w) in enumerate(items)], {})
    for table in {row.game for row in rows}:
        total = sum(row.elo - INITIAL for row in rows if row.game == table)
        assert abs(total) < 1e-6


@given(results)
def test_wins_losses_and_draws_add_up(items):
    rows = standings([game(n, [a, b], w) for n, (a, b, w) in enumerate(items)], {})
    for row in rows:
        assert row.wins + row.losses + row.draws == row.games
    assert sum(r.games for r in rows if r.game == OVERALL) == 2 * len(items)


def test_the_same_results_give_the_same_ratings():
    games = [game(n, random.Random(n).sample(["a", "b", "c"], 2), [n % 2]) for n in range(30)]
    assert [r.to_json() for r in standings(games, {})] == [r.to_json() for r in standings(list(games), {})]


def test_a_win_moves_ratings_by_half_k_between_equals_and_forfeits_are_counted():
    rows = {(r.game, r.bot_id): r for r in standings(
        [game(0, ["a", "b"], [1], termination="timeout", forfeit_seat=0)], {"a": "alpha"})}
    assert rows["slyyde", "b"].elo == INITIAL + 8
    assert rows["slyyde", "a"].elo == INITIAL - 8
    assert rows["slyyde", "a"].forfeits == 1 and rows["slyyde", "a"].forfeits_by_reason == {"timeout": 1}
    assert rows["slyyde", "a"].name == "alpha"
    assert rows["overall", "b"].wins == 1


def test_games_of_different_games_feed_their_own_table_and_overall():
    rows = standings([game(0, ["a", "b"], [0], "slyyde"), game(1, ["a", "b"], [1], "detour")], {})
    tables = {(r.game, r.bot_id): r for r in rows}
    assert tables["slyyde", "a"].wins == 1 and tables["detour", "a"].losses == 1
    assert tables["overall", "a"].games == 2
    assert [r.game for r in rows] == ["detour", "detour", "slyyde", "slyyde", "overall", "overall"]


def test_score_is_pairwise_points_and_first_places_are_their_own_column():
    """Issue 26: "score" means one thing. At four seats, places (2, 1, 3, 1)
    then (1, 2, 3, 4): the second seat scores 2.5 of its 3 pairs in the
    first game (ahead of two, tied with one) and 2 in the second, while its
    first places are half a shared one and none. With two seats both are
    wins plus half the draws."""
    rows = {row.bot_id: row for row in standings(
        [stored_game("detour", ["a", "b", "c", "d"], [], placements=(2, 1, 3, 1), job_order=0),
         stored_game("detour", ["a", "b", "c", "d"], [], placements=(1, 2, 3, 4), job_order=1)], {})
        if row.game == "detour/4p"}
    assert rows["b"].score == (2.5 / 3 + 2 / 3) / 2 and rows["b"].first_place_share == 0.25
    assert rows["a"].score == (1 / 3 + 1) / 2 and rows["a"].first_place_share == 0.5
    assert rows["b"].to_json()["score"] == round(rows["b"].score, 4)
    assert rows["b"].to_json()["first_place_share"] == 0.25
    two = {row.bot_id: row for row in standings([game(0, ["a", "b"], [0]), game(1, ["a", "b"], [])], {})
           if row.game == "slyyde"}
    assert two["a"].score == two["a"].first_place_share == 0.75


def test_a_game_of_three_or_four_seats_is_one_result_per_pair_from_the_ratings_before_it():
    """Worked by hand from the rule (docs/explanation/ratings.md): K = 16, expectation
    E(x, y) = 1 / (1 + 10^((y - x) / 400)), every pair of seats one result.

    Game 1, three seats a, b, c at 1500, places (1, 2, 3): each pair between
    equals moves 16 * 0.5 = 8, so a +8 +8 = 1516, b -8 +8 = 1500, c 1484.
    Game 2, places (3, 2, 1), from 1516 / 1500 / 1484: c beats a at a gap of
    32, 16 * (1 - 1 / (1 + 10^(32/400))) = 8.734751; c beats b and b beats a
    at a gap of 16, 16 * (1 - 1 / (1 + 10^(16/400))) = 8.368153 each. So c
    1484 + 8.734751 + 8.368153 = 1501.102904, b 1500 - 8.368153 + 8.368153
    = 1500, a 1516 - 8.734751 - 8.368153 = 1498.897096.
    Four seats a, b, c, d at 1500, places (1, 1, 3, 4): a and b draw (0),
    each beats c and d (+16), c loses to two and beats d (-8), d loses to
    three (-24)."""
    rows = {row.bot_id: row.elo for row in standings(
        [stored_game("ciclovia", ["a", "b", "c"], [], placements=(1, 2, 3), job_order=0),
         stored_game("ciclovia", ["a", "b", "c"], [], placements=(3, 2, 1), job_order=1)], {})
        if row.game == "ciclovia/3p"}
    assert rows == pytest.approx({"a": 1498.897096, "b": 1500.0, "c": 1501.102904}, abs=1e-6)
    rows = {row.bot_id: row.elo for row in standings(
        [stored_game("detour", ["a", "b", "c", "d"], [], placements=(1, 1, 3, 4), job_order=0)], {})
        if row.game == "detour/4p"}
    assert rows == {"a": 1516.0, "b": 1516.0, "c": 1492.0, "d": 1476.0}
