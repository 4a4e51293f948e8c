"""A gauntlet: one candidate bot against a field of opponents, in
seat-swapped pairs, stored and resumable like a tournament, optionally
stopped early by a sequential probability ratio test (arena.stats.sprt).

Pairs are numbered. Pair ``n`` goes to the ``n``-th (opponent, game) table
in turn, so every opponent and game gets its share whenever the test stops;
each table numbers its own pairs, and a pair's key and seed depend only on
the dice key (kept in the gauntlet's database), the table and that number
(``g/{game}/{candidate}/{opponent}/p{n}``).
So the plan of the first N pairs is the same in every run: a rerun counts
the pairs already stored first, then plays on from where it stopped, and
no game is ever played twice.

With ``luck_adjusted`` the test is the normal GSPRT on the candidate's
luck-adjusted pair scores (arena.stats.adjusted_sprt) instead of the
pentanomial one: each game's adjusted result is measured from its record
(:class:`AdjustedResults`), by this process as the game comes back from
its worker while the others play on, and stored with it; a game an earlier
run played is read from the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import results
from arena.bots.discovery import discover, named_bots
from arena.errors import ArenaError
from arena.luck.measure import GameLuck, stored_luck
from arena.luck.values import point_values
from arena.model import BotSpec, DiceKey, Event, GameRecord, Job, Limits, StoredEvent, Termination
from arena.play.executors import Executor
from arena.play.plan import option_text
from arena.play.probe import probe_bots
from arena.play.tournament import Plan, Request, play_missing
from arena.stats import adjusted_sprt
from arena.stats.adjusted_sprt import Moments
from arena.stats.pentanomial import PairStats
from arena.stats.sprt import NAMES, OUTCOMES, Sprt, pair_outcome
from arena.store import Store


@dataclass(frozen=True)
class Matchup:
    """One opponent at one game (with its options)."""

    opponent: BotSpec
    game: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Gauntlet:
    """What a gauntlet plays: the candidate, its matchups, the dice key."""

    candidate: BotSpec
    matchups: list[Matchup]
    key: DiceKey

    @property
    def specs(self) -> dict[str, BotSpec]:
        found = {self.candidate.bot_id: self.candidate}
        found.update({matchup.opponent.bot_id: matchup.opponent for matchup in self.matchups})
        return found

    def pair(self, number: int) -> tuple[Job, Job]:
        """Pair ``number`` of the whole gauntlet: the candidate first, then second."""
        matchup = self.matchups[number % len(self.matchups)]
        index = number // len(self.matchups)
        options = option_text(matchup.options)
        ids = (self.candidate.bot_id, matchup.opponent.bot_id)
        seed = self.key.derive(f"gauntlet/{matchup.game}{options}/{matchup.opponent.name}/{index}")
        prefix = f"g/{matchup.game}{options}/{ids[0]}/{ids[1]}/p{index}"
        return (Job(f"{prefix}/a", matchup.game, ids, seed, index, 2 * number, dict(matchup.options)),
                Job(f"{prefix}/b", matchup.game, ids[::-1], seed, index, 2 * number + 1, dict(matchup.options)))


def plan_gauntlet(bot_dirs: list[Path], candidate: str, opponents: list[str], request: Request,
                  explicit_games: bool, key: DiceKey, limits: Limits) -> Gauntlet:
    """Find and check the bots, and the games each opponent plays with the
    candidate: all named games (refused with one line if the two do not both
    play one), or by default every game both play."""
    if candidate in opponents:
        raise ArenaError(f"the candidate {candidate!r} cannot also be an opponent")
    if len(set(opponents)) != len(opponents):
        raise ArenaError(f"an opponent is named twice: {' '.join(opponents)}")
    found = {spec.name: spec for spec in named_bots(discover(bot_dirs), [candidate, *opponents])}
    probes = {probe.spec.name: probe for probe in probe_bots(list(found.values()), limits)}
    plays: dict[str, frozenset[str]] = {}
    for name, probe in probes.items():
        if probe.entrant is None:
            raise ArenaError(f"bot {name} is unusable: {probe.problem}")
        plays[name] = probe.entrant.games
    matchups = []
    for opponent in opponents:
        both = plays[candidate] & plays[opponent]
        if explicit_games:
            for game in request.games:
                if game not in both:
                    who = candidate if game not in plays[candidate] else opponent
                    raise ArenaError(f"bot {who} does not play {game} (it plays: {', '.join(sorted(plays[who]))})")
        games = [game for game in request.games if game in both]
        if not games:
            raise ArenaError(f"{candidate} and {opponent} play no game in common")
        matchups += [Matchup(found[opponent], game, request.options.get(game, {})) for game in games]
    return Gauntlet(found[candidate], matchups, key)


def check_luck_measurable(gauntlet: Gauntlet) -> None:
    """Refuse, before any game is played, a luck-adjusted gauntlet at a game
    whose luck cannot be measured (one without a house evaluation)."""
    for game in sorted({matchup.game for matchup in gauntlet.matchups}):
        try:
            point_values(game, 2)
        except ArenaError as error:
            raise ArenaError(f"--luck-adjusted cannot measure the luck of {game}: {error}") from None


# The outcome of a pair one of whose games is a referee failure: played,
# but with no result to count.
VOID = -1


def _luck_of(job: Job, events: Sequence[Event | StoredEvent]) -> dict[str, Any]:
    """A game's luck from its record, as the store keeps it (games.luck)."""
    return stored_luck(job.game, len(job.seats), job.options, events, job.seed)


