"""The ``arena`` command: a thin layer of options over the library."""

from __future__ import annotations

import functools
import json
import logging
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

import click

from arena import results
from arena.bots.discovery import discover
from arena.errors import ArenaError
from arena.games import get_game
from arena.games.base import InvalidOptions
from arena.model import Job, Limits
from arena.play.executors import Executor
from arena.play.match import play_match
from arena.play.plan import plan_round_robin
from arena.play.tournament import (
    Interrupted,
    Plan,
    plan_solo_series,
    plan_tournament,
    play_missing,
    probe_bots,
)
from arena.store import Store

DEFAULT_DB = "arena.db"
DEFAULT_OUT = "leaderboard"
DEFAULT_LOGS = "logs"


def _fail_cleanly(command):
    """Library errors become one line on stderr and exit status 1; Ctrl-C
    and SIGTERM at any moment become one line and exit status 130."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
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
        finally:
            signal.signal(signal.SIGTERM, previous)
    return wrapper


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def bots_option(command):
    return click.option("--bots", "bot_dirs", multiple=True, default=["bots"], show_default=True,
                        type=click.Path(path_type=Path), help="Folder of bots (repeatable).")(command)


def limits_options(command):
    """The per-bot limits. The timeouts are parameters of the command; the
    others are kept in the click context and picked up by _limits, so every
    command gets them all without naming them."""
    from arena.bots.isolation import ISOLATIONS
    from arena.bots.process import format_size, parse_size

    def keep(field, convert=lambda value: value):
        def callback(ctx, param, value):
            try:
                ctx.meta.setdefault("arena.limits", {})[field] = convert(value)
            except ValueError as exc:
                raise click.BadParameter(str(exc), ctx, param) from None
            return value
        return callback

    def size(name, field, text):
        return click.option(name, default=format_size(getattr(Limits, field)), show_default=True,
                            metavar="SIZE", expose_value=False, callback=keep(field, parse_size),
                            help=text + " (bytes, or with K, M, G).")

    def count(name, field, low, text):
        return click.option(name, type=click.IntRange(min=low), default=getattr(Limits, field),
                            show_default=True, expose_value=False, callback=keep(field), help=text)

    options = [
        click.option("--move-timeout", type=click.FloatRange(min=0.001), default=Limits.move_timeout,
                     show_default=True, help="Seconds a bot has for each decision."),
        click.option("--startup-timeout", type=click.FloatRange(min=0.001), default=Limits.startup_timeout,
                     show_default=True, help="Seconds a bot has to start and answer hello."),
        count("--cpu-time", "cpu_seconds", 1, "CPU seconds per bot process."),
        size("--address-space", "address_space_bytes", "Address space (memory) per bot process"),
        count("--processes", "processes", 1, "Processes and threads per bot process."),
        size("--file-size", "file_size_bytes", "Largest file a bot may write"),
        count("--open-files", "open_files", 8, "Open files per bot process."),
        size("--stderr-cap", "stderr_bytes", "Bot stderr kept in the log per bot and match"),
        size("--line-cap", "max_line_bytes", "Longest line a bot may print"),
        click.option("--isolation", type=click.Choice(ISOLATIONS), multiple=True, expose_value=False,
                     callback=keep("isolation", tuple),
                     help="Stronger isolation, repeatable: network (no network at all), "
                          "user (a user id of its own; needs root)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _limits(move_timeout: float, startup_timeout: float) -> Limits:
    from arena.bots.isolation import check

    context = click.get_current_context(silent=True)
    chosen = context.meta.get("arena.limits", {}) if context else {}
    limits = Limits(startup_timeout=startup_timeout, move_timeout=move_timeout, **chosen)
    check(limits.confinement, limits.isolation)
    return limits


def _setup_logging(log_dir: Path) -> None:
    import multiprocessing_logging

    log_dir.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(log_dir / "arena.log")
    handler.setFormatter(logging.Formatter("%(asctime)s %(processName)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    root.addHandler(handler)
    multiprocessing_logging.install_mp_handler(root)


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


@click.group(cls=_OneLineErrors)
@click.version_option(package_name="dice-arena")
def main() -> None:
    """Tournaments between bot processes at Detour, Slyyde, Ciclovia and Roundabout."""


@main.command()
@bots_option
@click.option("--games", "game_names", default="", help="Comma-separated games (default: all).")
@click.option("--rounds", type=click.IntRange(min=1), default=2, show_default=True,
              help="Seat-swapped pairs per pair of bots per game.")
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
              help="Games played at once.")
@click.option("--seed", type=int, default=1, show_default=True, help="Tournament seed.")
@limits_options
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True,
              help="Folder for the leaderboard site.")
@click.option("--log-dir", type=click.Path(path_type=Path), default=DEFAULT_LOGS, show_default=True)
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", "scheduler_address", default=None,
              help="Dask scheduler address (with --executor dask).")
@click.option("--worker-timeout", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="With --executor dask: seconds games may wait for a usable worker before "
                   "the run gives up.")
@_fail_cleanly
def tournament(bot_dirs, game_names, rounds, jobs, seed, move_timeout, startup_timeout, db, out,
               log_dir, executor, scheduler_address, worker_timeout):
    """Play every pair of bots at every game both play; resume if interrupted."""
    from arena import site
    from arena.play.executors import make_executor

    limits = _limits(move_timeout, startup_timeout)
    games = [g.strip() for g in game_names.split(",") if g.strip()] or None
    runner = make_executor(executor, jobs, scheduler_address, worker_timeout, notify=_say)
    with Store(db, writer=True) as store:
        plan = plan_tournament(list(bot_dirs), games, rounds, seed, limits)
        for probe in plan.unusable:
            click.echo(f"skipping {probe.spec.name}: {probe.problem}", err=True)
        _setup_logging(log_dir)
        done = store.stored_keys()
        missing = sum(1 for job in plan.jobs if job.key not in done)
        click.echo(f"{len(plan.jobs)} games planned, {len(plan.jobs) - missing} already stored, "
                   f"{missing} to play on {runner.describe()}", err=True)
        _play_with_progress(plan, store, runner, limits, log_dir, missing)
        index = site.build(store, out)
    click.echo(f"leaderboard: {index}")


def _say(message: str) -> None:
    """A line from the executor, over the progress bar's line on a terminal."""
    click.echo(("\r\033[K" if sys.stderr.isatty() else "") + message, err=True)


