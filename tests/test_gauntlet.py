"""The gauntlet: the pentanomial SPRT against reference values, the
luck-adjusted normal GSPRT against an independent computation and by its
simulated error rates, and the command as a real process: a clearly better
bot accepted (on raw and on luck-adjusted scores), equal bots not, an
interrupted run resumed without repeating a game, bad input refused."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from contextlib import closing

import pytest
from support import ARENA, REPO, arena, arena_environment, python_bot, random_bots, whole_events

from arena import results
from arena.bots.discovery import discover
from arena.luck.measure import game_luck
from arena.model import DiceKey, GameRecord
from arena.play.gauntlet import Gauntlet, Matchup, Progress, summary
from arena.stats import adjusted_sprt
from arena.stats.adjusted_sprt import Moments, llr_normal
from arena.stats.pentanomial import MIN_PAIRS, PairStats
from arena.stats.sprt import (
    Sprt,
    bounds,
    llr_logistic,
    logistic_score,
    mle_expected,
    pair_outcome,
)
from arena.stats.standings import PAIR_COUNT_COLUMNS
from arena.store import Store

# Reference LLRs from fishtest's published formulas: fishtest
# server/fishtest/stats/LLRcalc.py, functions regularize, results_to_pdf,
# secular (scipy.optimize.brentq), MLE_expected and LLR_logistic, transcribed
# line by line into a separate script and run with scipy 1.17.1 (brentq at
# xtol=1e-14); arena's implementation (bisection) shares no code with it.
# (elo0, elo1, pentanomial counts LL LD DD+WL WD WW, LLR). Where a count is
# zero, fishtest multiplies by the regularised number of pairs (10.004 for
# the first row: 1.335630610106391 per 10 pairs, as the script first printed
# it multiplying by 10, times 10.004 / 10).
FISHTEST_LLR = [
    (0, 50, [0, 0, 0, 0, 10], 1.3361648623504334),
    (0, 50, [1, 3, 10, 6, 2], 0.5566943077137585),
    (-5, 5, [40, 200, 500, 210, 50], 2.242681678251681),
    (0, 10, [12, 80, 230, 90, 8], -0.9781064250663426),
    (0, 50, [5, 5, 5, 5, 5], -0.5138911854996918),
]


@pytest.mark.parametrize("elo0, elo1, counts, expected", FISHTEST_LLR)
def test_the_llr_matches_fishtest(elo0, elo1, counts, expected):
    assert llr_logistic(elo0, elo1, counts) == pytest.approx(expected, abs=1e-9)


def test_the_llr_is_zero_before_any_pair_and_antisymmetric():
    assert llr_logistic(0, 50, [0] * 5) == 0.0
    counts = [3, 7, 20, 9, 4]
    assert llr_logistic(0, 50, counts) == pytest.approx(-llr_logistic(50, 0, counts))


def test_the_constrained_mle_has_the_mean_and_beats_its_neighbours():
    pdf = [(i / 4, p) for i, p in enumerate([0.1, 0.2, 0.4, 0.2, 0.1])]
    fitted = mle_expected(pdf, 0.6)
    assert sum(q for _, q in fitted) == pytest.approx(1)
    assert sum(a * q for a, q in fitted) == pytest.approx(0.6)
    best = sum(p * math.log(q) for (_, p), (_, q) in zip(pdf, fitted))
    # Any other distribution with the same mean: move mass keeping the mean.
    for shift in (0.01, -0.01):
        other = [q for _, q in fitted]
        other[0] += shift
        other[2] -= 2 * shift
        other[4] += shift
        assert sum(p * math.log(q) for (_, p), q in zip(pdf, other)) < best


def test_bounds_pairs_and_estimates():
    assert bounds(0.05, 0.05) == pytest.approx((-2.944438979, 2.944438979))
    assert [pair_outcome(p) for p in [(0, 0), (0.5, 0), (1, 0), (0.5, 0.5), (1, 0.5), (1, 1)]] == [0, 1, 2, 2, 3, 4]
    assert logistic_score(0) == 0.5
    found = summary(Progress([10, 20, 40, 20, 10]), None)
    assert found["score"] == 0.5 and found["elo"] == 0.0 and math.copysign(1, found["elo"]) == 1
    assert found["elo_low"] < 0 < found["elo_high"] and found["interval_missing"] is None
    with pytest.raises(ValueError):
        Sprt(50, 0)
    with pytest.raises(ValueError):
        Sprt(0, 50, alpha=1.5)


def test_the_gauntlet_and_the_standings_estimate_alike():
    """Issue 26: the same counts gave 116.7 and 117.4 Elo lower bounds in
    the gauntlet (regularised) and in standings (not). One function now;
    a candidate that won every pair is unbounded in both (issue 27: not
    +1593 from regularised counts, nor a score of 0.9999)."""
    for counts in ([0, 1, 4, 9, 6], [0, 0, 3, 5, 12], [2, 0, 0, 0, 0], [0, 0, 0, 0, 7], [0, 0, 0, 0, 24]):
        found, stats = summary(Progress(list(counts)), None), PairStats("a", "b", tuple(counts)).to_json()
        assert {name: found[name] for name in ("score", "elo", "elo_bound", "elo_low", "elo_high")} == \
            {name: stats[name] for name in ("score", "elo", "elo_bound", "elo_low", "elo_high")}
    won = summary(Progress([0, 0, 0, 0, 24]), None)
    assert won["score"] == 1.0 and won["elo"] is None and won["elo_bound"] == "won every pair"
    assert summary(Progress([0] * 5), None)["interval_missing"] == "too few pairs (0 < 10)"


def test_the_adjusted_llr_by_hand():
    """elo1 = 400 log10(3) expects 3/4 a game, elo0 = 0 a half. For pair
    scores 1/4, 1, 1/2, 5/4 the mean square deviations are 7/32 from 1/2
    and 5/32 from 3/4, so the LLR is 4/2 log(7/5)."""
    elo1 = 400 * math.log10(3)
    assert logistic_score(elo1) == pytest.approx(0.75)
    assert llr_normal(0, elo1, Moments.of([0.25, 1.0, 0.5, 1.25])) == pytest.approx(2 * math.log(1.4), abs=1e-12)
    assert llr_normal(0, 50, Moments()) == 0.0


def _normal_log_likelihood(scores, mean):
    """The log-likelihood of the scores as normal draws of this mean, with
    the variance that maximises it, summed from the density itself."""
    sigma = math.sqrt(statistics.fmean((x - mean) ** 2 for x in scores))
    return sum(math.log(statistics.NormalDist(mean, sigma).pdf(x)) for x in scores), sigma


@pytest.mark.parametrize("elo0, elo1", [(0, 50), (-10, 10), (100, 300)])
def test_the_adjusted_llr_is_the_normal_generalized_likelihood_ratio(elo0, elo1):
    """Computed independently: the normal densities' log-likelihood under
    each hypothesis's mean, at the variance that maximises it (checked
    against its neighbours); near each other, fishtest's first-order form
    LLR_alt2 agrees."""
    chooser = random.Random(7)
    scores = [chooser.choice([0.0, 0.5, 1.0]) - chooser.gauss(0, 0.3) for _ in range(37)]
    (h0, sigma0), (h1, _) = (_normal_log_likelihood(scores, logistic_score(elo)) for elo in (elo0, elo1))
    for nearby in (0.99 * sigma0, 1.01 * sigma0):
        assert sum(math.log(statistics.NormalDist(logistic_score(elo0), nearby).pdf(x)) for x in scores) < h0
    moments = Moments.of(scores)
    assert llr_normal(elo0, elo1, moments) == pytest.approx(h1 - h0, rel=1e-9)
    assert llr_normal(elo1, elo0, moments) == pytest.approx(h0 - h1, rel=1e-9)
    s0, s1 = logistic_score(0), logistic_score(2)
    alt2 = len(scores) * (s1 - s0) * (2 * moments.mean - s0 - s1) / (2 * moments.variance)
    assert llr_normal(0, 2, moments) == pytest.approx(alt2, rel=0.02)


def test_moments_estimates_and_the_wait_for_min_pairs():
    scores = [0.9, 0.92, 0.88, 0.91, 0.93, 0.89, 0.9, 0.92, 0.91, 0.9, 0.89]
    grown = Moments()
    for score in scores:
        grown = grown.add(score)
    assert grown.pairs == len(scores) and grown.mean == pytest.approx(statistics.fmean(scores))
    assert grown.variance == pytest.approx(statistics.pvariance(scores))
    assert grown.error == pytest.approx(math.sqrt(statistics.pvariance(scores) / len(scores)))
    sprt = Sprt(0, 400)  # a wide test whose LLR is past its bound from the first pairs
    early = Moments.of(scores[:MIN_PAIRS - 1])
    assert adjusted_sprt.llr(sprt, early) > sprt.bounds[1] and adjusted_sprt.verdict(sprt, early) is None
    assert adjusted_sprt.verdict(sprt, Moments.of(scores)) == "H1 accepted"
    found = adjusted_sprt.estimate(Moments.of(scores))
    assert found["score"] == pytest.approx(statistics.fmean(scores), abs=1e-4)
    assert found["elo_low"] < found["elo"] < found["elo_high"] and found["interval_missing"] is None
    assert adjusted_sprt.estimate(early)["interval_missing"] == f"too few pairs ({MIN_PAIRS - 1} < {MIN_PAIRS})"
    beyond = adjusted_sprt.estimate(Moments.of([1.2] * MIN_PAIRS))
    assert beyond["elo"] is None and beyond["elo_bound"] == "adjusted score 1.200 is not between 0 and 1"
    progress = Progress(luck_adjusted=True, adjusted=Moments.of(scores))
    out = summary(progress, sprt)
    assert out["test"] == "luck-adjusted" and out["verdict"] == "H1 accepted"
    assert out["llr"] == pytest.approx(adjusted_sprt.llr(sprt, Moments.of(scores)), abs=1e-4)
    assert "adjusted" not in summary(Progress([1, 2, 3, 2, 1]), sprt)


def test_simulated_error_rates_of_the_adjusted_test_are_within_alpha_and_beta():
    """bench/sprt_luck.py's simulation, small: adjusted scores with 0.39 of
    the raw variance (Detour, search against greedy), 0,50 at alpha = beta
    = 0.05, 1,000 gauntlets at each end: each error rate within three
    standard errors of 5%, and fewer pairs than the pentanomial test needs
    (about 150 at either end, bench/sprt_luck.py)."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from sprt_luck import rates, simulate
    finally:
        sys.path.remove(str(REPO / "bench"))
    chooser = random.Random(11)
    sprt, runs = Sprt(0, 50), 1000
    slack = 3 * math.sqrt(0.05 * 0.95 / runs)
    at_elo0, pairs0 = rates([simulate(sprt, 0, 0.39, 4, 20_000, chooser, pentanomial=False)["adjusted"]
                             for _ in range(runs)])
    at_elo1, pairs1 = rates([simulate(sprt, 50, 0.39, 4, 20_000, chooser, pentanomial=False)["adjusted"]
                             for _ in range(runs)])
    assert at_elo0["H1 accepted"] <= sprt.alpha + slack and at_elo1["H0 accepted"] <= sprt.beta + slack
    assert at_elo0["inconclusive"] == at_elo1["inconclusive"] == 0
    assert pairs0 < 100 and pairs1 < 100


