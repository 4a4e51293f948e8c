"""The Dask executor on real clusters on this machine: the local cluster that
``arena tournament --executor dask`` starts, and a real ``dask scheduler``
with real ``dask worker`` processes, one of them killed during a tournament.
Every run is compared with the same seeded tournament on the local executor."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import platform
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import warnings
import zlib
from collections.abc import Callable
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from distributed.client import FutureCancelledError
from distributed.scheduler import KilledWorker
from distributed.versions import VersionMismatchWarning
from support import ARENA, RANDOM_BOT, REPO

from arena.bots.discovery import discover
from arena.bots.process import BotProcess
from arena.bots.protocol import handshake
from arena.errors import ArenaError
from arena.model import DiceKey, Job, Limits
from arena.play.dask_executor import workers_present

# Whole tournaments in real processes: the slow set (-m "not slow" leaves it out).
pytestmark = pytest.mark.slow

TOURNAMENT = ["tournament", "--games", "slyyde", "--rounds", "4", "--jobs", "2", "--seed", "7",
              "--move-timeout", "20", "--startup-timeout", "60"]  # generous: a busy machine forfeits nothing
PLANNED = 24  # 3 bots: 3 pairs x 4 rounds x 2 seats
# Dask's connect timeout is 30 s by default; 3 s is plenty on localhost.
# PYTHONFAULTHANDLER: a CLI that does not finish in time is sent SIGABRT
# (finish), and prints every thread's stack on its way out.
ENV = dict(os.environ, PYTHONPATH=str(REPO), DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="3s", PYTHONFAULTHANDLER="1")

# A random bot that takes its time over each decision, so that a match lasts
# long enough to be interrupted; seeded by game_start, so games replay exactly.
SLOW_BOT = """\
#!/usr/bin/env python3
import json, random, sys, time
{prelude}

def main():
    chooser = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            print(json.dumps({{"type": "hello", "name": "slow", "games": ["slyyde"]}}), flush=True)
        elif kind == "game_start":
            chooser.seed(message["seed"])
            print("game", message["game_id"], "seat", message["seat"], file=sys.stderr, flush=True)
        elif kind == "decide":
            time.sleep(PAUSE)
            print(json.dumps({{"type": "action", "action": chooser.choice(message["actions"])}}), flush=True)
        elif kind == "bye":
            return

main()
"""


def make_bots(folder: Path) -> Path:
    """Three kinds of bot, so each kind of command is shipped and rewritten:
    a .py file (run with the referee's Python), a folder with a manifest and
    a module beside its main file, and an executable file with a shebang."""
    folder.mkdir(parents=True)
    (folder / "alpha.py").write_text(SLOW_BOT.format(prelude="PAUSE = 0.1"))
    beta = folder / "beta"
    beta.mkdir()
    (beta / "main.py").write_text(SLOW_BOT.format(prelude="from pace import PAUSE"))
    (beta / "pace.py").write_text("PAUSE = 0.1\n")
    (beta / "bot.json").write_text('{"command": ["python3", "main.py"]}')
    gamma = folder / "gamma"
    gamma.write_text(SLOW_BOT.format(prelude="PAUSE = 0.1"))
    gamma.chmod(0o755)
    return folder


@pytest.fixture(scope="module")
def bots(tmp_path_factory) -> Path:
    return make_bots(tmp_path_factory.mktemp("dask-bots") / "bots")


@pytest.fixture(scope="module")
def reference(bots, tmp_path_factory) -> list:
    """The tournament on the local executor, to compare every Dask run with."""
    folder = tmp_path_factory.mktemp("local")
    run_arena(*TOURNAMENT, "--bots", str(bots), cwd=folder)
    return stored(folder / "arena.db")


def stored(db: Path, logs: bool = True) -> list:
    """Everything stored about the games except when and how fast they ran,
    and the luck of their dice (the tournament command measures it once the
    games are stored; a test playing through play_missing does not) (and,
    with ``logs=False``, where their bots' logs went: a resumed run groups
    the missing games into other matches, so other log folders)."""
    skip = ("duration", "finished_at", "decision_times", "luck") + (() if logs else ("logs",))
    with closing(sqlite3.connect(db)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] not in skip]
        games = [dict(zip(columns, row)) for row in
                 conn.execute(f"SELECT {', '.join(columns)} FROM games ORDER BY key").fetchall()]
        kept = [row[1] for row in conn.execute("PRAGMA table_info(results)") if row[1] != "luck"]
        results = conn.execute(f"SELECT {', '.join(kept)} FROM results ORDER BY game_key, seat").fetchall()
    for game in games:  # a replay shows each decision's answer time: all of it but those
        if game["replay"] is not None:
            replay = json.loads(zlib.decompress(game["replay"]))
            replay["answer_ms"] = len(replay["answer_ms"])
            game["replay"] = replay
    return games + results


def count_games(db: Path) -> int:
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def start_arena(*args: str, cwd: Path, **env: str) -> subprocess.Popen:
    """The arena CLI as a real process, in a process group of its own that
    holds it and its local cluster's workers (bots have sessions of their
    own and die with the worker that started them)."""
    return subprocess.Popen([*ARENA, *args], cwd=cwd, env=dict(ENV, **env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def finish(process: subprocess.Popen, timeout: float = 300) -> tuple[str, str]:
    """Wait for the CLI; whatever happens, leave nothing of its group running.
    A CLI still running after ``timeout`` is a failure that shows where it
    was: its threads' stacks (SIGABRT, with the fault handler on)."""
    try:
        if process.returncode is not None:
            return "", ""
        try:
            return process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)
            with suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
            os.killpg(process.pid, signal.SIGKILL)  # its children (a local cluster, its pools) may hold its pipes
            _, err = process.communicate(timeout=30)
            raise AssertionError(f"arena did not finish within {timeout:g} s; where it was:\n{err}") from None
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if process.poll() is None:
            process.communicate()


