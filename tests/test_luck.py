"""Luck of the dice (arena.luck): its terms have mean zero whatever the
value estimate, so the luck-adjusted result has the result's expectation.
Checked by simulation for every game and player count: forty
random games per game and count in the fast set, 10,000 per game in the slow set; and the
check is shown to catch an expectation taken over the wrong dice."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

import pytest
from support import LONG_TESTS

from arena import results
from arena.games import GAMES, get_game
from arena.games.base import ChanceRequest
from arena.games.events import replay
from arena.games.playout import random_playout
from arena.house.evaluations import evaluated_games, evaluator
from arena.luck import learned, measure
from arena.luck.measure import ENUMERATED, SAMPLES, GameLuck, game_luck, outcomes
from arena.luck.values import expected_points, point_values, slope_for

FIRST_SEED = 10_000_000  # far from the seeds bench/fit_luck.py fits on
ALLOWED = 4.0            # standard errors a mean luck may be from zero (deterministic seeds)

VARIANTS = [(name, players) for name in evaluated_games()
            for players in range(max(2, GAMES[name].min_players), GAMES[name].max_players + 1)]


def variant_id(variant):
    return f"{variant[0]}-{variant[1]}p"


def luck_sample(name: str, players: int, first: int, count: int) -> list[tuple[float, float, float]]:
    """Over ``count`` random games, seat 0's points, its luck, and its luck
    on its own rolls (the ``seat:0`` stream): a subset of the terms chosen
    by the history, so of mean zero too, and one where a wrong expectation
    does not cancel between the seats' rolls."""
    found = []
    for seed in range(first, first + count):
        final, events = random_playout(get_game(name), players, seed)
        luck = game_luck(name, players, {}, events, seed)
        own = sum(roll.seats[0] for roll in luck.rolls if events[roll.event]["stream"] == "seat:0")
        found.append((results.points(final.outcome().placements)[0], luck.totals[0], own))
    return found


def assert_mean_zero(values: list[float], what: str) -> None:
    error = statistics.stdev(values) / math.sqrt(len(values))
    assert abs(statistics.fmean(values)) <= ALLOWED * error, (
        f"mean {what} {statistics.fmean(values):.4f}, standard error {error:.4f}")


def assert_unbiased(sample: list[tuple[float, float, float]]) -> None:
    raw = [points for points, _, _ in sample]
    adjusted = [points - luck for points, luck, _ in sample]
    assert_mean_zero([luck for _, luck, _ in sample], "luck")
    assert_mean_zero([own for _, _, own in sample], "luck on its own rolls")
    raw_half = 1.96 * statistics.stdev(raw) / math.sqrt(len(raw))
    adjusted_half = 1.96 * statistics.stdev(adjusted) / math.sqrt(len(adjusted))
    assert abs(statistics.fmean(raw) - statistics.fmean(adjusted)) <= raw_half + adjusted_half


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_adjusted_results_have_the_results_mean(variant):
    name, players = variant
    assert_unbiased(luck_sample(name, players, FIRST_SEED, 40))


def _chunk(arguments: tuple[str, int, int, int]) -> list[tuple[float, float, float]]:
    return luck_sample(*arguments)


@pytest.mark.slow
@pytest.mark.skipif(not LONG_TESTS,
                    reason="10,000 games per game take 40 minutes on two cores (Slyyde 1.5, Ciclovia 12, Detour 10, "
                           "Roundabout 16): set ARENA_LONG_TESTS=1 to run them")
@pytest.mark.parametrize("name", evaluated_games())
def test_adjusted_results_have_the_results_mean_over_10000_games(name):
    counts = [players for game, players in VARIANTS if game == name]
    per_count = math.ceil(10_000 / len(counts))
    chunk = 250
    with ProcessPoolExecutor(2) as pool:
        for players in counts:
            jobs = [(name, players, FIRST_SEED + 100_000 + start, min(chunk, per_count - start))
                    for start in range(0, per_count, chunk)]
            sample = [pair for part in pool.map(_chunk, jobs) for pair in part]
            assert len(sample) == per_count
            assert_unbiased(sample)


def test_the_check_catches_dice_averaged_over_the_wrong_faces(monkeypatch):
    """An expectation over dice that never show a 6 gives every roll a
    luck of the wrong mean: the same check fails on it."""
    def without_sixes(request: ChanceRequest, sampler: random.Random):
        return outcomes(ChanceRequest(request.stream, request.count, request.sides - 1, request.purpose),
                        sampler)
    monkeypatch.setattr(measure, "outcomes", without_sixes)
    with pytest.raises(AssertionError, match="mean luck on its own rolls"):
        assert_unbiased(luck_sample("slyyde", 2, FIRST_SEED, 40))


