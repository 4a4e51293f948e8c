"""The ``arena`` command: a thin layer of options over the library."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import click
from multiprocessing_logging import MultiProcessingHandler

from arena import ratings_cache, results, site
from arena.bots.discovery import discover, find_every_bot, named_bots
from arena.bots.isolation import ISOLATIONS
from arena.bots.isolation import check as check_isolation
from arena.bots.process import format_size, parse_size
from arena.errors import ArenaError, StoreInUse
from arena.games import SPECS, broken_plugins, get_spec
from arena.games.base import InvalidOptions
from arena.games.replays import with_replay
from arena.luck.stored import IdleLuck, Measured, measure_missing
from arena.model import BotSpec, DiceKey, Event, GameRecord, Job, Limits
from arena.play.check import check_bot, find_bots
from arena.play.executors import Executor, GameWatcher, LocalExecutor, make_executor
from arena.play.gauntlet import Progress, check_luck_measurable, plan_gauntlet, run_gauntlet, summary
from arena.play.human import HumanSeat
from arena.play.league import FolderWatch, League
from arena.play.league import Settings as LeagueSettings
from arena.play.match import match_log_dir, play_match
from arena.play.person import PersonAgainstBots
from arena.play.plan import group_into_matches, plan_rotations
from arena.play.probe import probe_bots
from arena.play.referee import play_game
from arena.play.tournament import (
    Interrupted,
    Plan,
    check_request,
    dice_key_for,
    plan_solo_series,
    plan_tournament,
    play_missing,
)
from arena.plurals import plural
from arena.resources import BOTS_FOLDER, bot_folders
from arena.site import solo_results
from arena.stats.luck import luck_lines, luck_rows, with_luck
from arena.stats.pentanomial import elo_text
from arena.stats.sprt import Sprt
from arena.stats.standings import Standings, json_rows, pairs_csv, text_table, to_csv
from arena.store import Store, check_database

if TYPE_CHECKING:
    import socket

    from arena.web.live import LiveBoard

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])  # a click command, as its decorators pass it on

DEFAULT_DB = "arena.db"
DEFAULT_OUT = "leaderboard"
DEFAULT_LOGS = "logs"
SEED_HELP = ("Make the dice from this number, to repeat a run exactly. Anyone who knows it can "
             "predict every die: never for a public tournament.")
SEED_DEFAULT = "  [default: a secret key drawn at random]"


def _fail_cleanly(command: Callable[P, R]) -> Callable[P, R]:
    """Library errors become one line on stderr and exit status 1; Ctrl-C
    and SIGTERM at any moment become one line and exit status 130."""
    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        previous = signal.signal(signal.SIGTERM, _raise_interrupt)
        try:
            return command(*args, **kwargs)
        except Interrupted as exc:
            click.echo(f"arena: {exc}", err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo("arena: interrupted; everything stored so far is kept: run the same "
                       "command again to resume", err=True)
            sys.exit(130)
        except (ArenaError, InvalidOptions) as exc:
            raise click.ClickException(str(exc)) from None
        except sqlite3.DatabaseError as exc:  # a damaged page of a file too large to check whole at open (store)
            raise click.ClickException(f"the results database could not be read: {exc}") from None
        finally:
            signal.signal(signal.SIGTERM, previous)
    return wrapper


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _counts(ctx: click.Context, param: click.Parameter, value: str) -> list[int]:
    """A comma-separated list of player counts."""
    try:
        counts = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"expected player counts such as 2,3,4, got {value!r}") from None
    if not counts:
        raise click.BadParameter("expected at least one player count")
    return counts


def bots_option(command: F) -> F:
    return click.option("--bots", "bot_dirs", multiple=True, default=[str(BOTS_FOLDER)], show_default=True,
                        type=click.Path(path_type=Path), callback=lambda ctx, param, value: bot_folders(value),
                        help="Folder of bots (repeatable; without a ./bots folder, the bundled bots).")(command)


def host_option(command: F) -> F:
    return click.option("--host", default="127.0.0.1", show_default=True,
                        help="The address the served site listens on (0.0.0.0: every network of the machine; "
                             "anyone who reaches it sees the site and the games in progress).")(command)


def limits_options(command: F) -> F:
    """The per-bot limits. The timeouts are parameters of the command; the
    others are kept in the click context and picked up by _limits, so every
    command gets them all without naming them."""

    def keep(field: str, convert: Callable[[Any], Any] = lambda value: value) -> Callable[..., Any]:
        def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
            try:
                ctx.meta.setdefault("arena.limits", {})[field] = convert(value)
            except ValueError as exc:
                raise click.BadParameter(str(exc), ctx, param) from None
            return value
        return callback

    def size(name: str, field: str, text: str) -> Callable[[F], F]:
        return click.option(name, default=format_size(getattr(Limits, field)), show_default=True,
                            metavar="SIZE", expose_value=False, callback=keep(field, parse_size),
                            help=text + " (bytes, or with K, M, G).")

    def count(name: str, field: str, low: int, text: str) -> Callable[[F], F]:
        return click.option(name, type=click.IntRange(min=low), default=getattr(Limits, field),
                            show_default=True, expose_value=False, callback=keep(field), help=text)

    options: list[Callable[[Any], Any]] = [
        click.option("--move-timeout", type=click.FloatRange(min=0.001), default=Limits.move_timeout,
                     show_default=True, help="Seconds a bot has for each decision."),
        click.option("--startup-timeout", type=click.FloatRange(min=0.001), default=Limits.startup_timeout,
                     show_default=True, help="Seconds a bot has to start and answer hello."),
        count("--cpu-time", "cpu_seconds", 1, "CPU seconds per bot process."),
        size("--address-space", "address_space_bytes", "Address space (memory) per bot process"),
        count("--processes", "processes", 1, "Processes and threads per bot process."),
        size("--file-size", "file_size_bytes", "Largest file a bot may write"),
        count("--open-files", "open_files", 8, "Open files per bot process."),
        size("--stderr-cap", "stderr_bytes", "Bot stderr kept in the log per bot and game"),
        size("--line-cap", "max_line_bytes", "Longest line a bot may print"),
        size("--memory", "memory_bytes", "Resident memory of all of a bot's processes together"),
        size("--disk", "disk_bytes", "Size of each of a bot's writable folders (working folder, /tmp, /dev/shm)"),
        click.option("--ponder/--no-ponder", default=Limits.ponder, show_default=True, expose_value=False,
                     callback=keep("ponder"),
                     help="Let bots think while it is not their turn (by default they are frozen)."),
        click.option("--isolation", type=click.Choice(ISOLATIONS), default=Limits.isolation, show_default=True,
                     expose_value=False, callback=keep("isolation"),
                     help="box: every bot in a bubblewrap sandbox of its own; none: no sandbox (unsafe)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _limits(move_timeout: float, startup_timeout: float) -> Limits:
    context = click.get_current_context(silent=True)
    chosen = context.meta.get("arena.limits", {}) if context else {}
    limits = Limits(startup_timeout=startup_timeout, move_timeout=move_timeout, **chosen)
    check_isolation(limits)
    return limits


def _log_dir_beside(db: Path, log_dir: Path | None) -> Path:
    """``--log-dir``, or else ``logs`` in the database's folder: the logs
    of a run stay with the results they explain (and the site, built from
    that database, finds the bots' stderr there)."""
    return log_dir if log_dir is not None else db.parent / DEFAULT_LOGS


def _setup_logging(log_dir: Path) -> None:
    class WorkersThroughTheQueue(MultiProcessingHandler):  # type: ignore[misc]  # (untyped)
        """multiprocessing-logging's handler, for the forked workers only:
        the parent's own records go straight to the file. Ctrl-C or SIGTERM
        raise in the parent's main thread wherever it is, and raised inside
        the queue's put (between taking its feeder thread off the waiting
        list and waking it) they left that thread asleep for good and the
        exit waiting for it."""

        def __init__(self, sub_handler: logging.Handler) -> None:
            super().__init__("arena-log-receiver", sub_handler=sub_handler)
            self.parent = os.getpid()

        def emit(self, record: logging.LogRecord) -> None:
            if os.getpid() == self.parent:
                self.sub_handler.handle(record)
            else:
                super().emit(record)

    log_dir.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(log_dir / "arena.log")
    handler.setFormatter(logging.Formatter("%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    root.addHandler(WorkersThroughTheQueue(handler))


class _OneLineErrors(click.Group):
    """Usage errors (a missing option, a value out of range) in one line and
    exit status 2, like every other error, instead of click's usage block."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.UsageError as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {exc.format_message()}{where}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)


def _explained(page: str, what: str) -> str:
    """A command's --help epilog: the documentation page that explains it."""
    return f"Explained ({what}) in docs/{page} of arena's documentation (mkdocs serve shows it as a site)."


@click.group(cls=_OneLineErrors)
@click.version_option(package_name="dice-arena")
def main() -> None:
    """Tournaments between bot processes at dice board games (`arena games` lists them)."""
    _private_files()
    _say_skipped_files()


# What arena writes is its user's alone: the database and its journals and
# lock, the logs and the bots' stderr, and whatever its workers and bots
# create. The site is the exception, published on purpose: arena.site makes
# its files 0644 and its folders 0755 whatever the umask.
PRIVATE_UMASK = 0o077


def _private_files() -> None:
    """Set the umask for the command (and every process it starts), and put
    the old one back when the command ends, for a program that called it."""
    previous = os.umask(PRIVATE_UMASK)
    click.get_current_context().call_on_close(lambda: os.umask(previous))


class _Terminal(logging.Handler):
    """Log records as lines on the terminal's stderr (whatever it is now)."""
    def emit(self, record: logging.LogRecord) -> None:
        click.echo(record.getMessage(), err=True)


def _say_skipped_files() -> None:
    """Files in a bots folder that are not bots are named on stderr, with why."""
    discovery = logging.getLogger("arena.bots.discovery")
    if not any(isinstance(handler, _Terminal) for handler in discovery.handlers):
        discovery.addHandler(_Terminal(logging.WARNING))


@main.command(epilog=_explained("explanation/tournaments.md", "what a tournament plays, and how it resumes"))
@bots_option
@click.option("--games", "game_names", default="", help="Comma-separated games (default: all).")
@click.option("--players", "player_counts", default="2", show_default=True, callback=_counts,
              help="Comma-separated player counts, e.g. 2,3,4: pairs, and pods of 3 and 4 bots.")
@click.option("--option", "option_texts", multiple=True, metavar="GAME.NAME=VALUE",
              help="A game option (repeatable; `arena games` lists them).")
@click.option("--rounds", type=click.IntRange(min=1), default=2, show_default=True,
              help="Rounds: a seat-swapped pair per pair of bots, or a set of pods, per game.")
@click.option("--jobs", "workers", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
              help="Games played at once.")
@click.option("--seed", type=int, default=None, help=SEED_HELP + " Kept in --db: a rerun resumes on it." + SEED_DEFAULT)
@limits_options
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True,
              help="The results database (SQLite).")
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True,
              help="Folder for the leaderboard site.")
@click.option("--log-dir", type=click.Path(path_type=Path), default=None,
              help="Where the run's log (arena.log) and each bot's stderr go  [default: logs beside --db]")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", "scheduler_address", default=None,
              help="Dask scheduler address (with --executor dask).")