def run_arena(*args: str, cwd: Path, check: bool = True, **env: str) -> subprocess.CompletedProcess:
    process = start_arena(*args, cwd=cwd, **env)
    out, err = finish(process)
    if check and process.returncode != 0:
        raise AssertionError(f"arena {' '.join(args)} failed ({process.returncode}):\n{err}")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


# -- processes, read from /proc ----------------------------------------------------


def processes() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, process group, state) of every live process."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            table[int(entry.name)] = (int(fields[1]), int(fields[2]), fields[0])
    return table


def descendants(root: int, table: dict[int, tuple[int, int, str]] | None = None) -> set[int]:
    table = processes() if table is None else table
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, (parent, _, _) in table.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    info = processes().get(pid)
    return info is not None and info[2] != "Z"


def command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def bots_under(root: int) -> dict[int, list[str]]:
    """The live processes under ``root`` that run a bot shipped to a worker
    (the bot, and whatever supervises it, name the bot's unpacked file), with
    their command lines read at once: a bot may end a moment later. One
    look at the process table: a test watching for bots looks often."""
    table = processes()
    found = {}
    for pid in descendants(root, table):
        command = command_line(pid)
        if table[pid][2] != "Z" and any("arena-bots" in part for part in command):
            found[pid] = command
    return found


def stop_a_worker_in_a_match(client, cluster: Cluster, names: dict[str, str]) -> tuple[int, dict, list[str]]:
    """Stop (SIGSTOP to its process group) one of the cluster's first
    workers in the middle of a part of a match, once the others play
    matches too (so they have started the bots: arena sends parts only to
    such workers). Returns the worker's number, its bots (pid: command
    line) and the keys it was processing.

    A part closes its bots before it returns, so bots still alive under a
    stopped worker (past its check that starts each bot once, a task of
    its own) mean that its part has not returned, and cannot now: the
    stop lands on a part in flight, however short the games. A worker
    seen with bots that then turn out to be none of that is let go on
    (SIGCONT), and the watch goes on."""
    addresses = [names[f"w{number}"] for number in range(len(cluster.workers))]
    matches_seen: set[int] = set()

    def kinds(keys) -> set[str]:
        return {str(key).split("-")[1] for key in keys if str(key).startswith(("arena-match-", "arena-probe-"))}

    def stopped_in_a_match() -> tuple[int, dict, list[str]] | None:
        processing = client.processing()
        matches_seen.update(n for n, a in enumerate(addresses) if "match" in kinds(processing.get(a, ())))
        for number, process in enumerate(cluster.workers):
            if not set(range(len(addresses))) - {number} <= matches_seen or not bots_under(process.pid):
                continue
            os.killpg(process.pid, signal.SIGSTOP)
            bots = bots_under(process.pid)
            keys = [str(key) for key in client.processing(workers=[addresses[number]])[addresses[number]]]
            if bots and kinds(keys) == {"match"}:
                return number, bots, keys
            os.killpg(process.pid, signal.SIGCONT)
        return None

    return wait_for(stopped_in_a_match, 120, "a worker with a match's bots, the others playing matches too")


# -- a real dask scheduler and real dask workers ------------------------------------


@dataclasses.dataclass
class Cluster:
    address: str
    scheduler: subprocess.Popen
    workers: list[subprocess.Popen]
    add_worker: Callable[..., subprocess.Popen]


@contextmanager
def dask_cluster(folder: Path, workers: int, scheduler_preload: Path | None = None):
    """``dask scheduler`` and ``dask worker`` processes on localhost, each in
    its own process group, all stopped at the end whatever happens. Workers
    see neither the client's files nor arena's checkout: only what their
    Python has installed (``add_worker`` starts another, with any Python)."""
    started: list[subprocess.Popen] = []
    logs = folder / "dask-logs"
    logs.mkdir(parents=True, exist_ok=True)

    def start(name: str, *args: str, python: str = sys.executable, **env: str) -> subprocess.Popen:
        own = folder / f"{name}-home"  # where it runs, and its TMPDIR, where a worker unpacks bots
        (own / "tmp").mkdir(parents=True, exist_ok=True)
        environment = {k: v for k, v in ENV.items() if k != "PYTHONPATH" or name == "scheduler"}
        environment.update(env)
        with open(logs / f"{name}.log", "wb") as output:
            process = subprocess.Popen([python, "-m", "dask", *args], cwd=own,
                                       env=dict(environment, TMPDIR=str(own / "tmp")),
                                       stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        started.append(process)
        return process

    try:
        scheduler_file = folder / "scheduler.json"
        preload = ["--preload", str(scheduler_preload)] if scheduler_preload else []
        scheduler = start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0",
                          "--no-dashboard", "--scheduler-file", str(scheduler_file), *preload)
        wait_for(lambda: scheduler_file.exists() and scheduler_file.stat().st_size, 30, "the scheduler")
        address = json.loads(scheduler_file.read_text())["address"]

        def add_worker(name: str, python: str = sys.executable, **env: str) -> subprocess.Popen:
            return start(name, "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                         "--name", name, "--no-dashboard", "--local-directory", str(folder / name),
                         python=python, **env)

        pool = [add_worker(f"w{n}") for n in range(workers)]
        yield Cluster(address, scheduler, pool, add_worker)
    finally:
        for process in reversed(started):
            _stop_group(process)


