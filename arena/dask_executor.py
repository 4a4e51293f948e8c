"""The Dask executor: the same matches, played on a Dask cluster's workers.

The client (the process running ``arena tournament``) stays the one writer.
A task plays part of a match, a few seconds of games, and returns their
records, which are stored by the client; the rest of the match goes on as the
next task. A task is all or nothing, so a worker that dies in the middle of a
game loses nothing: the scheduler plays that part again on another worker,
and a game that reaches the client twice is stored once (the store ignores a
key it already holds).

Workers share no filesystem with the client. Each bot is packed once into a
``BotBundle`` (its files and a command free of this machine's paths) and
shipped as a small Dask task keyed by the bot's content hash, so the
scheduler can hand it to any worker, and rebuild it if the worker holding it
dies. A worker process unpacks a bundle once into a folder of its own,
checks the files against the content hash, and rewrites the command: a
``.py`` bot run with the client's Python runs with the worker's.

Dask worker processes are daemonic, so they cannot start multiprocessing
children; bots are started with ``subprocess``, which they can. Logging does
not cross machines (multiprocessing-logging needs fork): a task captures what
``arena`` loggers say in its thread and returns it with the records, and the
bots' stderr logs come back as bytes; the client writes both where the local
executor would have.

The task functions live in this module, so arena (with the ``dask`` extra)
must be installed on the scheduler, which unpickles the task graph, and on
every worker, at the same version as the client.
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import CancelledError
from pathlib import Path, PurePosixPath
from typing import Any, Iterator

from distributed import Client, LocalCluster, as_completed, get_worker
from distributed.scheduler import KilledWorker

import arena
from arena.discovery import hash_files
from arena.errors import ArenaError
from arena.match import match_log_dir, play_match
from arena.model import BotSpec, GameRecord, Job, Limits

log = logging.getLogger(__name__)

_INSTALL_HINT = ("arena must be installed, at the same version as here, on the scheduler and on "
                 "every worker: pip install --find-links vendor '.[dask]' from arena's checkout")


class DaskExecutor:
    """Matches as tasks on a Dask cluster: the one at ``scheduler``, or a
    local cluster of ``jobs`` single-threaded worker processes.

    A task plays a match for about ``task_seconds`` and returns what it
    played; the rest of the match goes on as a new task. So results come
    back, and are stored, every few seconds whatever the length of a match,
    and an interrupted or dead worker loses only its current part."""

    def __init__(self, jobs: int, scheduler: str | None = None, task_seconds: float = 5.0) -> None:
        if jobs < 1:
            raise ArenaError(f"--jobs must be at least 1, got {jobs}")
        self.scheduler = scheduler
        self.task_seconds = task_seconds
        self._jobs = jobs
        self._cluster_threads: int | None = None

    @property
    def jobs(self) -> int:
        """Matches the cluster can play at once, which sizes the matches: the
        local cluster's workers, or the threads of the workers connected to
        the scheduler (``--jobs`` if none is connected yet)."""
        if self.scheduler is None:
            return self._jobs
        if self._cluster_threads is None:
            client = self._connect()
            try:
                self._cluster_threads = sum(client.nthreads().values())
            finally:
                client.close()
            if not self._cluster_threads:
                log.warning("no dask workers are connected to %s yet; games wait for them",
                            self.scheduler)
        return self._cluster_threads or self._jobs

    def run(self, matches: list[list[Job]], specs: dict[str, BotSpec], limits: Limits,
            log_dir: Path | None) -> Iterator[GameRecord]:
        if not matches:
            return
        cluster = self._start_local_cluster() if self.scheduler is None else None
        try:
            client = self._connect(cluster)
        except BaseException:
            if cluster is not None:
                cluster.close()
            raise
        pending: dict[Any, _Part] = {}
        try:
            bundles = _ship_bots(client, matches, specs)
            submit = _Submitter(client, limits, log_dir is not None, self.task_seconds)
            run = uuid.uuid4().hex[:8]
            for number, match in enumerate(matches):
                bots = sorted({bot_id for job in match for bot_id in job.seats})
                part = _Part(f"arena-match-{run}-{number}-{match[0].game}-r{match[0].round}", match,
                             [bundles[bot_id] for bot_id in bots], 0)
                pending[submit(part, match)] = part
            completed = as_completed(list(pending), loop=client.loop)
            for future in completed:
                part = pending.pop(future)
                result = _result(future, part.name)
                future.release()
                if result["rest"]:  # submitted before storing, so the worker is not kept waiting
                    following = dataclasses.replace(part, number=part.number + 1)
                    rest = [Job.from_json(job) for job in result["rest"]]
                    follow_up = submit(following, rest)
                    pending[follow_up] = following
                    completed.add(follow_up)
                yield from _receive(result, part, log_dir)
        finally:
            try:
                if pending:
                    client.cancel(list(pending))
            except Exception:  # the scheduler is gone: nothing left to cancel
                pass
            client.close()
            if cluster is not None:
                cluster.close()

    def _start_local_cluster(self) -> LocalCluster:
        """Worker processes on this machine, listening on localhost only.
        They start with Ctrl-C ignored (a disposition a new program keeps),
        as the local executor's workers do: the client decides, and closes
        them; a Ctrl-C at the terminal reaches every process of the group."""
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            return LocalCluster(n_workers=self._jobs, threads_per_worker=1, processes=True,
                                host="127.0.0.1", dashboard_address=None,
                                silence_logs=logging.ERROR)
        except (OSError, RuntimeError) as exc:
            raise ArenaError(f"cannot start a local dask cluster: {_one_line(exc)}") from None
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)

    def _connect(self, cluster: LocalCluster | None = None) -> Client:
        target = cluster if cluster is not None else self.scheduler
        try:
            return Client(target, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ArenaError(f"cannot reach the dask scheduler at {self.scheduler!r}: "
                             f"{_one_line(exc)}") from None


# -- the client's side ------------------------------------------------------------


def _ship_bots(client: Client, matches: list[list[Job]], specs: dict[str, BotSpec]) -> dict[str, Any]:
    """A future per bot the matches need, keyed by its content hash, so the
    cluster holds each bot once whatever the number of tournaments."""
    needed = sorted({bot_id for match in matches for job in match for bot_id in job.seats})
    futures = {}
    for bot_id in needed:
        bundle = pack_bot(specs[bot_id])
        futures[bot_id] = client.submit(_ship, bundle, pure=False,
                                        key=f"arena-bot-{bundle.content_hash}-{bundle.entry}")
    return futures


@dataclasses.dataclass(frozen=True)
class _Part:
    """One task: a part of a match (the whole match names its log folder)."""

    key: str
    match: list[Job]
    bots: list[Any]
    number: int

    @property
    def name(self) -> str:
        return f"{self.key}-part{self.number}"


class _Submitter:
    """Submits a part of a match as a task that depends on its bots."""

    def __init__(self, client: Client, limits: Limits, want_logs: bool, seconds: float) -> None:
        self.client, self.limits, self.want_logs, self.seconds = client, limits, want_logs, seconds
        self.level = logging.getLogger("arena").getEffectiveLevel()

    def __call__(self, part: _Part, jobs: list[Job]):
        return self.client.submit(_play_match_task, [job.to_json() for job in jobs], part.bots,
                                  self.limits, self.want_logs, self.level, self.seconds,
                                  arena.__version__, key=part.name, pure=False)


def _result(future, key: str) -> dict[str, Any]:
    try:
        return future.result()
    except ArenaError as exc:
        raise ArenaError(str(exc)) from None
    except KilledWorker as exc:
        raise ArenaError(f"match {key} was given up: {_one_line(exc)}; "
                         "its games were not stored: run again to resume") from None
    except CancelledError as exc:  # distributed's FutureCancelledError among them
        raise ArenaError(f"the dask cluster dropped match {key} ({_one_line(exc)}); "
                         "its games were not stored: run again to resume") from None
    except Exception as exc:  # whatever the task raised on the worker
        hint = f"; {_INSTALL_HINT}" if _looks_like_environment(exc) else ""
        raise ArenaError(f"match {key} failed on the cluster: {type(exc).__name__}: "
                         f"{_one_line(exc)}{hint}") from None


def _receive(result: dict[str, Any], part: _Part, log_dir: Path | None) -> Iterator[GameRecord]:
    """Replay the worker's log records here, append its bots' stderr logs to
    the match's log folder, as the local executor names it, and hand back
    the records with those paths."""
    for data in result["log_records"]:
        logger = logging.getLogger(data["name"])
        if logger.isEnabledFor(data["levelno"]):
            logger.handle(logging.makeLogRecord(data))
    folder = match_log_dir(log_dir, part.match) if log_dir is not None else None
    if folder is not None:
        for relative, content in result["bot_logs"]:
            path = folder / _safe_relative(relative)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "ab") as handle:
                handle.write(content)
    log.info("match %s: %d games played on %s", part.name, len(result["records"]), result["worker"])
    for data in result["records"]:
        data["logs"] = [None if rel is None or folder is None else str(folder / _safe_relative(rel))
                        for rel in data["logs"]]
        yield GameRecord.from_json(data)


def _looks_like_environment(exc: BaseException) -> bool:
    return isinstance(exc, ImportError) or "deserializ" in str(exc)


def _one_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " ".join(lines) if lines else type(exc).__name__


# -- bots without a shared filesystem ---------------------------------------------

_PYTHON, _BOT, _ARG = "python", "bot", "arg"


@dataclasses.dataclass(frozen=True)
class BotBundle:
    """A bot's files and its command, free of this machine's paths.

    ``files`` holds (path relative to the bot folder, mode, bytes); a one-file
    bot has one entry named after the file. Each command part is ``(python,
    "")`` for the referee's Python, ``(bot, relative path)`` for a file of the
    bot, or ``(arg, text)`` kept as it is.
    """

    name: str
    content_hash: str
    entry: str
    folder: bool
    files: tuple[tuple[str, int, bytes], ...]
    command: tuple[tuple[str, str], ...]

    @property
    def bot_id(self) -> str:
        return BotSpec(self.name, (), "", self.content_hash).bot_id


def pack_bot(spec: BotSpec) -> BotBundle:
    """Read a bot's files; refuse a bot whose files changed since discovery,
    since its content hash, which names its version, would no longer say what
    is played."""
    root = Path(spec.path)
    folder = root.is_dir()
    paths = _bot_files(root) if folder else [root]
    try:
        digest = hash_files(paths, root=root) if folder else hash_files(paths)
        files = tuple((str(PurePosixPath(*p.relative_to(root).parts)) if folder else root.name,
                       p.stat().st_mode & 0o777, p.read_bytes()) for p in paths)
    except OSError as exc:
        raise ArenaError(f"cannot read bot {spec.name!r}: {exc}") from None
    if digest != spec.content_hash:
        raise ArenaError(f"bot {spec.name!r} changed since it was checked "
                         f"(content hash {digest[:12]}, expected {spec.content_hash[:12]}): run again")
    command = tuple(_portable(part, spec.path) for part in spec.command)
    return BotBundle(spec.name, spec.content_hash, root.name, folder, files, command)


def _portable(part: str, bot_path: str) -> tuple[str, str]:
    if part == sys.executable:
        return (_PYTHON, "")
    if part == bot_path:
        return (_BOT, "")
    if part.startswith(bot_path.rstrip(os.sep) + os.sep):
        return (_BOT, str(PurePosixPath(*Path(part).relative_to(bot_path).parts)))
    return (_ARG, part)


def unpack_bot(bundle: BotBundle, cache: Path) -> BotSpec:
    """The bot as a spec runnable here: its files under ``cache`` (unpacked
    once per content hash, checked against it) and its command rewritten."""
    home = cache / bundle.content_hash / bundle.entry
    if not home.exists():
        _unpack(bundle, cache, home)
    command = []
    for kind, value in bundle.command:
        if kind == _PYTHON:
            command.append(sys.executable)
        elif kind == _BOT:
            command.append(str(home / _safe_relative(value)) if value else str(home))
        else:
            command.append(value)
    return BotSpec(bundle.name, tuple(command), str(home), bundle.content_hash)


def _unpack(bundle: BotBundle, cache: Path, home: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=cache))
    try:
        target = staging / bundle.entry
        for relative, mode, content in bundle.files:
            path = target / _safe_relative(relative) if bundle.folder else target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
            path.chmod(mode)
        if bundle.folder:
            for path in [target, *target.rglob("*")]:
                if path.is_dir():
                    path.chmod(0o755)  # whatever the umask: the bot may run as another user
        paths = _bot_files(target) if bundle.folder else [target]
        digest = hash_files(paths, root=target) if bundle.folder else hash_files(paths)
        if digest != bundle.content_hash:
            raise ArenaError(f"bot {bundle.name!r} arrived damaged (content hash {digest[:12]}, "
                             f"expected {bundle.content_hash[:12]})")
        home.parent.mkdir(parents=True, exist_ok=True)
        home.parent.chmod(0o711)
        try:
            os.rename(target, home)
        except OSError:
            if not home.exists():  # else another task unpacked the same bot first
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _bot_files(folder: Path) -> list[Path]:
    """The files of a folder bot, as discovery hashes them."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def _safe_relative(relative: str) -> Path:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ArenaError(f"refusing a path outside its folder: {relative!r}")
    return Path(*path.parts)