def _keys(folder):
    """The stored games' keys; none while the database is still being made
    (its file exists from the moment it is opened, before its tables)."""
    with closing(sqlite3.connect(folder / "gauntlet.db")) as db:
        try:
            return [row[0] for row in db.execute("SELECT key FROM games")]
        except sqlite3.OperationalError as error:
            if "no such table" not in str(error):
                raise
            return []


@pytest.mark.slow
def test_a_clearly_better_bot_is_accepted_quickly(tmp_path):
    run = arena("gauntlet", "greedy_bot", "--vs", "random_bot", "--games", "ciclovia", "--sprt", "0,50",
                "--move-timeout", "0.05", "--jobs", "2", "--bots", str(REPO / "bots"), cwd=tmp_path,
                check=True, tmpdir=tmp_path)
    assert run.stdout.startswith("H1 accepted: greedy_bot pairs ")
    pairs = int(re.search(r"pairs (\d+)", run.stdout).group(1))
    assert pairs <= 40 and len(_keys(tmp_path)) == 2 * pairs
    assert re.search(r"LLR [\d.]+ \(-2\.94, 2\.94\)", run.stderr)


@pytest.mark.slow
def test_a_luck_adjusted_gauntlet_reaches_a_verdict_on_the_adjusted_scores(tmp_path):
    """Greedy against random at Detour on luck-adjusted pair scores: H1
    accepted; the adjusted score is the mean over the stored games of the
    candidate's points less its luck, measured again here from each stored
    record, and the luck the gauntlet measured is stored with each game; a
    rerun reads the same from the store alone and says so."""
    args = ("gauntlet", "greedy_bot", "--vs", "random_bot", "--games", "detour", "--sprt", "0,50", "--luck-adjusted",
            "--move-timeout", "0.05", "--jobs", "2", "--seed", "3", "--bots", str(REPO / "bots"))
    run = arena(*args, "--format", "json", cwd=tmp_path, check=True, tmpdir=tmp_path)
    result = json.loads(run.stdout)
    assert result["test"] == "luck-adjusted" and result["verdict"] == "H1 accepted", run.stderr
    assert "on luck-adjusted pair scores" in run.stderr and "; adjusted score " in run.stderr
    adjusted = result["adjusted"]
    assert adjusted["pairs"] == result["pairs"] >= MIN_PAIRS and adjusted["elo_low"] > 0
    with Store(tmp_path / "gauntlet.db") as store:
        games = list(store.games())
        assert len(games) == 2 * result["pairs"]
        measured = []
        for game in games:
            luck = game_luck(game.game, 2, game.options, whole_events(store, game.key), game.seed)
            assert store.luck(game.key) == luck.to_json()
            seat = 0 if game.seats[0].startswith("greedy_bot@") else 1
            measured.append(results.points(game.placements)[seat] - luck.totals[seat])
    assert adjusted["score"] == pytest.approx(statistics.fmean(measured), abs=1e-4)
    pair_scores = [(a + b) / 2 for a, b in zip(measured[::2], measured[1::2])]
    assert adjusted["error"] == pytest.approx(math.sqrt(statistics.pvariance(pair_scores) / len(pair_scores)),
                                              abs=1e-4)
    again = arena(*args, cwd=tmp_path, check=True, tmpdir=tmp_path)
    assert "(stored)" in again.stderr and "games played" not in again.stderr
    assert again.stdout.startswith(f"H1 accepted: greedy_bot pairs {result['pairs']} [")
    assert f"adjusted score {adjusted['score']:.3f} ± {adjusted['error']:.3f} elo " in again.stdout
    assert f"LLR {result['llr']:.2f} (-2.94, 2.94)" in again.stdout


