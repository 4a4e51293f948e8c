"""Running a tournament or a solo series: check the bots, plan, play what is
missing, store each game as it finishes, write the leaderboard."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.bots.discovery import discover, named_bots
from arena.errors import ArenaError
from arena.games import GAMES, get_game
from arena.games.base import InvalidOptions
from arena.model import BotSpec, DiceKey, GameRecord, Job, Limits, Termination
from arena.play.executors import Executor
from arena.play.plan import (
    PodBalance,
    group_into_matches,
    plan_pods,
    plan_round_robin,
    plan_solo,
    plan_solo_rounds,
)
from arena.play.probe import Probe, probe_bots
from arena.plurals import plural
from arena.store import Store, stored_dice_key

log = logging.getLogger(__name__)


class Interrupted(ArenaError):
    """The run was stopped by a signal; what finished is stored."""


@dataclass
class Plan:
    jobs: list[Job]
    specs: dict[str, BotSpec]
    unusable: list[Probe]
    balances: list[PodBalance] = field(default_factory=list)
    hello_names: dict[str, str] = field(default_factory=dict)  # by bot id, as each bot's hello said


def parse_options(texts: list[str], games: list[str]) -> dict[str, dict[str, Any]]:
    """``GAME.NAME=VALUE`` options by game; a value is read as JSON where it
    is JSON (``4``, ``true``), else as text. Raises ArenaError for a game not
    played or an option the game does not have."""
    options: dict[str, dict[str, Any]] = {}
    for text in texts:
        target, equals, value = text.partition("=")
        game_name, dot, name = target.partition(".")
        if not (equals and dot and game_name and name):
            raise ArenaError(f"an option is GAME.NAME=VALUE (`arena games` lists them); got {text!r}")
        game = get_game(game_name)
        if game.name not in games:
            raise ArenaError(f"option {text!r} is for {game.name}, which this run does not play")
        if name not in game.options:
            raise ArenaError(f"{game.name} has no option {name!r} (available: "
                             f"{', '.join(sorted(game.options)) or 'none'})")
        try:
            options.setdefault(game.name, {})[name] = json.loads(value)
        except ValueError:
            options.setdefault(game.name, {})[name] = value
    return options


@dataclass(frozen=True)
class Request:
    """What a tournament plays, checked: games, player counts, options."""

    games: list[str]
    players: list[int]
    options: dict[str, dict[str, Any]]


def check_request(games: list[str] | None, players: list[int] | None = None,
                  option_texts: list[str] | None = None) -> Request:
    """The games (all by default), player counts (two by default) and
    options of a run, each checked; a game that cannot seat a count (or not
    with its options) is refused with one line. Nothing is stored yet."""
    chosen = games or sorted(GAMES)
    for name in chosen:
        get_game(name)
    counts = sorted(set(players or [2]))
    options = parse_options(option_texts or [], chosen)
    for name in chosen:
        for count in counts:
            try:
                get_game(name).new_state(count, options.get(name, {}))
            except InvalidOptions as exc:
                raise ArenaError(str(exc)) from None
    return Request(chosen, counts, options)


def dice_key_for(db: Path, seed: int | None) -> DiceKey:
    """The dice key of a run on ``db``: the one stored there, so that a
    rerun resumes on the same dice; for a database without one, a key made
    from ``seed``, or drawn at random without it. A ``seed`` that would mix
    two keys' dice in one database is refused."""
    stored = stored_dice_key(db)
    if stored is None:
        return DiceKey.chosen(seed)
    if seed is None or seed == stored.seed:
        return stored
    if stored.seed is None:
        raise ArenaError(f"--seed {seed} would mix dice: the games in {str(db)!r} are on a secret key; "
                         "leave --seed out to resume, or use another --db")
    raise ArenaError(f"--seed {seed} differs from the seed of the games in {str(db)!r} ({stored.seed}); "
                     "leave --seed out to resume, or use another --db")