def _play_with_progress(plan: Plan, store: Store, runner: Executor, limits: Limits, log_dir: Path,
                        missing: int) -> None:
    with click.progressbar(length=missing, label="games", show_eta=True, show_pos=True,
                           file=sys.stderr) as bar:
        play_missing(plan, store, runner, limits, log_dir, on_game=lambda record: bar.update(1))


@main.command()
@click.argument("bot_a")
@click.argument("bot_b")
@click.option("--game", "game_name", required=True, help="The game to play.")
@click.option("--rounds", type=click.IntRange(min=1), default=1, show_default=True,
              help="Seat-swapped pairs to play.")
@click.option("--seed", type=int, default=1, show_default=True)
@bots_option
@limits_options
@_fail_cleanly
def match(bot_a, bot_b, game_name, rounds, seed, bot_dirs, move_timeout, startup_timeout):
    """Play BOT_A against BOT_B and print the score (nothing is stored)."""
    get_game(game_name)
    limits = _limits(move_timeout, startup_timeout)
    specs = {spec.name: spec for spec in discover(list(bot_dirs))}
    for name in (bot_a, bot_b):
        if name not in specs:
            raise ArenaError(f"unknown bot: {name!r} (available: {', '.join(sorted(specs))})")
    if bot_a == bot_b:
        raise ArenaError("a match needs two different bots")
    from arena.play.plan import Entrant

    entrants = [Entrant(specs[bot_a], frozenset([game_name])), Entrant(specs[bot_b], frozenset([game_name]))]
    jobs = plan_round_robin(entrants, [game_name], rounds, seed)
    by_id = {e.spec.bot_id: e.spec for e in entrants}
    points = {bot_a: 0.0, bot_b: 0.0}
    for record in play_match(jobs, by_id, limits, None):
        names = [by_id[b].name for b in record.job.seats]
        for name, earned in zip(names, results.points(record.placements)):
            points[name] += earned
        how = record.termination.value + (f" ({record.detail})" if record.detail else "")
        click.echo(f"{names[0]} vs {names[1]}: {_result_words(record.placements, names)} [{how}]")
    click.echo(f"score: {bot_a} {points[bot_a]:g} - {points[bot_b]:g} {bot_b}")


def _result_words(placements: tuple[int, ...], names: list[str]) -> str:
    """Who won, for people: the winner, the winners sharing a win, or draw."""
    first = [names[seat] for seat, place in enumerate(placements) if place == 1]
    return "draw" if len(first) == len(names) else ", ".join(first)


@main.command("bots")
@bots_option
@limits_options
@_fail_cleanly
def list_bots(bot_dirs, move_timeout, startup_timeout):
    """List the bots found and check each with a handshake."""
    probes = probe_bots(discover(list(bot_dirs)), _limits(move_timeout, startup_timeout))
    for probe in probes:
        if probe.entrant:
            games = ", ".join(sorted(probe.entrant.games))
            click.echo(f"{probe.spec.name:20} {probe.spec.content_hash[:12]}  ok: {games}")
        else:
            click.echo(f"{probe.spec.name:20} {probe.spec.content_hash[:12]}  UNUSABLE: {probe.problem}")
    if not any(p.entrant for p in probes):
        raise ArenaError("no usable bot")