@dataclass
class AdjustedResults:
    """The candidate's luck-adjusted result in each game: its points less
    the luck the dice gave it (arena.luck). The luck is measured from a
    game's record as its worker hands it back (``note``, called while the
    other workers play on) and stored with the game once it is stored
    (``of``), so the site and ``arena standings --luck`` do not measure it
    again; a game an earlier run stored is read with its stored luck, or
    measured from its stored record where it has none."""

    store: Store
    candidate: str
    measured: dict[str, dict[str, Any]] = field(default_factory=dict)

    def note(self, record: GameRecord) -> None:
        if record.termination is not Termination.REFEREE_FAILURE:
            self.measured[record.job.key] = _luck_of(record.job, record.events)

    def of(self, job: Job, placements: results.Placements) -> float:
        luck = self.store.luck(job.key)
        if luck is None:  # measured here, now or as the game came back: stored once
            luck = self.measured.pop(job.key, None) or _luck_of(job, self.store.record(job.key)[0])
            self.store.add_luck({job.key: luck})
        if "problem" in luck:
            raise ArenaError(f"game {job.key}: {luck['problem']}")
        return GameLuck.from_json(luck).adjusted(placements)[job.seats.index(self.candidate)]


@dataclass(frozen=True)
class PairResult:
    """A counted pair: its pentanomial outcome (or VOID) and, with
    --luck-adjusted, the candidate's mean adjusted result per game."""

    outcome: int
    adjusted: float | None = None


@dataclass
class Progress:
    """Pairs counted so far: pentanomial counts for the candidate, in order,
    the pairs played without a result (``void``), which are skipped, and
    with ``luck_adjusted`` the moments of the adjusted pair scores, which
    the test is then run on."""

    counts: list[int] = field(default_factory=lambda: [0] * OUTCOMES)
    void: int = 0
    luck_adjusted: bool = False
    adjusted: Moments = Moments()

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def next(self) -> int:
        """The number of the next pair to count."""
        return self.pairs + self.void

    def add(self, pair: PairResult) -> None:
        if pair.outcome == VOID:
            self.void += 1
            return
        self.counts[pair.outcome] += 1
        if pair.adjusted is not None:
            self.adjusted = self.adjusted.add(pair.adjusted)

    def llr(self, sprt: Sprt) -> float:
        return adjusted_sprt.llr(sprt, self.adjusted) if self.luck_adjusted else sprt.llr(self.counts)

    def verdict(self, sprt: Sprt) -> str | None:
        return adjusted_sprt.verdict(sprt, self.adjusted) if self.luck_adjusted else sprt.verdict(self.counts)


