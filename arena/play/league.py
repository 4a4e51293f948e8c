"""The league: a standing competition over bots folders that runs by itself.

A tournament is a plan made once; a league is a loop over the same parts
(DESIGN.md, "The league"). It watches the bots folders (``watchfiles``, the
file watcher uvicorn uses); a bot whose files change is copied into a
snapshot folder of its own, checked there with a handshake and entered as
a new **version** (its content hash, numbered per bot); the version it
replaces stops being scheduled and keeps its history, and a bot removed
from the folders retires. Every version plays from its snapshot, so a game
never sees files change under it and an old version can still play its
predecessor test.

The next **unit** (a seat-swapped pair, or a pod's rotations, on fresh
secret dice) is chosen by :func:`arena.stats.matchmaking.choose` from the
posterior of every rating table (:mod:`arena.stats.posterior`), the units in
flight counted as if their games were in. While a new version's **test**
against its predecessor is open (fishtest's SPRT on pentanomial pairs,
:class:`arena.stats.sprt.Sprt`), every second unit is one of its pairs.

Everything the league decides is stored before it is played: versions,
units, tests. A unit chosen is played to its end, across a restart: a
league stopped any way (SIGKILL included) and started again first plays
the games of its unfinished units that are not stored, then chooses anew
from what is stored, so nothing is lost or played twice. Games are rated
in the order they are stored (their ``job_order``), so the ratings cache
always goes on from its tally.
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from arena import results
from arena.bots.discovery import find_every_bot
from arena.errors import ArenaError
from arena.model import BotSpec, DiceKey, GameRecord, Job, Limits, Termination
from arena.play.plan import option_text
from arena.play.probe import probe_bots
from arena.play.sources import Match
from arena.play.tournament import Request
from arena.plurals import plural
from arena.stats import matchmaking, posterior
from arena.stats.sprt import Sprt, pair_outcome, version_label, version_test_words
from arena.stats.tables import table_name
from arena.store import Store

log = logging.getLogger(__name__)

LEAGUE_PLAN = "league"  # the one plan every league game is stored under (rating order: job_order)
ORDER_BASE = 3_000_000_000  # league games rate after every game a tournament plans (arena.play.plan)
RATE_WINDOW = 300.0  # seconds over which games per minute are counted


@dataclass(frozen=True)
class Settings:
    """What a league plays and how its version tests decide."""

    request: Request
    limits: Limits
    sprt: Sprt = Sprt(0.0, 50.0)
    max_test_pairs: int = 400


@dataclass
class Version:
    """A version the league entered: its spec (paths in its snapshot), its
    number among its bot's versions, the games it plays and whether it is
    still scheduled."""

    spec: BotSpec
    number: int
    games: frozenset[str]
    predecessor: str | None
    active: bool

    @property
    def label(self) -> str:
        return version_label(self.spec.name, self.number)


@dataclass
class Unit:
    """A unit chosen: its jobs and which of them are stored."""

    number: int
    table: str
    versions: tuple[str, ...]
    reason: str
    test: str | None
    jobs: list[Job]
    stored: set[str] = field(default_factory=set)

    @property
    def done(self) -> bool:
        return len(self.stored) == len(self.jobs)


@dataclass
class Test:
    """A new version's sequential test against its predecessor."""

    version: str
    predecessor: str
    sprt: Sprt
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    verdict: str | None = None
    llr: float = 0.0
    started: int = 0  # pairs chosen

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def row(self) -> dict[str, Any]:
        return {"version": self.version, "predecessor": self.predecessor, "elo0": self.sprt.elo0,
                "elo1": self.sprt.elo1, "alpha": self.sprt.alpha, "beta": self.sprt.beta,
                "counts": json.dumps(self.counts), "pairs": self.pairs, "llr": self.llr, "verdict": self.verdict,
                "decided_at": time.time() if self.verdict else None}


class _Table:
    """One rating table's outcomes and posterior."""

    def __init__(self, name: str, game: str, players: int) -> None:
        self.name, self.game, self.players = name, game, players
        self.outcomes = posterior.Outcomes()
        self.fitted: posterior.Posterior | None = None
        self.stale = True

    def add(self, seats: tuple[str, ...], placements: tuple[int, ...]) -> None:
        self.outcomes.add(seats, placements)
        self.stale = True

    def posterior(self) -> posterior.Posterior:
        if self.stale or self.fitted is None or len(self.fitted.versions) != len(self.outcomes.versions):
            self.fitted = posterior.fit_to_field(self.outcomes, start=self.fitted)
            self.stale = False
        return self.fitted


