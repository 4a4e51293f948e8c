"""How many games the league's matchmaking needs, against a round robin, for
the same standings: simulated outcomes from known strengths, the real
scheduler (arena.stats.matchmaking) and rating code (arena.stats.posterior).

    nice -n 19 .venv/bin/python bench/league.py [--bots 40] [--spread 400] [--fields 12] [--rounds 2]

Each field draws ``--bots`` true ratings (normal, standard deviation
``--spread`` Elo: a class or a club, from random movers to careful searchers).
At each seat count (2 and 4):

* the **round robin** plays ``--rounds`` rounds as ``arena tournament`` plans
  them (``plan_round_robin``'s seat-swapped pairs; ``plan_pods``'s balanced
  pods, every rotation of a pod's seats) and is rated with the league's
  posterior (the same prior), giving its games, its mean 95% interval width
  and the Spearman rank correlation of the posterior means with the truth;
* the **league** starts from nothing (every bot new: its provisional burst
  first) and plays the units ``choose`` picks, the posterior refitted after
  each, until its mean width and its rank correlation are both at least as
  good as the round robin's (or it has played twice the round robin's games).

Each game's placement is drawn from Plackett–Luce with the true ratings (a
Gumbel draw per seat); a unit's games are drawn independently (the real
ones share their dice, which only helps). Printed per seat count: the mean
games of both and their ratio, and the coverage of the true ratings
(centred: each rating less the field's mean, the interval from the
covariance of that difference) by the league's final 95% intervals, with its
Monte Carlo standard error, since an adaptive design can bias estimates;
then the choice's time at 100,000 stored games. The last line is the ratio
over both seat counts, ``league/round-robin games: 0.31``, for a script.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from arena.model import BotSpec, DiceKey  # noqa: E402
from arena.play.plan import Entrant, plan_pods, plan_round_robin  # noqa: E402
from arena.stats import matchmaking, posterior  # noqa: E402
from arena.stats.pairs import Z95  # noqa: E402

GAME = "detour"


def placement(rng: np.random.Generator, truth: np.ndarray, seats: list[int]) -> list[int]:
    """Plackett–Luce with the true ratings: a Gumbel draw per seat, the
    highest first."""
    noise = rng.gumbel(size=len(seats))
    score = math.log(10) / 400 * truth[seats] + noise
    order = np.argsort(-score)
    places = [0] * len(seats)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def names(bots: int) -> list[str]:
    return [f"bot{k:02d}" for k in range(bots)]


def play_unit(rng: np.random.Generator, truth: np.ndarray, versions: list[str], outcomes: posterior.Outcomes,
              pod: tuple[str, ...]) -> int:
    """Every rotation of the pod's seats, each game drawn: the games played."""
    index = [versions.index(version) for version in pod]
    for turn in range(len(pod)):
        seats = index[turn:] + index[:turn]
        outcomes.add([versions[k] for k in seats], placement(rng, truth, seats))
    return len(pod)


def standing(fitted: posterior.Posterior, truth: np.ndarray, versions: list[str]) -> tuple[float, float]:
    """Mean 95% interval width and Spearman correlation with the truth."""
    order = [versions.index(version) for version in fitted.versions]
    true = truth[order]
    ranks = lambda values: np.argsort(np.argsort(values))  # noqa: E731 (continuous values: no ties)
    rho = float(np.corrcoef(ranks(fitted.mean), ranks(true))[0, 1])
    return float(fitted.widths().mean()), rho


def coverage(fitted: posterior.Posterior, truth: np.ndarray, versions: list[str]) -> float:
    """Share of true centred ratings inside their centred 95% intervals."""
    order = [versions.index(version) for version in fitted.versions]
    true = truth[order] - truth[order].mean()
    mean = fitted.mean - fitted.mean.mean()
    sigma = fitted.covariance
    n = len(mean)
    centre = np.eye(n) - np.full((n, n), 1.0 / n)
    variance = np.diag(centre @ sigma @ centre)
    return float(np.mean(np.abs(mean - true) <= Z95 * np.sqrt(variance)))


def information_floor(truth: np.ndarray) -> float:
    """The round robin's mean information per pair of seats, as a share of
    the most one can give (p (1 - p) at p = 1/2): no schedule of the same
    games can need fewer than this share of its games for the same total
    information, which is what the intervals' widths come from."""
    difference = truth[:, None] - truth[None, :]
    p = 1.0 / (1.0 + 10.0 ** (-difference[np.triu_indices(len(truth), 1)] / 400.0))
    return float(np.mean(p * (1 - p)) / 0.25)