@click.option("--worker-timeout", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="With --executor dask: seconds games may wait for a usable worker before "
                   "the run gives up.")
@click.option("--luck-workers", type=click.IntRange(min=0), default=None,
              help="Processes measuring the luck of the dice at idle CPU priority while games play (0: all "
                   "of it after the last game)  [default: the cores --jobs leaves free; with dask, every core]")
@_fail_cleanly
def tournament(bot_dirs: tuple[Path, ...], game_names: str, player_counts: list[int], option_texts: tuple[str, ...],
               rounds: int, workers: int, seed: int | None, move_timeout: float, startup_timeout: float, db: Path,
               out: Path, log_dir: Path | None, executor: str, scheduler_address: str | None,
               worker_timeout: float, luck_workers: int | None) -> None:
    """Play every pair of bots (or pod of 3 or 4) at every game they play; resume if interrupted."""
    limits = _limits(move_timeout, startup_timeout)
    log_dir = _log_dir_beside(db, log_dir)
    games = [g.strip() for g in game_names.split(",") if g.strip()] or None
    request = check_request(games, player_counts, list(option_texts))
    runner = make_executor(executor, workers, scheduler_address, worker_timeout, notify=_say)
    check_database(db)
    key = dice_key_for(db, seed)
    plan = plan_tournament(list(bot_dirs), request, rounds, key, limits)
    with Store(db, writer=True) as store:
        _keep_dice_key(store, key)
        for probe in plan.unusable:
            click.echo(f"skipping {probe.spec.name}: {probe.problem}", err=True)
        for balance in plan.balances:
            click.echo(f"pods: {balance.describe()}", err=True)
        _setup_logging(log_dir)
        done = store.stored_keys()
        missing = sum(1 for job in plan.jobs if job.key not in done)
        click.echo(f"{plural(len(plan.jobs), 'game')} planned, {len(plan.jobs) - missing} already stored, "
                   f"{missing} to play on {runner.describe()}; logs in {log_dir}", err=True)
        board = site.Site(store, Path(out))
        started = time.perf_counter()
        if luck_workers is None:
            luck_workers = _free_cores(workers if executor == "local" else 0)
        played_luck = _play_measuring_luck(plan, store, runner, limits, log_dir, missing, board, luck_workers)
        played = time.perf_counter()
        left = measure_missing(store)
        measured = time.perf_counter()
        _say_referee_failures(store)
        ratings = _rewrite_ratings(store)
        rated = time.perf_counter()
        index = board.build(ratings)
        # The end of the run, timed, for bench/tournament.py and for anyone
        # wondering what a run does after its last game.
        logging.getLogger(__name__).info(
            "end of run: played %d games in %.2f s (%d replay entries made as their luck was stored); "
            "luck of %d games measured while playing, of %d after, in %.2f s; ratings %.2f s, site %.2f s",
            missing, played - started, len(board.added), played_luck, left, measured - played,
            rated - measured, time.perf_counter() - rated)
    click.echo(f"leaderboard: {index}")