def python_without_arena(folder: Path, toolz_says: str | None = None) -> str:
    """A Python with Dask but without arena: a virtual environment that
    borrows this one's installed packages through a ``.pth`` line (which,
    unlike the site folder itself, runs none of the ``.pth`` files there,
    such as the one that makes arena importable). With ``toolz_says``, its
    own metadata for toolz names that version (the code stays this one's),
    so that Dask finds its packages differ from the client's."""
    import site
    import venv

    venv.create(folder, with_pip=False)
    python = folder / "bin" / "python"
    inside = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                            capture_output=True, text=True, check=True).stdout.strip()
    (Path(inside) / "borrowed.pth").write_text(site.getsitepackages()[0] + "\n")
    if toolz_says is not None:
        metadata = Path(inside) / f"toolz-{toolz_says}.dist-info"
        metadata.mkdir()
        (metadata / "METADATA").write_text(f"Metadata-Version: 2.1\nName: toolz\nVersion: {toolz_says}\n")
    check = subprocess.run([python, "-c", "import distributed, arena"], capture_output=True,
                           text=True, cwd=folder, env={k: v for k, v in ENV.items() if k != "PYTHONPATH"})
    assert "No module named 'arena'" in check.stderr, check.stderr
    return str(python)


def worker_addresses(cluster: Cluster, count: int) -> dict[str, str]:
    """Worker name -> address, once ``count`` workers are connected."""
    from distributed import Client

    with Client(cluster.address, set_as_default=False, timeout="30s") as client:
        client.wait_for_workers(count, timeout=60)
        return {info["name"]: address for address, info in workers_present(client).items()}


