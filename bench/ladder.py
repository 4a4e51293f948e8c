"""The strength ladder of the house bots, and what duplicate dice buy.

Everything is played through the real referee: real bot processes from the
bots folder, seat-swapped pairs planned by ``arena.play.plan.plan_round_robin``
(one seed per pair, each bot in each seat once, so both meet the same dice),
run in parallel by ``arena.play.executors.LocalExecutor``.

Ladder: per game, every pair of the ladder's bots (random_bot, greedy_bot,
search_bot by default) plays ``--pairs`` seat-swapped pairs; the table gives
the higher bot's score (wins plus half the draws, forfeits counted as losses)
with a 95% interval computed over pairs, the pair being the unit of
independent luck. The issue's targets are checked: search beats greedy by
at least 65%, greedy beats random by at least 70%.

Pods (``--players 3,4``): per game and seat count, the ladder's bots in
pods of that many seats (at four seats with three bots, the weakest sits
twice, as two processes), every rotation of the seats on one seed a round
(``arena.play.plan.plan_rotations``, the pods of a tournament). The table
gives each bot's mean place (1 is first; ties share the better place, as
arena.results ranks them) with a 95% interval over rounds, and each step
of the ladder: how many rounds the stronger bot placed better on average
than the weaker, worse, or level, with the exact one-sided sign test over
the rounds that were not level (a round's rotations share their dice, so
the round is the unit of independent luck). The issue's target: every step
significant at p < 0.01 with no forfeit on time.

Evidence where luck rules (``--deep``): the search bot with a much longer
move time, against random and against greedy (and greedy against random on
the same seeds), shows the best score the game allows; the section ends with
the score against random that beating greedy by the target would take if
strengths add up as Elo differences.

Duplicate dice: for one pair of bots per game, the same number of games is
played twice, once as seat-swapped pairs on one seed and once with every
game on its own seed (seats still alternating). From each design's own
spread, the number of games needed for a 95% interval of +-5% on the score,
and how sure the saving is (spreads estimated from a finite number of pairs).

    python bench/ladder.py --pairs 50 --move-timeout 0.25 --jobs 2
    python bench/ladder.py --games slyyde --deep slyyde --deep-timeout 2 --deep-pairs 100
    python bench/ladder.py --skip-ladder --duplicate-pairs 150
    python bench/ladder.py --skip-ladder --players 3,4 --rounds 100 --move-timeout 0.2
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from arena.bots.discovery import discover
from arena.errors import ArenaError
from arena.games import GAMES, get_game
from arena.games.dice import stream_seed
from arena.model import FORFEITS, BotSpec, DiceKey, GameRecord, Job, Limits
from arena.play.executors import LocalExecutor
from arena.play.plan import plan_rotations, plan_round_robin
from arena.play.probe import probe_bots
from arena.stats.joint import Z95
from arena.stats.pairs import binomial_tail

REPO = Path(__file__).resolve().parent.parent
LADDER = ("random_bot", "greedy_bot", "search_bot")
TARGETS = {("search_bot", "greedy_bot"): 0.65, ("greedy_bot", "random_bot"): 0.70}
# The pair whose spread the duplicate-dice measurement uses, per game: a pair
# whose games are not all one-sided (a pair that always wins needs no games).
DUPLICATE_PAIRS = {"slyyde": ("greedy_bot", "random_bot"), "detour": ("greedy_bot", "random_bot"),
                   "ciclovia": ("search_bot", "greedy_bot"),
                   "roundabout": ("search_bot", "greedy_bot")}
MARGIN = 0.05
POD_SIGNIFICANCE = 0.01


@dataclass
class PairResult:
    """A's results against B at one game: the score of every pair of games."""

    a: str
    b: str
    game: str
    pairs: dict[str, list[float]] = field(default_factory=dict)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: dict[str, int] = field(default_factory=dict)
    decisions: list[int] = field(default_factory=list)

    def add(self, pair: str, record: GameRecord, a_id: str) -> None:
        seat = record.job.seats.index(a_id)
        if not record.winners:
            points, self.draws = 0.5, self.draws + 1
        elif seat in record.winners:
            points, self.wins = 1.0 / len(record.winners), self.wins + 1
        else:
            points, self.losses = 0.0, self.losses + 1
        if record.termination in FORFEITS:
            loser = record.job.seats[record.forfeit_seat].partition("@")[0]
            key = f"{loser}:{record.termination.value}"
            self.forfeits[key] = self.forfeits.get(key, 0) + 1
        self.pairs.setdefault(pair, []).append(points)
        self.decisions.append(record.decisions)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def pair_means(self) -> list[float]:
        return [sum(points) / len(points) for points in self.pairs.values()]

    def score(self) -> float:
        means = self.pair_means()
        return sum(means) / len(means) if means else math.nan

    def interval(self) -> tuple[float, float]:
        """95% interval of the score from the spread of the pair scores,
        with one pseudo-pair won and one lost added (as Agresti-Coull adds
        pseudo-observations) so that a clean sweep still gets a width."""
        means = self.pair_means() + [0.0, 1.0]
        centre = statistics.fmean(means)
        half = Z95 * statistics.stdev(means) / math.sqrt(len(means))
        return max(0.0, centre - half), min(1.0, centre + half)