def plan_tournament(bot_dirs: list[Path], request: Request, rounds: int, key: DiceKey, limits: Limits) -> Plan:
    """Check the bots and plan every game at every player count of the
    request, ``rounds`` times."""
    chosen, counts, options = request.games, request.players, request.options
    probes = probe_bots(discover(bot_dirs), limits)
    entrants = [p.entrant for p in probes if p.entrant]
    for probe in probes:
        if probe.problem:
            log.warning("bot %s is unusable: %s", probe.spec.name, probe.problem)
    if len(entrants) < max(counts):
        raise ArenaError(f"a game of {max(counts)} players needs {max(counts)} usable bots, found "
                         f"{len(entrants)}" + "".join(f"; {p.spec.name}: {p.problem}" for p in probes if p.problem))
    jobs: list[Job] = []
    balances: list[PodBalance] = []
    for count in counts:
        if count == 1:
            planned = plan_solo_rounds(entrants, chosen, rounds, key, options)
        elif count == 2:
            planned = plan_round_robin(entrants, chosen, rounds, key, options)
        else:
            planned, balance = plan_pods(entrants, chosen, count, rounds, key, options)
            balances += balance
        if not planned:
            raise ArenaError(f"no {count} usable bots play any one of: {', '.join(chosen)}")
        jobs += planned
    return Plan(jobs, {e.spec.bot_id: e.spec for e in entrants}, [p for p in probes if p.problem], balances,
                {p.spec.bot_id: p.hello_name for p in probes if p.entrant and p.hello_name is not None})


def play_missing(plan: Plan, store: Store, executor: Executor, limits: Limits, log_dir: Path | None,
                 on_game: Callable[[GameRecord], None] = lambda record: None) -> int:
    """Play the planned games not yet stored; store each as it finishes.
    Returns how many were played. Interrupted (Ctrl-C, or SIGTERM, which
    the command line turns into the same), running games are abandoned and
    stored ones stay."""
    store.add_bots(list(plan.specs.values()), plan.hello_names)
    store.use_plan(job.key for job in plan.jobs)
    for bot_id, hello_name in sorted(plan.hello_names.items()):
        log.info("bot %s says hello as %s", bot_id, json.dumps(hello_name))
    done = store.stored_keys()
    missing = [job for job in plan.jobs if job.key not in done]
    if not missing:
        return 0
    matches = group_into_matches(missing, executor.workers)
    played = 0
    try:
        for record in executor.run(matches, plan.specs, limits, log_dir):
            if store.add_game(record):
                played += 1
                _log_game(record, plan.specs, played, len(missing))
            on_game(record)
    except KeyboardInterrupt:
        # Counted from the store: the interrupt may land between a game's
        # commit and the count above.
        played = len(store.stored_keys() & {job.key for job in missing})
        raise Interrupted(f"interrupted: {plural(played, 'game')} stored this run, "
                          f"{len(missing) - played} still to play; run the same command again to resume") from None
    return played


def _log_game(record: GameRecord, specs: dict[str, BotSpec], played: int, missing: int) -> None:
    """A stored game in the tournament's log: its result and every forfeit."""
    names = [specs[bot_id].name if bot_id in specs else bot_id for bot_id in record.job.seats]
    if record.termination is Termination.REFEREE_FAILURE:
        log.warning("stored %d of %d: %s %s between %s as a referee failure (no result): %s", played, missing,
                    record.job.game, record.job.key, ", ".join(names), record.failure)
        return
    places = ", ".join(f"{name} {place}" for name, place in zip(names, record.placements))
    log.info("stored %d of %d: %s %s (%s), %s", played, missing, record.job.game, record.job.key, places,
             record.termination.value)
    for forfeit in record.forfeits:
        log.warning("%s forfeited %s game %s: %s (%s)", names[forfeit.seat], record.job.game, record.job.key,
                    forfeit.termination.value, forfeit.detail)


def plan_solo_series(bot_dir_specs: list[BotSpec], bot_name: str, game: str, count: int,
                     key: DiceKey) -> tuple[list[Job], BotSpec]:
    [spec] = named_bots(bot_dir_specs, [bot_name])
    if get_game(game).min_players > 1:
        raise ArenaError(f"{game} has no solo mode")
    return plan_solo(spec, game, count, key), spec