# -- the worker's side ------------------------------------------------------------


def _ship(bundle: BotBundle) -> BotBundle:
    """A task whose result is a bot: the scheduler keeps the bundle and can
    rebuild it on any worker."""
    return bundle


def _play_match_task(jobs: list[dict[str, Any]], bundles: list[BotBundle], limits: Limits,
                     want_logs: bool, log_level: int, seconds: float, version: str) -> dict[str, Any]:
    """Runs on a worker: play the match's games for about ``seconds`` (whole
    seat-swapped pairs), return their records, the jobs left and the logs."""
    where = _worker_name()
    if arena.__version__ != version:
        raise ArenaError(f"worker {where} runs arena {arena.__version__}, the client {version}; "
                         + _INSTALL_HINT)
    started = time.monotonic()
    with _CapturedLogs(log_level) as captured:
        local = _local_directory()
        cache = _bot_cache()
        specs = {bundle.bot_id: unpack_bot(bundle, cache) for bundle in bundles}
        match = [Job.from_json(job) for job in jobs]
        log.info("playing %d %s games (%s) on worker %s", len(match), match[0].game,
                 " vs ".join(specs[b].name for b in match[0].seats), where)
        log_root = Path(tempfile.mkdtemp(prefix="arena-logs-", dir=local)) if want_logs else None
        try:
            records = []
            games = play_match(match, specs, limits, log_root)
            try:
                for record in games:
                    records.append(record.to_json())
                    if (time.monotonic() - started >= seconds and len(records) % 2 == 0
                            and len(records) < len(match)):
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


def _worker_name() -> str:
    try:
        return get_worker().address
    except ValueError:  # not on a worker (called directly)
        return f"pid {os.getpid()}"


_cache_lock = threading.Lock()
_cache: list[Path] = []


def _bot_cache() -> Path:
    """Where this worker process unpacks bots: a folder of its own in the
    temporary directory, removed when the process exits. Other users may
    pass through it (not list it), so that a bot run as a user of its own
    (``--isolation user``) can read its files; Dask's worker directory,
    where the logs go, stays private."""
    with _cache_lock:
        if not _cache:
            path = Path(tempfile.mkdtemp(prefix="arena-bots-"))
            path.chmod(0o711)
            atexit.register(shutil.rmtree, path, ignore_errors=True)
            _cache.append(path)
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

    def __exit__(self, *exc_info) -> None:
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