def round_robin(rng: np.random.Generator, truth: np.ndarray, seats: int, rounds: int) -> tuple[int, float, float]:
    versions = names(len(truth))
    entrants = [Entrant(BotSpec(name, ("true",), name, name * 4), frozenset([GAME])) for name in versions]
    key = DiceKey.from_seed(int(rng.integers(1 << 30)))
    if seats == 2:
        jobs = plan_round_robin(entrants, [GAME], rounds, key)
    else:
        jobs, _ = plan_pods(entrants, [GAME], seats, rounds, key)
    outcomes = posterior.Outcomes()
    for version in versions:
        outcomes.version(version)
    by_id = {entrant.spec.bot_id: entrant.spec.name for entrant in entrants}
    for job in jobs:
        seated = [versions.index(by_id[bot]) for bot in job.seats]
        outcomes.add([versions[k] for k in seated], placement(rng, truth, seated))
    width, rho = standing(posterior.fit_to_field(outcomes), truth, versions)
    return len(jobs), width, rho


def league(rng: np.random.Generator, truth: np.ndarray, seats: int, width: float, rho: float,
           budget: int) -> tuple[int, posterior.Posterior]:
    versions = names(len(truth))
    outcomes = posterior.Outcomes()
    for version in versions:
        outcomes.version(version)
    fitted = posterior.fit_to_field(outcomes)
    units: dict[str, int] = {}
    waited = dict.fromkeys(versions, 0)
    games = 0
    while games < budget:
        table = matchmaking.Table(GAME, seats, fitted, tuple(versions), units)
        choice = matchmaking.choose([table], waited)
        assert choice is not None
        games += play_unit(rng, truth, versions, outcomes, choice.versions)
        for version in versions:
            waited[version] += 1
        for version in choice.versions:
            units[version] = units.get(version, 0) + 1
            waited[version] = 0
        fitted = posterior.fit_to_field(outcomes, start=fitted)
        now_width, now_rho = standing(fitted, truth, versions)
        if now_width <= width and now_rho >= rho:
            break
    return games, fitted


def choice_time(rng: np.random.Generator, bots: int, seats: int, stored: int) -> tuple[float, float]:
    """Milliseconds to refit (warm) and to choose, with ``stored`` games in the table."""
    versions = names(bots)
    truth = rng.normal(0, 300, bots)
    outcomes = posterior.Outcomes()
    for _ in range(stored // seats):
        pod = [int(k) for k in rng.choice(bots, seats, replace=False)]
        outcomes.add([versions[k] for k in pod], placement(rng, truth, pod))
    fitted = posterior.fit_to_field(outcomes)
    pod = [int(k) for k in rng.choice(bots, seats, replace=False)]
    outcomes.add([versions[k] for k in pod], placement(rng, truth, pod))
    started = time.perf_counter()
    fitted = posterior.fit_to_field(outcomes, start=fitted)
    refit = time.perf_counter() - started
    table = matchmaking.Table(GAME, seats, fitted, tuple(versions), dict.fromkeys(versions, 100))
    started = time.perf_counter()
    repeats = 20
    for _ in range(repeats):
        matchmaking.choose([table], dict.fromkeys(versions, 0))
    return refit * 1000, (time.perf_counter() - started) / repeats * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=40)
    parser.add_argument("--spread", type=float, default=400.0)
    parser.add_argument("--fields", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stored", type=int, default=100_000)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    league_games, robin_games = 0, 0
    for seats in (2, 4):
        robin, played, covered, floors = [], [], [], []
        started = time.perf_counter()
        for _ in range(args.fields):
            truth = rng.normal(0.0, args.spread, args.bots)
            games, width, rho = round_robin(rng, truth, seats, args.rounds)
            used, fitted = league(rng, truth, seats, width, rho, 2 * games)
            robin.append(games)
            floors.append(information_floor(truth))
            played.append(used)
            covered.append(coverage(fitted, truth, names(args.bots)))
        ratio = sum(played) / sum(robin)
        league_games += sum(played)
        robin_games += sum(robin)
        error = statistics.stdev(covered) / math.sqrt(len(covered)) if len(covered) > 1 else float("nan")
        print(f"{seats} seats, {args.bots} bots, spread {args.spread:g} Elo, {args.fields} fields: round robin "
              f"{statistics.mean(robin):.0f} games ({args.rounds} rounds), league {statistics.mean(played):.0f} "
              f"games for the same mean width and rank correlation: ratio {ratio:.2f} (the information floor: "
              f"{statistics.mean(floors):.2f}); league's 95% intervals cover the truth "
              f"{statistics.mean(covered):.3f} ± {error:.3f} ({time.perf_counter() - started:.0f} s)")
    for seats in (2, 4):
        refit, choose = choice_time(rng, args.bots, seats, args.stored)
        print(f"at {args.stored:,} stored games, {seats} seats: refit after a game {refit:.1f} ms, "
              f"the choice of the next unit {choose:.2f} ms")
    print(f"league/round-robin games: {league_games / robin_games:.2f}")


if __name__ == "__main__":
    main()
