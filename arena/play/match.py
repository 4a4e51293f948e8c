"""Playing a match: a run of games between the same bots, each bot one
process reused from game to game, every process gone at the end."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Generator
from pathlib import Path

from arena.bots.protocol import BotSeat
from arena.model import BotSpec, GameRecord, Job, Limits
from arena.play.referee import play_game


def match_log_dir(log_dir: Path, jobs: list[Job]) -> Path:
    """A folder per match for its bots' stderr logs, named stably: the
    game, the bots (by name), the round, and a hash of the match's keys."""
    first = jobs[0]
    digest = hashlib.sha256("\n".join(job.key for job in jobs).encode()).hexdigest()[:10]
    names = "-".join(re.sub(r"[^A-Za-z0-9_.]", "_", bot_id.partition("@")[0])[:20] for bot_id in first.seats)
    return log_dir / "bots" / f"{first.game}-{names}-r{first.round}-{digest}"


def play_match(jobs: list[Job], specs: dict[str, BotSpec], limits: Limits,
               log_dir: Path | None) -> Generator[GameRecord, None, None]:
    folder = match_log_dir(log_dir, jobs) if log_dir else None
    if folder:
        folder.mkdir(parents=True, exist_ok=True)
    seats: dict[str, BotSeat] = {}
    try:
        for job in jobs:
            for bot_id in job.seats:
                if bot_id not in seats:
                    log = folder / f"{specs[bot_id].name}.stderr.log" if folder else None
                    seats[bot_id] = BotSeat(specs[bot_id], limits, log)
            record = play_game(job, [seats[bot_id] for bot_id in job.seats], limits.move_timeout)
            record.logs = tuple(str(seats[b].stderr_log) if seats[b].stderr_log else None
                                for b in job.seats)
            yield record
    finally:
        for seat in seats.values():
            seat.close()
