"""The Dask worker's side of the Dask executor: the tasks a worker runs
(start each bot once; play part of a match) and what they need there (the
folder where this worker process unpacks bots, the logs a task captures).

arena, with the ``dask`` extra, must be installed on every worker at the
client's version: these functions are what the tasks name.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from distributed import get_worker

import arena
from arena.bots import warden
from arena.bots.bundle import BotBundle, unpack_bot
from arena.errors import ArenaError
from arena.games.replays import with_replay
from arena.model import Job, Limits
from arena.play.match import match_log_dir, play_match
from arena.play.probe import probe_bots

log = logging.getLogger(__name__)

PROGRESS_TOPIC = "arena-progress"  # the event topic where tasks count the games they finished
# The distribution is not on PyPI: it installs from arena's checkout (or a wheel built there).
WORKER_INSTALL = "pip install --find-links vendor '.[dask]'"
INSTALL_HINT = ("arena must be installed, at the same version as here, on the scheduler and on "
                f"every worker: {WORKER_INSTALL} in arena's checkout")



def probe_task(bundles: list[dict[str, Any]], limits: Limits) -> dict[str, str | None]:
    """Runs on a worker before it is given any match: start every bot once
    and shake hands, as the client did. A bot that fails here cannot play
    here; that is this worker's problem, not a game the bot lost."""
    cache = _bot_cache()
    specs = [unpack_bot(BotBundle.from_plain(bundle), cache) for bundle in bundles]
    return {probe.spec.bot_id: probe.problem for probe in probe_bots(specs, limits)}


def _report_progress(games: int) -> None:
    """Tell the client, through a Dask event, how many games this part has
    finished, so that a lost worker's cost can be told, and the game it is
    on (the next) charged; each event is also a heartbeat."""
    try:
        worker = get_worker()
    except ValueError:  # not on a worker (called directly)
        return
    worker.log_event(PROGRESS_TOPIC, {"key": worker.get_current_task(), "games": games,
                                 "worker": worker.address})


def play_match_task(jobs: list[dict[str, Any]], bundles: list[dict[str, Any]], limits: Limits,
                     want_logs: bool, log_level: int, seconds: float, version: str) -> dict[str, Any]:
    """Runs on a worker: play the match's games for about ``seconds``,
    return their records, the jobs left and the logs. A match holds no two
    games on one seed (plan.group_into_matches), so it may stop after any
    game; the rest goes on in fresh bot processes, which is just as safe."""
    where = _worker_name()
    if arena.__version__ != version:
        raise ArenaError(f"worker {where} runs arena {arena.__version__}, the client {version}; "
                         + INSTALL_HINT)
    started = time.monotonic()
    with _CapturedLogs(log_level) as captured:
        local = _local_directory()
        cache = _bot_cache()
        specs = {b.bot_id: unpack_bot(b, cache) for b in map(BotBundle.from_plain, bundles)}
        match = [Job.from_json(job) for job in jobs]
        log.info("playing %d %s games (%s) on worker %s", len(match), match[0].game,
                 " vs ".join(specs[b].name for b in match[0].seats), where)
        log_root = Path(tempfile.mkdtemp(prefix="arena-logs-", dir=local)) if want_logs else None
        try:
            records: list[dict[str, Any]] = []
            _report_progress(0)
            beat = _Heartbeat(lambda: _report_progress(len(records)))
            games = play_match(match, specs, limits, log_root, heartbeat=beat)
            try:
                for played in games:
                    records.append(with_replay(played).to_json())
                    _report_progress(len(records))
                    if time.monotonic() - started >= seconds and len(records) < len(match):
                        break
            finally:
                games.close()
            bot_logs = []
            if log_root is not None:
                folder = match_log_dir(log_root, match)
                for record in records:
                    record["logs"] = [None if p is None else Path(p).relative_to(folder).as_posix()
                                      for p in record["logs"]]
                bot_logs = [(p.relative_to(folder).as_posix(), p.read_bytes())
                            for p in sorted(folder.rglob("*")) if p.is_file()]
        finally:
            if log_root is not None:
                shutil.rmtree(log_root, ignore_errors=True)
    return {"records": records, "rest": jobs[len(records):], "bot_logs": bot_logs,
            "log_records": captured.records, "worker": where}


# Seconds between two heartbeats a part sends the client at most (each one a
# Dask event through the scheduler); the client allows for it in its deadline.
HEARTBEAT_EVERY = 1.0


class _Heartbeat:
    """Called before every call into a seat (arena.play.match): says the
    part is alive, at most every HEARTBEAT_EVERY seconds, so that the client
    can tell a stopped or hung worker from a long game."""

    def __init__(self, send: Callable[[], None]) -> None:
        self.send = send
        self.last = time.monotonic()

    def __call__(self) -> None:
        now = time.monotonic()
        if now - self.last >= HEARTBEAT_EVERY:
            self.last = now
            self.send()


def _worker_name() -> str:
    try:
        return get_worker().address
    except ValueError:  # not on a worker (called directly)
        return f"pid {os.getpid()}"


_cache_lock = threading.Lock()
_cache: list[Path] = []


BOT_CACHE_PREFIX = "arena-bots-"


def _bot_cache() -> Path:
    """Where this worker process unpacks bots: a folder of its own in the
    temporary directory, removed when the process exits, and locked while it
    lives (arena.bots.warden.make_owned_folder), so the folders of workers that
    were killed outright are removed by the next worker to start here.
    Other users may pass through it (not list it); Dask's worker directory,
    where the logs go, stays private."""
    with _cache_lock:
        if not _cache:
            root = tempfile.gettempdir()
            for path in warden.remove_abandoned(root, BOT_CACHE_PREFIX):
                log.info("removed %s, left by a worker that was killed", path)
            made, _lock = warden.make_owned_folder(root, BOT_CACHE_PREFIX)
            os.chmod(made, 0o711)
            atexit.register(warden.remove_tree, made)
            _cache.append(Path(made))
        return _cache[0]


def _local_directory() -> Path:
    try:
        return Path(get_worker().local_directory)
    except ValueError:  # not on a worker (called directly)
        return Path(tempfile.gettempdir())


class _CapturedLogs(logging.Handler):
    """Collects, as plain dicts, what ``arena`` loggers say in this thread
    (a worker runs several tasks at once, one per thread)."""

    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.thread = threading.get_ident()
        self.records: list[dict[str, Any]] = []
        self.logger = logging.getLogger("arena")

    def __enter__(self) -> _CapturedLogs:
        if self.logger.getEffectiveLevel() > self.level:
            self.logger.setLevel(self.level)
        self.logger.addHandler(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.logger.removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread:
            return
        self.records.append({
            "name": record.name, "levelno": record.levelno, "levelname": record.levelname,
            "msg": record.getMessage(), "created": record.created, "msecs": record.msecs,
            "processName": f"dask-worker {_worker_name()}", "threadName": record.threadName,
            "exc_text": (logging.Formatter().formatException(record.exc_info)
                         if record.exc_info else record.exc_text),
        })
