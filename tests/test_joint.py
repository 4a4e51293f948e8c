"""The maximum-likelihood (Bradley-Terry) ratings of arena/stats/joint.py.

The expected values below were not produced by arena's code. The two-bot
case has a closed form, computed in the test itself. The three-bot case was
computed by a separate script with a different algorithm for each part:

* ratings: Zermelo's fixed-point iteration (the MM algorithm of Hunter,
  2004), ``gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j)`` where W_i is
  bot i's total score and n_ij the games between i and j (draws count half
  to each side, the prior's virtual draws are added to n and W), iterated to
  a change below 1e-15; then ``r_i = 400 log10 gamma_i`` shifted to mean 1500.
  arena fits by Newton's method instead.
* intervals: the observed information is a graph Laplacian with conductance
  ``w_ij = n_ij p_ij (1 - p_ij) (ln 10 / 400)^2`` on each pair. Instead of
  inverting a matrix, the variance of a centred rating comes from effective
  resistances: for three bots ``R_ab = 1 / (w_ab + 1 / (1/w_ac + 1/w_cb))``
  (the direct edge in parallel with the path through the third bot), and
  ``Var(r_i) = (1/n) sum_j R_ij - (1/n^2) sum_{j<k} R_jk`` (Klein and
  Randic's identity for the Laplacian's pseudo-inverse). The interval is
  ``1.959964 * sqrt(Var)``. arena inverts ``L + J/n`` instead.

The set of results (hand-made): A-B 5 games, A scores 3.5 (3 wins, 1 draw,
1 loss); A-C 6 games, A scores 4 (4 wins, 2 losses); B-C 6 games, B scores
3 (2 wins, 2 draws, 2 losses). The script printed, without a prior:
A 1588.5036087496896 +- 147.14942147030243, B 1451.9718251057288 +-
142.10242615338052, C 1459.5245661445815 +- 135.5251933765915; with one
virtual draw per pair: A 1573.7974208290534 +- 132.46402689913148,
B 1460.4080205446419 +- 129.2598875284036, C 1465.7945586263047 +-
124.24028226173094.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import stored_game

from arena.stats.joint import Z95, JointTables, PairTable, fit, tiers_of

THREE = ([("A", "B", 1.0)] * 3 + [("A", "B", 0.5)] + [("B", "A", 1.0)]
         + [("A", "C", 1.0)] * 4 + [("C", "A", 1.0)] * 2
         + [("B", "C", 1.0)] * 2 + [("C", "B", 0.5)] * 2 + [("C", "B", 1.0)] * 2)

NO_PRIOR = {"A": (1588.5036087496896, 147.14942147030243),
            "B": (1451.9718251057288, 142.10242615338052),
            "C": (1459.5245661445815, 135.5251933765915)}
ONE_DRAW = {"A": (1573.7974208290534, 132.46402689913148),
            "B": (1460.4080205446419, 129.2598875284036),
            "C": (1465.7945586263047, 124.24028226173094)}


def test_two_bots_match_the_closed_form():
    """Two bots: the rating difference is 400 log10(s / (1 - s)) for the
    score s, and its variance 1 / (n s (1 - s) c^2), c = ln 10 / 400; with
    the mean held at 1500 each rating carries half the difference."""
    results = [("A", "B", 1.0)] * 6 + [("A", "B", 0.0)] * 2 + [("B", "A", 0.5)] * 2
    n, s = 10, 0.7
    difference = 400 * math.log10(s / (1 - s))
    half_width = Z95 / (math.log(10) / 400 * math.sqrt(n * s * (1 - s))) / 2
    ratings = fit(results, prior_draws=0)
    assert ratings["A"].rating == pytest.approx(1500 + difference / 2, abs=1e-9)
    assert ratings["B"].rating == pytest.approx(1500 - difference / 2, abs=1e-9)
    for bot in "AB":
        assert ratings[bot].error == pytest.approx(half_width, abs=1e-9)
    assert ratings["A"].games == 10 and ratings["A"].points == pytest.approx(7.0)


@pytest.mark.parametrize("prior, expected", [(0.0, NO_PRIOR), (1.0, ONE_DRAW)], ids=["no prior", "one draw"])
def test_three_bots_match_values_computed_independently(prior, expected):
    ratings = fit(THREE, prior_draws=prior)
    for bot, (rating, error) in expected.items():
        assert ratings[bot].rating == pytest.approx(rating, abs=1e-8)
        assert ratings[bot].error == pytest.approx(error, abs=1e-8)
        assert ratings[bot].low == pytest.approx(rating - error, abs=1e-8)
        assert ratings[bot].high == pytest.approx(rating + error, abs=1e-8)
    assert sum(r.rating for r in ratings.values()) == pytest.approx(4500, abs=1e-8)


def test_the_default_is_no_prior():
    """The ratings shown are maximum-likelihood ones: no virtual draws."""
    default, explicit = fit(THREE), fit(THREE, prior_draws=0.0)
    assert {b: r.rating for b, r in default.items()} == {b: r.rating for b, r in explicit.items()}
    assert all(r.defined for r in default.values())


@settings(max_examples=60, deadline=None)
@given(st.permutations(THREE), st.lists(st.booleans(), min_size=len(THREE), max_size=len(THREE)))
def test_ratings_do_not_depend_on_the_order_of_games(order, flips):
    """Any order of the games, and either bot named first, gives the same fit."""
    reordered = [(b, a, 1.0 - s) if flip else (a, b, s) for (a, b, s), flip in zip(order, flips)]
    for prior, expected in ((0.0, NO_PRIOR), (1.0, ONE_DRAW)):
        ratings = fit(reordered, prior_draws=prior)
        for bot, (rating, error) in expected.items():
            assert ratings[bot].rating == pytest.approx(rating, abs=1e-8)
            assert ratings[bot].error == pytest.approx(error, abs=1e-8)


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
            assert first[table][bot].rating == pytest.approx(second[table][bot].rating, abs=1e-9)
            assert first[table][bot].error == pytest.approx(second[table][bot].error, abs=1e-9)


def test_a_bot_that_never_scored_is_bound_not_rated():
    """D lost all three games to A: its maximum-likelihood rating is minus
    infinity. It is reported as "never won", and A, B and C (one tier) keep
    exactly the ratings of their own games, as if D had not played."""
    results = THREE + [("D", "A", 0.0)] * 3
    ratings = fit(results)
    assert ratings["D"].bound == "never won" and not ratings["D"].defined
    assert ratings["D"].to_json()["rating"] is None and ratings["D"].to_json()["bound"] == "never won"
    for bot, (rating, error) in NO_PRIOR.items():
        assert ratings[bot].defined
        assert ratings[bot].rating == pytest.approx(rating, abs=1e-8)
        assert ratings[bot].error == pytest.approx(error, abs=1e-8)
    assert ratings["A"].games == 14 and ratings["A"].points == pytest.approx(10.5)
    # A prior makes every rating finite (and says nothing is bound).
    prior = fit(results, prior_draws=1.0)
    assert math.isfinite(prior["D"].rating) and prior["D"].defined
    assert prior["D"].rating < min(prior[b].rating for b in "ABC")


def test_a_group_that_never_lost_to_the_rest_is_bound():
    """The review's case: search and greedy never lost to the random bots.
    Two tiers of two; the tier with more games inside it is rated, the other
    is bound: never lost (no one outside scored against it)."""
    results = ([("search", "random", 1.0)] * 4 + [("greedy", "random", 1.0)] * 4
               + [("search", "random2", 1.0)] * 4 + [("greedy", "random2", 1.0)] * 4
               + [("search", "greedy", 1.0)] * 5 + [("greedy", "search", 1.0)] * 3
               + [("random", "random2", 1.0), ("random2", "random", 1.0)])
    ratings = fit(results)
    assert tiers_of(fit_table(results), sorted({"search", "greedy", "random", "random2"})) == [
        ["greedy", "search"], ["random", "random2"]]
    assert ratings["random"].bound == ratings["random2"].bound == "never won"
    assert ratings["search"].defined and ratings["greedy"].defined
    # Inside the tier: two bots, 5 of 8: the closed form.
    assert ratings["search"].rating - ratings["greedy"].rating == pytest.approx(400 * math.log10(5 / 3))
    # The same with the bottom tier playing more among themselves: it is rated instead.
    more = results + [("random", "random2", 0.5)] * 10
    swapped = fit(more)
    assert swapped["search"].bound == swapped["greedy"].bound == "never lost"
    assert swapped["random"].rating == pytest.approx(1500) and swapped["random"].defined


def test_a_middle_tier_and_single_bot_tiers():
    """A > B > C, each winning every game: three tiers of one bot, nothing
    rated; B won every game against C and lost every game to A."""
    ratings = fit([("A", "B", 1.0)] * 2 + [("B", "C", 1.0)] * 2 + [("A", "C", 1.0)])
    assert [ratings[b].bound for b in "ABC"] == ["never lost", "separated", "never won"]
    assert ratings["A"].rating > ratings["B"].rating > ratings["C"].rating  # the ordering key


def test_joint_superiority_uses_the_covariance():
    """Two bots, A scores 7 of 10: the difference d = 400 log10(7/3) =
    147.19 and its variance 1 / (n s (1 - s) c^2) = 1 / (10 * 0.21 *
    (ln 10 / 400)^2) = 14371.7, so LOS = Phi(147.19 / 119.88) = 0.8903."""
    results = [("A", "B", 1.0)] * 6 + [("A", "B", 0.0)] * 2 + [("B", "A", 0.5)] * 2
    ratings = fit(results)
    difference = 400 * math.log10(7 / 3)
    sd = 1 / (math.log(10) / 400 * math.sqrt(10 * 0.21))
    expected = 0.5 * (1 + math.erf(difference / sd / math.sqrt(2)))
    assert ratings.superiority("A", "B") == pytest.approx(expected, abs=1e-9)
    assert expected == pytest.approx(0.8903, abs=1e-4)
    assert ratings.superiority("B", "A") == pytest.approx(1 - expected, abs=1e-9)
    assert ratings.superiority("A", "A") is None


def fit_table(results):
    table = PairTable()
    for a, b, score in results:
        table.add(a, b, score)
    return table


def test_unconnected_groups_are_each_centred():
    results = [("A", "B", 1.0), ("A", "B", 0.5), ("C", "D", 0.0), ("C", "D", 0.0), ("D", "C", 0.5)]
    ratings = fit(results)
    assert ratings["A"].group == ratings["B"].group != ratings["C"].group == ratings["D"].group
    assert ratings["A"].rating + ratings["B"].rating == pytest.approx(3000)
    assert ratings["C"].rating + ratings["D"].rating == pytest.approx(3000)
    assert ratings["A"].rating > 1500 and ratings["D"].rating > 1500


def test_a_game_of_several_seats_is_a_result_between_every_pair():
    def pairwise_results(game):
        table = PairTable()
        table.add_game(game)
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


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        fit([("A", "B", 2.0)])
    with pytest.raises(ValueError, match="prior_draws"):
        fit(THREE, prior_draws=-1)
    assert fit([]) == {}
