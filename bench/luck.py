"""What luck adjustment buys: games needed for the same 95% interval.

Real games through the referee, between real house bot processes (greedy
against random, search on a fixed budget of 12 samples against greedy, as
bench/pods.py sets them up in a scratch folder), per game
and seat count: ``--units`` rounds of every rotation of the seats on one
seed (arena.play.plan.plan_rotations; at two seats a seat-swapped pair), the
first bot in one seat and the second bot in every other. After the games,
the luck of every roll is measured from each record's events
(arena.luck.measure.game_luck, the fitted values of arena/luck/values.py)
and the first bot's result (its points, arena.results) is compared with its
luck-adjusted result (points less luck).

For a mean known to +-m at 95%, a design needs (1.96 s / m)^2 units of
spread s: so games needed, adjusted / raw, is var(adjusted game) /
var(raw game), and adjusted / paired raw is var(adjusted game) /
(k var(raw mean of a unit of k games)). "adj+paired" is the adjusted result
with the pairing too: k var(adjusted unit mean) / var(raw game). Each ratio's
95% interval is a percentile bootstrap over the units (``--resamples``), the
unit being what shares its dice. The means of raw and adjusted results are
printed with their intervals: they should agree (the adjustment has mean zero).

    .venv/bin/python bench/luck.py [--units 40] [--games detour,roundabout] [--players 2,4]
        [--pairings greedy_bot:random_bot,search_bot:greedy_bot] [--move-timeout 0.2] [--jobs 2]
        [--look 0,1]   # the value estimate looking the mover's own decisions ahead: a row each
        [--house]      # where a learned estimate is used (arena/luck/learned.py), a row with the house one too

The "value" column says which estimate a row used: the number of own
decisions looked ahead, "learned" where arena/luck/learned.json has a model
for the game and count (what arena uses there), "house" for the calibrated
house evaluation on the same games (``--house``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ladder import load_bots, play
from pods import house_bots

from arena import results
from arena.errors import ArenaError
from arena.games import GAMES, get_game
from arena.luck.learned import has_model
from arena.luck.measure import game_luck
from arena.luck.values import LOOK, PointValues, point_values, slope_for
from arena.model import BotSpec, DiceKey, GameRecord, Limits
from arena.play.plan import plan_rotations
from arena.stats.joint import Z95

PAIRINGS = "greedy_bot:random_bot,search_bot:greedy_bot"

Unit = list[tuple[float, float]]  # (raw, adjusted) of the first bot, per game of a unit


def ratios(units: list[Unit]) -> tuple[float, float, float]:
    """adjusted / raw, adjusted / paired raw, adjusted paired / raw (module docstring)."""
    raw = [game[0] for unit in units for game in unit]
    adjusted = [game[1] for unit in units for game in unit]
    k = len(units[0])
    raw_units = [statistics.fmean(game[0] for game in unit) for unit in units]
    adjusted_units = [statistics.fmean(game[1] for game in unit) for unit in units]
    raw_var = statistics.variance(raw)
    paired_var = k * statistics.variance(raw_units)
    adjusted_var = statistics.variance(adjusted)
    return (adjusted_var / raw_var if raw_var else math.nan,
            adjusted_var / paired_var if paired_var else math.nan,
            k * statistics.variance(adjusted_units) / raw_var if raw_var else math.nan)


def bootstrap(units: list[Unit], resamples: int, seed: int) -> list[tuple[float, float]]:
    """The 95% percentile interval of each ratio, over units resampled."""
    rng = random.Random(seed)
    draws: list[tuple[float, float, float]] = []
    for _ in range(resamples):
        sample = [units[rng.randrange(len(units))] for _ in units]
        found = ratios(sample)
        if not any(math.isnan(value) for value in found):
            draws.append(found)
    if not draws:
        return [(math.nan, math.nan)] * 3
    intervals = []
    for column in range(3):
        values = sorted(draw[column] for draw in draws)
        intervals.append((values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))]))
    return intervals


def mean_interval(values: list[float]) -> str:
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):.3f}±{half:.3f}"


Estimate = Callable[[str, int], PointValues]  # a game and count to the value estimate a row uses


def estimates(game: str, players: int, look: int, house: bool) -> dict[str, Estimate]:
    """The rows' value estimates for one ``--look``, by the name the "value" column shows."""
    learned = look == LOOK and has_model(game, players)

    def default(game: str, players: int) -> PointValues:
        return point_values(game, players, look=look)

    def calibrated(game: str, players: int) -> PointValues:
        return point_values(game, players, slope=slope_for(game, players), look=look)
    return {"learned" if learned else str(look): default, **({"house": calibrated} if house and learned else {})}