@main.command()
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True)
@click.option("--format", "output_format", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@_fail_cleanly
def standings(db, output_format):
    """Print ratings per game and overall."""
    from arena.stats.elo import standings as compute

    with Store(db) as store:
        names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
        rows = compute(store.games(solo=False), names)
    if output_format == "json":
        click.echo(json.dumps([row.to_json() for row in rows], indent=2))
        return
    header = (f"{'game':12} {'bot':20} {'version':12} {'elo':>7} {'games':>6} {'wins':>5} {'losses':>6} "
              f"{'draws':>5} {'forfeits':>8}")
    click.echo(header)
    for row in rows:
        data = row.to_json()
        click.echo(f"{row.game:12} {row.name[:20]:20} {data['version']:12} {row.elo:7.1f} {row.games:6} "
                   f"{row.wins:5} {row.losses:6} {row.draws:5} {row.forfeits:8}")


@main.command("leaderboard")
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True)
@_fail_cleanly
def build_leaderboard(db, out):
    """Regenerate the leaderboard site from the database."""
    from arena import site

    with Store(db) as store:
        index = site.build(store, out)
    click.echo(f"leaderboard: {index}")


@main.command()
@click.argument("game_name")
@click.argument("bot_name")
@click.option("--games", "count", type=click.IntRange(min=1), default=10, show_default=True,
              help="Solo games to play.")
@click.option("--seed", type=int, default=1, show_default=True)
@bots_option
@limits_options
@click.option("--db", type=click.Path(path_type=Path), default=DEFAULT_DB, show_default=True)
@click.option("--log-dir", type=click.Path(path_type=Path), default=DEFAULT_LOGS, show_default=True)
@_fail_cleanly
def solo(game_name, bot_name, count, seed, bot_dirs, move_timeout, startup_timeout, db, log_dir):
    """Play solo games (Slyyde) and print the average and best roll counts."""
    from arena.play.executors import LocalExecutor
    from arena.site import solo_table

    limits = _limits(move_timeout, startup_timeout)
    jobs, spec = plan_solo_series(discover(list(bot_dirs)), bot_name, game_name, count, seed)
    with Store(db, writer=True) as store:
        play_missing(Plan(jobs, {spec.bot_id: spec}, []), store, LocalExecutor(1), limits, log_dir)
        keys = {job.key for job in jobs}
        scores = [g.scores[0] for g in store.games(solo=True) if g.key in keys and g.scores]
        table = [row for row in solo_table(store) if row["bot_id"] == spec.bot_id and row["game"] == game_name]
    if not scores:
        raise ArenaError(f"{bot_name} finished none of its {count} solo games (see the logs in {log_dir})")
    click.echo(f"{bot_name} solo {game_name}: {len(scores)} games this series, average "
               f"{sum(scores) / len(scores):.2f} rolls, best {min(scores):g}")
    for row in table:
        click.echo(f"all stored: {row['games']} games, average {row['average']:.2f}, best {row['best']:g}")


@main.command()
@click.argument("game_name")
@click.option("--bot", "bot_name", required=True, help="The bot to play against.")
@click.option("--seat", type=click.IntRange(0, 1), default=0, show_default=True,
              help="Your seat (0 or 1; the rules document says who starts).")
@click.option("--seed", type=int, default=None, help="Dice seed (default: random).")
@bots_option
@limits_options
@_fail_cleanly
def play(game_name, bot_name, seat, seed, bot_dirs, move_timeout, startup_timeout):
    """Play GAME_NAME against a bot in the terminal."""
    from arena.bots.protocol import BotSeat
    from arena.play.human import HumanSeat
    from arena.play.referee import Seat, play_game

    game = get_game(game_name)
    specs = {spec.name: spec for spec in discover(list(bot_dirs))}
    if bot_name not in specs:
        raise ArenaError(f"unknown bot: {bot_name!r} (available: {', '.join(sorted(specs))})")
    limits = _limits(move_timeout, startup_timeout)
    bot = BotSeat(specs[bot_name], limits)
    seats: list[Seat] = [HumanSeat(), bot] if seat == 0 else [bot, HumanSeat()]
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    names = ("you", bot_name) if seat == 0 else (bot_name, "you")
    job = Job(f"play/{game.name}/{seed}", game.name, names, seed)
    try:
        record = play_game(job, seats, limits.move_timeout)
    finally:
        bot.close()
    if record.forfeit_seat is not None:
        click.echo(f"{job.seats[record.forfeit_seat]} forfeits: {record.termination.value} ({record.detail})")
    click.echo("winner: " + _result_words(record.placements, list(job.seats)))


if __name__ == "__main__":
    main()