def _keep_dice_key(store: Store, key: DiceKey) -> None:
    """Store the run's dice key; say so where the database holds games
    from before arena kept one (they stay, and are not resumed)."""
    legacy = store.count_games() if store.dice_key() is None else 0
    store.keep_dice_key(key)
    if legacy:
        were, their = ("was", "its") if legacy == 1 else ("were", "their")
        click.echo(f"{plural(legacy, 'game')} in {store.path} {were} played before arena kept a dice key ({their} "
                   "dice were public): they stay as they are, and this run plans its own games anew", err=True)


def _say(message: str) -> None:
    """A line from the executor, over the progress bar's line on a terminal."""
    click.echo(("\r\033[K" if sys.stderr.isatty() else "") + message, err=True)


def _say_referee_failures(store: Store) -> None:
    """The games stored without a result because their worker failed twice:
    said at the end of every run, so that none goes unnoticed."""
    failures = store.referee_failures()
    if failures:
        names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
        stored = "is stored as a referee failure" if len(failures) == 1 else "are stored as referee failures"
        click.echo(f"{plural(len(failures), 'game')} could not be played and {stored} "
                   "(no result, not rated): " + "; ".join(
                       f"{key} ({' vs '.join(names.get(b, b) for b in seats)}): {detail}"
                       for key, seats, detail in failures), err=True)


def _free_cores(games_here: int) -> int:
    """The cores of this machine that games played here leave free: luck
    workers there cost the games nothing, while on cores the games use they
    slowed them (bench/luck_cost.py, docs/explanation/luck.md)."""
    return max(0, (os.cpu_count() or 1) - games_here)


def _play_measuring_luck(plan: Plan, store: Store, runner: Executor, limits: Limits, log_dir: Path,
                         missing: int, board: site.Site, luck_workers: int) -> int:
    """Play, each stored game handed to idle-priority luck workers
    (arena.luck.stored), whose figures are stored as they come, each game's
    page written then, with its luck. Returns how many games' luck was
    stored while playing."""
    stored = 0

    def store_luck(measured: Measured) -> None:
        nonlocal stored
        store.add_luck(measured)
        stored += len(measured)
        for key in measured:
            board.add_game(key)

    if not luck_workers:
        _play_with_progress(plan, store, runner, limits, log_dir, missing, lambda record: None)
        return 0
    luck = IdleLuck(luck_workers)
    try:
        def on_stored(record: GameRecord) -> None:
            luck.submit(record)
            store_luck(luck.measured())
        _play_with_progress(plan, store, runner, limits, log_dir, missing, on_stored)
    finally:
        store_luck(luck.close())
    return stored


def _play_with_progress(plan: Plan, store: Store, runner: Executor, limits: Limits, log_dir: Path,
                        missing: int, stored: Callable[[GameRecord], None]) -> None:
    """Play, showing progress (a bar on a terminal, else ProgressLines);
    ``stored`` hears each game as it is stored."""
    def play(advance: Callable[[int], None]) -> None:
        def on_game(record: GameRecord) -> None:
            stored(record)
            advance(1)
        play_missing(plan, store, runner, limits, log_dir, on_game=on_game)

    if sys.stderr.isatty():
        with click.progressbar(length=missing, label="games", show_eta=True, show_pos=True,
                               file=sys.stderr) as bar:
            play(bar.update)
    else:
        play(ProgressLines(missing, _say).update)


class ProgressLines:
    """Progress where stderr is not a terminal (a log, a pipe, CI), where a
    bar would be one word: a line at every tenth of the games and, on a
    long run, at least once a minute while games finish, with the games
    done, the rate and the time left at that rate."""

    STEP = 0.1            # of the games: a line each time another tenth is done
    MOST_SECONDS = 60.0   # and one at least this often (when a game ends)

    def __init__(self, total: int, say: Callable[[str], None]) -> None:
        self.total, self.say = total, say
        self.done = 0
        self.started = self.said_at = time.monotonic()
        self.next_share = self.STEP

    def update(self, games: int) -> None:
        self.done += games
        now = time.monotonic()
        share = self.done / self.total if self.total else 1.0
        if share + 1e-9 < self.next_share and now - self.said_at < self.MOST_SECONDS and self.done < self.total:
            return
        while self.next_share <= share + 1e-9:
            self.next_share += self.STEP
        self.said_at = now
        rate = self.done / max(now - self.started, 1e-9)
        left = (self.total - self.done) / rate if rate else 0.0
        self.say(f"games: {self.done} of {self.total} ({share:.0%}), {rate:.2f} games/s, "
                 + ("done" if self.done >= self.total else f"about {_duration(left)} left"))


