"""Executors run matches and hand finished games back, one at a time, to the
single process that stores them (a game the referee could not play, because
its worker hung or died twice, as a referee failure). Each game comes back with its replay, made
where it was played (arena.games.replays.with_replay), in parallel with the
other games, so the site need not replay it.

The local executor forks worker processes (fork, so multiprocessing-logging
can carry their log records to the parent's log file). Workers ignore Ctrl-C
(the parent decides), die with the parent (arena.lifetime: SIGKILL), and die
of SIGTERM at once, running nothing on the way out that could wait for a lock:
each bot's warden dies with the worker that started it and kills the bot.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import signal
import time
import traceback
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Protocol

from arena.errors import ArenaError
from arena.games.replays import with_replay
from arena.lifetime import fork_context
from arena.model import BotSpec, Event, GameRecord, Job, Limits
from arena.play.match import play_match, worker_deadline
from arena.play.sources import MatchSource, Planned

log = logging.getLogger(__name__)


# The distribution (dice-arena) is not on PyPI; "arena" there is another project.
DASK_INSTALL_HINT = "pip install --find-links vendor '.[dask]' in arena's checkout"


# Hears each event of each game as it happens (a live view): the game, the
# event's place in this playing of it (0 again when a game a lost worker
# was playing starts over in a fresh one), the event, and a decision's
# answer time.
GameWatcher = Callable[[Job, int, Event, float | None], None]


class Executor(Protocol):
    """What plays matches and hands finished games back, one at a time, to
    the process that stores them: LocalExecutor or DaskExecutor."""

    @property
    def workers(self) -> int:
        """How many matches run at once (the plan cuts matches to keep them busy)."""
        ...

    def describe(self) -> str:
        """Where the games are played, for the line that starts a run."""
        ...

    def run(self, matches: list[list[Job]], specs: dict[str, BotSpec], limits: Limits,
            log_dir: Path | None) -> Iterator[GameRecord]:
        """Play the matches; yield each game as it finishes, in any order."""
        ...

    def play(self, source: MatchSource, limits: Limits, log_dir: Path | None) -> Iterator[GameRecord]:
        """Play what ``source`` hands out until it is finished; yield each
        game as it finishes, in any order."""
        ...


def make_executor(kind: str, workers: int, scheduler: str | None = None, worker_timeout: float = 60.0,
                  notify: Callable[[str], None] = lambda message: None) -> Executor:
    """The executor named on the command line; ``notify`` hears what the
    user must know while it runs (a cluster's bad or lost workers)."""
    if kind == "local":
        if scheduler:
            raise ArenaError("--scheduler needs --executor dask")
        return LocalExecutor(workers, notify=notify)
    if kind == "dask":
        try:  # distributed is an optional dependency (the dask extra): imported only when asked for
            from arena.play.dask_executor import DaskExecutor
        except ImportError as exc:
            if (exc.name or "").partition(".")[0] not in ("distributed", "dask"):
                raise
            raise ArenaError(f"the dask executor needs the dask extra: {DASK_INSTALL_HINT}") from None
        return DaskExecutor(workers, scheduler, worker_timeout=worker_timeout, notify=notify)
    raise ArenaError(f"unknown executor: {kind!r} (available: local, dask)")


_TICK = 0.5  # seconds between the parent's looks at its workers


class LocalExecutor:
    """Matches in parallel on this machine's cores, a worker process each.

    The parent watches its workers: a worker that dies, or goes
    ``worker_deadline`` without a heartbeat (stopped, hung), is killed, and
    the game it was playing is played again, once, in a fresh worker, with
    the rest of its match; if that worker fails too, the game is handed back
    as a referee failure (no result) and the match goes on without it. The
    other workers play on throughout. Each worker has a pipe of its own, so
    a worker killed in the middle of a message corrupts nothing the others
    use."""

    def __init__(self, workers: int, notify: Callable[[str], None] = lambda message: None) -> None:
        if workers < 1:
            raise ArenaError(f"--jobs must be at least 1, got {workers}")
        self._workers = workers
        self.notify = notify

    @property
    def workers(self) -> int:
        return self._workers

    def describe(self) -> str:
        return f"{self._workers} job" if self._workers == 1 else f"{self._workers} jobs"

    def run(self, matches: list[list[Job]], specs: dict[str, BotSpec], limits: Limits,
            log_dir: Path | None) -> Iterator[GameRecord]:
        return self.play(Planned(matches, specs), limits, log_dir)

    def play(self, source: MatchSource, limits: Limits, log_dir: Path | None,
             watch: GameWatcher | None = None) -> Iterator[GameRecord]:
        """Play what ``source`` hands out, asking it whenever a worker is
        free, until it is finished; yield each game as it finishes.
        ``watch`` hears every event of every game as it happens."""
        pool = _Pool(self, limits, log_dir, watch)
        try:
            yield from pool.play(source)
        finally:
            pool.stop()


@dataclass
class _Worker:
    """A worker process, the parent's end of its pipe, its heartbeat (the
    monotonic time of its last beat, written by the worker), and the match
    it is playing with the keys of the games it has handed back."""

    process: multiprocessing.process.BaseProcess
    conn: Connection
    beat: Any
    match: list[Job] | None = None
    specs: dict[str, BotSpec] = field(default_factory=dict)
    returned: set[str] = field(default_factory=set)


class _Pool:
    """The workers of one run, driven from the parent."""

    def __init__(self, executor: LocalExecutor, limits: Limits, log_dir: Path | None,
                 watch: GameWatcher | None) -> None:
        self.executor, self.limits, self.log_dir, self.watch = executor, limits, log_dir, watch
        self.context = fork_context()
        self.deadline = worker_deadline(limits)
        self.workers: list[_Worker] = []
        self.started = 0
        self.source: MatchSource = Planned([], {})
        self.failures: dict[str, str] = {}  # game key: why its first worker failed

    def play(self, source: MatchSource) -> Iterator[GameRecord]:
        self.source = source
        self._fill()
        last_look = time.monotonic()
        while self.workers or not source.finished:
            ready = wait([w.conn for w in self.workers] + [w.process.sentinel for w in self.workers],
                         timeout=_TICK) if self.workers else _idle()
            now = time.monotonic()
            # The parent itself was held up (suspended, starved): its workers
            # may have been too, so their clocks start again from now.
            held_up = now - last_look > 2 * _TICK + 1.0
            last_look = now
            for worker in list(self.workers):
                if held_up and worker.match is not None:
                    worker.beat.value = now
                if worker.conn in ready or worker.process.sentinel in ready:
                    yield from self._read(worker)
                if worker not in self.workers:
                    continue
                if not worker.process.is_alive():
                    yield from self._lost(worker, f"died ({_exit_status(worker.process.exitcode)})")
                elif worker.match is not None and now - worker.beat.value > self.deadline:
                    yield from self._lost(worker, f"stopped answering (no heartbeat for {self.deadline:g} s)")
            self._fill()

    def _fill(self) -> None:
        """Free places go to what the source hands out now."""
        while len(self.workers) < self.executor.workers and (match := self.source.next_match()) is not None:
            self._give(self._start(), match.jobs, match.specs)

    def _start(self) -> _Worker:
        ours, theirs = self.context.Pipe()
        beat = self.context.RawValue("d", time.monotonic())
        self.started += 1
        process = self.context.Process(
            target=_worker, args=(theirs, beat, self.limits, self.log_dir, self.watch is not None),
            name=f"arena-worker-{self.started}", daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, ours, beat)
        self.workers.append(worker)
        return worker

    def _give(self, worker: _Worker, match: list[Job], specs: dict[str, BotSpec]) -> None:
        needed = {bot_id for job in match for bot_id in job.seats}
        worker.match, worker.specs, worker.returned = match, {b: specs[b] for b in needed}, set()
        worker.beat.value = time.monotonic()
        worker.conn.send(([job.to_json() for job in match], {b: spec.to_json() for b, spec in worker.specs.items()}))

    def _read(self, worker: _Worker) -> Iterator[GameRecord]:
        """Everything the worker has sent; a worker done with its match gets
        the next one waiting, or is let go."""
        try:
            while worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == "event":
                    if self.watch is not None and worker.match is not None:
                        key, index, event, answer = payload
                        job = next(job for job in worker.match if job.key == key)
                        self.watch(job, index, event, answer)
                elif kind == "record":
                    record = GameRecord.from_json(payload)
                    worker.returned.add(record.job.key)
                    yield record
                elif kind == "done":
                    if (match := self.source.next_match()) is not None:
                        self._give(worker, match.jobs, match.specs)
                    else:
                        worker.match = None
                        worker.conn.send(None)
                        self._retire(worker)
                        return
                else:
                    raise ArenaError(f"a worker failed: {payload}")
        except (EOFError, OSError):
            pass  # it died: the caller sees it is not alive

    def _lost(self, worker: _Worker, how: str) -> Iterator[GameRecord]:
        """Kill a worker that died or stopped answering; its game is played
        again once in a fresh worker, then it is a referee failure."""
        self._kill(worker)
        left = [job for job in worker.match or [] if job.key not in worker.returned]
        if left:
            left = yield from self._charge(worker, how, left)
        if left:
            self._give(self._start(), left, worker.specs)

    def _charge(self, worker: _Worker, how: str, left: list[Job]) -> Generator[GameRecord, None, list[Job]]:
        """The first game not handed back is the one the worker failed on:
        the first time, it is played again with the rest; the second, it is
        a referee failure and the rest goes on without it."""
        game, rest = left[0], left[1:]
        names = " vs ".join(worker.specs[bot_id].name for bot_id in game.seats)
        why = f"worker {worker.process.name} {how} while playing {game.game} game {game.key} ({names})"
        if game.key in self.failures:
            failure = f"{self.failures[game.key]}; retried, {why}"
            self._say(f"{why}; it failed twice, so it is stored as a referee failure (no result)")
            yield GameRecord.referee_failure(game, failure)
            return rest
        self.failures[game.key] = why
        self._say(f"{why}; it is played again in a fresh worker")
        return left

    def _say(self, message: str) -> None:
        log.warning("%s", message)
        self.executor.notify(message)

    def _kill(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()  # SIGKILL: it ends a stopped process too
        worker.process.join()
        self._retire(worker)

    def _retire(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.conn.close()

    def stop(self) -> None:
        """Workers still running (an interrupt, a failure) are ended: SIGTERM
        (their wardens then kill their bots), then SIGKILL for one that
        stopped and so could not die of it."""
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in self.workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self.workers = []


def _exit_status(code: int | None) -> str:
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def _idle() -> list[Any]:
    """No worker to wait for: a tick's pause before the source is asked again."""
    time.sleep(_TICK)
    return []


def _worker(conn: Connection, beat: Any, limits: Limits, log_dir: Path | None, watching: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, which raises to clean up

    def heartbeat() -> None:
        beat.value = time.monotonic()

    def watch(job: Job) -> Callable[[Event, float | None], None]:
        index = itertools.count()
        return lambda event, answer: conn.send(("event", (job.key, next(index), event, answer)))

    try:
        while (match := conn.recv()) is not None:
            jobs = [Job.from_json(job) for job in match[0]]
            specs = {bot_id: BotSpec.from_json(spec) for bot_id, spec in match[1].items()}
            for record in play_match(jobs, specs, limits, log_dir, heartbeat=heartbeat,
                                     watch=watch if watching else None):
                conn.send(("record", with_replay(record).to_json()))
                heartbeat()
            conn.send(("done", None))
    except Exception:
        log.exception("worker failed")
        conn.send(("error", traceback.format_exc(limit=3).strip().splitlines()[-1]))