def _stop_group(process: subprocess.Popen) -> None:
    """SIGTERM to the process (a nanny then closes its worker cleanly), then
    SIGKILL to whatever is left of its process group."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


def _is_daemon() -> bool:
    import multiprocessing

    return multiprocessing.current_process().daemon


# -- the tests --------------------------------------------------------------------------


def test_the_workers_present_are_asked_of_the_scheduler_not_of_a_copy_the_client_refreshes(tmp_path):
    """Client.scheduler_info hands back the client's cached copy, which the
    client's periodic refresh (every 2 s; every 5 ms here, to give it many
    chances) fills without the workers: asked in a loop so, it missed them
    in 80 of 19,554 looks on this machine, and arena took every worker for
    lost when it missed them ("w1 left the cluster") and gave up the run.
    What arena asks (workers_present) comes from the scheduler itself."""
    import dask
    from distributed import Client

    with dask_cluster(tmp_path, workers=2) as cluster, \
            dask.config.set({"distributed.client.scheduler-info-interval": "5ms"}), \
            Client(cluster.address, set_as_default=False, timeout="30s") as client:
        client.wait_for_workers(2, timeout=60)
        seen = [len(workers_present(client)) for _ in range(5000)]
    assert seen == [2] * len(seen)


def test_a_local_dask_cluster_stores_what_the_local_executor_stores(bots, reference, tmp_path):
    (tmp_path / "tmp").mkdir()  # the workers' temporary directory, where they unpack bots
    run = run_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask", cwd=tmp_path,
                    TMPDIR=str(tmp_path / "tmp"))
    assert f"{PLANNED} games planned, 0 already stored, {PLANNED} to play" in run.stderr
    assert stored(tmp_path / "arena.db") == reference
    # Bots' stderr logs (one per game and seat) came back from the workers to
    # where the local executor writes them, every line. (Which game's file a
    # line lands in is certain only for lines written before a decision, and
    # a Slyyde game may have none: so the lines are counted, not placed.)
    paths = {tmp_path / path for game in reference[:PLANNED] for path in json.loads(game["logs"])}
    files = set((tmp_path / "logs" / "bots").rglob("*.log"))
    assert files and files <= paths
    assert sorted(line for path in files for line in path.read_text().splitlines()) == sorted(
        f"game {Job(game['key'], game['game'], (), game['seed']).game_id} seat {seat}"
        for game in reference[:PLANNED] for seat in range(2))
    # The workers' own log lines reached this machine's log file.
    log = (tmp_path / "logs" / "arena.log").read_text()
    assert "dask-worker tcp://127.0.0.1:" in log and "playing" in log
    assert "games played on tcp://127.0.0.1:" in log
    # The workers closed cleanly and removed the bots they had unpacked.
    assert (tmp_path / "tmp" / "dask-scratch-space").is_dir()
    assert not list((tmp_path / "tmp").glob("arena-bots-*"))


def test_an_interrupted_dask_tournament_resumes_with_only_the_missing_games(bots, reference, tmp_path):
    run = start_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask", cwd=tmp_path)
    try:
        wait_for(lambda: count_games(tmp_path / "arena.db") >= 2, 120, "the first games stored")
        children = descendants(run.pid)
        assert children, "the local cluster runs in processes of its own"
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=60)
        assert run.returncode == 130, err
        assert "run the same command again to resume" in err
        wait_for(lambda: not any(alive(pid) for pid in children), 15,
                 "the local cluster's processes and its bots to end")
    finally:
        finish(run)  # only if something above failed: leave nothing running
    kept = count_games(tmp_path / "arena.db")
    assert 2 <= kept < PLANNED
    again = run_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask", cwd=tmp_path)
    assert f"{PLANNED} games planned, {kept} already stored, {PLANNED - kept} to play" in again.stderr
    without_logs = [{k: v for k, v in row.items() if k != "logs"} if isinstance(row, dict) else row
                    for row in reference]
    assert stored(tmp_path / "arena.db", logs=False) == without_logs


def test_a_worker_killed_mid_game_loses_nothing(bots, reference, tmp_path):
    import cloudpickle
    from distributed import Client

    with dask_cluster(tmp_path, workers=2) as cluster:
        client = Client(cluster.address, set_as_default=False, timeout="30s")
        try:
            client.wait_for_workers(2, timeout=60)
            # The trap is there: the worker processes are daemonic, and bots run anyway.
            cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests
            try:
                assert all(client.run(_is_daemon).values())
            finally:
                cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
            names = {info["name"]: address for address, info in workers_present(client).items()}
            run = start_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask",
                              "--scheduler", cluster.address, cwd=tmp_path)
            try:
                # Whichever worker is first seen playing a match, while the other plays too, is killed.
                number, playing, in_progress = stop_a_worker_in_a_match(client, cluster, names)
                victim, dead, survivor = cluster.workers[number], f"w{number}", names[f"w{1 - number}"]
                os.killpg(victim.pid, signal.SIGKILL)
                victim.wait(timeout=10)
            finally:
                _, err = finish(run, timeout=180)
            assert run.returncode == 0, err
        finally:
            client.close()
    # The loss was said, in the terminal and in the log, with what it cost.
    lost = [line for line in err.splitlines()
            if line.startswith(f"dask worker {names[dead]} ({dead}) was lost while playing arena-match-")]
    assert lost and all(re.search(r": the part is played again on another worker, which costs the "
                                  r"\d+ games? it had finished there$", line) for line in lost), err
    # Every planned game is stored, once, exactly as the local executor played it.
    assert stored(tmp_path / "arena.db") == reference
    # The matches the dead worker was playing were played again on the other one.
    assert in_progress
    log = (tmp_path / "logs" / "arena.log").read_text()
    assert all(line in log for line in lost)
    replayed = [line for line in log.splitlines() for key in in_progress if f"match {key}: " in line]
    assert any(line.endswith(f"played on {survivor}") for line in replayed), replayed
    # Its bots died with it. They ran from files shipped to it, unpacked by
    # content hash into a folder of its own (which its SIGKILL left behind).
    wait_for(lambda: not any(alive(pid) for pid in playing), 10, "the dead worker's bots to end")
    hashes = {spec.content_hash for spec in discover([bots])}
    for command in playing.values():
        assert not any(str(bots) in part for part in command)
        shipped = Path(next(part for part in command if "/arena-bots-" in part))
        cache = next(folder for folder in shipped.parents if folder.name.startswith("arena-bots-"))
        assert cache.parent == tmp_path / f"{dead}-home" / "tmp"
        assert {folder.name for folder in cache.iterdir()} <= hashes
    # The next worker process to unpack bots there removes it, and its own
    # folder goes when it exits.
    unpack = "from arena.play.dask_worker import _bot_cache; print(_bot_cache())"
    unpacking = subprocess.run([sys.executable, "-c", unpack],
                               env=dict(os.environ, TMPDIR=str(cache.parent)), capture_output=True, text=True,
                               check=True)
    assert not cache.exists() and Path(unpacking.stdout.strip()).parent == cache.parent
    assert list(cache.parent.glob("arena-bots-*")) == []


def test_a_stopped_worker_is_removed_and_its_games_played_elsewhere(bots, reference, tmp_path):
    """A worker stopped in the middle of a match (SIGSTOP: its connection
    stays open, so Dask would wait minutes) misses its heartbeat deadline
    (5 + 2 x 2 + 10 + 1 = 20 s with these limits), is removed from the
    cluster, and its part is played on the other worker: every game is
    stored once, none as a referee failure."""
    from distributed import Client

    with dask_cluster(tmp_path, workers=2) as cluster:
        client = Client(cluster.address, set_as_default=False, timeout="30s")
        try:
            client.wait_for_workers(2, timeout=60)
            names = {info["name"]: address for address, info in workers_present(client).items()}
            run = start_arena(*TOURNAMENT, "--move-timeout", "2", "--startup-timeout", "5", "--bots", str(bots),
                              "--executor", "dask", "--scheduler", cluster.address, cwd=tmp_path)
            try:
                try:
                    number, _, _ = stop_a_worker_in_a_match(client, cluster, names)
                except AssertionError as waited:
                    _, err = finish(run, timeout=10)  # arena's stacks if it still runs, else what it said
                    raise AssertionError(f"{waited}; arena said:\n{err}") from None
                victim = cluster.workers[number]
                try:
                    _, err = finish(run, timeout=240)
                finally:
                    os.killpg(victim.pid, signal.SIGKILL)
            finally:
                finish(run, timeout=10)
            assert run.returncode == 0, err
        finally:
            client.close()
    label = f"dask worker {names[f'w{number}']} (w{number})"
    assert f"{label} stopped answering (no heartbeat for 20 s): it is removed from the cluster" in err, err
    assert f"{label} was lost while playing arena-match-" in err, err
    with closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
        keys = [key for (key,) in conn.execute("SELECT key FROM games WHERE termination != 'referee_failure'")]
    assert sorted(keys) == sorted(game["key"] for game in reference if isinstance(game, dict))


def worker_process(cluster: Cluster, address: str) -> int:
    """The pid of the worker process listening at ``address``: one of the
    first ones, or one that a nanny started in place of one killed. A child
    it is forking (a bot starting) holds the socket too until it execs, so
    the one holding it whose parent does not."""
    port = int(address.rsplit(":", 1)[1])
    sockets = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # listening
            sockets.add(f"socket:[{fields[9]}]")
    table = processes()
    holders = set()
    for pid in {pid for process in cluster.workers for pid in descendants(process.pid, table)}:
        try:
            if any(os.readlink(fd) in sockets for fd in Path(f"/proc/{pid}/fd").iterdir()):
                holders.add(pid)
        except OSError:
            continue
    listening = [pid for pid in holders if table[pid][0] not in holders]
    assert len(listening) == 1, f"no single worker process of the cluster listens at {address}: {listening}"
    return listening[0]


def test_a_game_on_which_two_workers_die_is_a_referee_failure(bots, tmp_path):
    """The worker that starts a part is killed as the part starts (its
    first progress event), and so is the worker Dask sends it to next (the
    other one, or the fresh one that a nanny started in place of the
    first: whichever was free): the part's first game is stored as a
    referee failure naming both, the rest of the part and every other game
    are played, and the run ends well."""
    from distributed import Client

    with dask_cluster(tmp_path, workers=2) as cluster:
        client = Client(cluster.address, set_as_default=False, timeout="30s")
        try:
            client.wait_for_workers(2, timeout=60)
            target: list[str] = []
            killed: list[str] = []

            def kill_as_it_starts(event) -> None:
                _, message = event
                # A part sent again when no worker it was bound to is left has a new key.
                key, worker = re.sub(r"-again\d+$", "", str(message["key"])), message["worker"]
                if message["games"] or len(killed) == 2 or not key.startswith("arena-match-"):
                    return
                target[:] = target or [key]
                if key == target[0] and worker not in killed:
                    os.kill(worker_process(cluster, worker), signal.SIGKILL)
                    killed.append(worker)

            client.subscribe_topic("arena-progress", kill_as_it_starts)
            run = run_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask",
                            "--scheduler", cluster.address, cwd=tmp_path)
        finally:
            client.close()
    assert len(killed) == 2, run.stderr
    assert "for the second time: it is stored as a referee failure (no result)" in run.stderr, run.stderr
    assert "1 game could not be played and is stored as a referee failure" in run.stderr
    with closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
        rows = conn.execute("SELECT termination, detail, placements FROM games").fetchall()
        results = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    assert len(rows) == PLANNED
    [(_, detail, placements)] = [row for row in rows if row[0] == "referee_failure"]
    assert placements == "[]" and results == 2 * (PLANNED - 1)
    assert all(f"dask worker {worker}" in detail for worker in killed) and "retried" in detail


def test_long_matches_come_back_in_parts_and_store_the_same(bots, reference, tmp_path, monkeypatch,
                                                          caplog):
    """A task plays a match for a few seconds and hands back what it played;
    with no seconds at all, every game is a task of its own (a match holds
    no two games on one seed, so it may be cut after any game)."""
    from arena.play.dask_executor import DaskExecutor
    from arena.play.plan import group_into_matches
    from arena.play.tournament import check_request, plan_tournament, play_missing
    from arena.store import Store

    monkeypatch.chdir(tmp_path)
    caplog.set_level(logging.INFO, logger="arena")
    limits = Limits(move_timeout=20, startup_timeout=60)
    plan = plan_tournament([bots], check_request(["slyyde"]), 4, DiceKey.from_seed(7), limits)
    executor = DaskExecutor(2, task_seconds=0)
    with Store("arena.db", writer=True) as store:
        assert play_missing(plan, store, executor, limits, Path("logs")) == PLANNED
    assert stored(tmp_path / "arena.db") == reference
    parts = [r.getMessage() for r in caplog.records if re.search(r": \d+ games? played on ", r.getMessage())]
    matches = group_into_matches(plan.jobs, executor.workers)
    assert len(matches) < len(parts) == PLANNED
    assert all(": 1 game played on tcp://127.0.0.1:" in message for message in parts)


def test_a_scheduler_without_arena_is_one_clear_line(bots, tmp_path):
    blocker = tmp_path / "no_arena.py"
    blocker.write_text("import sys\nsys.modules['arena'] = None  # as if arena were not installed\n")
    with dask_cluster(tmp_path, workers=1, scheduler_preload=blocker) as cluster:
        run = run_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask", "--scheduler",
                        cluster.address, cwd=tmp_path, check=False)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    # The first task with arena's code in it is where each worker starts the bots once.
    assert last.startswith("Error: the bot check arena-probe-") and "on the scheduler and on every worker" in last
    assert "Traceback" not in run.stderr


def test_a_worker_without_arena_is_named_and_the_run_fails_in_the_stated_time(bots, tmp_path):
    bare = python_without_arena(tmp_path / "bare-venv")
    with dask_cluster(tmp_path, workers=0) as cluster:
        worker = cluster.add_worker("bare", python=bare)
        address = worker_addresses(cluster, 1)["bare"]
        started = time.monotonic()
        run = run_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask", "--scheduler",
                        cluster.address, "--worker-timeout", "4", cwd=tmp_path, check=False)
        took = time.monotonic() - started
        assert worker.poll() is None, "the worker was given nothing it cannot read"
    assert run.returncode == 1, run.stderr
    lines = run.stderr.strip().splitlines()
    assert (f"to play on the dask cluster at {cluster.address} (no usable worker connected yet, "
            "1 unusable worker: waiting up to 4 s for a usable one)") in run.stderr
    named = [line for line in lines if line.startswith(f"dask worker {address} (bare) is unusable: ")]
    assert len(named) == 1, run.stderr
    assert f"its Python {platform.python_version()} at {bare} cannot import arena" in named[0]
    assert "pip install --find-links vendor '.[dask]'" in named[0]
    assert lines[-1].startswith(f"Error: no usable dask worker within 4 s: dask worker {address} (bare) "
                                "is unusable: its Python ")
    assert lines[-1].endswith(f"{PLANNED} games not played: run again to resume")
    assert "Traceback" not in run.stderr
    assert count_games(tmp_path / "arena.db") == 0
    assert took < 4 + 15, took  # the wait, plus the handshakes and the connection


def test_only_usable_workers_count_and_a_part_with_none_left_waits_for_one(bots, tmp_path):
    """One good worker and one without arena whose packages Dask finds
    different: the start line counts the good one's thread only, Dask's
    table of versions is not shown (arena names the bad worker itself), and
    when the good worker is killed in the middle of a match, arena says
    that its part waits for a worker to join, then stops in the stated time."""
    from distributed import Client

    bare = python_without_arena(tmp_path / "bare-venv", toolz_says="0.0.1")
    with dask_cluster(tmp_path, workers=1) as cluster:
        cluster.add_worker("bare", python=bare)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", VersionMismatchWarning)
            names = worker_addresses(cluster, 2)
        with pytest.warns(VersionMismatchWarning, match="Mismatched versions found"):  # what Dask says itself
            client = Client(cluster.address, set_as_default=False, timeout="30s")
        with client:
            run = start_arena(*TOURNAMENT, "--rounds", "1", "--bots", str(bots), "--executor", "dask",
                              "--scheduler", cluster.address, "--worker-timeout", "3", cwd=tmp_path)
            try:
                stop_a_worker_in_a_match(client, cluster, names)  # w0, the cluster's only first worker
                os.killpg(cluster.workers[0].pid, signal.SIGKILL)
            finally:
                _, err = finish(run, timeout=180)
    assert run.returncode == 1, err
    assert (f"to play on the dask cluster at {cluster.address} (1 usable worker thread connected, "
            "and 1 unusable worker)") in err
    assert "Mismatched versions" not in err and "VersionMismatchWarning" not in err
    assert len([line for line in err.splitlines()
                if line.startswith(f"dask worker {names['bare']} (bare) is unusable: ")]) == 1, err
    lost = [line for line in err.splitlines()
            if line.startswith(f"dask worker {names['w0']} (w0) was lost while playing arena-match-")]
    assert lost and all(": the part waits for a worker that can play it to join (none is left; the run "
                        "stops if none comes within 3 s), which costs the " in line for line in lost), err
    assert "played again on another worker" not in err
    last = [line for line in err.splitlines() if line.startswith("Error: ")]
    assert last and last[0].startswith(f"Error: no usable dask worker within 3 s: dask worker {names['bare']} "
                                       "(bare) is unusable: "), err
    assert re.search(r"; \d+ games? not played: run again to resume$", last[0]), err


# The first start of a bot on the worker whose PYTHONPATH is a folder
# named slow-first-start (its check, which starts each bot once) takes 10 s;
# the folder's file "first" says it has not come yet. (Without a box, where
# the bot can see the folder.)
SLOW_FIRST_START = """\
import os
folder = os.environ.get("PYTHONPATH", "")
if folder.endswith("slow-first-start"):
    try:
        os.remove(os.path.join(folder, "first"))
    except FileNotFoundError:
        pass
    else:
        time.sleep(10)