def _duration(seconds: float) -> str:
    """A time for people: 40 s, 3 min 20 s, 2 h 05 min."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


@main.command(epilog=_explained("explanation/tournaments.md", "seat-swapped pairs and pods"))
@click.argument("bot_names", nargs=-1, required=True, metavar="BOT BOT [BOT [BOT]]")
@click.option("--game", "game_name", required=True, help="The game to play.")
@click.option("--rounds", type=click.IntRange(min=1), default=1, show_default=True,
              help="Rounds: each plays every rotation of the seats on one seed.")
@click.option("--seed", type=int, default=None, help=SEED_HELP + SEED_DEFAULT)
@click.option("--option", "option_texts", multiple=True, metavar="GAME.NAME=VALUE",
              help="A game option (repeatable; `arena games` lists them).")
@bots_option
@limits_options
@click.option("--log-dir", type=click.Path(path_type=Path), default=DEFAULT_LOGS, show_default=True,
              help="Where the bots' stderr is kept (under bots/, a file per game and seat).")
@click.option("--db", type=click.Path(path_type=Path), default=None,
              help="Store the games in this results database (SQLite), with their replays: `arena leaderboard "
                   "--db` shows them. Resumes like a tournament: games stored there are not played again.  "
                   "[default: nothing is stored]")
@_fail_cleanly
def match(bot_names: tuple[str, ...], game_name: str, rounds: int, seed: int | None, option_texts: tuple[str, ...],
          bot_dirs: tuple[Path, ...], move_timeout: float, startup_timeout: float, log_dir: Path,
          db: Path | None) -> None:
    """Play 2 to 4 bots at one game and print each game with every seat's place, and the score."""
    if not 2 <= len(bot_names) <= 4 or len(set(bot_names)) != len(bot_names):
        raise ArenaError(f"a match needs 2 to 4 different bots, got {' '.join(bot_names)}")
    request = check_request([game_name], [len(bot_names)], list(option_texts))
    limits = _limits(move_timeout, startup_timeout)
    specs = named_bots(discover(list(bot_dirs)), bot_names)
    probes = probe_bots(specs, limits)
    for probe in probes:
        if probe.entrant is None:
            raise ArenaError(f"bot {probe.spec.name} is unusable: {probe.problem}")
        if request.games[0] not in probe.entrant.games:
            raise ArenaError(f"bot {probe.spec.name} does not play {request.games[0]} "
                             f"(it plays: {', '.join(sorted(probe.entrant.games))})")
    if db is not None:
        check_database(db)
    key = DiceKey.chosen(seed) if db is None else dice_key_for(db, seed)
    jobs = plan_rotations(specs, request.games[0], rounds, key, request.options.get(request.games[0], {}))
    folder = match_log_dir(log_dir, jobs)
    with contextlib.ExitStack() as stack:
        store = None
        if db is not None:
            store = stack.enter_context(Store(db, writer=True))
            _keep_dice_key(store, key)
            store.add_bots(specs, {p.spec.bot_id: p.hello_name for p in probes if p.hello_name is not None})
            store.use_plan(job.key for job in jobs)
            stored = store.stored_keys()
            if done := sum(1 for job in jobs if job.key in stored):
                click.echo(f"{done} of the match's {len(jobs)} games are already stored in {db}: "
                           "not played again", err=True)
            jobs = [job for job in jobs if job.key not in stored]
        click.echo(f"the bots' stderr goes to {folder}", err=True)
        points = dict.fromkeys(bot_names, 0.0)
        for record in _play_in_lanes(jobs, {spec.bot_id: spec for spec in specs}, limits, folder):
            if store is not None:
                store.add_game(with_replay(record))
            names = [next(s.name for s in specs if s.bot_id == bot_id) for bot_id in record.job.seats]
            for name, earned in zip(names, results.points(record.placements)):
                points[name] += earned
            how = record.termination.value + "".join(
                f" ({f.detail})" if len(names) == 2
                else f"; {names[f.seat]} forfeited: {f.termination.value} ({f.detail})" for f in record.forfeits)
            click.echo(f"{' vs '.join(names)}: {_result_words(record.placements, names)} [{how}]")
        click.echo("score: " + ", ".join(f"{name} {points[name]:.3f}" for name in bot_names)
                   + f" (of {len(jobs)} games)")
        if store is not None:
            _rewrite_ratings(store)
            click.echo(f"stored in {db}: `arena leaderboard --db {db}` builds the site with their replays", err=True)


def _play_in_lanes(jobs: list[Job], specs: dict[str, BotSpec], limits: Limits,
                   folder: Path) -> Iterator[GameRecord]:
    """The games of a match, each rotation's across the rounds in turn,
    so each bot process plays every round and no two games on one seed;
    their stderr logs all in ``folder``."""
    for lane in group_into_matches(jobs, 1):
        yield from play_match(lane, specs, limits, None, folder)


def _result_words(placements: tuple[int, ...], names: list[str]) -> str:
    """The result, for people: who won (or shares first place), or a draw,
    and every seat's place."""
    return results.first_place_words(names, placements) + " (" + ", ".join(
        f"{name} {results.ordinal(place)}" for name, place in zip(names, placements)) + ")"


@main.command("games")
@_fail_cleanly
def list_games() -> None:
    """List the games: player counts, options and rules document."""
    for name, spec in sorted(SPECS.items()):
        game = spec.game
        counts = f"{game.min_players}-{game.max_players} players" + (" (1: solo)" if game.min_players == 1 else "")
        click.echo(f"{name:12} {counts:24} rules: {spec.rules_path()}")
        for option, text in sorted(game.options.items()):
            click.echo(f"{'':12} --option {name}.{option}=VALUE: {text}")
    for name, reason in sorted(broken_plugins().items()):
        click.echo(f"{name:12} not loaded: {reason}")


@main.command("rules")
@click.argument("game_name", metavar="GAME")
@_fail_cleanly
def print_rules(game_name: str) -> None:
    """Print a game's rules document (the file bots are told to read)."""
    click.echo(get_spec(game_name).rules.read_text(encoding="utf-8"), nl=False)


