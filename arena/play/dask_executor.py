"""The Dask executor: the same matches, played on a Dask cluster's workers.

The client (the process running ``arena tournament``) stays the one writer.
A task plays part of a match, a few seconds of games, and returns their
records, which are stored by the client; the rest of the match goes on as the
next task. A task is all or nothing, so a worker that dies in the middle of a
game loses nothing: the scheduler plays that part again on another worker,
and a game that reaches the client twice is stored once (the store ignores a
key it already holds). As with the local executor, a game on which two
workers are lost is stored as a referee failure, and a worker that stops
beating (stopped, hung) is removed from the cluster.

Workers share no filesystem with the client. Each bot is packed once into a
``BotBundle`` (arena.bots.bundle) and shipped as a small Dask task keyed by
the bot's content hash, so the scheduler can hand it to any worker, and
rebuild it if the worker holding it dies. A worker process unpacks a bundle
once into a folder of its own.

Dask worker processes are daemonic, so they cannot start multiprocessing
children; bots are started with ``subprocess``, which they can. Logging does
not cross machines (multiprocessing-logging needs fork): a task captures what
``arena`` loggers say in its thread and returns it with the records, and the
bots' stderr logs come back as bytes; the client writes both where the local
executor would have.

The task functions live in arena.play.dask_worker, so arena (with the ``dask`` extra)
must be installed on the scheduler, which unpickles the task graph, and on
every worker, at the same version as the client. A worker without it could
not even read a task, so the client checks each worker as it joins with
standard-library functions (``client.run``), then has it start each bot
once (a task pinned to it); parts of a match go only to workers where all
its bots started. A bot that cannot start on a worker is that worker's
fault: nothing is stored for it, and its games wait for another worker or
the next run.
"""

from __future__ import annotations

import dataclasses
import logging
import pkgutil
import platform
import signal
import socket
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

from distributed import Client, Future, LocalCluster, as_completed
from distributed.scheduler import KilledWorker
from distributed.versions import VersionMismatchWarning

import arena
from arena.bots.bundle import pack_bot, safe_relative
from arena.errors import ArenaError
from arena.model import BotSpec, GameRecord, Job, Limits
from arena.play.dask_worker import HEARTBEAT_EVERY, INSTALL_HINT, PROGRESS_TOPIC, play_match_task, probe_task
from arena.play.match import match_log_dir, worker_deadline
from arena.play.sources import MatchSource, Planned
from arena.plurals import plural

log = logging.getLogger(__name__)