PAUSE = 0.1"""


def test_a_part_lost_while_another_worker_starts_the_bots_waits_for_that_worker(tmp_path):
    """Worker w1 takes 10 s to start the bots once before any match, and
    w0 is killed as it starts its first part: the part is said to be
    played again once w1 has started the bots (not to wait for a worker to
    join, none being left), and w1 then plays every game."""
    from distributed import Client

    bots = make_bots(tmp_path / "bots")
    (bots / "alpha.py").write_text(SLOW_BOT.format(prelude=SLOW_FIRST_START))
    slow = tmp_path / "slow-first-start"
    slow.mkdir()
    (slow / "first").touch()
    with dask_cluster(tmp_path, workers=1) as cluster:
        cluster.add_worker("w1", PYTHONPATH=str(slow))
        names = worker_addresses(cluster, 2)
        killed: list[str] = []

        def kill_w0_as_it_starts_a_part(event) -> None:
            _, message = event
            if not killed and message["worker"] == names["w0"] and str(message["key"]).startswith("arena-match-"):
                os.killpg(cluster.workers[0].pid, signal.SIGKILL)
                killed.append(message["key"])

        with Client(cluster.address, set_as_default=False, timeout="30s") as client:
            client.subscribe_topic("arena-progress", kill_w0_as_it_starts_a_part)
            run = run_arena(*TOURNAMENT, "--rounds", "1", "--isolation", "none", "--bots", str(bots),
                            "--executor", "dask", "--scheduler", cluster.address, cwd=tmp_path)
    assert killed and not (slow / "first").exists(), run.stderr
    lost = [line for line in run.stderr.splitlines()
            if line.startswith(f"dask worker {names['w0']} (w0) was lost while playing arena-match-")]
    assert lost and all(line.endswith(f": the part is played again on another worker once dask worker {names['w1']} "
                                      "(w1) has started the bots, which costs the 0 games it had finished there")
                        for line in lost), run.stderr
    assert "none is left" not in run.stderr
    with closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
        assert conn.execute("SELECT termination, count(*) FROM games GROUP BY termination").fetchall() == [
            ("normal", 6)]


def test_with_no_worker_at_all_the_run_says_so_and_fails_in_the_stated_time(bots, tmp_path):
    with dask_cluster(tmp_path, workers=0) as cluster:
        run = run_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask", "--scheduler",
                        cluster.address, "--worker-timeout", "2", cwd=tmp_path, check=False)
    assert run.returncode == 1
    assert (f"{PLANNED} to play on the dask cluster at {cluster.address} (no worker connected yet: "
            "waiting up to 2 s for a usable one)") in run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        f"Error: no usable dask worker within 2 s: no worker is connected; {PLANNED} games not "
        "played: run again to resume")
    assert count_games(tmp_path / "arena.db") == 0


NEEDY = SLOW_BOT.format(prelude="import arena  # needs arena, like the house bots\nPAUSE = 0.1")


def test_a_bot_that_cannot_start_on_a_worker_forfeits_nothing_and_plays_on_the_rerun(tmp_path):
    """The folder bot runs ``python3``, which imports arena here (through
    PYTHONPATH) but not on the first worker: that is the worker's problem,
    so its games wait, unstored, for a worker where it starts."""
    bots = make_bots(tmp_path / "bots")
    (bots / "beta" / "main.py").write_text(NEEDY)
    (bots / "beta" / "pace.py").unlink()
    tournament = [*TOURNAMENT, "--rounds", "2", "--bots", str(bots), "--executor", "dask",
                  "--worker-timeout", "3"]
    planned, needy = 12, 8  # 3 pairs x 2 rounds x 2 seats; beta plays in 2 pairs of them
    with dask_cluster(tmp_path, workers=1) as cluster:
        address = worker_addresses(cluster, 1)["w0"]
        first = run_arena(*tournament, "--scheduler", cluster.address, cwd=tmp_path, check=False)
        assert first.returncode == 1, first.stderr
        told = [line for line in first.stderr.splitlines()
                if line.startswith(f"bot beta cannot start on dask worker {address} (w0), "
                                   "so its games are not played there: handshake failed: ")]
        assert len(told) == 1, first.stderr
        # Why, in the bot's own words: the end of its stderr on the worker.
        assert told[0].endswith("| ModuleNotFoundError: No module named 'arena'"), told[0]
        assert first.stderr.strip().splitlines()[-1].startswith(
            f"Error: {needy} games not played, no usable dask worker can play them within 3 s: "
            f"bot beta cannot start on dask worker {address} (w0) (handshake failed: ")
        with closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
            assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == planned - needy
            assert conn.execute("SELECT count(*) FROM games WHERE termination != 'normal'").fetchone()[0] == 0
            assert conn.execute("SELECT count(*) FROM results JOIN bots USING (bot_id) "
                                "WHERE bots.name = 'beta'").fetchone()[0] == 0
        cluster.add_worker("w1", PYTHONPATH=str(REPO))  # its python3 imports arena
        worker_addresses(cluster, 2)
        again = run_arena(*tournament, "--scheduler", cluster.address, cwd=tmp_path)
    assert f"{planned} games planned, {planned - needy} already stored, {needy} to play" in again.stderr
    assert "bot beta cannot start on dask worker" in again.stderr  # on w0, again
    with closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == planned
        assert conn.execute("SELECT count(*) FROM games WHERE termination != 'normal'").fetchone()[0] == 0


def test_an_unreachable_scheduler_is_one_clear_line(bots, tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    run = run_arena(*TOURNAMENT, "--bots", str(bots), "--executor", "dask", "--scheduler",
                    f"tcp://127.0.0.1:{port}", cwd=tmp_path, check=False)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1].startswith(
        f"Error: cannot reach the dask scheduler at 'tcp://127.0.0.1:{port}'")
    assert "Traceback" not in run.stderr


def test_without_distributed_the_dask_executor_says_what_to_install(monkeypatch, tmp_path):
    from arena.cli import main
    from arena.play.executors import make_executor

    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.delitem(sys.modules, "arena.play.dask_executor", raising=False)
    expected = "the dask executor needs the dask extra: pip install --find-links vendor '.[dask]' in arena's checkout"
    with pytest.raises(ArenaError) as caught:
        make_executor("dask", 2)
    assert str(caught.value) == expected
    result = CliRunner().invoke(main, ["tournament", "--executor", "dask", "--db", str(tmp_path / "a.db")])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {expected}"


def test_the_install_hint_installs_this_project_with_the_dask_extra(tmp_path):
    """What arena tells a user to run on a worker, run as a dry run where it
    says (arena's checkout): pip resolves it to this project, at this
    version, with Dask and the dashboard's bokeh. (pip reads the package
    index it is configured with; this project's own files come from here.)"""
    import shlex

    import arena
    from arena.play.dask_worker import INSTALL_HINT, WORKER_INSTALL
    from arena.play.executors import DASK_INSTALL_HINT

    assert DASK_INSTALL_HINT == f"{WORKER_INSTALL} in arena's checkout"
    assert INSTALL_HINT.endswith(f": {WORKER_INSTALL} in arena's checkout")
    command = shlex.split(WORKER_INSTALL)
    assert command[:2] == ["pip", "install"]
    report = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", *command, "--dry-run", "--ignore-installed", "--quiet",
                    "--report", str(report)], cwd=REPO, check=True, capture_output=True, timeout=120)
    chosen = {item["metadata"]["name"]: item for item in json.loads(report.read_text())["install"]}
    assert chosen["dice-arena"]["metadata"]["version"] == arena.__version__
    assert chosen["dice-arena"]["requested_extras"] == ["dask"]
    assert {"distributed", "bokeh", "elo"} <= set(chosen)