@main.command("bots", epilog=_explained("explanation/trust-model.md", "the box every bot runs in"))
@bots_option
@limits_options
@_fail_cleanly
def list_bots(bot_dirs: tuple[Path, ...], move_timeout: float, startup_timeout: float) -> None:
    """List the bots found and check each with a handshake; say why a bot is unusable."""
    found = find_every_bot(list(bot_dirs))
    limits = _limits(move_timeout, startup_timeout)
    probes = probe_bots(found.bots, limits) if found.bots else []
    lines = [(probe.spec.name, probe.spec.content_hash,
              f"ok: {', '.join(sorted(probe.entrant.games))}" if probe.entrant else f"UNUSABLE: {probe.problem}")
             for probe in probes]
    lines += [(bot.name, bot.content_hash, f"UNUSABLE: {bot.problem}") for bot in found.unusable]
    for name, content_hash, verdict in sorted(lines):
        click.echo(f"{name:20} {content_hash[:12]}  {verdict}")
    if not any(p.entrant for p in probes):
        raise ArenaError("no usable bot")


@main.command(epilog=_explained("explanation/ratings.md", "the ratings and their intervals"))
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True,
              help="The results database (SQLite).")
@click.option("--format", "output_format", type=click.Choice(["table", "json", "csv", "pairs-csv"]),
              default="table", show_default=True,
              help="csv: the json rows, one column per field but pairs; pairs-csv: their pairs, "
                   "a line per bot and opponent.")
@click.option("--luck", "with_luck_fields", is_flag=True,
              help="Also each bot's luck-adjusted score and the luck it received, with 95% intervals "
                   "(the luck of games stored without it is measured first).")
@_fail_cleanly
def standings(db: Path, output_format: str, with_luck_fields: bool) -> None:
    """Print ratings per table (a game at a player count) and overall."""
    if with_luck_fields:
        _measure_missing_luck(db)
    with Store(db) as store:
        computed = _standings(store)
        luck = luck_rows(store.games(solo=False)) if with_luck_fields else None
    rows = computed.rows
    if output_format == "json":
        click.echo(json.dumps(json_rows(rows) if luck is None else with_luck(json_rows(rows), luck), indent=2))
        return
    if output_format in ("csv", "pairs-csv"):
        click.echo(to_csv(rows, luck) if output_format == "csv" else pairs_csv(rows), nl=False)
        return
    for line in text_table(rows):
        click.echo(line)
    for table, seats in computed.seats.items():
        shares = ", ".join(f"seat {seat} {share:.0%}" for seat, share in enumerate(seats.shares()))
        click.echo(f"{table}: first places by seat over {plural(seats.games, 'game')}: {shares}")
    if luck is not None:
        for line in luck_lines(luck, {row.bot_id: row.bot for row in rows}):
            click.echo(line)


def _measure_missing_luck(db: Path) -> None:
    """Measure and store the luck of the games stored without it (all cores,
    arena.luck.stored), unless another arena process is writing the file:
    then what is stored is shown, and the rest waits for a later run."""
    _measure_missing_luck_then(db, lambda store: None)


def _measure_missing_luck_then(db: Path, then: Callable[[Store], R]) -> R | None:
    """``_measure_missing_luck``, and ``then`` with the store still open for
    writing (its result; None where it could not be opened for writing)."""
    if not db.is_file():
        return None  # the reader says there are no results
    try:
        with Store(db, writer=True) as store:
            missing = len(store.unmeasured_luck())
            if missing:
                click.echo(f"measuring the luck of {plural(missing, 'game')} stored without it", err=True)
                measure_missing(store)
            return then(store)
    except StoreInUse as exc:
        click.echo(f"the luck of the games stored without it is not measured now: {exc}", err=True)
        return None


def _standings(store: Store) -> Standings:
    return ratings_cache.rate(store).standings


def _rewrite_ratings(store: Store) -> ratings_cache.Rated:
    """The ratings cache and rating history, from the saved tally and the new games."""
    return ratings_cache.rewrite(store)


@main.command("leaderboard", epilog=_explained("explanation/leaderboard.md", "how the site is built"))
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True,
              help="The results database (SQLite).")
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True)
@_fail_cleanly
def build_leaderboard(db: Path, out: Path) -> None:
    """Regenerate the leaderboard site from the database."""
    # The ratings cache written as at the end of a run, as the site rates
    # the games (so the next build goes on from it too), unless another
    # arena process is writing the file: then the site rates them itself.
    index = _measure_missing_luck_then(db, lambda store: site.build(store, out, rewrite_ratings=True))
    if index is None:
        with Store(db) as store:
            index = site.build(store, out)
    click.echo(f"leaderboard: {index}")


@main.command()
@click.argument("game_name")
@click.argument("bot_name")
@click.option("--games", "count", type=click.IntRange(min=1), default=10, show_default=True,
              help="Solo games to play.")
@click.option("--seed", type=int, default=None, help=SEED_HELP + " Kept in --db: a rerun resumes on it." + SEED_DEFAULT)
@bots_option
@limits_options
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True,
              help="The results database (SQLite).")
@click.option("--log-dir", type=click.Path(path_type=Path), default=None,
              help="Where the run's log (arena.log) and each bot's stderr go  [default: logs beside --db]")
@_fail_cleanly
def solo(game_name: str, bot_name: str, count: int, seed: int | None, bot_dirs: tuple[Path, ...], move_timeout: float,
         startup_timeout: float, db: Path, log_dir: Path | None) -> None:
    """Play solo games (a game for one player) and print the average and best scores
    (lower is better: the rules document says what a solo score counts)."""
    limits = _limits(move_timeout, startup_timeout)
    log_dir = _log_dir_beside(db, log_dir)
    check_database(db)
    key = dice_key_for(db, seed)
    jobs, spec = plan_solo_series(discover(list(bot_dirs)), bot_name, game_name, count, key)
    with Store(db, writer=True) as store:
        _keep_dice_key(store, key)
        play_missing(Plan(jobs, {spec.bot_id: spec}, []), store, LocalExecutor(1), limits, log_dir)
        keys = {job.key for job in jobs}
        scores = [g.scores[0] for g in store.games(solo=True) if g.key in keys and g.scores]
        stored = [row for row in solo_results(store) if row["bot_id"] == spec.bot_id and row["game"] == game_name]
    if not scores:
        raise ArenaError(f"{bot_name} finished none of its {count} solo games (see the logs in {log_dir})")
    click.echo(f"{bot_name} solo {game_name}: {plural(len(scores), 'game')} this series, average "
               f"{sum(scores) / len(scores):.2f} rolls, best {min(scores):g}")
    for row in stored:
        click.echo(f"all stored: {plural(row['games'], 'game')}, average {row['average']:.2f}, best {row['best']:g}")