class DaskExecutor:
    """Matches as tasks on a Dask cluster: the one at ``scheduler``, or a
    local cluster of ``jobs`` single-threaded worker processes.

    A task plays a match for about ``task_seconds`` and returns what it
    played; the rest of the match goes on as a new task. So results come
    back, and are stored, every few seconds whatever the length of a match,
    and an interrupted or dead worker loses only its current part.

    Every worker is checked when it joins (it must import arena at this
    version, on this Python minor version) and then starts each bot once;
    a match goes only to workers where all its bots started. What the user
    must know (a bad worker, a bot that cannot start on a worker, a lost
    worker, the dashboard) goes to ``notify`` as one line, and to the log.
    If for ``worker_timeout`` seconds games are waiting and no usable worker
    can take them, the run fails with one line saying why."""

    def __init__(self, workers: int, scheduler: str | None = None, task_seconds: float = 5.0,
                 worker_timeout: float = 60.0, notify: Callable[[str], None] = lambda message: None) -> None:
        if workers < 1:
            raise ArenaError(f"--jobs must be at least 1, got {workers}")
        self.scheduler = scheduler
        self.task_seconds = task_seconds
        self.worker_timeout = worker_timeout
        self.notify = notify
        self._workers = workers
        self._connected: _Connected | None = None

    @property
    def workers(self) -> int:
        """Matches the cluster can play at once, which sizes the matches: the
        local cluster's workers, or the threads of the usable workers
        connected to the scheduler (``--jobs`` if none is connected yet)."""
        if self.scheduler is None:
            return self._workers
        return self._look_at_workers().threads or self._workers

    def describe(self) -> str:
        """Where the games are played, for the line that starts a tournament."""
        if self.scheduler is None:
            return f"a local dask cluster of {plural(self._workers, 'worker')}"
        connected = self._look_at_workers()
        unusable = f"{plural(connected.unusable, 'unusable worker')}" if connected.unusable else ""
        if connected.threads:
            return (f"the dask cluster at {self.scheduler} ({plural(connected.threads, 'usable worker thread')} "
                    f"connected" + (f", and {unusable}" if unusable else "") + ")")
        return (f"the dask cluster at {self.scheduler} ("
                + (f"no usable worker connected yet, {unusable}" if unusable else "no worker connected yet")
                + f": waiting up to {self.worker_timeout:g} s for a usable one)")

    def _look_at_workers(self) -> _Connected:
        """The workers connected before the run, checked as the run checks
        them when they join (once: the plan is cut by it)."""
        if self._connected is None:
            client = self._connect()
            try:
                present = workers_present(client)
                problems = _environment_problems(client, list(present))
            finally:
                client.close()
            usable = [address for address, problem in problems.items() if problem is None]
            self._connected = _Connected(sum(present[address].get("nthreads") or 1 for address in usable),
                                         len(problems) - len(usable))
        return self._connected

    def run(self, matches: list[list[Job]], specs: dict[str, BotSpec], limits: Limits,
            log_dir: Path | None) -> Iterator[GameRecord]:
        return self.play(Planned(matches, specs), limits, log_dir)

    def play(self, source: MatchSource, limits: Limits, log_dir: Path | None) -> Iterator[GameRecord]:
        """Play what ``source`` hands out until it is finished (a plan is
        queued whole, as it is made once; a league is asked whenever the
        usable workers have room, so that each match is chosen from the
        latest results); yield each game as it finishes."""
        if source.finished:
            return
        cluster = self._start_local_cluster() if self.scheduler is None else None
        try:
            client = self._connect(cluster)
        except BaseException:
            if cluster is not None:
                cluster.close()
            raise
        try:
            link = _dashboard_link(client)
            if link:
                self._say(f"dask dashboard: {link}", logging.INFO)
            yield from _Session(self, client, source, limits, log_dir).play()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    def _say(self, message: str, level: int = logging.WARNING) -> None:
        log.log(level, "%s", message)
        self.notify(message)

    def _start_local_cluster(self) -> LocalCluster:
        """Worker processes on this machine, listening on localhost only.
        They start with Ctrl-C ignored (a disposition a new program keeps),
        as the local executor's workers do: the client decides, and closes
        them; a Ctrl-C at the terminal reaches every process of the group."""
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            return LocalCluster(n_workers=self._workers, threads_per_worker=1, processes=True,
                                host="127.0.0.1", dashboard_address=_free_dashboard_address(),
                                silence_logs=logging.ERROR)
        except (OSError, RuntimeError) as exc:
            raise ArenaError(f"cannot start a local dask cluster: {_one_line(exc)}") from None
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)

    def _connect(self, cluster: LocalCluster | None = None) -> Client:
        """A client of the cluster. Dask warns, in a table of several lines,
        when a worker's packages differ from this machine's; where that
        makes a worker unusable to arena, arena names the worker and the
        problem in one line of its own when it checks it, so Dask's table is
        left out; otherwise it is shown as Dask shows it."""
        target = cluster if cluster is not None else self.scheduler
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                client = Client(target, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ArenaError(f"cannot reach the dask scheduler at {self.scheduler!r}: "
                             f"{_one_line(exc)}") from None
        mismatch = [w for w in caught if issubclass(w.category, VersionMismatchWarning)]
        if mismatch:
            present = workers_present(client)
            if any(_environment_problems(client, list(present)).values()):
                caught = [w for w in caught if w not in mismatch]
        for warning in caught:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
        return client


@dataclasses.dataclass(frozen=True)
class _Connected:
    """The workers connected to a scheduler: their usable threads, and how
    many workers are unusable (arena.play.dask_executor._environment_problem)."""

    threads: int
    unusable: int


def workers_present(client: Client) -> dict[str, Any]:
    """The workers connected to the scheduler (address: what it says of
    each), asked of the scheduler itself. Client.scheduler_info returns the
    client's own cached copy, which the client's periodic refresh (every
    2 s, without the workers) can overwrite between the answer and its
    return: a run that saw no workers there took every one for lost ("left
    the cluster") and stopped for want of workers."""
    scheduler = client.scheduler
    if scheduler is None:  # closed meanwhile
        raise OSError("the client is not connected to the scheduler")
    workers: dict[str, Any] = client.sync(scheduler.identity, n_workers=-1)["workers"]
    return workers


def _free_dashboard_address() -> str | None:
    """Dask's usual dashboard port if it is free, else any free port (instead
    of Dask's warning of several lines); none without bokeh."""
    try:
        import bokeh  # noqa: F401  (the dashboard needs it)
    except ImportError:
        return None
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", 8787))
        except OSError:
            return "127.0.0.1:0"
    return "127.0.0.1:8787"


def _dashboard_link(client: Client) -> str | None:
    try:
        link: str = client.dashboard_link
        return link
    except (KeyError, AttributeError, OSError):  # the scheduler runs no dashboard
        return None


# -- the client's side ------------------------------------------------------------

_TICK = 0.5  # seconds between looks at the cluster's workers


def _ship_bot(client: Client, spec: BotSpec) -> Any:
    """A future holding a bot, keyed by its content hash, so the cluster
    holds each bot once whatever the number of tournaments. The task is
    ``dict`` on plain data, so any worker can hold it, even one without
    arena (a BotBundle would need arena to be unpickled)."""
    bundle = pack_bot(spec)
    return client.submit(dict, dataclasses.asdict(bundle), pure=False,
                         key=f"arena-bot-{bundle.content_hash}-{bundle.entry}")


@dataclasses.dataclass(frozen=True)
class _Part:
    """One task: a part of a match (the whole match names its log folder)."""

    key: str
    match: list[Job]
    bots: tuple[str, ...]
    number: int
    attempt: int = 0

    @property
    def name(self) -> str:
        return f"{self.key}-part{self.number}"

    @property
    def task_key(self) -> str:
        """A part sent again after its workers all left needs a new task key."""
        return self.name + (f"-again{self.attempt}" if self.attempt else "")


@dataclasses.dataclass
class _Worker:
    """What the client knows of a worker: why it is unusable, or which bots
    started there (``None`` until they were tried)."""

    label: str
    threads: int = 1
    problem: str | None = None
    asked: set[str] = dataclasses.field(default_factory=set)  # the bots it was asked to start
    bots_ok: set[str] | None = None
    bots_failed: dict[str, str] = dataclasses.field(default_factory=dict)
    live: bool = True

    def can_play(self, bots: tuple[str, ...]) -> bool:
        return self.live and self.bots_ok is not None and all(b in self.bots_ok for b in bots)


class _Session:
    """One run of matches on the cluster, driven from the client: it checks
    workers as they join, sends each part of a match only to workers that can
    play it, notices lost workers, and gives up when games wait too long."""

    def __init__(self, executor: DaskExecutor, client: Client, source: MatchSource, limits: Limits,
                 log_dir: Path | None) -> None:
        self.executor, self.client, self.source, self.limits, self.log_dir = executor, client, source, limits, log_dir
        self.names: dict[str, str] = {}
        self.bundles: dict[str, Any] = {}  # a future per bot shipped (_ship_bot)
        self.level = logging.getLogger("arena").getEffectiveLevel()
        self.run_id = uuid.uuid4().hex[:8]
        self.queue: list[tuple[_Part, list[Job]]] = []
        self.parts = 0  # matches taken from the source
        self.pending: dict[Any, tuple[_Part, list[Job], frozenset[str]]] = {}
        self.probing: dict[Any, str] = {}
        self.workers: dict[str, _Worker] = {}
        # Where each running part was seen (processing, or its own events), and
        # how many games it finished there; the events come on Dask's thread.
        self.seen_on: dict[str, set[str]] = {}
        self.progress: dict[tuple[str, str], int] = {}
        self.lock = threading.Lock()
        self.waiting_since: float | None = None
        # Finished tasks come back with their results, fetched on Dask's
        # thread: a result is read from the worker that holds it, and a
        # worker stopped just after finishing a part would hold up a fetch
        # here for ever, the watch below with it.
        self.completed = as_completed([], loop=client.loop, with_results=True)
        # Watching the workers, as the local executor does: each running part
        # beats (a progress event) at least every HEARTBEAT_EVERY seconds while
        # it plays; a worker whose part misses the deadline is removed from the
        # cluster. A game on which a worker is lost is played again (Dask sends
        # the part elsewhere); lost again, it is a referee failure.
        self.deadline = worker_deadline(limits) + HEARTBEAT_EVERY
        self.beats: dict[tuple[str, str], float] = {}  # (task key, worker): its last beat
        self.removing: set[str] = set()
        self.failures: dict[str, str] = {}  # game key: how its first worker was lost
        self.failed: list[GameRecord] = []  # referee failures, to hand back

    def _take(self) -> None:
        """Queue what the source hands out: a plan whole, a league while the
        queue is shorter than the usable workers' threads (or ``--jobs``
        before any is usable); each new bot shipped, and started on every
        usable worker."""
        room = sum(w.threads for w in self.workers.values() if w.live and w.problem is None) or self.executor.workers
        whole = isinstance(self.source, Planned)
        while (whole or len(self.queue) < room) and (match := self.source.next_match()) is not None:
            for bot_id, spec in match.specs.items():
                if bot_id not in self.bundles:
                    self.bundles[bot_id] = _ship_bot(self.client, spec)
                    self.names[bot_id] = spec.name
            bots = tuple(sorted({bot_id for job in match.jobs for bot_id in job.seats}))
            key = f"arena-match-{self.run_id}-{self.parts}-{match.jobs[0].game}-r{match.jobs[0].round}"
            self.parts += 1
            self.queue.append((_Part(key, match.jobs, bots, 0), match.jobs))
        self._start_bots()

    def play(self) -> Iterator[GameRecord]:
        self.client.subscribe_topic(PROGRESS_TOPIC, self._on_progress)
        try:
            next_look = 0.0
            self._take()
            while self.queue or self.pending or not self.source.finished:
                if not isinstance(self.source, Planned):
                    self._take()
                    self._dispatch()
                if time.monotonic() >= next_look:
                    self._look()
                    next_look = time.monotonic() + _TICK
                    while self.failed:
                        yield self.failed.pop(0)
                batch = self.completed.next_batch(block=False)
                if not batch:
                    time.sleep(0.05)
                for future, outcome in batch:
                    if future in self.probing:
                        self._probed(future, outcome)
                        self._dispatch()
                    elif future in self.pending:
                        yield from self._finished(future, outcome)
                    # else: cancelled here, its part went elsewhere
        finally:
            try:
                if self.pending or self.probing:
                    self.client.cancel([*self.pending, *self.probing])
                self.client.unsubscribe_topic(PROGRESS_TOPIC)
            except Exception:  # the scheduler is gone: nothing left to cancel
                pass

    # -- results ---------------------------------------------------------------

    def _finished(self, future: Future[Any], outcome: Any) -> Iterator[GameRecord]:
        part, jobs, _ = self.pending.pop(future)
        with self.lock:
            for address in self.seen_on.pop(part.task_key, ()):
                self.progress.pop((part.task_key, address), None)
                self.beats.pop((part.task_key, address), None)
        if isinstance(_error(outcome), KilledWorker):
            # Dask gave it up after losing several workers to it, each loss
            # charged to the game it was on (_lost): sent again, a game lost
            # twice becomes a referee failure instead of ending the run.
            future.release()
            self.executor._say(f"the dask cluster gave up {part.name} after losing the workers that played it: "
                               f"it {self._goes_on(part)}")
            self.queue.insert(0, (dataclasses.replace(part, attempt=part.attempt + 1), jobs))
            self._dispatch()
            return
        result = _result(outcome, f"match {part.name}")
        future.release()
        if result["rest"]:  # submitted before storing, so the worker is not kept waiting
            rest = [Job.from_json(job) for job in result["rest"]]
            self.queue.insert(0, (dataclasses.replace(part, number=part.number + 1, attempt=0), rest))
            self._dispatch()
        yield from _receive(result, part, self.log_dir)

    def _dispatch(self) -> None:
        """Send waiting parts, in order, to the workers that can play them, no
        more at once than the usable workers have threads: a part sent is
        bound to the workers ready then, so a worker that becomes ready later
        gets the parts still waiting."""
        capacity = sum(w.threads for w in self.workers.values() if w.live and w.bots_ok)
        waiting, self.queue = self.queue, []
        for part, jobs in waiting:
            allowed = frozenset(a for a, w in self.workers.items() if w.can_play(part.bots))
            if allowed and len(self.pending) < capacity:
                self._submit(part, jobs, allowed)
            else:
                self.queue.append((part, jobs))

    def _submit(self, part: _Part, jobs: list[Job], allowed: frozenset[str]) -> None:
        future = self.client.submit(
            play_match_task, [job.to_json() for job in jobs], [self.bundles[b] for b in part.bots],
            self.limits, self.log_dir is not None, self.level, self.executor.task_seconds,
            arena.__version__, key=part.task_key, pure=False, workers=sorted(allowed),
            allow_other_workers=False)
        self.pending[future] = (part, jobs, allowed)
        self.completed.add(future)

    def _on_progress(self, event: tuple[float, dict[str, Any]]) -> None:
        _, message = event
        with self.lock:
            self.seen_on.setdefault(message["key"], set()).add(message["worker"])
            self.progress[message["key"], message["worker"]] = message["games"]
            self.beats[message["key"], message["worker"]] = time.monotonic()

    # -- workers -----------------------------------------------------------------

    def _look(self) -> None:
        """Check the workers that joined, notice the ones that left, send the
        waiting parts where they can go, and give up if they wait too long."""
        try:
            present = workers_present(self.client)
            processing = self.client.processing()
        except (OSError, TimeoutError) as exc:
            raise ArenaError(f"lost the dask scheduler at {self.executor.scheduler or 'the local cluster'}: "
                             f"{_one_line(exc)}; run again to resume") from None
        for address, worker in self.workers.items():
            if worker.live and address not in present:
                self._lost(address)  # where its parts were at the last look: now they are elsewhere
        mine = {part.task_key for part, _, _ in self.pending.values()}
        now = time.monotonic()
        with self.lock:
            for address, keys in processing.items():
                for key in keys:
                    if key in mine:
                        self.seen_on.setdefault(key, set()).add(address)
                        self.beats.setdefault((key, address), now)
        self._remove_stalled(mine, now)
        joined = [address for address in present if address not in self.workers]
        if joined:
            self._check(joined, present)
        for future, (_, jobs, allowed) in list(self.pending.items()):
            if not any(self.workers[a].live for a in allowed):  # Dask would wait for them forever
                self._send_again(future, jobs)
        self._dispatch()
        self._give_up_if_stuck()

    def _check(self, joined: list[str], present: dict[str, Any]) -> None:
        """Ask each new worker, with standard-library functions any worker
        can run, which Python it runs and whether it imports arena; then let
        a good one start every bot once."""
        for address, problem in _environment_problems(self.client, joined).items():
            name = present[address].get("name")
            label = f"dask worker {address}" + (f" ({name})" if name not in (None, address) else "")
            worker = self.workers[address] = _Worker(label, present[address].get("nthreads") or 1)
            worker.problem = problem
            if worker.problem:
                self.executor._say(f"{label} is unusable: {worker.problem}")
                continue
            log.info("%s joined: starting each bot once there", label)
        self._start_bots()

    def _start_bots(self) -> None:
        """Have every usable worker start each bot shipped that it has not
        been asked to start yet (once: a task pinned to it)."""
        for address, worker in self.workers.items():
            new = sorted(set(self.bundles) - worker.asked)
            if not new or not worker.live or worker.problem is not None:
                continue
            future = self.client.submit(probe_task, [self.bundles[bot_id] for bot_id in new], self.limits,
                                        key=f"arena-probe-{self.run_id}-{address}-{len(worker.asked)}",
                                        pure=False, workers=[address], allow_other_workers=False)
            worker.asked.update(new)
            self.probing[future] = address
            self.completed.add(future)

    def _probed(self, future: Future[Any], outcome: Any) -> None:
        address = self.probing.pop(future)
        worker = self.workers[address]
        problems = _result(outcome, f"the bot check {future.key}")
        future.release()
        worker.bots_ok = (worker.bots_ok or set()) | {bot_id for bot_id, problem in problems.items() if problem is None}
        for bot_id, problem in sorted(problems.items()):
            if problem is not None:
                worker.bots_failed[bot_id] = problem
                self.executor._say(f"bot {self.names.get(bot_id, bot_id)} cannot start on "
                                   f"{worker.label}, so its games are not played there: {problem}")
        log.info("%s is ready: %d of %s start there", worker.label, len(worker.bots_ok),
                 plural(len(problems), "bot"))

    def _remove_stalled(self, mine: set[str], now: float) -> None:
        """Remove from the cluster a worker none of whose parts has beaten
        for the deadline (stopped or hung; a part waiting behind another on
        the same worker does not beat), and count it lost at once: the
        scheduler sends its parts elsewhere, where one may finish before the
        next look."""
        latest: dict[str, float] = {}
        with self.lock:
            for (key, address), beat in self.beats.items():
                if key in mine:
                    latest[address] = max(latest.get(address, beat), beat)
        stalled = {address for address, beat in latest.items() if now - beat > self.deadline}
        for address in sorted(stalled - self.removing):
            worker = self.workers.get(address)
            if worker is None or not worker.live:
                continue
            self.removing.add(address)
            self.executor._say(f"{worker.label} stopped answering (no heartbeat for {self.deadline:g} s): "
                               "it is removed from the cluster")
            try:
                self.client.run_on_scheduler(_remove_worker, address)
            except (OSError, TimeoutError) as exc:
                self.removing.discard(address)  # tried again at the next look
                log.warning("could not remove %s: %s", worker.label, _one_line(exc))
            else:
                self._lost(address)

    def _lost(self, address: str) -> None:
        worker = self.workers[address]
        worker.live = False
        for future, probed in list(self.probing.items()):
            if probed == address:
                del self.probing[future]
                future.cancel()
        with self.lock:
            parts = [part for part, _, _ in self.pending.values()
                     if address in self.seen_on.get(part.task_key, ())]
            costs = [self.progress.pop((part.task_key, address), 0) for part in parts]
            for part in parts:
                self.seen_on[part.task_key].discard(address)
                self.beats.pop((part.task_key, address), None)
        if not parts:
            self.executor._say(f"{worker.label} left the cluster")
        for part, lost in zip(parts, costs):
            if not self._charge(part, lost, worker.label):
                self.executor._say(f"{worker.label} was lost while playing {part.name}: the part "
                                   f"{self._goes_on(part)}, which costs the "
                                   f"{plural(lost, 'game')} it had finished there")
                future, jobs = self._pending_part(part)
                if future is not None:
                    self._send_again(future, jobs)

    def _goes_on(self, part: _Part) -> str:
        """What happens to a part sent again, as the end of a sentence: a
        live worker where its bots started takes it; or one that is still
        starting them, once it has; or, with none left, it waits for one to
        join (_give_up_if_stuck)."""
        if any(worker.can_play(part.bots) for worker in self.workers.values()):
            return "is played again on another worker"
        starting = sorted(self.workers[address].label for address in self.probing.values())
        if starting:
            return f"is played again on another worker once {' or '.join(starting)} has started the bots"
        return (f"waits for a worker that can play it to join (none is left; the run stops if none "
                f"comes within {self.executor.worker_timeout:g} s)")

    def _pending_part(self, part: _Part) -> tuple[Any, list[Job]]:
        """The future of a part still pending and its games, or (None, [])."""
        return next(((f, j) for f, (p, j, _) in self.pending.items() if p.task_key == part.task_key), (None, []))

    def _send_again(self, future: Any, jobs: list[Job]) -> None:
        """Withdraw a pending part and queue ``jobs`` (its games, or those
        left of them) first, as a new task. The client sends it, rather than
        leaving a lost worker's task to the scheduler, which can keep it
        waiting for ever on a worker that is gone (dask/distributed#7346)."""
        part, _, _ = self.pending.pop(future)
        future.cancel()
        if jobs:
            self.queue.insert(0, (dataclasses.replace(part, attempt=part.attempt + 1), jobs))

    def _charge(self, part: _Part, finished: int, label: str) -> bool:
        """Charge a lost worker to the game its part was on (the one after
        the games it had finished); whether that was the game's second loss,
        which makes it a referee failure: the part is then withdrawn and sent
        again without it."""
        future, jobs = self._pending_part(part)
        if future is None or finished >= len(jobs):
            return False
        game = jobs[finished]
        names = " vs ".join(self.names.get(bot_id, bot_id) for bot_id in game.seats)
        why = f"{label} was lost while playing {game.game} game {game.key} ({names})"
        if game.key not in self.failures:
            self.failures[game.key] = why
            return False
        self.executor._say(f"{why}, for the second time: it is stored as a referee failure (no result), "
                           f"and the rest of {part.name} {self._goes_on(part)}")
        self.failed.append(GameRecord.referee_failure(game, f"{self.failures[game.key]}; retried, {why}"))
        self._send_again(future, [job for job in jobs if job.key != game.key])
        return True

    def _give_up_if_stuck(self) -> None:
        """Games wait, nothing runs and nothing is being checked: give the
        cluster ``worker_timeout`` seconds to offer a worker that can play
        them, then fail with one line."""
        if not self.queue or self.pending or self.probing:
            self.waiting_since = None
            return
        now = time.monotonic()
        if self.waiting_since is None:
            self.waiting_since = now
        if now - self.waiting_since < self.executor.worker_timeout:
            return
        games = sum(len(jobs) for _, jobs in self.queue)
        timeout = f"{self.executor.worker_timeout:g} s"
        usable = [w for w in self.workers.values() if w.live and w.problem is None]
        if not usable:
            bad = "; ".join(f"{w.label} is unusable: {w.problem}" for w in self.workers.values()
                            if w.live and w.problem)
            raise ArenaError(f"no usable dask worker within {timeout}: "
                             + (bad or "no worker is connected")
                             + f"; {plural(games, 'game')} not played: run again to resume")
        bots = sorted({b for part, _ in self.queue for b in part.bots
                       if not any(w.can_play((b,)) for w in usable)})
        reasons = "; ".join(
            f"bot {self.names.get(b, b)} cannot start on " + ", ".join(
                f"{w.label} ({w.bots_failed[b]})" for w in usable if b in w.bots_failed)
            for b in bots)
        raise ArenaError(f"{plural(games, 'game')} not played, no usable dask worker can play "
                         f"them within {timeout}: {reasons or 'their workers are still starting bots'}; "
                         "they are not stored: run again to play them")


async def _remove_worker(address: str, dask_scheduler: Any = None) -> None:
    """Runs on the scheduler: forget a worker that stopped answering, and
    send its tasks elsewhere (its process, maybe on another machine, is its
    owner's to end)."""
    await dask_scheduler.remove_worker(address, stimulus_id="arena-worker-stalled", close=True)


def _environment_problems(client: Client, addresses: list[str]) -> dict[str, str | None]:
    """Ask each worker, with standard-library functions any worker can run,
    which Python it runs and whether it imports arena: why each one that
    answered cannot play arena's tasks, or None if it can. A worker not
    answering yet (or that left meanwhile) is not in the answer."""
    if not addresses:
        return {}
    try:
        python = client.run(platform.python_version, workers=addresses, on_error="return")
        executable = client.run(pkgutil.resolve_name, "sys:executable", workers=addresses, on_error="return")
        version = client.run(pkgutil.resolve_name, "arena:__version__", workers=addresses, on_error="return")
    except (OSError, TimeoutError, ValueError, KeyError):  # one left meanwhile: look again
        return {}
    return {address: _environment_problem(python[address], executable.get(address), version[address])
            for address in addresses if address in python and address in version}


def _environment_problem(python: Any, executable: Any, version: Any) -> str | None:
    """Why a worker cannot play arena's tasks, from what it answered."""
    where = f"Python {python}" + (f" at {executable}" if isinstance(executable, str) else "")
    if isinstance(python, BaseException):
        return f"it did not say which Python it runs ({_one_line(python)})"
    if isinstance(version, BaseException):
        return f"its {where} cannot import arena ({_one_line(version)}); {INSTALL_HINT}"
    if version != arena.__version__:
        return f"it runs arena {version}, this machine {arena.__version__}; {INSTALL_HINT}"
    if python.split(".")[:2] != platform.python_version().split(".")[:2]:
        return (f"it runs {where}, this machine Python {platform.python_version()}: "
                "arena's tasks need the same Python minor version")
    return None


def _error(outcome: Any) -> BaseException | None:
    """Why a task did not finish, from what as_completed gathered for it:
    (type, exception, traceback) for a task that raised, the exception for
    one that was cancelled; None for one that returned (arena's tasks
    return dicts)."""
    if isinstance(outcome, BaseException):
        return outcome
    if isinstance(outcome, tuple) and len(outcome) == 3 and isinstance(outcome[1], BaseException):
        return outcome[1]
    return None


def _result(outcome: Any, what: str) -> Any:
    """What a task returned (``outcome``, gathered with it), or, if it did
    not finish, an ArenaError of one line naming it (_task_error)."""
    error = _error(outcome)
    if error is None:
        return outcome
    raise _task_error(error, what)


def _task_error(error: BaseException, what: str) -> ArenaError:
    """Why a task failed, in one line that names it (``what``)."""
    if isinstance(error, ArenaError):
        return ArenaError(str(error))
    if isinstance(error, KilledWorker):
        return ArenaError(f"{what} was given up: {_one_line(error)}; "
                          "its games were not stored: run again to resume")
    if isinstance(error, CancelledError):  # distributed's FutureCancelledError among them
        return ArenaError(f"the dask cluster dropped {what} ({_one_line(error)}); "
                          "its games were not stored: run again to resume")
    # whatever the task raised on the worker
    hint = f"; {INSTALL_HINT}" if _looks_like_environment(error) else ""
    return ArenaError(f"{what} failed on the cluster: {type(error).__name__}: {_one_line(error)}{hint}")


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
            path = folder / safe_relative(relative)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "ab") as handle:
                handle.write(content)
    log.info("match %s: %s played on %s", part.name, plural(len(result["records"]), "game"), result["worker"])
    for data in result["records"]:
        data["logs"] = [None if rel is None or folder is None else str(folder / safe_relative(rel))
                        for rel in data["logs"]]
        yield GameRecord.from_json(data)


def _looks_like_environment(exc: BaseException) -> bool:
    return isinstance(exc, ImportError) or "deserializ" in str(exc)


def _one_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " ".join(lines) if lines else type(exc).__name__
