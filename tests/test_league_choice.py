"""The league's posterior (arena.stats.posterior) and its choice of the next
unit (arena.stats.matchmaking), checked against what they are defined as."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from arena.stats import matchmaking, plackett, posterior
from arena.stats.posterior import ANCHOR, C, Outcomes


def _outcomes(games: list[tuple[list[str], list[int]]], versions: list[str] = ()) -> Outcomes:
    outcomes = Outcomes()
    for version in versions:
        outcomes.version(version)
    for seats, places in games:
        outcomes.add(seats, places)
    return outcomes


def test_a_version_that_won_every_game_has_a_finite_rating_and_an_honest_interval():
    fitted = posterior.fit(_outcomes([(["a", "b"], [1, 2])] * 3))
    assert math.isfinite(fitted.rating("a")) and fitted.rating("a") > ANCHOR > fitted.rating("b")
    assert 150 < fitted.error("a") < 1.96 * 246  # wide: three games, and the prior's 246 Elo


def test_before_any_game_the_prior_alone_rates_a_version_at_the_anchor_with_246_elo_of_spread():
    fitted = posterior.fit(_outcomes([], ["a"]))
    assert fitted.rating("a") == pytest.approx(ANCHOR)
    assert math.sqrt(fitted.covariance[0, 0]) == pytest.approx(1 / math.sqrt(2 * C * C / 4))
    assert round(math.sqrt(fitted.covariance[0, 0])) == 246


def test_with_many_games_the_prior_fades():
    rng = np.random.default_rng(3)
    games = []
    for _ in range(3000):
        pod = [str(k) for k in rng.permutation(4)[:3]]
        games.append((pod, [1, 2, 3] if rng.random() < 0.6 else [3, 2, 1]))
    outcomes = _outcomes(games)
    fitted = posterior.fit(outcomes)
    faint = posterior.fit(outcomes, prior_draws=1e-6)  # all but the maximum-likelihood fit
    assert np.allclose(fitted.mean - fitted.mean.mean(), faint.mean - faint.mean.mean(), atol=2.0)


def test_the_fit_warm_started_from_an_earlier_one_lands_on_the_same_mode():
    games = [(["a", "b"], [1, 2]), (["b", "c"], [1, 2]), (["c", "a"], [1, 2]), (["a", "c"], [1, 1])]
    outcomes = _outcomes(games[:2])
    first = posterior.fit(outcomes)
    for seats, places in games[2:]:
        outcomes.add(seats, places)
    assert np.allclose(posterior.fit(outcomes, start=first).mean, posterior.fit(outcomes).mean, atol=1e-5)


def test_a_games_information_at_two_seats_is_the_variance_of_its_outcome():
    p = 1 / (1 + 10 ** (-100 / 400))
    information = posterior.game_information(np.array([[1600.0, 1500.0]]))[0]
    assert information == pytest.approx(C * C * p * (1 - p) * np.array([[1, -1], [-1, 1]]))


def test_a_pods_information_is_the_expected_observed_information_over_every_placement():
    means = np.array([1500.0, 1650.0, 1400.0, 1550.0])
    strength = 10 ** (means / 400)
    expected = np.zeros((4, 4))
    for order in itertools.permutations(range(4)):
        probability = 1.0
        for t in range(3):
            probability *= strength[order[t]] / strength[list(order[t:])].sum()
        _, observed = plackett.derivatives(plackett.Rankings([([[k] for k in order], 1.0)]), 4, means)
        expected += probability * observed
    assert posterior.game_information(means[None])[0] == pytest.approx(expected)


def test_a_units_value_is_the_fall_of_the_standings_variances_per_game():
    fitted = posterior.fit(_outcomes([(["a", "b", "c"], [1, 2, 3]), (["c", "d", "a"], [2, 1, 3])]))
    pod = np.array([[0, 2, 3]])
    value = posterior.unit_values(fitted, pod, 3)[0]
    information = np.zeros((4, 4))
    information[np.ix_(pod[0], pod[0])] = 3 * posterior.game_information(fitted.mean[pod])[0]
    after = np.linalg.inv(np.linalg.inv(fitted.covariance) + information)
    centre = np.eye(4) - np.full((4, 4), 0.25)
    standings_before, standings_after = centre @ fitted.covariance @ centre, centre @ after @ centre
    assert value == pytest.approx((np.trace(standings_before) - np.trace(standings_after)) / 3)
    assert posterior.expecting(fitted, pod[0], 3).covariance == pytest.approx(after)


def _table(games, active, players=2, units=None):
    outcomes = _outcomes(games, active)
    return matchmaking.Table("detour" if players == 2 else f"detour/{players}p", players, posterior.fit(outcomes),
                             tuple(active), units if units is not None else dict.fromkeys(active, 10))


def test_a_new_version_plays_first():
    games = [(["a", "b"], [1, 2]), (["b", "a"], [2, 1])] * 20
    table = _table(games, ["a", "b", "c", "new"], units={"a": 40, "b": 40, "c": 40, "new": 2})
    choice = matchmaking.choose([table], {})
    assert choice.reason == "provisional" and "new" in choice.versions


def test_a_version_left_out_for_its_window_is_brought_back():
    table = _table([], ["a", "b", "c", "d"])
    choice = matchmaking.choose([table], {"a": 0, "b": 0, "c": 50, "d": 3}, window=40)
    assert choice.reason == "share" and "c" in choice.versions


def test_information_prefers_the_close_uncertain_pair_to_a_settled_one():
    games = ([(["strong", "weak"], [1, 2])] * 60 + [(["x", "strong"], [1, 2]), (["strong", "x"], [1, 2])]
             + [(["y", "weak"], [1, 2]), (["weak", "y"], [1, 2])])
    table = _table(games, ["strong", "weak", "x", "y"])
    choice = matchmaking.choose([table], {})
    assert choice.reason == "information" and choice.versions != ("strong", "weak")


def test_pods_hold_distinct_versions_and_the_choice_is_the_same_every_time():
    table = _table([(["a", "b", "c", "d"], [1, 2, 3, 4])], list("abcdef"), players=4)
    choices = {matchmaking.choose([table], {}) for _ in range(3)}
    [choice] = choices
    assert len(set(choice.versions)) == 4 and choice.table == "detour/4p"


def test_no_unit_without_enough_active_versions():
    assert matchmaking.choose([_table([], ["a"])], {}) is None