@main.command()
@click.argument("game_name")
@click.option("--bot", "bot_names", multiple=True, required=True,
              help="A bot to play against (1 to 3 of them; repeat the option).")
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Your seat, from 0 (the rules document says who starts).")
@click.option("--seed", type=int, default=None, help=SEED_HELP + SEED_DEFAULT)
@click.option("--option", "option_texts", multiple=True, metavar="GAME.NAME=VALUE",
              help="A game option (repeatable; `arena games` lists them).")
@click.option("--web", is_flag=True, help="Play in the browser: serve the game on 127.0.0.1 and print its address.")
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="With --web: the port to listen on (default: one the system picks).")
@click.option("--open", "open_page", is_flag=True, help="With --web: open the page in the default browser.")
@click.option("--human-timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              help="With --web: seconds you have for each decision (default: no clock).")
@bots_option
@limits_options
@click.option("--log-dir", type=click.Path(path_type=Path), default=DEFAULT_LOGS, show_default=True,
              help="Where the bots' stderr is kept (under bots/, a file per seat).")
@_fail_cleanly
def play(game_name: str, bot_names: tuple[str, ...], seat: int, seed: int | None, option_texts: tuple[str, ...],
         web: bool, port: int, open_page: bool, human_timeout: float | None, bot_dirs: tuple[Path, ...],
         move_timeout: float, startup_timeout: float, log_dir: Path) -> None:
    """Play GAME_NAME against 1 to 3 bots in the terminal (or, with --web, in the browser)."""
    players = len(bot_names) + 1
    request = check_request([game_name], [players], list(option_texts))
    if seat >= players:
        raise ArenaError(f"--seat must be 0 to {players - 1} in a game of {players} players, got {seat}")
    game = request.games[0]
    specs = tuple(named_bots(discover(list(bot_dirs)), bot_names))
    setting = PersonAgainstBots(game, request.options.get(game, {}), specs, seat, DiceKey.chosen(seed))
    limits = _limits(move_timeout, startup_timeout)
    if web:
        _play_web(setting, limits, port, open_page, human_timeout, log_dir)
        return
    if port or open_page or human_timeout is not None:
        raise ArenaError("--port, --open and --human-timeout go with --web")
    job = setting.job(0)
    names = job.seats
    bots = setting.bot_seats(job, limits, log_dir)
    seats = setting.seating(HumanSeat(), bots)
    click.echo(("dice from a secret key" if seed is None else f"seed {seed}")
               + f"; the bots' stderr goes to {match_log_dir(log_dir, [job])}")
    try:
        record = play_game(job, seats, limits.move_timeout)
    except (KeyboardInterrupt, click.Abort):  # click's prompt turns Ctrl-C and end of input into Abort
        raise Interrupted("interrupted: the game is abandoned and the bots are stopped") from None
    finally:
        for bot in bots:
            bot.close()
    for forfeit in record.forfeits:
        click.echo(f"{names[forfeit.seat]} forfeited: {forfeit.termination.value} ({forfeit.detail})")


def _play_web(setting: PersonAgainstBots, limits: Limits, port: int, open_page: bool, human_timeout: float | None,
              log_dir: Path) -> None:
    # Starlette and uvicorn (about 0.4 s to import) only for --web.
    from arena.web.server import PlaySetup, bind, serve

    sock = bind(port)
    setup = PlaySetup(setting.game, setting.options, setting.bots, setting.seat, setting.key, limits,
                      human_timeout, log_dir)
    serve(setup, sock, open_page, click.echo)


# arena gauntlet ---------------------------------------------------------------

def _sprt_bounds(value: str) -> tuple[float, float]:
    """``--sprt elo0,elo1``: two numbers (their order is the test's to check)."""
    try:
        elo0, elo1 = (float(part) for part in value.split(","))
    except ValueError:
        raise ArenaError(f"--sprt expects ELO0,ELO1 such as 0,50, got {value!r}") from None
    return elo0, elo1


@main.command(epilog=_explained("explanation/gauntlet-statistics.md", "the sequential tests"))
@click.argument("candidate")
@click.option("--vs", "opponents", multiple=True, required=True, metavar="BOT",
              help="An opponent (repeatable): the candidate plays seat-swapped pairs against each.")
@click.option("--games", "game_names", default="",
              help="Comma-separated games (default: every game the candidate and an opponent both play).")
@click.option("--option", "option_texts", multiple=True, metavar="GAME.NAME=VALUE",
              help="A game option (repeatable; `arena games` lists them).")
@click.option("--sprt", "sprt_elos", default=None, metavar="ELO0,ELO1",
              help="Stop when a sequential test (pentanomial GSPRT, logistic Elo) accepts H0: the candidate "
                   "is ELO0 stronger, or H1: ELO1 stronger.")
@click.option("--luck-adjusted", is_flag=True,
              help="With --sprt: test the candidate's luck-adjusted pair scores (points less the luck of the "
                   "dice; a normal GSPRT: docs/explanation/gauntlet-statistics.md) instead of the pentanomial counts.")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="With --sprt: the chance of accepting H1 when H0 holds.")
@click.option("--beta", type=float, default=0.05, show_default=True,
              help="With --sprt: the chance of accepting H0 when H1 holds.")
@click.option("--max-pairs", type=click.IntRange(min=1), default=None,
              help="Most pairs to play in all  [default: 2000 with --sprt, else 100]")
@click.option("--jobs", "workers", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
              help="Games played at once (a batch is twice as many pairs).")
@click.option("--seed", type=int, default=None, help=SEED_HELP + " Kept in --db: a rerun resumes on it." + SEED_DEFAULT)
@bots_option
@limits_options
@click.option("--db", type=click.Path(path_type=Path), default="gauntlet.db", show_default=True)
@click.option("--log-dir", type=click.Path(path_type=Path), default=None,
              help="Where the run's log (arena.log) and each bot's stderr go  [default: logs beside --db]")
