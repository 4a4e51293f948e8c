"""Do the joint ratings' 95% intervals hold 95% of the time? Simulated
tournaments with known strengths, at 2, 3 and 4 seats and all together.

    nice -n 19 .venv/bin/python bench/ratings_coverage.py [--tournaments 200] [--bots 8] [--rounds 10]

Each tournament draws ``--bots`` true ratings (normal, standard deviation
``--spread`` Elo) and plays ``--rounds`` rounds at every seat count, planned
as arena plans them (``plan_round_robin``'s seat-swapped pairs for two
seats, ``plan_pods``'s pods for three and four, every rotation of a pod's
seats). Each game's placement is drawn from Plackett–Luce with the true
ratings (a Gumbel draw per seat; with ``--ties``, neighbouring places are
then shared at that rate), independently of the others (a pod's real games
share their dice; that correlation is not simulated). Each
seat count's table, and the ``overall`` table of all three together, is
fitted as arena fits it now (``JointTables.fit``: the Plackett–Luce
posterior over whole placements, Bradley–Terry at two seats, with the
prior's virtual draws fitted to the field, :mod:`arena.stats.joint`).

It prints, per table: coverage of the true standing (the rating less the
field's mean) by each bot's 95% interval, with its Monte Carlo standard
error (from the spread of the per-tournament coverage, since one
tournament's bots share their errors); coverage of every true difference
between two bots by the interval from the covariance (what the joint LOS
rests on); the root mean square error of the standings; and the mean
prior weight the fit chose. Every bot is rated, so no tournament is left
out (a bot that won or lost every game has a finite posterior rating).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from arena.model import BotSpec, DiceKey, StoredGame, Termination  # noqa: E402
from arena.play.plan import Entrant, plan_pods, plan_round_robin  # noqa: E402
from arena.stats.joint import Fitted, JointTables  # noqa: E402
from arena.stats.pairs import Z95  # noqa: E402
from arena.stats.tables import OVERALL, table_name  # noqa: E402

GAME = "detour"
C = math.log(10.0) / 400.0


def placements(true: dict[str, float], seats: tuple[str, ...], ties: float,
               chooser: random.Random) -> tuple[int, ...]:
    """A Plackett–Luce draw: sorting ``C r + Gumbel`` gives each order with
    its Plackett–Luce probability. With ``ties``, each two neighbours in
    that order then share their place with that probability (competition
    ranking), whatever their strengths."""
    keys = [C * true[bot] - math.log(-math.log(chooser.random() or 1e-300)) for bot in seats]
    order = sorted(range(len(seats)), key=lambda seat: -keys[seat])
    places = [0] * len(seats)
    for rank, seat in enumerate(order):
        tied = rank and chooser.random() < ties
        places[seat] = places[order[rank - 1]] if tied else rank + 1
    return tuple(places)


def tournament(true: dict[str, float], rounds: int, seed: int, ties: float,
               chooser: random.Random) -> list[StoredGame]:
    entrants = [Entrant(BotSpec(name, ("true",), name, f"{name:0<12}"), frozenset({GAME})) for name in true]
    key = DiceKey.from_seed(seed)
    jobs = plan_round_robin(entrants, [GAME], rounds, key)
    for players in (3, 4):
        jobs += plan_pods(entrants, [GAME], players, rounds, key)[0]
    names = {e.spec.bot_id: e.spec.name for e in entrants}
    games = []
    for job in jobs:
        seats = tuple(names[bot] for bot in job.seats)
        games.append(StoredGame(job.key, GAME, job.round, job.order, job.seed, seats, {},
                                placements(true, seats, ties, chooser), Termination.NORMAL, (), None, 0, 0.0,
                                (None,) * len(seats), 0.0))
    return games


def measure(fitted: Fitted, true: dict[str, float]) -> tuple[float, float, float]:
    """Coverage of the standings, of the differences, and the squared error
    of the standings summed over bots."""
    mean = statistics.fmean(true.values())
    centre = statistics.fmean(fitted[bot].rating for bot in true)
    standing = {bot: fitted[bot].rating - centre for bot in true}
    covered = sum(abs(standing[bot] - (true[bot] - mean)) <= fitted[bot].error for bot in true) / len(true)
    pairs = list(itertools.combinations(true, 2))
    hits = 0
    for a, b in pairs:
        variance = fitted.covariance[a, a] + fitted.covariance[b, b] - 2 * fitted.covariance[a, b]
        estimate = fitted[a].rating - fitted[b].rating
        hits += abs(estimate - (true[a] - true[b])) <= Z95 * math.sqrt(max(variance, 0.0))
    squared = sum((standing[bot] - (true[bot] - mean)) ** 2 for bot in true)
    return covered, hits / len(pairs), squared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--spread", type=float, default=100.0, help="standard deviation of the true ratings (Elo)")
    parser.add_argument("--ties", type=float, default=0.0,
                        help="chance that two neighbouring places are shared (the fit averages a tie's orders)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chooser = random.Random(args.seed)
    names = [f"b{k:02}" for k in range(args.bots)]
    tables = [table_name(GAME, players) for players in (2, 3, 4)] + [OVERALL]
    found: dict[str, list[tuple[float, float, float]]] = {}
    priors: dict[str, list[float]] = {}
    games_per_table: dict[str, int] = {}
    started = time.monotonic()
    for number in range(args.tournaments):
        true = {name: chooser.gauss(0.0, args.spread) for name in names}
        joint = JointTables(tournament(true, args.rounds, args.seed * 100_003 + number, args.ties, chooser))
        for name, placement_table in joint.placements.items():
            games_per_table[name] = sum(placement_table.games.values())
        fitted = joint.fit()
        for name in tables:
            found.setdefault(name, []).append(measure(fitted[name], true))
            priors.setdefault(name, []).append(fitted[name].prior_draws)
    print(f"{args.tournaments} tournaments of {args.bots} bots, true ratings N(0, {args.spread:g}), "
          f"{args.rounds} rounds at each seat count, ties {args.ties:g}; {time.monotonic() - started:.0f} s")
    print(f"{'table':14} {'games':>6} {'coverage':>9} {'± MC se':>8} {'differences':>12} {'± MC se':>8} "
          f"{'RMSE':>6} {'prior draws':>12}")
    for name in tables:
        rows = found[name]
        covered = [row[0] for row in rows]
        differences = [row[1] for row in rows]
        rmse = math.sqrt(sum(row[2] for row in rows) / (len(rows) * args.bots))
        print(f"{name:14} {games_per_table[name]:6} {statistics.fmean(covered):9.3f} {_se(covered):8.3f} "
              f"{statistics.fmean(differences):12.3f} {_se(differences):8.3f} {rmse:6.1f} "
              f"{statistics.fmean(priors[name]):12.2f}")


def _se(values: list[float]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")


if __name__ == "__main__":
    main()