def games_needed(unit_scores: list[float], games_per_unit: int) -> tuple[int, float]:
    """Games for a 95% interval of +-MARGIN on the mean of units of
    ``games_per_unit`` games, from the units' spread; and that spread."""
    spread = statistics.stdev(unit_scores)
    units = (Z95 * spread / MARGIN) ** 2
    return math.ceil(units) * games_per_unit, spread


@dataclass
class PodResult:
    """One game at one seat count: each round's places of every bot (a
    bot seated twice counts both seats), and the forfeits by bot and kind."""

    game: str
    players: int
    places: dict[str, dict[int, list[int]]] = field(default_factory=dict)
    forfeits: dict[str, int] = field(default_factory=dict)
    decisions: list[int] = field(default_factory=list)

    def add(self, record: GameRecord, name_of: dict[str, str]) -> None:
        for seat, bot_id in enumerate(record.job.seats):
            rounds = self.places.setdefault(name_of[bot_id], {})
            rounds.setdefault(record.job.round, []).append(record.placements[seat])
        for forfeit in record.forfeits:
            key = f"{name_of[record.job.seats[forfeit.seat]]}:{forfeit.termination.value}"
            self.forfeits[key] = self.forfeits.get(key, 0) + 1
        self.decisions.append(record.decisions)

    def round_means(self, name: str) -> dict[int, float]:
        return {number: statistics.fmean(places) for number, places in self.places[name].items()}

    def mean_place(self, name: str) -> tuple[float, float, float]:
        """The mean place and its 95% interval over rounds."""
        means = list(self.round_means(name).values())
        centre = statistics.fmean(means)
        half = Z95 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else math.inf
        return centre, centre - half, centre + half

    def step(self, stronger: str, weaker: str) -> tuple[int, int, int, float]:
        """Rounds where ``stronger`` placed better on average, worse, level;
        and the one-sided sign test's p of that many better or more."""
        a, b = self.round_means(stronger), self.round_means(weaker)
        better = sum(a[n] < b[n] for n in a)
        worse = sum(a[n] > b[n] for n in a)
        return better, worse, len(a) - better - worse, binomial_tail(better, better + worse)


# ---------------------------------------------------------------- playing

def load_bots(bot_dirs: list[Path], names: list[str], limits: Limits) -> dict[str, BotSpec]:
    found = {spec.name: spec for spec in discover(bot_dirs)}
    missing = [name for name in names if name not in found]
    if missing:
        raise ArenaError(f"unknown bot: {missing[0]!r} (available: {', '.join(sorted(found))})")
    probes = probe_bots([found[name] for name in names], limits)
    for probe in probes:
        if probe.problem:
            raise ArenaError(f"bot {probe.spec.name} is unusable: {probe.problem}")
    return {name: found[name] for name in names}


def slower(spec: BotSpec, name: str, arguments: list[str]) -> BotSpec:
    """The same bot under another name, with extra command-line arguments.
    Its version stays its files' hash, which the referee checks again before
    every process starts (the name alone makes it another bot_id)."""
    return BotSpec(name, (*spec.command, *arguments), spec.path, spec.content_hash)