def test_a_bot_against_a_copy_of_itself_does_not_accept_h1(tmp_path):
    random_bots(tmp_path / "bots", ["rand_a", "rand_b"])
    run = arena("gauntlet", "rand_a", "--vs", "rand_b", "--games", "ciclovia", "--sprt", "0,50",
                "--max-pairs", "8", "--jobs", "2", "--format", "json", cwd=tmp_path, check=True, tmpdir=tmp_path)
    result = json.loads(run.stdout)
    assert result["verdict"] in ("inconclusive", "H0 accepted")
    assert result["pairs"] <= 8 and sum(result["pentanomial"].values()) == result["pairs"]
    assert list(result["pentanomial"]) == ["LL", "LD", "DD+WL", "WD", "WW"]  # a pair scoring 1: docs/how-to/gauntlet.md
    assert result["bounds"] == pytest.approx([-2.9444, 2.9444])
    assert {"llr", "elo", "elo_low", "elo_high", "score"} <= set(result)


def test_a_rerun_plays_only_the_missing_pairs(tmp_path):
    random_bots(tmp_path / "bots", ["rand_a", "rand_b", "rand_c"])
    first = arena("gauntlet", "rand_a", "--vs", "rand_b", "--vs", "rand_c", "--games", "slyyde", "--max-pairs", "4",
                  "--jobs", "2", cwd=tmp_path, check=True, tmpdir=tmp_path)
    assert "(8 games played)" in first.stderr and len(_keys(tmp_path)) == 8
    again = arena("gauntlet", "rand_a", "--vs", "rand_b", "--vs", "rand_c", "--games", "slyyde", "--max-pairs", "6",
                  "--jobs", "1", cwd=tmp_path, check=True, tmpdir=tmp_path)
    assert "pairs 4 [" in again.stderr and "(stored)" in again.stderr and "(4 games played)" in again.stderr
    keys = _keys(tmp_path)
    assert len(keys) == len(set(keys)) == 12
    assert all(key.startswith("g/slyyde/rand_a@") for key in keys)
    with closing(sqlite3.connect(tmp_path / "gauntlet.db")) as db:  # the rerun kept the secret key it drew
        assert db.execute("SELECT count(*), max(seed) FROM dice_key").fetchone() == (1, None)