@click.option("--format", "output_format", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@_fail_cleanly
def gauntlet(candidate: str, opponents: tuple[str, ...], game_names: str, option_texts: tuple[str, ...],
             sprt_elos: str | None, luck_adjusted: bool, alpha: float, beta: float, max_pairs: int | None,
             workers: int, seed: int | None,
             bot_dirs: tuple[Path, ...], move_timeout: float, startup_timeout: float, db: Path, log_dir: Path | None,
             output_format: str) -> None:
    """Play CANDIDATE against each --vs bot in seat-swapped pairs, optionally until an SPRT decides."""
    try:
        sprt = None if sprt_elos is None else Sprt(*_sprt_bounds(sprt_elos), alpha=alpha, beta=beta)
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    if sprt is None and not (0 < alpha < 1 and 0 < beta < 1):
        raise ArenaError("--alpha and --beta must lie strictly between 0 and 1")
    if luck_adjusted and sprt is None:
        raise ArenaError("--luck-adjusted is a sequential test: it needs --sprt ELO0,ELO1")
    limit = max_pairs or (2000 if sprt else 100)
    games = [g.strip() for g in game_names.split(",") if g.strip()]
    request = check_request(games or None, [2], list(option_texts))
    limits = _limits(move_timeout, startup_timeout)
    log_dir = _log_dir_beside(db, log_dir)
    check_database(db)
    planned = plan_gauntlet(list(bot_dirs), candidate, list(opponents), request, bool(games),
                            dice_key_for(db, seed), limits)
    if luck_adjusted:
        check_luck_measurable(planned)
    matchups = ", ".join(f"{m.opponent.name} at {m.game}" for m in planned.matchups)
    click.echo(f"gauntlet: {candidate} against {matchups}; logs in {log_dir}; at most {limit} pairs"
               + (f", SPRT H0 elo {sprt.elo0:g} vs H1 elo {sprt.elo1:g}, bounds "
                  f"{sprt.bounds[0]:.2f} {sprt.bounds[1]:.2f}" if sprt else "")
               + (" on luck-adjusted pair scores" if luck_adjusted else ""), err=True)

    def report(progress: Progress, played: int) -> None:
        line = _gauntlet_line(summary(progress, sprt))
        click.echo(line + (f" ({plural(played, 'game')} played)" if played else " (stored)"), err=True)

    with Store(db, writer=True) as store:
        _keep_dice_key(store, planned.key)
        _setup_logging(log_dir)
        progress = run_gauntlet(planned, store, LocalExecutor(workers), limits, log_dir, sprt, limit, 2 * workers,
                                report, luck_adjusted)
    result = summary(progress, sprt)
    if output_format == "json":
        click.echo(json.dumps(result, indent=2))
        return
    verdict = result.get("verdict", "done")
    click.echo(f"{verdict}: {candidate} {_gauntlet_line(result)}")


def _gauntlet_line(result: dict[str, Any]) -> str:
    counts = " ".join(f"{name} {count}" for name, count in result["pentanomial"].items())
    adjusted = result.get("adjusted")
    return (f"pairs {result['pairs']} [{counts}] score {result['score']:.3f} elo {elo_text(result)}"
            + (f"; adjusted score {adjusted['score']:.3f} ± {adjusted['error']:.3f} elo {elo_text(adjusted)}"
               if adjusted else "")
            + (f"; LLR {result['llr']:.2f} ({result['bounds'][0]:.2f}, {result['bounds'][1]:.2f})"
               if "llr" in result else ""))



# arena league -----------------------------------------------------------------

@main.command(epilog=_explained("explanation/league.md", "how the league chooses its games"))
@bots_option
@click.option("--games", "game_names", default="", help="Comma-separated games (default: all).")
@click.option("--players", "player_counts", default="2", show_default=True, callback=_counts,
              help="Comma-separated player counts, e.g. 2,3,4: pairs, and pods of 3 and 4 bots.")
@click.option("--option", "option_texts", multiple=True, metavar="GAME.NAME=VALUE",
              help="A game option (repeatable; `arena games` lists them).")
@click.option("--jobs", "workers", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
              help="Games played at once.")
@click.option("--seed", type=int, default=None, help=SEED_HELP + " Kept in --db: a restart goes on with it."
              + SEED_DEFAULT)
@limits_options
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True,
              help="The results database (SQLite); the versions' snapshots go in a folder beside it.")
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True,
              help="Folder for the leaderboard site, brought up to date after every game.")
@click.option("--log-dir", type=click.Path(path_type=Path), default=None,
              help="Where the league's log (arena.log) and each bot's stderr go  [default: logs beside --db]")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", "scheduler_address", default=None,
              help="Dask scheduler address (with --executor dask).")
@click.option("--worker-timeout", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="With --executor dask: seconds games may wait for a usable worker before the league stops.")
@click.option("--sprt", "sprt_elos", default="0,50", show_default=True, metavar="ELO0,ELO1",
              help="A new version's test against its predecessor: H0 it is ELO0 stronger, H1 ELO1 "
                   "(pentanomial GSPRT, logistic Elo, alpha = beta = 0.05).")
@click.option("--test-pairs", type=click.IntRange(min=1), default=400, show_default=True,
              help="Most pairs a version test plays before it says undecided.")
@click.option("--stop-after", type=click.IntRange(min=1), default=None,
              help="Stop once this run has stored this many games  [default: run until stopped]")
@click.option("--serve", "serve_port", type=click.IntRange(0, 65535), default=None, metavar="PORT",
              help="Serve the site over HTTP on PORT (0: one the system picks), its pages updated as games end, "
                   "the games in progress watchable move by move.")
@host_option
@_fail_cleanly
def league(bot_dirs: tuple[Path, ...], game_names: str, player_counts: list[int], option_texts: tuple[str, ...],
           workers: int, seed: int | None, move_timeout: float, startup_timeout: float, db: Path, out: Path,
           log_dir: Path | None, executor: str, scheduler_address: str | None, worker_timeout: float,
           sprt_elos: str, test_pairs: int, stop_after: int | None, serve_port: int | None, host: str) -> None:
    """Run a standing competition: new versions enter as their files change, games are chosen where they teach most."""
    limits = _limits(move_timeout, startup_timeout)
    runner = make_executor(executor, workers, scheduler_address, worker_timeout, notify=_say)
    try:
        sprt = Sprt(*_sprt_bounds(sprt_elos))
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    log_dir = _log_dir_beside(db, log_dir)
    games = [g.strip() for g in game_names.split(",") if g.strip()] or None
    if 1 in player_counts:
        raise ArenaError("a league plays games of 2 to 4 seats (--players); solo games have no opponents to choose")
    request = check_request(games, player_counts, list(option_texts))
    for folder in bot_dirs:
        if not folder.is_dir():
            raise ArenaError(f"bots folder does not exist: {str(folder)!r}")
    check_database(db)
    key = dice_key_for(db, seed)
    listening = None if serve_port is None else _listen(serve_port, host, "--serve")
    with Store(db, writer=True) as store:
        _keep_dice_key(store, key)
        _setup_logging(log_dir)
        standing = League(store, list(bot_dirs), LeagueSettings(request, limits, sprt, test_pairs), key,
                          db.parent / f"{db.stem}-versions", say=_say_and_log)
        click.echo(f"league: {', '.join(request.games)} at {', '.join(map(str, request.players))} seats on "
                   f"{runner.describe()}; logs in {log_dir}; site in {out}; stop it any time and start it "
                   "again to go on", err=True)
        with _served(listening, Path(out), limits, store) as board:
            _run_league(standing, store, Path(out), runner, limits, log_dir, stop_after, board)