def stored_outcomes(store: Store, gauntlet: Gauntlet, start: int, stop: int,
                    adjusted: AdjustedResults | None = None) -> Iterator[PairResult | None]:
    """The result of each pair from ``start`` to ``stop`` (with ``adjusted``,
    its adjusted score too), VOID for a pair with a referee failure, or None
    for a pair not wholly stored."""
    failed = {key for key, _, _ in store.referee_failures()}
    for number in range(start, stop):
        a, b = gauntlet.pair(number)
        if a.key in failed or b.key in failed:
            yield PairResult(VOID)
            continue
        placements = store.placements([a.key, b.key])
        if a.key not in placements or b.key not in placements:
            yield None
            continue
        candidate_points = (results.points(placements[a.key])[0], results.points(placements[b.key])[1])
        score = None if adjusted is None else \
            (adjusted.of(a, placements[a.key]) + adjusted.of(b, placements[b.key])) / 2
        yield PairResult(pair_outcome(candidate_points), score)


def run_gauntlet(gauntlet: Gauntlet, store: Store, executor: Executor, limits: Limits, log_dir: Path | None,
                 sprt: Sprt | None, max_pairs: int, batch: int,
                 report: Callable[[Progress, int], None] = lambda progress, played: None,
                 luck_adjusted: bool = False) -> Progress:
    """Count the pairs already stored (in order, up to the first missing
    one), then play batches of ``batch`` pairs until the test accepts a
    hypothesis or ``max_pairs`` are counted. ``report`` hears the progress
    after the stored pairs and after each batch, with the games it played.
    With ``luck_adjusted`` the test runs on adjusted pair scores."""
    store.keep_dice_key(gauntlet.key)
    store.add_bots(list(gauntlet.specs.values()))
    progress = Progress(luck_adjusted=luck_adjusted)
    adjusted = AdjustedResults(store, gauntlet.candidate.bot_id) if luck_adjusted else None
    for pair in stored_outcomes(store, gauntlet, 0, max_pairs, adjusted):
        if pair is None:
            break
        progress.add(pair)
    if progress.next:
        report(progress, 0)
    while progress.next < max_pairs and not (sprt and progress.verdict(sprt)):
        start, stop = progress.next, min(max_pairs, progress.next + batch)
        jobs = [job for number in range(start, stop) for job in gauntlet.pair(number)]
        played = play_missing(Plan(jobs, gauntlet.specs, []), store, executor, limits, log_dir,
                              adjusted.note if adjusted else lambda record: None)
        for pair in stored_outcomes(store, gauntlet, start, stop, adjusted):
            if pair is None:
                raise ArenaError("a planned game was not stored; run the same command again to resume")
            progress.add(pair)
        report(progress, played)
    return progress


def summary(progress: Progress, sprt: Sprt | None) -> dict[str, Any]:
    """What ``--format json`` prints: verdict, LLR and bounds (with
    ``--sprt``), pairs, pentanomial counts, and the Elo estimate as the
    standings give the same counts (:meth:`PairStats.to_json`: ``elo`` None
    and ``elo_bound`` "won every pair" or "lost every pair" where it is
    unbounded; no interval below MIN_PAIRS pairs, ``interval_missing``
    saying so). Unregularised: the 1e-3 pairs fishtest adds to empty counts
    keep the LLR's logarithms finite, but in an estimate they would turn a
    candidate that won every pair into a large finite Elo that reports the
    regularisation, not the games. With --luck-adjusted, ``adjusted`` holds
    the same estimate from the adjusted pair scores (with their standard
    error), and the verdict and LLR are the adjusted test's; ``test`` names
    the test."""
    stats = PairStats("candidate", "opponents", (progress.counts[0], progress.counts[1], progress.counts[2],
                                                 progress.counts[3], progress.counts[4])).to_json()
    out: dict[str, Any] = {"pairs": progress.pairs, "pentanomial": dict(zip(NAMES, progress.counts)),
                           **{name: stats[name] for name in ESTIMATE}}
    if progress.luck_adjusted:
        out["adjusted"] = adjusted_sprt.estimate(progress.adjusted)
    if sprt is not None:
        out.update({"test": "luck-adjusted" if progress.luck_adjusted else "pentanomial",
                    "verdict": progress.verdict(sprt) or "inconclusive",
                    "llr": round(progress.llr(sprt), 4),
                    "bounds": [round(bound, 4) for bound in sprt.bounds],
                    "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta})
    return out


ESTIMATE = ("score", "elo", "elo_bound", "elo_low", "elo_high", "interval_missing")