def test_a_pair_with_a_referee_failure_is_skipped_not_played_again(tmp_path):
    """A game the referee could not play (stored as a referee failure) voids
    its pair: not counted, not played again, and the next pairs go on."""
    bots = random_bots(tmp_path / "bots", ["rand_a", "rand_b"])
    specs = {spec.name: spec for spec in discover([bots])}
    failed = Gauntlet(specs["rand_a"], [Matchup(specs["rand_b"], "slyyde", {})], DiceKey.from_seed(1)).pair(1)[0]
    with Store(tmp_path / "gauntlet.db", writer=True) as store:
        store.add_bots(list(specs.values()))
        store.add_game(GameRecord.referee_failure(failed, "its worker died twice"))
    run = arena("gauntlet", "rand_a", "--vs", "rand_b", "--games", "slyyde", "--max-pairs", "3", "--jobs", "1",
                "--format", "json", cwd=tmp_path, check=True, tmpdir=tmp_path)
    assert json.loads(run.stdout)["pairs"] == 2
    keys = _keys(tmp_path)
    assert len(keys) == len(set(keys)) == 6 and failed.key in keys


@pytest.mark.slow
def test_an_interrupted_gauntlet_resumes_without_repeating_a_game(tmp_path):
    random_bots(tmp_path / "bots", ["rand_a", "rand_b"])
    command = [*ARENA, "gauntlet", "rand_a", "--vs", "rand_b", "--games", "slyyde", "--max-pairs", "20",
               "--jobs", "1"]
    process = subprocess.Popen(command, cwd=tmp_path, env=arena_environment(tmp_path),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if (tmp_path / "gauntlet.db").exists() and len(_keys(tmp_path)) >= 6:
            break
    os.kill(process.pid, signal.SIGTERM)
    process.communicate(timeout=30)
    assert process.returncode == 130
    stored = len(_keys(tmp_path))
    assert 6 <= stored < 40
    again = arena(*command[len(ARENA):], cwd=tmp_path, check=True, tmpdir=tmp_path)
    played = sum(int(n) for n in re.findall(r"\((\d+) games played\)", again.stderr))
    assert played == 40 - stored
    keys = _keys(tmp_path)
    assert len(keys) == len(set(keys)) == 40


@pytest.mark.parametrize("args, message", [
    (["nobody", "--vs", "rand_b"], "unknown bot: 'nobody'"),
    (["rand_a", "--vs", "rand_b", "--sprt", "50,0"], "elo0 < elo1"),
    (["rand_a", "--vs", "rand_b", "--sprt", "0,50", "--alpha", "1.5"], "--alpha must lie strictly between 0 and 1"),
    (["rand_a", "--vs", "only_slyyde", "--games", "ciclovia"], "only_slyyde does not play ciclovia"),
    (["rand_a", "--vs", "rand_a"], "cannot also be an opponent"),
    (["rand_a", "--vs", "rand_b", "--luck-adjusted"], "--luck-adjusted is a sequential test: it needs --sprt"),
])
def test_bad_input_is_one_line_and_nothing_is_stored(tmp_path, args, message):
    random_bots(tmp_path / "bots", ["rand_a", "rand_b"])
    source = (REPO / "bots" / "random_bot.py").read_text()
    assert '"games": message["games"]' in source
    python_bot(tmp_path / "bots", "only_slyyde", source.replace('"games": message["games"]', '"games": ["slyyde"]'))
    run = arena("gauntlet", *args, cwd=tmp_path, tmpdir=tmp_path)
    assert run.returncode == 1, run.stderr
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "gauntlet.db").exists()