def _listen(port: int, host: str, option: str) -> socket.socket:
    # Starlette, uvicorn and sse-starlette (about 0.4 s to import) only to serve.
    from arena.web.server import bind

    return bind(port, host, option)


@contextlib.contextmanager
def _served(listening: socket.socket | None, out: Path, limits: Limits | None, store: Store,
            league: bool = True) -> Iterator[LiveBoard | None]:
    """The site in ``out`` served on ``listening`` (brought up to date
    first), while the block runs; its board, or None where nothing is served."""
    if listening is None:
        yield None
        return
    from arena.web.live import LiveBoard, LiveServer

    site.Site(store, out).build(_rewrite_ratings(store))
    board = LiveBoard(limits.move_timeout if limits else None)
    board.set_status({"league": league, "games": store.count_games()})
    server = LiveServer(out, board, listening)
    server.start()
    _say(f"arena: the site is served at {server.address} (its pages update by themselves)")
    try:
        yield board
    finally:
        server.stop()


def _say_and_log(line: str) -> None:
    logging.getLogger("arena.play.league").info("%s", line)
    _say(line)


def _run_league(standing: League, store: Store, out: Path, runner: Executor, limits: Limits,
                log_dir: Path, stop_after: int | None, board: LiveBoard | None) -> None:
    """Play what the league chooses until it is stopped (a signal, or
    ``stop_after`` games), bringing the site up to date after every game
    (a Site of its own each time: what one remembers of its build is for
    one build, and a league runs for days), and telling ``board``, where
    the site is served, of every event, build and game stored."""
    watch = FolderWatch(list(standing.bot_dirs), standing.changed)
    played = 0
    heard: GameWatcher | None = None
    if board is not None:
        standing.noticed = lambda: board.set_status(standing.status())
        standing.noticed()
        if isinstance(runner, LocalExecutor):
            def heard(job: Job, index: int, event: Event, answer: float | None) -> None:
                if board.event(job, index, event, answer, standing.names):
                    standing.noticed()
        else:
            _say("league: the games in progress on Dask are not followed move by move (only local workers "
                 "report their moves); the served pages update as each game ends")
    games = runner.play(standing, limits, log_dir, watch=heard) if isinstance(runner, LocalExecutor) \
        else runner.play(standing, limits, log_dir)
    try:
        for record in games:
            stored = standing.stored(record)
            if stored is None:
                continue
            played += 1
            names = standing.names()
            places = ", ".join(f"{names.get(bot, bot)} {place}" for bot, place in
                               zip(stored.job.seats, stored.placements))
            _say(f"league: stored {stored.job.game} ({places}), {stored.termination.value}; "
                 f"{standing.store.count_games()} games, {standing.games_per_minute():.1f} a minute")
            site.Site(store, out).build(_rewrite_ratings(store))
            if board is not None:
                count = standing.store.count_games()
                board.built(count)
                board.ended(stored.job.key, count)
                standing.noticed()
            if played % 20 == 0:
                _say(f"league: active {', '.join(standing.active_versions())}")
            if stop_after is not None and played >= stop_after:
                standing.stopping = True
    except KeyboardInterrupt:
        raise Interrupted(f"league stopped: {plural(played, 'game')} stored this run; start it again to go on") \
            from None
    finally:
        watch.close()
    click.echo(f"league stopped after {plural(played, 'game')}; leaderboard: {out / 'index.html'}")



# arena serve ------------------------------------------------------------------

@main.command(epilog=_explained("explanation/leaderboard.md", "what the site shows"))
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True,
              help="The results database (SQLite) the site is made from.")
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True,
              help="Folder of the leaderboard site, brought up to date before it is served.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: one the system picks).")
@host_option
@_fail_cleanly
def serve(db: Path, out: Path, port: int, host: str) -> None:
    """Serve the leaderboard site over HTTP; its pages update when the site is built again (by a tournament)."""
    if not db.is_file():
        raise ArenaError(f"no results database at {str(db)!r}: run a tournament or a league first (--db)")
    import watchfiles

    listening = _listen(port, host, "--port")
    with Store(db) as store, _served(listening, out, None, store, league=False) as board:
        assert board is not None
        # Whoever builds the site (a tournament's end, a league's every game) writes its manifest last.
        for changes in watchfiles.watch(out, debounce=200, step=50, recursive=False, raise_interrupt=True):
            if any(Path(path).name == site.MANIFEST for _, path in changes):
                games = store.count_games()
                board.set_status({"league": False, "games": games})
                board.built(games)


# arena check ------------------------------------------------------------------

@main.command("check", epilog=_explained("explanation/trust-model.md", "the limits a bot is checked against"))
@click.argument("bot_name", metavar="BOT")
@bots_option
@limits_options
@click.option("--log-dir", type=click.Path(path_type=Path), default=DEFAULT_LOGS, show_default=True,
              help="Where the check keeps the bot's stderr and the decide message of a move it got wrong "
                   "(under check/BOT, emptied at each check).")
@_fail_cleanly
def check_command(bot_name: str, bot_dirs: tuple[Path, ...], move_timeout: float, startup_timeout: float,
                  log_dir: Path) -> None:
    """Check a bot before submitting it: handshake, a game of each game and player count, time, stderr."""
    limits = _limits(move_timeout, startup_timeout)
    spec, filler = find_bots(list(bot_dirs), bot_name)
    report = check_bot(spec, filler, limits, log_dir / "check" / spec.name)
    for finding in report.findings:
        click.echo(finding.line())
    if not report.fit:
        problems = len(report.problems)
        raise ArenaError(f"{bot_name} is not fit for a tournament: {problems} problem{'s' * (problems > 1)} above")
    click.echo(f"{bot_name} is fit for a tournament")

if __name__ == "__main__":
    main()
