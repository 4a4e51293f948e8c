"""The joint ratings of arena/stats/joint.py: the posterior of each table
(its values against an independent reference are tests/test_plackett.py's),
its groups, its tiers and the order the standings list bots in.

The order's rule, stated in arena/stats/joint.py and on the site: by tier,
then by rating, so that a bot never stands below a bot it beat in every
game they played, unless that bot beat it back through others of its tier.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import stored_game

from arena.stats.joint import JointTables, PairTable, PlacementTable, fit_table, tiers_of

PLACES = {1.0: (1, 2), 0.0: (2, 1), 0.5: (1, 1)}
THREE = ([("A", "B", 1.0)] * 3 + [("A", "B", 0.5)] + [("B", "A", 1.0)]
         + [("A", "C", 1.0)] * 4 + [("C", "A", 1.0)] * 2
         + [("B", "C", 1.0)] * 2 + [("C", "B", 0.5)] * 2 + [("C", "B", 1.0)] * 2)


def table_of(results) -> PlacementTable:
    """Two-seat games ``(a, b, score of a)``: 1 a won, 0 b won, 1/2 a draw."""
    table = PlacementTable()
    for a, b, score in results:
        table.add([a, b], PLACES[score])
    return table


def ordered(fitted) -> list[str]:
    return sorted(fitted, key=fitted.order_key)


@settings(max_examples=40, deadline=None)
@given(st.permutations(THREE), st.lists(st.booleans(), min_size=len(THREE), max_size=len(THREE)))
def test_ratings_do_not_depend_on_the_order_of_games(order, flips):
    """Any order of the games, and either bot named first, gives the same fit."""
    reference = fit_table(table_of(THREE))
    reordered = [(b, a, 1.0 - s) if flip else (a, b, s) for (a, b, s), flip in zip(order, flips)]
    ratings = fit_table(table_of(reordered))
    for bot in "ABC":
        assert ratings[bot].rating == pytest.approx(reference[bot].rating, abs=1e-6)
        assert ratings[bot].error == pytest.approx(reference[bot].error, abs=1e-6)
    assert ratings.prior_draws == pytest.approx(reference.prior_draws)


def test_stored_games_in_any_order_give_the_same_tables():
    games = []
    chooser = random.Random(5)
    bots = ["x@1", "y@2", "z@3", "w@4"]
    for n in range(120):
        a, b = chooser.sample(bots, 2)
        winners = chooser.choice([[0], [1], []])
        games.append(stored_game(chooser.choice(["slyyde", "detour"]), [a, b], winners, job_order=n))
    first = JointTables(games).fit()
    chooser.shuffle(games)
    second = JointTables(games).fit()
    assert first.keys() == second.keys() == {"slyyde", "detour", "overall"}
    for table in first:
        for bot in first[table]:
            assert first[table][bot].rating == pytest.approx(second[table][bot].rating, abs=1e-6)
            assert first[table][bot].error == pytest.approx(second[table][bot].error, abs=1e-6)


def test_a_bot_that_never_scored_has_a_finite_rating_and_stands_last():
    """D lost all three games to A: no finite maximum of the likelihood,
    but a finite posterior rating below A, B and C, with a wide interval,
    in a tier of its own below theirs."""
    ratings = fit_table(table_of(THREE + [("D", "A", 0.0)] * 3))
    assert all(math.isfinite(r.rating) and math.isfinite(r.error) for r in ratings.values())
    assert ratings["D"].rating < min(ratings[b].rating for b in "ABC")
    assert ratings["D"].error > max(ratings[b].error for b in "ABC")
    assert [ratings[b].tier for b in "ABCD"] == [0, 0, 0, 1] and ordered(ratings)[-1] == "D"
    assert ratings["A"].games == 14 and ratings["A"].points == pytest.approx(10.5)
    assert ratings["D"].to_json()["rating"] == pytest.approx(ratings["D"].rating, abs=0.1)


def test_a_new_bot_that_beat_the_leader_stands_above_it_though_rated_below():
    """The rule's own case: L, the leader, scored 65% in 80 games against
    a close field (F, G, H, I, even among themselves); N, new, played one
    game and beat L. N's rating (one game, pulled to the field by the
    prior) is below L's, but N stands above it: it beat L every time they
    met, and L never beat it back through others."""
    results = [("N", "L", 1.0)]
    for other in "FGHI":
        results += [("L", other, 1.0)] * 13 + [(other, "L", 1.0)] * 7
        results += [(other, third, score) for third in "FGHI" if other < third for score in (1.0, 0.0) * 5]
    ratings = fit_table(table_of(results))
    assert ratings["N"].rating < ratings["L"].rating
    assert ratings["N"].tier < ratings["L"].tier
    assert ordered(ratings)[:2] == ["N", "L"]


def test_bots_that_beat_each_other_round_a_cycle_share_a_tier_and_rating_orders_them():
    """A beat B every time, B beat C, C beat A: one tier, as no order can
    put each above the bot it beat; the ratings order them."""
    ratings = fit_table(table_of([("A", "B", 1.0)] * 5 + [("B", "C", 1.0)] * 3 + [("C", "A", 1.0)]))
    assert {r.tier for r in ratings.values()} == {0}
    assert ordered(ratings) == sorted("ABC", key=lambda b: -ratings[b].rating)


def test_tiers_strongest_first():
    """A > B > C, each winning every game: three tiers of one bot, in that
    order, each finite."""
    ratings = fit_table(table_of([("A", "B", 1.0)] * 2 + [("B", "C", 1.0)] * 2 + [("A", "C", 1.0)]))
    assert [ratings[b].tier for b in "ABC"] == [0, 1, 2]
    assert ratings["A"].rating > ratings["B"].rating > ratings["C"].rating
    results = ([("search", "random", 1.0)] * 4 + [("greedy", "random", 1.0)] * 4
               + [("search", "random2", 1.0)] * 4 + [("greedy", "random2", 1.0)] * 4
               + [("search", "greedy", 1.0)] * 5 + [("greedy", "search", 1.0)] * 3
               + [("random", "random2", 1.0), ("random2", "random", 1.0)])
    assert tiers_of(table_of(results).pairs, sorted({"search", "greedy", "random", "random2"})) == [
        ["greedy", "search"], ["random", "random2"]]


games_of_pods = st.lists(
    st.tuples(st.lists(st.sampled_from("ABCDEF"), min_size=2, max_size=4, unique=True),
              st.lists(st.integers(1, 4), min_size=4, max_size=4)), min_size=1, max_size=25)


@settings(max_examples=60, deadline=None)
@given(games_of_pods)
def test_no_bot_stands_below_a_bot_it_beat_every_time_unless_beaten_back_through_others(games):
    """For any games of two to four seats: wherever a bot stands below one
    it scored against and that never scored against it, the two share a
    tier and the lower one scored against the upper one through others."""
    table = PlacementTable()
    for seats, places in games:
        table.add(seats, places[:len(seats)])
    ratings = fit_table(table)
    pairs = table.pairs
    scored = {bot: set() for bot in ratings}
    for (a, b), count in pairs.games.items():
        if pairs.points[a, b] > 0:
            scored[a].add(b)
        if count - pairs.points[a, b] > 0:
            scored[b].add(a)
    order = ordered(ratings)
    for upper_place, upper in enumerate(order):
        for lower in order[upper_place + 1:]:
            if upper in scored[lower] and lower not in scored[upper]:
                assert ratings[upper].tier == ratings[lower].tier
                assert upper in _reach(lower, scored)
                assert lower in _reach(upper, scored)


def _reach(start: str, scored: dict[str, set[str]]) -> set[str]:
    seen, stack = {start}, [start]
    while stack:
        for other in scored[stack.pop()] - seen:
            seen.add(other)
            stack.append(other)
    return seen


def test_the_posterior_nears_the_closed_form_with_many_games_and_so_does_superiority():
    """A scores 55% of 400 games against B: the difference nears
    400 log10(0.55 / 0.45) = 34.86 and its standard deviation
    1 / (C sqrt(n s (1 - s))) = 17.46, so LOS nears Phi(34.86 / 17.46)."""
    results = [("A", "B", 1.0)] * 220 + [("B", "A", 1.0)] * 180
    ratings = fit_table(table_of(results))
    difference = 400 * math.log10(0.55 / 0.45)
    sd = 1 / (math.log(10) / 400 * math.sqrt(400 * 0.55 * 0.45))
    assert ratings["A"].rating - ratings["B"].rating == pytest.approx(difference, abs=1.0)
    expected = 0.5 * (1 + math.erf(difference / sd / math.sqrt(2)))
    assert ratings.superiority("A", "B") == pytest.approx(expected, abs=0.01)
    assert ratings.superiority("B", "A") == pytest.approx(1 - ratings.superiority("A", "B"), abs=1e-12)
    assert ratings.superiority("A", "A") is None and ratings.superiority("A", "Z") is None


def test_unconnected_groups_are_each_pulled_to_1500():
    """Two groups that never met: each is its own group, and the prior,
    symmetric about 1500, centres each group's ratings there."""
    ratings = fit_table(table_of([("A", "B", 1.0), ("A", "B", 0.5), ("C", "D", 0.0), ("C", "D", 0.0),
                                  ("D", "C", 0.5)]))
    assert ratings.groups == 2
    assert ratings["A"].group == ratings["B"].group != ratings["C"].group == ratings["D"].group
    assert ratings["A"].rating + ratings["B"].rating == pytest.approx(3000, abs=1e-6)
    assert ratings["C"].rating + ratings["D"].rating == pytest.approx(3000, abs=1e-6)
    assert ratings["A"].rating > 1500 and ratings["D"].rating > 1500
    assert ratings.group_of("A") == 1 and ratings.group_of("C") == 2


def test_a_game_of_several_seats_is_a_result_between_every_pair():
    def pairwise_results(game):
        table = PairTable()
        table.add_placement(game.seats, game.placements)
        return sorted((a, b, table.points[a, b]) for a, b in table.games)

    game = stored_game("roundabout", ["a", "b", "c", "d"], [2])
    assert pairwise_results(game) == [("a", "b", 0.5), ("a", "c", 0.0), ("a", "d", 0.5),
                                      ("b", "c", 0.0), ("b", "d", 0.5), ("c", "d", 1.0)]
    assert pairwise_results(stored_game("slyyde", ["a", "b"], [])) == [("a", "b", 0.5)]


def test_pair_table_records_both_ways():
    table = PairTable()
    for a, b, s in THREE:
        table.add(a, b, s)
    assert table.record("A", "B") == (5, 3.5)
    assert table.record("B", "A") == (5, 1.5)
    assert table.record("C", "B") == (6, 3.0)
    assert table.bots() == ["A", "B", "C"]


def test_a_table_of_games_against_oneself_rates_no_one():
    table = PlacementTable()
    table.add(["A", "A"], [1, 2])
    assert fit_table(table) == {} and fit_table(PlacementTable()) == {}