def play(jobs: list[Job], specs: list[BotSpec], limits: Limits, workers: int,
         label: str) -> list[GameRecord]:
    """Play jobs, one seat-swapped pair per match (fresh processes per pair),
    showing progress on stderr."""
    by_id = {spec.bot_id: spec for spec in specs}
    matches: dict[tuple, list[Job]] = {}
    for job in jobs:
        matches.setdefault((job.game, job.seed, frozenset(job.seats), job.round), []).append(job)
    records = []
    started = time.monotonic()
    for record in LocalExecutor(workers).run(list(matches.values()), by_id, limits, None):
        records.append(record)
        done = len(records)
        rate = (time.monotonic() - started) / done
        print(f"\r{label}: {done}/{len(jobs)} games, {rate * (len(jobs) - done) / 60:.1f} min left ",
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return records


def ladder_jobs(specs: list[BotSpec], game: str, pairs: int, seed: int) -> list[Job]:
    from arena.play.plan import Entrant

    entrants = [Entrant(spec, frozenset([game])) for spec in specs]
    return plan_round_robin(entrants, [game], pairs, DiceKey.from_seed(seed))


def independent_jobs(a: BotSpec, b: BotSpec, game: str, pairs: int, seed: int) -> list[Job]:
    """Pairs of games with each game on its own seed; A sits first in one
    game of each pair and second in the other."""
    jobs = []
    for number in range(pairs):
        for seats in ((a, b), (b, a)):
            ids = tuple(spec.bot_id for spec in seats)
            game_seed = stream_seed(seed, f"independent/{game}/{number}/{ids[0]}")
            jobs.append(Job(f"independent{seed}/{game}/{number}/{ids[0]}/{ids[1]}", game, ids,
                            game_seed, number, len(jobs)))
    return jobs


def results(records: list[GameRecord], a: BotSpec, b: BotSpec, game: str,
            pair_of=lambda job: (job.seed, job.round)) -> PairResult:
    result = PairResult(a.name, b.name, game)
    for record in records:
        if record.job.game == game and set(record.job.seats) == {a.bot_id, b.bot_id}:
            result.add(str(pair_of(record.job)), record, a.bot_id)
    return result


# ---------------------------------------------------------------- printing

def print_row(result: PairResult) -> None:
    low, high = result.interval()
    forfeits = ", ".join(f"{k} {v}" for k, v in sorted(result.forfeits.items())) or "0"
    target = TARGETS.get((result.a, result.b))
    verdict = ""
    if target is not None:
        verdict = (f"target {target:.0%}: " + ("met" if low >= target else
                   "met by the estimate" if result.score() >= target else "NOT met"))
    print(f"  {result.a + ' vs ' + result.b:28} {result.score():6.3f}  [{low:.3f}, {high:.3f}]  "
          f"{result.wins:4}-{result.draws}-{result.losses:<4} {statistics.fmean(result.decisions):8.1f}"
          f"  {forfeits:10} {verdict}")


def print_header(title: str) -> None:
    print(title)
    print(f"  {'pair (score of the first)':28} {'score':>6}  {'95% interval':14}  {'W-D-L':10}"
          f" {'dec/game':>8}  {'forfeits':10} ")


# ---------------------------------------------------------------- main

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=Path, default=REPO / "bots", help="bots folder")
    parser.add_argument("--ladder", default=",".join(LADDER), help="bots, weakest first")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--pairs", type=int, default=30, help="seat-swapped pairs per bot pair")
    parser.add_argument("--move-timeout", type=float, default=0.25, help="seconds per decision")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu-seconds", type=int, default=Limits.cpu_seconds,
                        help="CPU limit per bot process")
    parser.add_argument("--deep", default="", help="games for the deep-search evidence")
    parser.add_argument("--deep-timeout", type=float, default=2.0,
                        help="move time of the deep search bot")
    parser.add_argument("--deep-pairs", type=int, default=100)
    parser.add_argument("--duplicate-pairs", type=int, default=0,
                        help="pairs per design for the duplicate-dice measurement (0: skip)")
    parser.add_argument("--duplicate-timeout", type=float, default=0.1,
                        help="move time for the duplicate-dice measurement")
    parser.add_argument("--skip-ladder", action="store_true")
    parser.add_argument("--players", default="", help="seat counts of the pod ladder, e.g. 3,4 (default: none)")
    parser.add_argument("--rounds", type=int, default=100, help="rounds (rotations on one seed) per pod row")
    args = parser.parse_args()
    try:
        run(args)
    except ArenaError as exc:
        print(f"ladder: {exc}", file=sys.stderr)
        sys.exit(1)