def units_of(records: list[GameRecord], first: BotSpec, estimate: Estimate) -> tuple[list[Unit], float]:
    """The first bot's (raw, adjusted) per game, grouped by unit, and the seconds luck took."""
    by_unit: dict[int, Unit] = {}
    spent = 0.0
    values: dict[tuple[str, int], PointValues] = {}
    for record in sorted(records, key=lambda r: r.job.order):
        job = record.job
        players = len(job.seats)
        if (job.game, players) not in values:
            values[job.game, players] = estimate(job.game, players)
        started = time.perf_counter()
        luck = game_luck(job.game, players, job.options, record.events, job.seed, values[job.game, players])
        spent += time.perf_counter() - started
        seat = job.seats.index(first.bot_id)
        by_unit.setdefault(job.round, []).append((results.points(record.placements)[seat],
                                                  luck.adjusted(record.placements)[seat]))
    return list(by_unit.values()), spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--players", default="2,4", help="seat counts")
    parser.add_argument("--pairings", default=PAIRINGS, help="first:second bot pairs")
    parser.add_argument("--units", type=int, default=40, help="rotations (pairs at 2 seats) per row")
    parser.add_argument("--move-timeout", type=float, default=0.2, help="seconds per decision")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="games at once")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples")
    parser.add_argument("--look", default="0",
                        help="own decisions the value estimate looks ahead (comma-separated: a row each, same games)")
    parser.add_argument("--house", action="store_true",
                        help="where a learned estimate is used, a row with the calibrated house evaluation too")
    args = parser.parse_args()
    try:
        run(args)
    except ArenaError as exc:
        print(f"luck: {exc}", file=sys.stderr)
        sys.exit(1)


def run(args: argparse.Namespace) -> None:
    games = [g.strip() for g in args.games.split(",") if g.strip()] or sorted(GAMES)
    for name in games:
        get_game(name)
    try:
        counts = [int(n) for n in args.players.split(",") if n.strip()]
        args.looks = [int(n) for n in args.look.split(",") if n.strip()]
    except ValueError:
        raise ArenaError(f"--players and --look take comma-separated whole numbers, got "
                         f"{args.players!r} and {args.look!r}") from None
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",") if p.strip()]
    if args.units < 2 or args.jobs < 1 or args.move_timeout <= 0:
        raise ArenaError("--units must be at least 2, --jobs at least 1, --move-timeout positive")
    if any(len(pairing) != 2 for pairing in pairings):
        raise ArenaError(f"--pairings takes first:second pairs, got {args.pairings!r}")
    limits = Limits(move_timeout=args.move_timeout)
    names = sorted({name for pairing in pairings for name in pairing})
    with tempfile.TemporaryDirectory(prefix="arena-bench-luck-") as scratch:
        bots = load_bots([house_bots(Path(scratch))], names, limits)
        measure(args, games, counts, pairings, bots, limits)


def measure(args: argparse.Namespace, games: list[str], counts: list[int], pairings: list[tuple[str, ...]],
            bots: dict[str, BotSpec], limits: Limits) -> None:
    print(f"# python bench/luck.py {' '.join(sys.argv[1:])}")
    print(f"# {args.units} units per row, move timeout {args.move_timeout:g} s, seed {args.seed}, "
          f"{args.jobs} jobs, {os.cpu_count()} cores, "
          f"{args.resamples} bootstrap resamples (percentile intervals over units)\n")
    print(f"{'game':11} {'k':>2} {'first vs second':24} {'value':>7} {'games':>5} {'raw mean':>12} {'adjusted':>12} "
          f"{'adj/raw [95%]':>22} {'adj/paired [95%]':>22} {'adj+paired/raw [95%]':>22} {'luck s/game':>11}")
    for game in games:
        for players in counts:
            if not get_game(game).min_players <= players <= get_game(game).max_players:
                continue
            for first_name, second_name in pairings:
                first, second = bots[first_name], bots[second_name]
                specs = [first] + [second] * (players - 1)
                jobs = plan_rotations(specs, game, args.units, DiceKey.from_seed(args.seed))
                records = play(jobs, [first, second], limits, args.jobs, f"{game} {players}p {first_name}")
                for look in args.looks:
                    for label, estimate in estimates(game, players, look, args.house).items():
                        print_row(game, players, f"{first_name} vs {second_name}", label,
                                  *units_of(records, first, estimate), args)


def print_row(game: str, players: int, pairing: str, value: str, units: list[Unit], spent: float,
              args: argparse.Namespace) -> None:
    found = ratios(units)
    intervals = bootstrap(units, args.resamples, args.seed)
    raw = [result[0] for unit in units for result in unit]
    adjusted = [result[1] for unit in units for result in unit]
    cells = [f"{value:6.2f} [{low:.2f}, {high:.2f}]" for value, (low, high) in zip(found, intervals)]
    print(f"{game:11} {players:2} {pairing:24} {value:>7} {len(raw):5} "
          f"{mean_interval(raw):>12} {mean_interval(adjusted):>12} "
          f"{cells[0]:>22} {cells[1]:>22} {cells[2]:>22} {spent / len(raw):11.3f}", flush=True)

if __name__ == "__main__":
    main()