def test_two_dice_are_enumerated_as_ordered_pairs_and_a_deal_is_sampled():
    sampler = random.Random(1)
    pairs = list(outcomes(ChanceRequest("seat:0", 2, 6), sampler))
    assert len(pairs) == 36 and len(set(pairs)) == 36 and (1, 2) in pairs and (2, 1) in pairs
    assert 6 ** 3 <= ENUMERATED < 6 ** 4
    dealt = list(outcomes(ChanceRequest("deal", 10, 6), sampler))
    assert len(dealt) == SAMPLES and all(len(d) == 10 and all(1 <= v <= 6 for v in d) for d in dealt)


@pytest.mark.parametrize("name", evaluated_games())
def test_two_seats_luck_is_zero_sum_and_the_adjusted_result_is_points_less_luck(name):
    final, events = random_playout(get_game(name), 2, FIRST_SEED)
    luck = game_luck(name, 2, {}, events, FIRST_SEED)
    assert luck.rolls and len(luck.rolls) == sum(1 for e in events if e["kind"] == "chance")
    for roll in luck.rolls:
        assert roll.seats[0] == pytest.approx(-roll.seats[1], abs=1e-9)
    placements = final.outcome().placements
    assert luck.adjusted(placements) == pytest.approx(
        [p - t for p, t in zip(results.points(placements), luck.totals)])
    assert GameLuck.from_json(luck.to_json()).totals == pytest.approx(luck.totals, abs=1e-6)


def test_expected_points_are_the_evaluation_at_two_seats_and_sum_to_half_the_seats():
    assert expected_points([0.8, 0.2], 1.0) == pytest.approx([0.8, 0.2])
    four = expected_points([0.4, 0.3, 0.2, 0.1], 0.7)
    assert sum(four) == pytest.approx(2.0) and four == sorted(four, reverse=True)
    assert expected_points([1.0, 0.0], 1.0)[1] == pytest.approx(0.0, abs=1e-8)


def test_a_finished_game_is_worth_its_points():
    final, _ = random_playout(get_game("slyyde"), 3, FIRST_SEED)
    assert point_values("slyyde", 3)(final) == list(results.points(final.outcome().placements))


def test_the_learned_models_cover_every_variant_they_claim_and_are_what_luck_uses():
    models = learned.load_models()
    assert learned.has_model("roundabout", 2)
    for name, counts in models.items():
        assert name in learned.FEATURES, f"{name} has weights but no features"
        for players, model in counts.items():
            assert (name, int(players)) in VARIANTS
            assert sorted(model["weights"]) == sorted(learned.features_for(name).NAMES)
            assert model["held_out"]["log_loss"] < model["held_out"]["house_log_loss"]
    final, events = random_playout(get_game("roundabout"), 2, FIRST_SEED)
    *_, state = replay(get_game("roundabout"), 2, {}, events[:30])
    assert point_values("roundabout", 2)(state) == learned.learned_values("roundabout", 2)(state)


def pair_log_losses(name: str, players: int, first: int, count: int) -> tuple[float, float]:
    """Over ``count`` random games, the mean log-loss per pair of seats of
    the learned model's chance that one places ahead of the other, after
    every chance event, and of the calibrated house evaluation's."""
    features = learned.features_for(name)
    stored = learned.load_models()[name][str(players)]["weights"]
    weights = tuple(stored[feature] for feature in features.NAMES)
    house = evaluator(name)
    slope = slope_for(name, players)
    losses = [0.0, 0.0]
    pairs = 0
    for seed in range(first, first + count):
        final, events = random_playout(get_game(name), players, seed)
        pairwise = list(results.pairwise(final.outcome().placements))
        for event, state in zip(events, itertools.islice(replay(get_game(name), players, {}, events), 1, None)):
            if event["kind"] != "chance" or state.is_terminal():
                continue
            summaries, chances = features.seats(state.to_json()), house(state)
            for i, j, score in pairwise:
                for k, chance in enumerate((learned.pair_chance(weights, features.pair(summaries[i], summaries[j])),
                                            expected_points([chances[i], chances[j]], slope)[0])):
                    chance = min(max(chance, 1e-12), 1.0 - 1e-12)
                    losses[k] -= score * math.log(chance) + (1.0 - score) * math.log(1.0 - chance)
                pairs += 1
    return losses[0] / pairs, losses[1] / pairs


@pytest.mark.parametrize("variant", [(name, int(players)) for name, counts in learned.load_models().items()
                                     for players in counts], ids=variant_id)
def test_the_learned_value_predicts_results_better_than_the_house_evaluation(variant):
    """On random games (the model was fitted on greedy self-play), the
    learned chances that one seat places ahead of another have a lower
    log-loss than the calibrated house evaluation's."""
    learned_loss, house_loss = pair_log_losses(*variant, FIRST_SEED, 40)
    assert learned_loss < house_loss, f"learned {learned_loss:.4f}, house {house_loss:.4f}"