def run(args: argparse.Namespace) -> None:
    games = [g.strip() for g in args.games.split(",") if g.strip()] or sorted(GAMES)
    for name in games + [g for g in args.deep.split(",") if g]:
        get_game(name)
    for option in ("pairs", "jobs", "deep_pairs", "rounds"):
        if getattr(args, option) < 1:
            raise ArenaError(f"--{option.replace('_', '-')} must be at least 1")
    if min(args.move_timeout, args.deep_timeout, args.duplicate_timeout) <= 0:
        raise ArenaError("move times must be positive")
    names = [n.strip() for n in args.ladder.split(",") if n.strip()]
    try:
        seat_counts = [int(n) for n in args.players.split(",") if n.strip()]
    except ValueError:
        raise ArenaError(f"--players takes seat counts such as 3,4, not {args.players!r}") from None
    for count in seat_counts:
        for game in games:
            known = get_game(game)
            if not known.min_players <= count <= known.max_players:
                raise ArenaError(f"{game} does not seat {count} players")
    limits = Limits(move_timeout=args.move_timeout, cpu_seconds=args.cpu_seconds)
    if args.deep and not set(LADDER) <= set(names):
        raise ArenaError(f"--deep needs {', '.join(LADDER)} in the ladder")
    bots = load_bots([args.bots], names, limits)
    print(f"# python bench/ladder.py {' '.join(sys.argv[1:])}")
    print(f"# move timeout {args.move_timeout:g} s, seed {args.seed}, {args.jobs} jobs, "
          f"{os.cpu_count()} cores\n")
    if not args.skip_ladder:
        ladder(args, games, names, bots, limits)
    for count in seat_counts:
        pods(args, games, names, bots, limits, count)
    deep = [g for g in args.deep.split(",") if g]
    if deep:
        evidence(args, deep, bots)
    if args.duplicate_pairs:
        duplicate(args, games, bots, Limits(move_timeout=args.duplicate_timeout,
                                            cpu_seconds=args.cpu_seconds))


def ladder(args, games: list[str], names: list[str], bots: dict[str, BotSpec], limits: Limits) -> None:
    specs = [bots[name] for name in names]
    for game in games:
        started = time.monotonic()
        records = play(ladder_jobs(specs, game, args.pairs, args.seed), specs, limits, args.jobs,
                       f"ladder {game}")
        print_header(f"{game}: {args.pairs} seat-swapped pairs per row "
                     f"({time.monotonic() - started:.0f} s)")
        for high in reversed(range(len(specs))):
            for low in reversed(range(high)):
                print_row(results(records, specs[high], specs[low], game))
        print(flush=True)


def pod_seats(specs: list[BotSpec], players: int) -> list[BotSpec]:
    """The ladder's bots for a pod of ``players`` seats: the weakest first
    fill the seats the ladder lacks, each copy its own process and name."""
    seats = list(specs)
    for copy in range(players - len(specs)):
        weakest = specs[copy % len(specs)]
        seats.append(slower(weakest, f"{weakest.name}#{copy + 2}", []))
    return seats[:players] if players < len(specs) else seats


def pods(args, games: list[str], names: list[str], bots: dict[str, BotSpec], limits: Limits,
         players: int) -> None:
    specs = [bots[name] for name in names]
    if players < len(specs):
        raise ArenaError(f"{players} seats cannot hold the ladder's {len(specs)} bots")
    seats = pod_seats(specs, players)
    name_of = {spec.bot_id: spec.name.partition("#")[0] for spec in seats}
    for game in games:
        started = time.monotonic()
        jobs = plan_rotations(seats, game, args.rounds, DiceKey.from_seed(args.seed))
        result = PodResult(game, players)
        for record in play(jobs, seats, limits, args.jobs, f"pods {game} x{players}"):
            result.add(record, name_of)
        forfeits = ", ".join(f"{k} {v}" for k, v in sorted(result.forfeits.items())) or "none"
        print(f"{game} at {players} seats: {args.rounds} rounds of {players} rotations "
              f"({time.monotonic() - started:.0f} s, {statistics.fmean(result.decisions):.1f} decisions "
              f"a game, forfeits: {forfeits})")
        for name in reversed(names):
            centre, low, high = result.mean_place(name)
            print(f"  {name:28} mean place {centre:.3f}  [{low:.3f}, {high:.3f}]")
        for stronger, weaker in zip(reversed(names), list(reversed(names))[1:]):
            better, worse, level, p = result.step(stronger, weaker)
            verdict = "significant" if p < POD_SIGNIFICANCE else "NOT significant"
            print(f"  {stronger + ' over ' + weaker:28} rounds better {better}, worse {worse}, "
                  f"level {level}: sign test p = {p:.2g} ({verdict} at {POD_SIGNIFICANCE:g})")
        print(flush=True)