@pytest.mark.parametrize("error, message", [
    (KilledWorker("arena-match-x-part0", SimpleNamespace(address="tcp://127.0.0.1:1"), 3),
     "match arena-match-x-part0 was given up: "),
    (FutureCancelledError("arena-match-x-part0", "lost"), "the dask cluster dropped match "),
    (ModuleNotFoundError("No module named 'arena'"), "on the scheduler and on every worker"),
    (ArenaError("worker w runs arena 0.0.1, the client 0.1.0"), "worker w runs arena 0.0.1"),
])
def test_a_failed_task_is_one_line_naming_the_match(error, message):
    """As as_completed gathers a failed task (type, exception, traceback),
    or a cancelled one (the exception)."""
    from arena.play.dask_executor import _result

    outcome = error if isinstance(error, FutureCancelledError) else (type(error), error, None)
    with pytest.raises(ArenaError) as caught:
        _result(outcome, "match arena-match-x-part0")
    text = str(caught.value)
    assert message in text and "\n" not in text
    assert type(error) is ArenaError or "arena-match-x-part0" in text


# -- shipping bots by content hash, without the cluster --------------------------------


def test_a_shipped_bot_runs_from_its_bundle_after_the_original_is_gone(tmp_path):
    from arena.bots.bundle import pack_bot, unpack_bot

    specs = discover([make_bots(tmp_path / "bots")])
    bundles = [pack_bot(spec) for spec in specs]
    (tmp_path / "bots").rename(tmp_path / "gone")
    cache = tmp_path / "worker" / "cache"
    for bundle, spec in zip(bundles, specs):
        shipped = unpack_bot(bundle, cache)
        assert (shipped.bot_id, shipped.content_hash) == (spec.bot_id, spec.content_hash)
        assert shipped.path.startswith(str(cache / spec.content_hash))
        assert str(tmp_path / "bots") not in " ".join(shipped.command)
        process = BotProcess(shipped, Limits())
        try:
            assert handshake(process, 10)["games"] == ["slyyde"]
        finally:
            process.close()
    alpha, beta, gamma = (unpack_bot(bundle, cache) for bundle in bundles)
    assert alpha.command[0] == sys.executable
    assert beta.command == ("python3", str(Path(beta.path) / "main.py"))
    assert os.access(gamma.path, os.X_OK)
    assert unpack_bot(bundles[0], cache) == alpha  # unpacked once per content hash