# A bot that loses every game it is asked to decide in: its every answer is
# an illegal action (a forfeit, placed last). At Ciclovia every seat decides
# (a Slyyde game can end with one seat's moves all forced, never asked).
RESIGNER = '''
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "hello", "name": "resigner", "games": message["games"]}
    elif message["type"] == "decide":
        reply = {"type": "action", "action": "resign"}
    else:
        continue
    print(json.dumps(reply), flush=True)
'''


def test_a_candidate_that_won_or_lost_every_pair_has_no_finite_elo(tmp_path):
    """Issue 27: 24 of 24 pairs won printed "elo +1593" and a score of
    .9999. Now unbounded, in words, in the text, the JSON and the standings'
    pair CSV; the mirror case too."""
    bots = random_bots(tmp_path / "bots", ["rand_a"])
    python_bot(bots, "resigner", RESIGNER)
    won = arena("gauntlet", "rand_a", "--vs", "resigner", "--games", "ciclovia", "--seed", "1", "--max-pairs", "2",
                "--jobs", "2", cwd=tmp_path, check=True, tmpdir=tmp_path)
    assert won.stdout.startswith("done: rand_a pairs 2 [LL 0 LD 0 DD+WL 0 WD 0 WW 2] score 1.000 "
                                 "elo unbounded (won every pair)\n"), won.stdout
    again = arena("gauntlet", "rand_a", "--vs", "resigner", "--games", "ciclovia", "--seed", "1", "--max-pairs", "2",
                  "--format", "json", cwd=tmp_path, check=True, tmpdir=tmp_path)
    result = json.loads(again.stdout)
    assert (result["score"], result["elo"], result["elo_bound"]) == (1.0, None, "won every pair")
    assert (result["elo_low"], result["elo_high"]) == (None, None)
    table = list(csv.DictReader(io.StringIO(arena("standings", "--db", "gauntlet.db", "--format", "pairs-csv",
                                                  cwd=tmp_path, check=True).stdout)))
    by_bot = {row["bot"]: row for row in table}
    assert (by_bot["rand_a"]["elo"], by_bot["rand_a"]["elo_bound"]) == ("", "won every pair")
    assert (by_bot["resigner"]["elo"], by_bot["resigner"]["elo_bound"]) == ("", "lost every pair")
    assert by_bot["rand_a"]["pairs_scoring_2_of_2"] == by_bot["resigner"]["pairs_scoring_0_of_2"] == "2"
    lost = arena("gauntlet", "resigner", "--vs", "rand_a", "--games", "ciclovia", "--seed", "1", "--max-pairs", "1",
                 "--db", "lost.db", "--format", "json", cwd=tmp_path, check=True, tmpdir=tmp_path)
    result = json.loads(lost.stdout)
    assert (result["score"], result["elo"], result["elo_bound"]) == (0.0, None, "lost every pair"), lost.stderr


