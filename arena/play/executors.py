"""Executors run matches and hand finished games back, one at a time, to the
single process that stores them. Each game comes back with its replay, made
where it was played (arena.site.replays.with_replay), in parallel with the
other games, so the site need not replay it.

The local executor forks worker processes (fork, so multiprocessing-logging
can carry their log records to the parent's log file). Workers ignore Ctrl-C
(the parent decides), die with the parent (parent-death signal), and on
SIGTERM leave through ``finally`` so every bot process group they own is
killed.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import queue
import signal
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

from arena.bots.warden import PR_SET_PDEATHSIG
from arena.errors import ArenaError
from arena.model import BotSpec, GameRecord, Job, Limits
from arena.play.match import play_match
from arena.site.replays import with_replay

log = logging.getLogger(__name__)


# The distribution (dice-arena) is not on PyPI; "arena" there is another project.
DASK_INSTALL_HINT = "pip install --find-links vendor '.[dask]' in arena's checkout"


class Executor(Protocol):
    """What plays matches and hands finished games back, one at a time, to
    the process that stores them: LocalExecutor or DaskExecutor."""

    @property
    def jobs(self) -> int:
        """How many matches run at once (the plan cuts matches to keep them busy)."""
        ...

    def describe(self) -> str:
        """Where the games are played, for the line that starts a run."""
        ...

    def run(self, matches: list[list[Job]], specs: dict[str, BotSpec], limits: Limits,
            log_dir: Path | None) -> Iterator[GameRecord]:
        """Play the matches; yield each game as it finishes, in any order."""
        ...


def make_executor(kind: str, jobs: int, scheduler: str | None = None, worker_timeout: float = 60.0,
                  notify: Callable[[str], None] = lambda message: None) -> Executor:
    """The executor named on the command line; ``notify`` hears what the
    user must know while it runs (a cluster's bad or lost workers)."""
    if kind == "local":
        if scheduler:
            raise ArenaError("--scheduler needs --executor dask")
        return LocalExecutor(jobs)
    if kind == "dask":
        try:
            from arena.play.dask_executor import DaskExecutor
        except ImportError as exc:
            if (exc.name or "").partition(".")[0] not in ("distributed", "dask"):
                raise
            raise ArenaError(f"the dask executor needs the dask extra: {DASK_INSTALL_HINT}") from None
        return DaskExecutor(jobs, scheduler, worker_timeout=worker_timeout, notify=notify)
    raise ArenaError(f"unknown executor: {kind!r} (available: local, dask)")


class LocalExecutor:
    """Matches in parallel on this machine's cores."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ArenaError(f"--jobs must be at least 1, got {jobs}")
        self._jobs = jobs

    @property
    def jobs(self) -> int:
        return self._jobs

    def describe(self) -> str:
        return f"{self._jobs} job" if self._jobs == 1 else f"{self._jobs} jobs"

    def run(self, matches: list[list[Job]], specs: dict[str, BotSpec], limits: Limits,
            log_dir: Path | None) -> Iterator[GameRecord]:
        context = multiprocessing.get_context("fork")
        tasks = context.Queue()
        results = context.Queue()
        for match in matches:
            tasks.put([job.to_json() for job in match])
        workers = [context.Process(target=_worker, args=(tasks, results, specs, limits, log_dir, os.getpid()),
                                   name=f"arena-worker-{n}", daemon=True)
                   for n in range(min(self.jobs, len(matches)))]
        for _ in workers:
            tasks.put(None)
        for worker in workers:
            worker.start()
        try:
            yield from _collect(results, workers)
        finally:
            for worker in workers:
                if worker.is_alive():
                    worker.terminate()
            for worker in workers:
                worker.join(timeout=5)
                if worker.is_alive():
                    worker.kill()
                    worker.join()
            tasks.cancel_join_thread()
            results.cancel_join_thread()


def _collect(results, workers) -> Iterator[GameRecord]:
    finished = 0
    while finished < len(workers):
        try:
            kind, payload = results.get(timeout=0.5)
        except queue.Empty:
            dead = [w for w in workers if not w.is_alive() and w.exitcode != 0]
            if dead:
                raise ArenaError(f"worker {dead[0].name} died (exit code {dead[0].exitcode}); "
                                 "games it was playing were not stored: run again to resume") from None
            continue
        if kind == "record":
            yield GameRecord.from_json(payload)
        elif kind == "done":
            finished += 1
        else:
            raise ArenaError(f"a worker failed: {payload}")


def _worker(tasks, results, specs: dict[str, BotSpec], limits: Limits, log_dir: Path | None,
            parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was set: it would never come
        return
    try:
        while (match := tasks.get()) is not None:
            jobs = [Job.from_json(job) for job in match]
            for record in play_match(jobs, specs, limits, log_dir):
                results.put(("record", with_replay(record).to_json()))
    except Exception:
        log.exception("worker failed")
        results.put(("error", traceback.format_exc(limit=3).strip().splitlines()[-1]))
    else:
        results.put(("done", None))
    finally:
        # Its bots are gone: from here a SIGTERM just ends the process. Raised
        # as SystemExit it would land in the queues' exit handlers and be
        # printed as an ignored exception.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _exit_on_signal(signum, frame) -> None:
    raise SystemExit(128 + signum)
