"""Running a tournament or a solo series: check the bots, plan, play what is
missing, store each game as it finishes, write the leaderboard."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from arena.bots.discovery import discover
from arena.bots.process import BotProcess
from arena.bots.protocol import handshake
from arena.errors import ArenaError, BotError
from arena.games import GAMES, get_game
from arena.model import BotSpec, GameRecord, Job, Limits
from arena.play.executors import Executor
from arena.play.plan import Entrant, group_into_matches, plan_round_robin, plan_solo
from arena.store import Store

log = logging.getLogger(__name__)


class Interrupted(ArenaError):
    """The run was stopped by a signal; what finished is stored."""


@dataclass(frozen=True)
class Probe:
    """What a handshake told about a bot: an entrant, or why it is unusable."""

    spec: BotSpec
    entrant: Entrant | None
    problem: str | None


def probe_bots(specs: list[BotSpec], limits: Limits) -> list[Probe]:
    """Start every bot once, concurrently, and shake hands. Interrupted, it
    kills the bots it started instead of waiting out their start-up time."""
    running: set[BotProcess] = set()
    pool = ThreadPoolExecutor(max_workers=min(8, len(specs)))
    try:
        return list(pool.map(lambda spec: _probe(spec, limits, running), specs))
    except KeyboardInterrupt:
        for process in list(running):
            process.kill()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _probe(spec: BotSpec, limits: Limits, running: set[BotProcess]) -> Probe:
    try:
        process = BotProcess(spec, limits)
    except BotError as exc:
        return Probe(spec, None, str(exc))
    running.add(process)
    try:
        hello = handshake(process, limits.startup_timeout)
    except BotError as exc:
        return Probe(spec, None, f"handshake failed: {exc}")
    finally:
        process.close()
        running.discard(process)
    games = frozenset(hello["games"]) & frozenset(GAMES)
    if not games:
        return Probe(spec, None, f"plays none of the registered games (said {hello['games']!r})")
    return Probe(spec, Entrant(spec, games), None)


@dataclass
class Plan:
    jobs: list[Job]
    specs: dict[str, BotSpec]
    unusable: list[Probe]


def plan_tournament(bot_dirs: list[Path], games: list[str] | None, rounds: int, seed: int,
                    limits: Limits) -> Plan:
    for name in games or []:
        get_game(name)
    probes = probe_bots(discover(bot_dirs), limits)
    entrants = [p.entrant for p in probes if p.entrant]
    for probe in probes:
        if probe.problem:
            log.warning("bot %s is unusable: %s", probe.spec.name, probe.problem)
    if len(entrants) < 2:
        raise ArenaError(f"a tournament needs at least two usable bots, found {len(entrants)}"
                         + "".join(f"; {p.spec.name}: {p.problem}" for p in probes if p.problem))
    chosen = games or sorted(GAMES)
    jobs = plan_round_robin(entrants, chosen, rounds, seed)
    if not jobs:
        raise ArenaError(f"no two bots play any of: {', '.join(chosen)}")
    return Plan(jobs, {e.spec.bot_id: e.spec for e in entrants}, [p for p in probes if p.problem])


def play_missing(plan: Plan, store: Store, executor: Executor, limits: Limits, log_dir: Path | None,
                 on_game: Callable[[GameRecord], None] = lambda record: None) -> int:
    """Play the planned games not yet stored; store each as it finishes.
    Returns how many were played. Interrupted (Ctrl-C, or SIGTERM, which
    the command line turns into the same), running games are abandoned and
    stored ones stay."""
    store.add_bots(list(plan.specs.values()))
    done = store.stored_keys()
    missing = [job for job in plan.jobs if job.key not in done]
    if not missing:
        return 0
    matches = group_into_matches(missing, executor.jobs)
    played = 0
    try:
        for record in executor.run(matches, plan.specs, limits, log_dir):
            if store.add_game(record):
                played += 1
            on_game(record)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted: {played} games stored this run, "
                          f"{len(missing) - played} still to play; run the same command again to resume") from None
    return played


def plan_solo_series(bot_dir_specs: list[BotSpec], bot_name: str, game: str, count: int,
                     seed: int) -> tuple[list[Job], BotSpec]:
    found = {spec.name: spec for spec in bot_dir_specs}
    if bot_name not in found:
        raise ArenaError(f"unknown bot: {bot_name!r} (available: {', '.join(sorted(found))})")
    if get_game(game).min_players > 1:
        raise ArenaError(f"{game} has no solo mode")
    spec = found[bot_name]
    return plan_solo(spec, game, count, seed), spec