def test_too_few_pairs_give_no_interval(tmp_path):
    """Issue 27: one pair split 1-1 gave "elo": -0.0 and a zero-width
    interval. Below MIN_PAIRS there is no interval, and the output says why."""
    random_bots(tmp_path / "bots", ["rand_a", "rand_b"])
    run = arena("gauntlet", "rand_a", "--vs", "rand_b", "--games", "slyyde", "--max-pairs", "3", "--jobs", "2",
                "--format", "json", cwd=tmp_path, check=True, tmpdir=tmp_path)
    result = json.loads(run.stdout)
    assert (result["elo_low"], result["elo_high"]) == (None, None)
    assert result["interval_missing"] == f"too few pairs (3 < {MIN_PAIRS})"
    assert "-0.0" not in run.stdout
    text = arena("gauntlet", "rand_a", "--vs", "rand_b", "--games", "slyyde", "--max-pairs", "3",
                 cwd=tmp_path, check=True, tmpdir=tmp_path).stdout
    assert re.search(rf"elo (unbounded \(\w+ every pair\)|[+-]\d+ \(no interval: too few pairs \(3 < {MIN_PAIRS}\)\))$",
                     text.strip()), text
    rows = json.loads(arena("standings", "--db", "gauntlet.db", "--format", "json", cwd=tmp_path, check=True).stdout)
    pair = rows[0]["pairs"][0]
    assert pair["pairs"] == 3 and pair["interval_missing"] == f"too few pairs (3 < {MIN_PAIRS})"
    assert pair["elo_low"] is None and pair["elo_high"] is None and pair["los"] is None
    table = list(csv.DictReader(io.StringIO(arena("standings", "--db", "gauntlet.db", "--format", "pairs-csv",
                                                  cwd=tmp_path, check=True).stdout)))
    assert len(table) == 4 and {row["interval_missing"] for row in table} == {f"too few pairs (3 < {MIN_PAIRS})"}
    assert sum(int(table[0][column]) for column in PAIR_COUNT_COLUMNS) == 3
