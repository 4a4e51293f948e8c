"""The Plackett–Luce posterior of the standings' tables
(arena/stats/plackett.py, arena/stats/posterior.py and ``fit_table`` in
arena/stats/joint.py).

The reference values are computed here by other means than arena's: the
log-likelihood by enumerating every permutation of a game's seats and
keeping those consistent with its places (arena builds them group by
group), the mode by Hunter's MM algorithm for Plackett–Luce (2004; arena
uses Newton's method) with the prior's virtual draws as two-seat games
against a virtual bot held at 1500, and the observed information by finite
differences of that log-posterior (arena differentiates analytically).
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import stored_game

from arena.stats.joint import Z95, JointTables, PlacementTable, fit_table
from arena.stats.posterior import DRAWS_RANGE

C = math.log(10) / 400


def game(seats: str, places: tuple[int, ...], order: int = 0):
    return stored_game("detour", list(seats), [], placements=places, job_order=order)


def table_of(games) -> PlacementTable:
    table = PlacementTable()
    for each in games:
        table.add(each.seats, each.placements)
    return table


def consistent_orders(seats: str, places: tuple[int, ...]) -> list[tuple[str, ...]]:
    """Every order of the seats' bots that breaks the game's ties."""
    orders = []
    for order in itertools.permutations(range(len(seats))):
        if all(places[a] <= places[b] for a, b in zip(order, order[1:])):
            orders.append(tuple(seats[seat] for seat in order))
    return orders


def reference_log_posterior(games, ratings: dict[str, float], draws: float) -> float:
    """The log-likelihood of the games, plus ``draws`` virtual draws of
    every bot against a bot rated 1500 (half a win and half a loss each)."""
    total = 0.0
    for seats, places in games:
        orders = consistent_orders(seats, places)
        for order in orders:
            for t in range(len(order) - 1):
                total += (C * ratings[order[t]]
                          - math.log(sum(math.exp(C * ratings[b]) for b in order[t:]))) / len(orders)
    for rating in ratings.values():
        x = C * (rating - 1500)
        total -= draws * (0.5 * math.log1p(math.exp(-x)) + 0.5 * math.log1p(math.exp(x)))
    return total


def reference_fit(games, bots: str, draws: float) -> tuple[dict[str, float], dict[str, float], np.ndarray]:
    """Hunter's MM iteration ``g_i <- W_i / sum over stages holding i of
    weight / (sum of g in the stage)``, the virtual bot's strength held at
    1 (rating 1500); then the interval of each bot's standing in the field
    (its rating less the mean) from a finite-difference Hessian of the
    reference log-posterior, and the covariance of the ratings themselves."""
    weighted = [(order, 1 / len(orders)) for seats, places in games
                for orders in [consistent_orders(seats, places)] for order in orders]
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(20_000):
        chosen = dict.fromkeys(bots, draws / 2)  # the virtual wins
        exposure = {b: draws / (strength[b] + 1.0) for b in bots}  # the virtual games
        for order, weight in weighted:
            for t in range(len(order) - 1):
                chosen[order[t]] += weight
                total = sum(strength[b] for b in order[t:])
                for b in order[t:]:
                    exposure[b] += weight / total
        updated = {b: chosen[b] / exposure[b] for b in bots}
        if max(abs(updated[b] - strength[b]) for b in bots) < 1e-14:
            break
        strength = updated
    ratings = {b: 400 * math.log10(s) + 1500 for b, s in strength.items()}
    h, n = 1e-2, len(bots)
    hessian = np.zeros((n, n))
    for i, a in enumerate(bots):
        for j, b in enumerate(bots):
            def at(da: float, db: float, a: str = a, b: str = b) -> float:
                moved = dict(ratings)
                moved[a] += da
                moved[b] += db
                return reference_log_posterior(games, moved, draws)
            hessian[i, j] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    covariance = np.linalg.inv(-hessian)
    centre = np.eye(n) - np.full((n, n), 1 / n)
    standing = centre @ covariance @ centre
    return ratings, {b: Z95 * math.sqrt(standing[k, k]) for k, b in enumerate(bots)}, covariance


POD_GAMES = [("ABCD", (1, 2, 3, 4)), ("BCDA", (2, 1, 4, 3)), ("CDAB", (3, 1, 2, 4)), ("DABC", (4, 1, 3, 2)),
             ("ABC", (1, 1, 3)), ("BCD", (3, 1, 2)), ("CDA", (2, 2, 1)), ("DAB", (1, 2, 3)),
             ("ABCD", (2, 1, 1, 4)), ("ACBD", (3, 1, 2, 3)), ("BD", (1, 2)), ("CA", (1, 1)),
             ("DCBA", (1, 2, 2, 2))]


def test_pods_match_an_independent_fit():
    """Four bots in games of four, three and two seats, with ties of two
    and of three: ratings and intervals as the reference computes them with
    the prior's weight the fit chose, and that weight the field's own: the
    fixed point of the empirical Bayes update (a normal prior's variance is
    the mean squared distance from 1500 plus the posterior variance, turned
    into virtual draws, 4 / (C^2 tau^2), within the allowed range)."""
    games = [game(seats, places, n) for n, (seats, places) in enumerate(POD_GAMES)]
    fitted = fit_table(table_of(games))
    ratings, errors, covariance = reference_fit(POD_GAMES, "ABCD", fitted.prior_draws)
    for bot in "ABCD":
        assert fitted[bot].rating == pytest.approx(ratings[bot], abs=1e-5)
        assert fitted[bot].error == pytest.approx(errors[bot], rel=1e-4)
    spread = np.mean([(ratings[b] - 1500) ** 2 for b in "ABCD"]) + np.mean(np.diag(covariance))
    assert fitted.prior_draws == DRAWS_RANGE[1] < 4 / (C * C * spread)  # a field this close: the narrowest prior


def test_the_priors_weight_is_the_fields_own():
    """A field 300 Elo wide: the prior's weight is the fixed point of the
    empirical Bayes update (a normal prior's variance is the mean squared
    distance from 1500 plus the posterior variance, turned into virtual
    draws, 4 / (C^2 tau^2)), inside the allowed range, with the ratings
    and intervals the reference computes for that weight."""
    chooser = random.Random(11)
    true = {"A": 450.0, "B": 150.0, "C": 0.0, "D": -200.0, "E": -400.0}
    played = []
    for _ in range(40):
        seats = "".join(chooser.sample("ABCDE", 3))
        drawn = sorted(seats, key=lambda b: -(C * true[b] - math.log(-math.log(chooser.random()))))
        played.append((seats, tuple(drawn.index(b) + 1 for b in seats)))
    fitted = fit_table(table_of(game(seats, places, n) for n, (seats, places) in enumerate(played)))
    ratings, errors, covariance = reference_fit(played, "ABCDE", fitted.prior_draws)
    for bot in "ABCDE":
        assert fitted[bot].rating == pytest.approx(ratings[bot], abs=1e-5)
        assert fitted[bot].error == pytest.approx(errors[bot], rel=1e-4)
    spread = np.mean([(ratings[b] - 1500) ** 2 for b in "ABCDE"]) + np.mean(np.diag(covariance))
    assert DRAWS_RANGE[0] < fitted.prior_draws < DRAWS_RANGE[1]
    assert fitted.prior_draws == pytest.approx(4 / (C * C * spread), rel=2e-3)


def test_a_tie_is_the_average_of_the_orders_it_allows():
    """Tie-averaged: a game of places (1, 1, 3) counts as half the game
    A, B, C and half the game B, A, C. Twice the tied game gives exactly
    the fit of those two orders once each."""
    others = [game("ABC", (3, 1, 2)), game("CAB", (1, 2, 3)), game("BCA", (1, 3, 2))]
    tied = fit_table(table_of([game("ABC", (1, 1, 3))] * 2 + others))
    broken = fit_table(table_of([game("ABC", (1, 2, 3)), game("ABC", (2, 1, 3))] + others))
    for bot in "ABC":
        assert tied[bot].rating == pytest.approx(broken[bot].rating, abs=1e-9)
        assert tied[bot].error == pytest.approx(broken[bot].error, abs=1e-9)
    # and it is not the same as either order alone
    first = fit_table(table_of([game("ABC", (1, 2, 3))] * 2 + others))
    assert first["A"].rating > tied["A"].rating + 10


def test_games_that_all_tie_rate_everyone_equal():
    """Every game shared by all its seats: no one is ahead, all at 1500,
    with finite intervals, in one tier (a tie counts both ways)."""
    fitted = fit_table(table_of([game("ABCD", (1, 1, 1, 1)), game("ABC", (1, 1, 1)), game("BCD", (1, 1, 1))]))
    for bot in "ABCD":
        assert fitted[bot].rating == pytest.approx(1500, abs=1e-6) and fitted[bot].tier == 0
        assert 0 < fitted[bot].error < math.inf


def test_a_bot_first_in_every_game_and_one_last_in_every_game_are_rated():
    """W placed first in every game, L last in every game: no finite
    maximum of the likelihood for either, but the posterior rates them,
    W above everyone and L below, each in a tier of its own (W's first, L's
    last), and the bots between them keep their order from their games."""
    middle = [("ABC", (1, 2, 3)), ("BCA", (1, 3, 2)), ("CAB", (2, 3, 1)), ("ACB", (1, 3, 2))]
    games = []
    for n, (seats, places) in enumerate(middle):
        ranked = "".join(sorted(seats, key=lambda b: places[seats.index(b)]))
        games.append(game("W" + ranked[:2], (1, 2, 3), n))
        games.append(game(ranked + "L", (1, 2, 3, 4), n))
        games.append(game("W" + ranked + "L", (1, 2, 3, 4, 5), n))
    fitted = fit_table(table_of(games))
    assert all(math.isfinite(r.rating) and math.isfinite(r.error) for r in fitted.values())
    assert fitted["W"].rating > max(fitted[b].rating for b in "ABC") > min(fitted[b].rating for b in "ABC") \
        > fitted["L"].rating
    assert (fitted["W"].tier, fitted["A"].tier, fitted["B"].tier, fitted["C"].tier, fitted["L"].tier) == (0, 1, 1, 1, 2)
    assert fitted.superiority("W", "L") > 0.99 and fitted.superiority("L", "W") < 0.01


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(len(POD_GAMES))))
def test_pod_ratings_do_not_depend_on_the_order_of_games(order):
    games = [game(*POD_GAMES[k], n) for n, k in enumerate(order)]
    fitted = fit_table(table_of(games))
    reference = fit_table(table_of(game(seats, places) for seats, places in POD_GAMES))
    for bot in "ABCD":
        assert fitted[bot].rating == pytest.approx(reference[bot].rating, abs=1e-9)


def test_every_table_is_fitted_by_placement():
    """A four-seat table, the two-seat table and ``overall`` (which holds
    both) are each the fit of their own games' placements. A fit of the
    four-seat games split into their pairs gives narrower intervals: it
    counts each game six times."""
    chooser = random.Random(3)
    games = []
    for n in range(60):
        seats = chooser.sample("ABCDE", 4)
        games.append(game("".join(seats), tuple(chooser.sample(range(1, 5), 4)), n))
        pair = chooser.sample("ABCDE", 2)
        games.append(game("".join(pair), chooser.choice([(1, 2), (2, 1)]), n))
    fitted = JointTables(games).fit()
    four = [g for g in games if g.players == 4]
    split = PlacementTable()
    for each in four:
        for a, b in itertools.combinations(range(4), 2):
            split.add([each.seats[a], each.seats[b]], [each.placements[a], each.placements[b]])
    for table, held in (("detour/4p", four), ("detour", [g for g in games if g.players == 2]), ("overall", games)):
        alone = fit_table(table_of(held))
        for bot in "ABCDE":
            assert fitted[table][bot].rating == pytest.approx(alone[bot].rating, abs=1e-9)
    pairwise = fit_table(split)
    for bot in "ABCDE":
        assert pairwise[bot].error < 0.9 * fitted["detour/4p"][bot].error