class League:
    """A league over ``bot_dirs`` writing to ``store``: the match source of
    an executor (``next_match``), told of each game as it is stored
    (``stored``)."""

    def __init__(self, store: Store, bot_dirs: list[Path], settings: Settings, key: DiceKey,
                 snapshots: Path, say: Callable[[str], None] = lambda line: None) -> None:
        self.store, self.bot_dirs, self.settings, self.key = store, bot_dirs, settings, key
        self.snapshots, self.say = snapshots, say
        self.changed = threading.Event()
        self.changed.set()  # look at the folders before the first unit
        self.stopping = False
        self.started = time.time()
        self.finished_at: deque[float] = deque()
        self.tables: dict[str, _Table] = {}
        for game in settings.request.games:
            for players in settings.request.players:
                name = table_name(game, players)
                self.tables[name] = _Table(name, game, players)
        self.versions: dict[str, Version] = {}
        self.units: dict[int, Unit] = {}  # chosen and not yet done (the others are only counted)
        self.chosen: dict[str, dict[str, int]] = {}  # units chosen per table and version
        self.last_in: dict[str, int] = {}  # the number of the last unit each version was in
        self.next_number = 0
        self.last_was_test = False
        self.tests: dict[str, Test] = {}
        self.queue: deque[Job] = deque()
        self.waiting_for: str | None = None
        self.unusable: dict[str, str] = {}  # bot name: why its files could not enter (said once per change)
        self.stored_count = store.count_games()
        self.noticed: Callable[[], None] = lambda: None  # hears that its status changed (the served site's)
        self._load()

    # -- what is stored ----------------------------------------------------------------------

    def _load(self) -> None:
        store = self.store
        store.use_plan([LEAGUE_PLAN])
        for row in store.league_versions():
            spec = self._snapshot_spec(row)
            if spec is None:
                continue
            self.versions[row["version"]] = Version(spec, row["number"], frozenset(json.loads(row["games"])),
                                                    row["predecessor"], row["retired_at"] is None)
        for row in store.league_tests():
            test = Test(row["version"], row["predecessor"], Sprt(row["elo0"], row["elo1"], row["alpha"],
                                                                 row["beta"]),
                        json.loads(row["counts"]), row["verdict"], row["llr"] or 0.0)
            self.tests[test.version] = test
        for game in store.games(solo=False):
            self._rate(game.game, game.seats, game.options, game.placements, game.termination)
        done = store.stored_keys()
        for row in store.league_units():
            versions = tuple(json.loads(row["versions"]))
            self._count_choice(row["number"], row["table_name"], versions, row["test"])
            if row["done_at"] is None:
                unit = self._unit(row["number"], row["table_name"], row["game"], versions, row["reason"], row["test"])
                unit.stored = {job.key for job in unit.jobs if job.key in done}
                self.queue.extend(job for job in unit.jobs if job.key not in unit.stored)
                self.units[unit.number] = unit
        if self.queue:
            self.say(f"league: {plural(len(self.queue), 'game')} of unfinished units to play first")

    def _snapshot_spec(self, row: dict[str, Any]) -> BotSpec | None:
        """The spec of a stored version, from its snapshot; None (said once)
        where the snapshot is gone or no longer holds that version."""
        try:
            [spec] = find_every_bot([row["snapshot"]]).bots
        except (ArenaError, ValueError):
            spec = None
        if spec is None or spec.bot_id != row["version"]:
            self.say(f"league: the snapshot of {row['name']} v{row['number']} ({row['snapshot']}) is gone or "
                     "changed: that version cannot play again")
            self.store.retire_league_version(row["version"], "snapshot lost")
            return None
        return spec

    def _rate(self, game: str, seats: tuple[str, ...], options: dict[str, Any], placements: tuple[int, ...],
              termination: Termination) -> None:
        """A stored game into its table's posterior: one of the league's
        tables, played with the league's options for its game."""
        table = self.tables.get(table_name(game, len(seats)))
        if (table is not None and termination is not Termination.REFEREE_FAILURE
                and options == self.settings.request.options.get(game, {})):
            table.add(seats, placements)

    # -- versions ------------------------------------------------------------------------------

    def sync(self) -> None:
        """Enter new versions, retire removed bots: what the folders hold now."""
        self.changed.clear()
        try:
            found = find_every_bot(self.bot_dirs)
            present, broken = found.bots, {bot.name: bot.problem for bot in found.unusable}
        except ArenaError as exc:
            present, broken = [], {}
            self.waiting_for = str(exc)
        by_name = {spec.name: spec for spec in present}
        for version in list(self.versions.values()):
            if version.active and version.spec.name not in by_name and version.spec.name not in broken:
                self._retire(version, "removed")
        for name, problem in broken.items():
            self._unusable(name, problem)
        for spec in present:
            current = self._active(spec.name)
            if current is not None and current.spec.content_hash == spec.content_hash:
                continue
            self._enter(spec, current)
        self.noticed()

    def _active(self, name: str) -> Version | None:
        return next((v for v in self.versions.values() if v.active and v.spec.name == name), None)

    def _unusable(self, name: str, problem: str) -> None:
        if self.unusable.get(name) != problem:
            self.unusable[name] = problem
            current = self._active(name)
            keeps = f"; {current.label} keeps playing" if current else ""
            self.say(f"league: {name} cannot enter: {problem}{keeps}")

    def _enter(self, spec: BotSpec, current: Version | None) -> None:
        snapshot = self._snapshot(spec)
        if snapshot is None:
            return
        known = self.versions.get(snapshot.bot_id)
        if known is not None:  # its files went back to a version entered before
            if current is not None:
                self._retire(current, "superseded")
            known.active = True
            self.store.add_league_version(self._version_row(known, retired=False))
            self.say(f"league: {known.label} ({snapshot.bot_id}) is back")
            return
        [probe] = probe_bots([snapshot], self.settings.limits)
        if probe.entrant is None:
            self._unusable(spec.name, probe.problem or "it did not shake hands")
            shutil.rmtree(Path(snapshot.path).parent, ignore_errors=True)
            return
        self.unusable.pop(spec.name, None)
        number = 1 + max((v.number for v in self.versions.values() if v.spec.name == spec.name), default=0)
        version = Version(snapshot, number, probe.entrant.games, current.spec.bot_id if current else None, True)
        self.store.add_bots([snapshot], {snapshot.bot_id: probe.hello_name} if probe.hello_name else None)
        self.store.add_league_version(self._version_row(version, retired=False))
        self.versions[snapshot.bot_id] = version
        if current is not None:
            self._retire(current, "superseded")
            shared = [g for g in self.settings.request.games if g in version.games and g in current.games]
            if shared:
                test = Test(snapshot.bot_id, current.spec.bot_id, self.settings.sprt)
                self.tests[test.version] = test
                self.store.put_league_test(test.row())
        self.say(f"league: {version.label} ({snapshot.bot_id}) entered"
                 + (f", replacing {current.label}: testing it against {current.label}" if current else ""))

    def _snapshot(self, spec: BotSpec) -> BotSpec | None:
        """A copy of the bot's files in a folder of its own, found there again
        (its hash is what the copy holds: a file changing while it is copied
        gives the version that was copied)."""
        source = Path(spec.path)
        staging = self.snapshots / f".staging-{spec.name}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        try:
            if source.is_dir():
                shutil.copytree(source, staging / source.name)
            else:
                shutil.copy2(source, staging / source.name)
            [copied] = find_every_bot([staging]).bots
        except (OSError, ValueError, ArenaError) as exc:
            shutil.rmtree(staging, ignore_errors=True)
            self._unusable(spec.name, f"its files could not be copied: {exc}")
            return None
        final = self.snapshots / copied.bot_id
        if final.exists():
            shutil.rmtree(staging)
        else:
            staging.rename(final)
        [spec_there] = find_every_bot([final]).bots
        return spec_there

    def _retire(self, version: Version, why: str) -> None:
        version.active = False
        self.store.retire_league_version(version.spec.bot_id, why)
        self.say(f"league: {version.label} retired ({why})")

    def _version_row(self, version: Version, retired: bool) -> dict[str, Any]:
        return {"version": version.spec.bot_id, "name": version.spec.name, "number": version.number,
                "content_hash": version.spec.content_hash, "snapshot": str(Path(version.spec.path).parent),
                "games": json.dumps(sorted(version.games)), "predecessor": version.predecessor,
                "entered_at": time.time(), "retired_at": time.time() if retired else None, "retired_why": None}

    # -- choosing --------------------------------------------------------------------------------

    def next_match(self) -> Match | None:
        """A game to play (each game of a unit is a match of its own, so no
        bot process meets the same dice twice), or None: nothing to play
        (or the league is stopping)."""
        if self.stopping:
            return None
        if self.changed.is_set():
            self.sync()
        if not self.queue:
            unit = self._choose()
            if unit is None:
                return None
            self.queue.extend(unit.jobs)
        job = self.queue.popleft()
        return Match([job], {bot_id: self.versions[bot_id].spec for bot_id in job.seats})

    @property
    def finished(self) -> bool:
        return self.stopping

    def _count_choice(self, number: int, table: str, versions: tuple[str, ...], test: str | None) -> None:
        counts = self.chosen.setdefault(table, {})
        for version in versions:
            counts[version] = counts.get(version, 0) + 1
            self.last_in[version] = number
        if test in self.tests:
            self.tests[test].started += 1
        self.next_number = number + 1
        self.last_was_test = test is not None

    def _choose(self) -> Unit | None:
        number = self.next_number
        test = self._test_due()
        if test is not None:
            versions: tuple[str, ...] = (test.version, test.predecessor)
            game = self._test_game(test)
            table, reason = table_name(game, 2), "test"
        else:
            choice = matchmaking.choose(self._tables_now(), self._waited())
            if choice is None:
                active = sum(1 for v in self.versions.values() if v.active)
                needed = min(self.settings.request.players)
                waiting = (f"{plural(needed, 'usable bot')} playing one of its games "
                           f"({plural(active, 'active version')} now)")
                if waiting != self.waiting_for:
                    self.waiting_for = waiting
                    self.noticed()
                return None
            versions, table, reason = choice.versions, choice.table, choice.reason
            game = self.tables[table].game
        self.waiting_for = None
        unit = self._unit(number, table, game, versions, reason, test.version if test else None)
        self.store.add_league_unit({"number": number, "table_name": table, "game": game,
                                    "players": len(versions), "versions": json.dumps(list(versions)),
                                    "reason": reason, "test": unit.test, "chosen_at": time.time(),
                                    "done_at": None})
        self.units[number] = unit
        self._count_choice(number, table, versions, unit.test)
        return unit

    def _test_due(self) -> Test | None:
        """An open test's pair, every second unit while one is open."""
        if self.last_was_test:
            return None
        open_tests = [t for t in self.tests.values() if t.verdict is None and t.started < self.settings.max_test_pairs
                      and self.versions[t.version].active]
        return min(open_tests, key=lambda t: (t.started, t.version)) if open_tests else None

    def _test_game(self, test: Test) -> str:
        new, old = self.versions[test.version], self.versions[test.predecessor]
        shared = [g for g in self.settings.request.games if g in new.games and g in old.games]
        return shared[test.started % len(shared)]

    def _tables_now(self) -> list[matchmaking.Table]:
        """Every table's posterior, the units in flight counted as played."""
        now = []
        for table in self.tables.values():
            active = tuple(sorted(v.spec.bot_id for v in self.versions.values()
                                  if v.active and table.game in v.games))
            for version in active:
                table.outcomes.version(version)
            fitted = table.posterior()
            for unit in self.units.values():
                if unit.table == table.name and not unit.done:
                    pod = [fitted.versions.index(v) for v in unit.versions if v in fitted.versions]
                    if len(pod) == len(unit.versions):
                        fitted = posterior.expecting(fitted, pod, len(unit.jobs) - len(unit.stored))
            now.append(matchmaking.Table(table.name, table.players, fitted, active, self.chosen.get(table.name, {})))
        return now

    def _waited(self) -> dict[str, int]:
        """Units chosen since each active version was last in one."""
        top = self.next_number - 1
        return {bot_id: top - self.last_in.get(bot_id, -1) for bot_id, v in self.versions.items() if v.active}

    def _unit(self, number: int, table: str, game: str, versions: tuple[str, ...], reason: str,
              test: str | None) -> Unit:
        """A unit's jobs: every rotation of its seats on one fresh seed, with
        the game's options of the league."""
        options = self.settings.request.options.get(game, {})
        seed = self.key.derive(f"league/u{number}")
        jobs = []
        for turn in range(len(versions)):
            seats = versions[turn:] + versions[:turn]
            key = f"league/u{number:06d}/{game}{option_text(options)}/{len(versions)}p/r{turn}"
            jobs.append(Job(key, game, seats, seed, number, ORDER_BASE, dict(options)))
        return Unit(number, table, versions, reason, test, jobs)

    # -- results ---------------------------------------------------------------------------------

    def stored(self, record: GameRecord) -> GameRecord | None:
        """Store a finished game (rated in the order stored); returns it as
        stored, or None if its key was stored already."""
        record = replace(record, job=replace(record.job, order=ORDER_BASE + self.stored_count))
        if not self.store.add_game(record):
            return None
        self.stored_count += 1
        self.finished_at.append(time.time())
        unit = self.units.get(record.job.round)
        job = record.job
        self._rate(job.game, job.seats, job.options, record.placements, record.termination)
        if unit is not None and record.job.key in {job.key for job in unit.jobs}:
            unit.stored.add(record.job.key)
            if unit.done:
                self.store.finish_league_unit(unit.number)
                del self.units[unit.number]
                if unit.test is not None:
                    self._count_test(unit)
        return record

    def _count_test(self, unit: Unit) -> None:
        test = self.tests[unit.test] if unit.test else None
        if test is None or test.verdict is not None:
            return
        games = {game.key: game for game in (self.store.game(job.key) for job in unit.jobs)}
        if any(g.termination is Termination.REFEREE_FAILURE for g in games.values()):
            return
        points = []
        for job in unit.jobs:
            seat = job.seats.index(test.version)
            points.append(results.points(games[job.key].placements)[seat])
        test.counts[pair_outcome(points)] += 1
        test.llr = test.sprt.llr(test.counts)
        verdict = test.sprt.verdict(test.counts)
        if verdict is not None:
            test.verdict = "better" if verdict == "H1 accepted" else "not better"
        elif test.pairs >= self.settings.max_test_pairs:
            test.verdict = "undecided"
        self.store.put_league_test(test.row())
        if test.verdict is not None:
            self.say("league: " + self.test_words(test))

    def test_words(self, test: Test) -> str:
        return version_test_words(self.versions[test.version].label, self.versions[test.predecessor].label,
                                  test.sprt, test.counts, test.llr, test.verdict)

    # -- what it is doing --------------------------------------------------------------------------

    def games_per_minute(self) -> float:
        now = time.time()
        while self.finished_at and self.finished_at[0] < now - RATE_WINDOW:
            self.finished_at.popleft()
        span = min(RATE_WINDOW, max(now - self.started, 1.0))
        return 60.0 * len(self.finished_at) / span

    def active_versions(self) -> list[str]:
        return [f"{v.label} ({v.spec.bot_id})" for v in sorted(self.versions.values(), key=lambda v: v.label)
                if v.active]

    def playing(self) -> list[str]:
        lines = []
        for unit in self.units.values():
            if not unit.done:
                names = " vs ".join(self.versions[v].label for v in unit.versions)
                lines.append(f"{unit.jobs[0].game}: {names} ({unit.reason})")
        return lines

    def test_lines(self) -> list[str]:
        return [self.test_words(test) for test in self.tests.values()]

    def status(self) -> dict[str, Any]:
        """What the served site's live panel shows (arena.web.live): the
        games stored and how many a minute, the active versions, the open
        version tests, what it waits for, and why each game in flight was
        chosen (by job key)."""
        return {"league": True, "games": self.stored_count, "per_minute": round(self.games_per_minute(), 1),
                "active": sorted(v.label for v in self.versions.values() if v.active),
                "tests": [self.test_words(t) for t in self.tests.values() if t.verdict is None],
                "waiting": self.waiting_for,
                "reasons": {job.key: unit.reason for unit in self.units.values() for job in unit.jobs}}

    def names(self) -> dict[str, str]:
        return {bot_id: version.label for bot_id, version in self.versions.items()}


class FolderWatch:
    """Sets ``changed`` whenever something changes in ``folders``, from a
    thread of its own (watchfiles: the file watcher uvicorn uses, on the
    kernel's inotify, debounced so that a bot written in several steps is
    one change), until closed."""

    def __init__(self, folders: list[Path], changed: threading.Event) -> None:
        import watchfiles

        self.stop = threading.Event()

        def loop() -> None:
            for _ in watchfiles.watch(*folders, stop_event=self.stop, debounce=400, step=50, recursive=True,
                                      raise_interrupt=False):
                changed.set()

        self.thread = threading.Thread(target=loop, name="arena-league-watch", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
