"""The Plackett–Luce fit of pod tables (arena/stats/plackett.py and
``fit_placements`` in arena/stats/joint.py).

The reference values are computed here by other means than arena's: the
log-likelihood by enumerating every permutation of a game's seats and
keeping those consistent with its places (arena builds them group by
group), the maximum by Hunter's MM algorithm for Plackett–Luce (2004;
arena uses Newton's method), and the observed information by finite
differences of that log-likelihood (arena differentiates analytically).
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

from arena.stats.joint import Z95, JointTables, PlacementTable, fit, fit_placements

C = math.log(10) / 400


def game(seats: str, places: tuple[int, ...], order: int = 0):
    return stored_game("detour", list(seats), [], placements=places, job_order=order)


def table_of(games) -> PlacementTable:
    table = PlacementTable()
    for each in games:
        table.add_game(each)
    return table


def consistent_orders(seats: str, places: tuple[int, ...]) -> list[tuple[str, ...]]:
    """Every order of the seats' bots that breaks the game's ties."""
    orders = []
    for order in itertools.permutations(range(len(seats))):
        if all(places[a] <= places[b] for a, b in zip(order, order[1:])):
            orders.append(tuple(seats[seat] for seat in order))
    return orders


def reference_log_likelihood(games, ratings: dict[str, float]) -> float:
    total = 0.0
    for seats, places in games:
        orders = consistent_orders(seats, places)
        for order in orders:
            for t in range(len(order) - 1):
                total += (C * ratings[order[t]]
                          - math.log(sum(math.exp(C * ratings[b]) for b in order[t:]))) / len(orders)
    return total


def reference_fit(games, bots: str) -> tuple[dict[str, float], dict[str, float]]:
    """Hunter's MM iteration ``g_i <- W_i / sum over stages holding i of
    weight / (sum of g in the stage)``, then the interval from a
    finite-difference Hessian of the reference log-likelihood."""
    weighted = [(order, 1 / len(orders)) for seats, places in games
                for orders in [consistent_orders(seats, places)] for order in orders]
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(20_000):
        chosen = dict.fromkeys(bots, 0.0)
        exposure = dict.fromkeys(bots, 0.0)
        for order, weight in weighted:
            for t in range(len(order) - 1):
                chosen[order[t]] += weight
                total = sum(strength[b] for b in order[t:])
                for b in order[t:]:
                    exposure[b] += weight / total
        updated = {b: chosen[b] / exposure[b] for b in bots}
        norm = math.prod(updated.values()) ** (1 / len(bots))
        updated = {b: s / norm for b, s in updated.items()}
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
                return reference_log_likelihood(games, moved)
            hessian[i, j] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    centre = np.full((n, n), 1 / n)
    covariance = np.linalg.inv(-hessian + centre) - centre
    return ratings, {b: Z95 * math.sqrt(covariance[k, k]) for k, b in enumerate(bots)}


POD_GAMES = [("ABCD", (1, 2, 3, 4)), ("BCDA", (2, 1, 4, 3)), ("CDAB", (3, 1, 2, 4)), ("DABC", (4, 1, 3, 2)),
             ("ABC", (1, 1, 3)), ("BCD", (3, 1, 2)), ("CDA", (2, 2, 1)), ("DAB", (1, 2, 3)),
             ("ABCD", (2, 1, 1, 4)), ("ACBD", (3, 1, 2, 3)), ("BD", (1, 2)), ("CA", (1, 1)),
             ("DCBA", (1, 2, 2, 2))]


def test_pods_match_an_independent_fit():
    """Four bots in games of four, three and two seats, with ties of two
    and of three: ratings and intervals as the reference computes them."""
    games = [game(seats, places, n) for n, (seats, places) in enumerate(POD_GAMES)]
    fitted = fit_placements(table_of(games))
    ratings, errors = reference_fit(POD_GAMES, "ABCD")
    for bot in "ABCD":
        assert fitted[bot].defined
        assert fitted[bot].rating == pytest.approx(ratings[bot], abs=1e-6)
        assert fitted[bot].error == pytest.approx(errors[bot], rel=1e-5)


two_seat_results = st.lists(st.tuples(st.sampled_from(["AB", "BA", "AC", "CA", "BC", "CB", "AD", "DB"]),
                                      st.sampled_from([(1, 2), (2, 1), (1, 1)])), min_size=1, max_size=40)


@settings(max_examples=80, deadline=None)
@given(two_seat_results)
def test_at_two_seats_plackett_luce_is_bradley_terry(results):
    """The same two-seat games, draws included, fitted both ways: the same
    ratings, intervals, covariance and bounds (separation included)."""
    table = table_of(game(seats, places, n) for n, (seats, places) in enumerate(results))
    luce, terry = fit_placements(table), fit(table.pairs)
    assert luce.keys() == terry.keys()
    for bot, rating in terry.items():
        assert luce[bot].bound == rating.bound and luce[bot].group == rating.group
        if rating.defined:
            assert luce[bot].rating == pytest.approx(rating.rating, abs=1e-6)
            assert luce[bot].error == pytest.approx(rating.error, abs=1e-6)
    assert luce.covariance.keys() == terry.covariance.keys()
    for key, value in terry.covariance.items():
        assert luce.covariance[key] == pytest.approx(value, abs=1e-6)


def test_a_tie_is_the_average_of_the_orders_it_allows():
    """Tie-averaged: a game of places (1, 1, 3) counts as half the game
    A, B, C and half the game B, A, C. Twice the tied game gives exactly
    the fit of those two orders once each."""
    others = [game("ABC", (3, 1, 2)), game("CAB", (1, 2, 3)), game("BCA", (1, 3, 2))]
    tied = fit_placements(table_of([game("ABC", (1, 1, 3))] * 2 + others))
    broken = fit_placements(table_of([game("ABC", (1, 2, 3)), game("ABC", (2, 1, 3))] + others))
    for bot in "ABC":
        assert tied[bot].rating == pytest.approx(broken[bot].rating, abs=1e-9)
        assert tied[bot].error == pytest.approx(broken[bot].error, abs=1e-9)
    # and it is not the same as either order alone
    first = fit_placements(table_of([game("ABC", (1, 2, 3))] * 2 + others))
    assert first["A"].rating > tied["A"].rating + 10


def test_games_that_all_tie_rate_everyone_equal():
    """Every game shared by all its seats: no one is ahead, all at 1500,
    with finite intervals (a tie counts both ways, so no one is bound)."""
    fitted = fit_placements(table_of([game("ABCD", (1, 1, 1, 1)), game("ABC", (1, 1, 1)), game("BCD", (1, 1, 1))]))
    for bot in "ABCD":
        assert fitted[bot].defined and fitted[bot].rating == pytest.approx(1500, abs=1e-9)
        assert 0 < fitted[bot].error < math.inf


def test_separation_at_four_seats():
    """W placed first in every game, L last in every game: no finite
    maximum for either. They are bound ("never lost", "never won") and the
    others are rated from each game's placement without them: exactly the
    fit of those games with W and L left out."""
    middle = [("ABC", (1, 2, 3)), ("BCA", (1, 3, 2)), ("CAB", (2, 3, 1)), ("ACB", (1, 3, 2))]
    games, without = [], []
    for n, (seats, places) in enumerate(middle):
        ranked = "".join(sorted(seats, key=lambda b: places[seats.index(b)]))
        games.append(game("W" + ranked[:2], (1, 2, 3), n))
        games.append(game(ranked + "L", (1, 2, 3, 4), n))
        games.append(game("W" + ranked + "L", (1, 2, 3, 4, 5), n))
        without += [game(ranked[:2], (1, 2), n), game(ranked, (1, 2, 3), n), game(ranked, (1, 2, 3), n)]
    fitted = fit_placements(table_of(games))
    assert fitted["W"].bound == "never lost" and fitted["L"].bound == "never won"
    expected = fit_placements(table_of(without))
    for bot in "ABC":
        assert fitted[bot].defined
        assert fitted[bot].rating == pytest.approx(expected[bot].rating, abs=1e-9)
        assert fitted[bot].error == pytest.approx(expected[bot].error, abs=1e-9)
    assert ("W", "A") not in fitted.covariance and fitted.superiority("A", "W") is None


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(len(POD_GAMES))))
def test_pod_ratings_do_not_depend_on_the_order_of_games(order):
    games = [game(*POD_GAMES[k], n) for n, k in enumerate(order)]
    fitted = fit_placements(table_of(games))
    reference = fit_placements(table_of(game(seats, places) for seats, places in POD_GAMES))
    for bot in "ABCD":
        assert fitted[bot].rating == pytest.approx(reference[bot].rating, abs=1e-9)


def test_tables_with_pods_are_fitted_by_placement():
    """A four-seat table and ``overall`` (which holds it) use Plackett–Luce;
    the two-seat table Bradley–Terry. The pairwise fit of the four-seat
    games gives narrower intervals: it counts each game six times."""
    chooser = random.Random(3)
    games = []
    for n in range(60):
        seats = chooser.sample("ABCDE", 4)
        games.append(game("".join(seats), tuple(chooser.sample(range(1, 5), 4)), n))
        pair = chooser.sample("ABCDE", 2)
        games.append(game("".join(pair), chooser.choice([(1, 2), (2, 1)]), n))
    fitted = JointTables(games).fit()
    four = table_of(g for g in games if g.players == 4)
    overall = table_of(games)
    for bot in "ABCDE":
        assert fitted["detour/4p"][bot].rating == pytest.approx(fit_placements(four)[bot].rating, abs=1e-9)
        assert fitted["overall"][bot].rating == pytest.approx(fit_placements(overall)[bot].rating, abs=1e-9)
        assert fitted["detour"][bot].rating == pytest.approx(
            fit(table_of(g for g in games if g.players == 2).pairs)[bot].rating, abs=1e-9)
        assert fit(four.pairs)[bot].error < 0.9 * fitted["detour/4p"][bot].error