def test_every_bundled_bot_runs_shipped_alone(tmp_path):
    """What a worker gets is the bot's own files: the house bots need
    nothing from the bots folder beside them (the arena package is there)."""
    from arena.bots.bundle import pack_bot, unpack_bot

    for spec in discover([REPO / "bots"]):
        shipped = unpack_bot(pack_bot(spec), tmp_path / "cache")
        assert str(REPO / "bots") not in " ".join(shipped.command)
        process = BotProcess(shipped, Limits())
        try:
            assert handshake(process, 30)["games"], spec.name
        finally:
            process.close()


def test_a_bot_damaged_in_transit_or_changed_since_discovery_is_refused(tmp_path):
    from arena.bots.bundle import pack_bot, unpack_bot

    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "alpha.py").write_bytes(RANDOM_BOT.read_bytes())
    spec, = discover([bots])
    bundle = pack_bot(spec)
    damaged = dataclasses.replace(bundle, files=((bundle.files[0][0], 0o644, b"print('evil')\n"),))
    with pytest.raises(ArenaError, match="arrived damaged"):
        unpack_bot(damaged, tmp_path / "cache")
    assert not (tmp_path / "cache" / spec.content_hash).exists()
    (bots / "alpha.py").write_text(RANDOM_BOT.read_text() + "\n# edited\n")
    with pytest.raises(ArenaError, match="changed since it was checked"):
        pack_bot(spec)