def evidence(args, games: list[str], bots: dict[str, BotSpec]) -> None:
    """The search bot with a much longer move time against random and
    greedy, and greedy against random on the same seeds; then what the
    search-over-greedy target would need against random if strengths add up
    as Elo has them, beside what the deep search reaches."""
    limits = Limits(move_timeout=args.deep_timeout, cpu_seconds=args.cpu_seconds)
    deep = slower(bots["search_bot"], "deep_search", ["--time-share", "0.85", "--name", "deep_search"])
    random_bot, greedy = bots["random_bot"], bots["greedy_bot"]
    target = TARGETS[("search_bot", "greedy_bot")]
    for game in games:
        started = time.monotonic()
        jobs = []
        for pairing in ([deep, random_bot], [deep, greedy], [greedy, random_bot]):
            jobs += ladder_jobs(pairing, game, args.deep_pairs, args.seed + 1)
        records = play(jobs, [deep, random_bot, greedy], limits, args.jobs, f"deep {game}")
        print_header(f"{game}, deep search at {args.deep_timeout:g} s a move: {args.deep_pairs} "
                     f"seat-swapped pairs per row ({time.monotonic() - started:.0f} s)")
        rows = [results(records, deep, random_bot, game), results(records, deep, greedy, game),
                results(records, greedy, random_bot, game)]
        for row in rows:
            print_row(row)
        needed = from_elo(to_elo(rows[2].score()) + to_elo(target))
        print(f"  a bot scoring {target:.0%} against greedy would score {needed:.3f} against random "
              f"(Elo differences adding up); the deep search scores {rows[0].score():.3f}\n", flush=True)


def to_elo(score: float) -> float:
    """The Elo difference that predicts ``score`` (kept off the ends)."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return 400 * math.log10(score / (1 - score))


def from_elo(difference: float) -> float:
    return 1 / (1 + 10 ** (-difference / 400))


def duplicate(args, games: list[str], bots: dict[str, BotSpec], limits: Limits) -> None:
    rows = []
    for game in games:
        first, second = DUPLICATE_PAIRS[game]
        if first not in bots or second not in bots:
            continue
        a, b = bots[first], bots[second]
        pairs = args.duplicate_pairs
        jobs = ladder_jobs([a, b], game, pairs, args.seed + 2)
        jobs += independent_jobs(a, b, game, pairs, args.seed + 2)
        records = play(jobs, [a, b], limits, args.jobs, f"duplicate dice {game}")
        paired = results([r for r in records if not r.job.key.startswith("independent")], a, b, game)
        independent = results([r for r in records if r.job.key.startswith("independent")], a, b,
                              game, pair_of=lambda job: job.round)
        rows.append((game, paired, independent))
    print(f"duplicate dice: games needed for a 95% interval of +-{MARGIN:.0%} on the score "
          f"({args.duplicate_pairs} pairs of games per design, {args.duplicate_timeout:g} s a move)")
    print(f"  {'game':11} {'pair':28} {'score':>6} {'paired seeds':>22} {'independent seeds':>22} "
          f"{'saving':>7} {'95% range':>14}")
    for game, paired, independent in rows:
        need_paired, spread_paired = games_needed(paired.pair_means(), 2)
        need_independent, spread_independent = games_needed(independent.pair_means(), 2)
        saving = need_independent / need_paired if need_paired else math.inf
        low, high = saving_range(spread_independent, spread_paired, len(paired.pairs),
                                 len(independent.pairs))
        print(f"  {game:11} {paired.a + ' vs ' + paired.b:28} {paired.score():6.3f} "
              f"{need_paired:9} (sd {spread_paired:.3f}) {need_independent:9} "
              f"(sd {spread_independent:.3f}) {saving:6.2f}x  [{low:.2f}, {high:.2f}]")
    print("  sd: spread of the score of one pair of games; games = 2 * (1.96 * sd / 0.05)^2;\n"
          "  95% range: of the variance ratio, each variance estimated from its own pairs", flush=True)


def saving_range(spread_a: float, spread_b: float, units_a: int, units_b: int) -> tuple[float, float]:
    """95% range of the ratio of two variances estimated from ``units_a``
    and ``units_b`` samples, from the normal approximation of the log of a
    sample variance (standard error sqrt(2 / (n - 1)))."""
    if not spread_a or not spread_b:
        return math.nan, math.nan
    ratio = (spread_a / spread_b) ** 2
    error = math.sqrt(2 / (units_a - 1) + 2 / (units_b - 1))
    return ratio * math.exp(-Z95 * error), ratio * math.exp(Z95 * error)


if __name__ == "__main__":
    main()
