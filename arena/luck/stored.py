"""Measuring the luck of stored games, off the games' path (issue 28: luck
must not slow a tournament).

A tournament hands each game, once stored, to :class:`IdleLuck`: worker
processes at the lowest CPU priority there is (``SCHED_IDLE``, else nice
19), which measure it with the CPU the games leave idle (bots waiting on
each other, the referee between moves) and never take a core a game
wants; the tournament stores what they return, as the one writer. What
they have not measured when the last game ends is measured by
:func:`measure_missing` at normal priority on every core, as is any game
stored without luck (an interrupted run, a database from before luck was
stored) by the next site build or ``arena standings --luck``: only those
games, each once.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import signal
from typing import Any

from arena.lifetime import fork_context
from arena.luck.measure import stored_luck
from arena.model import GameRecord, Termination
from arena.store import Store

log = logging.getLogger(__name__)

Measured = dict[str, dict[str, Any]]  # game key -> its luck as games.luck keeps it
CHUNK = 20  # games a worker of measure_missing reads and measures per task


def _lowest_priority() -> None:
    """A luck worker's start: the CPU only when nothing else wants it, and
    Ctrl-C left to the tournament (which stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # not Linux
        os.nice(19)


def _measure(key: str, game: str, players: int, options: dict[str, Any], events: list[Any],
             seed: int) -> tuple[str, dict[str, Any]]:
    return key, stored_luck(game, players, options, events, seed)


class IdleLuck:
    """Luck measured while a tournament plays, at the lowest priority:
    ``submit`` each stored game, store what ``measured`` returns, and
    ``close`` at the end of the games (what is still waiting is left to
    :func:`measure_missing`)."""

    def __init__(self, workers: int) -> None:
        self._pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=fork_context(), initializer=_lowest_priority)
        self._pending: set[concurrent.futures.Future[tuple[str, dict[str, Any]]]] = set()

    def submit(self, record: GameRecord) -> None:
        job = record.job
        if record.termination is Termination.REFEREE_FAILURE or len(job.seats) < 2:
            return  # no result, or no opponent: no luck to store (Store.unmeasured_luck)
        self._pending.add(self._pool.submit(_measure, job.key, job.game, len(job.seats), job.options,
                                            record.events, job.seed))

    def measured(self) -> Measured:
        """The luck of the games measured since the last call."""
        finished = {future for future in self._pending if future.done()}
        self._pending -= finished
        return _results(finished)

    def close(self) -> Measured:
        """Stop: games not started are dropped (measure_missing measures them
        at normal priority), those being measured are waited for."""
        for future in self._pending:
            future.cancel()
        self._pool.shutdown(wait=True)
        finished = {future for future in self._pending if not future.cancelled()}
        self._pending.clear()
        return _results(finished)


def _results(finished: set[concurrent.futures.Future[tuple[str, dict[str, Any]]]]) -> Measured:
    measured = {}
    for future in finished:
        problem = future.exception()
        if problem is not None:  # a worker killed: the game is measured later
            log.warning("a luck worker failed (the game is measured at the end): %s", problem)
            continue
        key, luck = future.result()
        measured[key] = luck
    return measured


_WORKER_STORE: Store | None = None


def _open_worker_store(path: str) -> None:
    global _WORKER_STORE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_STORE = Store(path, checked=True)


def _measure_stored(keys: list[str]) -> Measured:
    assert _WORKER_STORE is not None
    return _measure_keys(_WORKER_STORE, keys)


def _measure_keys(store: Store, keys: list[str]) -> Measured:
    measured = {}
    for key in keys:
        game = store.game(key)
        measured[key] = stored_luck(game.game, game.players, game.options, store.record(key)[0], game.seed)
    return measured


def measure_missing(store: Store, workers: int | None = None) -> int:
    """Measure and store the luck of every game stored without it (``store``
    open as the writer), in parallel on ``workers`` processes (default:
    every core), each reading its games from the file itself. Returns how
    many games were measured."""
    keys = store.unmeasured_luck()
    workers = min(workers or os.cpu_count() or 1, len(keys))
    if workers < 2:
        store.add_luck(_measure_keys(store, keys))
        return len(keys)
    size = min(CHUNK, -(-len(keys) // workers))
    chunks = [keys[start:start + size] for start in range(0, len(keys), size)]
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=fork_context(),
                                                initializer=_open_worker_store,
                                                initargs=(str(store.path),)) as pool:
        for measured in pool.map(_measure_stored, chunks):
            store.add_luck(measured)
    return len(keys)
