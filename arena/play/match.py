"""Playing a match: a run of games between the same bots, each bot one
process reused from game to game, every process gone at the end.

Each bot's stderr is kept per game and seat: a process lives across the
games of a match, so its log is switched to the next game's file as that
game starts (stderr written between two games lands in the later one)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from arena.bots.protocol import BotSeat
from arena.games.base import Action, State
from arena.model import BotSpec, Event, GameRecord, Job, Limits
from arena.play.referee import Seat, Watcher, play_game

# What a worker may take between two heartbeats beyond the limits' own
# bound (see worker_deadline): making a replay, sending a record, killing a
# bot's process group, a busy machine.
WORKER_SLACK = 10.0


def worker_deadline(limits: Limits) -> float:
    """How long a busy worker may go without a heartbeat before it is taken
    for stopped or hung. A worker beats before every call into a seat and
    after every game it sends, and the longest call the limits allow is a
    seat's start: a bot process's handshake (the start-up timeout) and the
    game's start message (a move timeout); a decision is at most two move
    timeouts on the wall clock (the bot's own time, and as long again
    waiting for a CPU: arena.bots.turn_clock)."""
    return limits.startup_timeout + 2 * limits.move_timeout + WORKER_SLACK


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.]", "_", name)[:20]


def match_log_dir(log_dir: Path, jobs: list[Job]) -> Path:
    """A folder per match for its bots' stderr logs, named stably: the
    game, the bots (by name), the round, and a hash of the match's keys."""
    first = jobs[0]
    digest = hashlib.sha256("\n".join(job.key for job in jobs).encode()).hexdigest()[:10]
    names = "-".join(_safe(bot_id.partition("@")[0]) for bot_id in first.seats)
    return log_dir / "bots" / f"{first.game}-{names}-r{first.round}-{digest}"


def game_log(folder: Path, job: Job, seat: int, name: str) -> Path:
    """The stderr log of one seat of one game: named by a hash of the
    game's key (unique in the match however it is split up to be played),
    the seat and the bot."""
    digest = hashlib.sha256(job.key.encode()).hexdigest()[:10]
    return folder / f"game-{digest}-seat{seat}-{_safe(name)}.stderr.log"


def play_match(jobs: list[Job], specs: dict[str, BotSpec], limits: Limits, log_dir: Path | None,
               folder: Path | None = None,
               heartbeat: Callable[[], None] | None = None,
               watch: Callable[[Job], Watcher] | None = None) -> Generator[GameRecord, None, None]:
    """Play the jobs in order, yielding each game's record, each bot one
    process while it can (BotSeat starts a fresh one for a game on a seed
    the last one played). The stderr logs go to ``folder``, by default the
    match's own under ``log_dir``. ``heartbeat``, if given, is called before
    every call into a seat, so that whoever watches this process sees it is
    not stopped or hung (see worker_deadline). ``watch``, if given, makes
    each game's watcher (arena.play.referee.play_game)."""
    if folder is None and log_dir:
        folder = match_log_dir(log_dir, jobs)
    seats: dict[str, BotSeat] = {}
    try:
        for job in jobs:
            logs: list[Path | None] = []
            for seat, bot_id in enumerate(job.seats):
                log = game_log(folder, job, seat, specs[bot_id].name) if folder else None
                logs.append(log)
                if bot_id not in seats:
                    seats[bot_id] = BotSeat(specs[bot_id], limits, log)
                seats[bot_id].log_stderr_to(log)
            playing: list[Seat] = [seats[bot_id] for bot_id in job.seats]
            if heartbeat is not None:
                playing = [_Beating(seat, heartbeat) for seat in playing]
            record = play_game(job, playing, limits.move_timeout, None if watch is None else watch(job))
            record.logs = tuple(None if log is None else str(log) for log in logs)
            yield record
    finally:
        for bot in seats.values():
            bot.close()


class _Beating:
    """A seat that beats the heart before each call into it."""

    def __init__(self, seat: Seat, heartbeat: Callable[[], None]) -> None:
        self.seat, self.heartbeat = seat, heartbeat

    @property
    def updates(self) -> bool:
        return self.seat.updates

    def start_game(self, job: Job, seat: int, state: State) -> None:
        self.heartbeat()
        self.seat.start_game(job, seat, state)

    def decide(self, state: State, actions: list[Action], timeout: float) -> int:
        self.heartbeat()
        return self.seat.decide(state, actions, timeout)

    def observe(self, event: Event, state: State) -> None:
        self.heartbeat()
        self.seat.observe(event, state)

    def end_game(self, state: State, result: dict[str, Any]) -> None:
        self.heartbeat()
        self.seat.end_game(state, result)
