"""The referee watches its workers: a worker stopped, hung or killed in the
middle of a tournament is killed and its game played again, once, in a
fresh worker; a game on which two workers fail is stored as a referee
failure, which counts for and against no bot. The other workers play on,
and the tournament ends with every planned game stored exactly once.

Real tournaments: real bot processes, real forked workers (found among
this process's children), a real SQLite file."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from support import processes_running, random_bots

from arena.model import DiceKey, GameRecord, Limits, Termination
from arena.play import executors, match
from arena.play.executors import LocalExecutor
from arena.play.tournament import check_request, plan_tournament, play_missing
from arena.store import Store

LIMITS = Limits(startup_timeout=5.0, move_timeout=1.0)
BOTS = ["watch_a", "watch_b", "watch_c"]
# Three pairs, seat-swapped, twice: 12 games, cut into matches for two workers.
PLANNED = 12


@pytest.fixture
def short_deadline(monkeypatch):
    """A worker is taken for stopped after 5 + 2 × 1 + 1 = 8 s without a
    heartbeat (the slack of a busy machine is 10 s in earnest)."""
    monkeypatch.setattr(match, "WORKER_SLACK", 1.0)


def run(tmp_path: Path, on_game: Callable[[GameRecord], None] = lambda record: None) -> tuple[Store, list[str], int]:
    """A two-worker tournament of random bots at Detour, stored in a real
    file: the open store, what the executor told the user, and how many
    games were stored."""
    bots = random_bots(tmp_path / "bots", BOTS)
    plan = plan_tournament([bots], check_request(["detour"]), 2, DiceKey.from_seed(5), LIMITS)
    assert len(plan.jobs) == PLANNED
    said: list[str] = []
    store = Store(tmp_path / "arena.db", writer=True)
    played = play_missing(plan, store, LocalExecutor(2, notify=said.append), LIMITS, tmp_path / "logs",
                          on_game=on_game)
    return store, said, played


def workers() -> list[multiprocessing.process.BaseProcess]:
    return [child for child in multiprocessing.active_children() if child.name.startswith("arena-worker-")]


def check_all_stored_once(store: Store, played: int) -> None:
    assert played == PLANNED
    with closing(sqlite3.connect(store.path)) as conn:
        keys = [key for (key,) in conn.execute("SELECT key FROM games")]
        rows = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    assert len(keys) == len(set(keys)) == PLANNED
    assert rows == 2 * PLANNED  # every game has a result for both its seats


def in_a_game(pid: int) -> bool:
    """Whether a worker has children: the bots of a game it is playing."""
    tasks = Path(f"/proc/{pid}/task")
    try:
        return any((task / "children").read_text().strip() for task in tasks.iterdir())
    except OSError:
        return False


def signal_a_worker_mid_run(signum: int) -> tuple[Callable[[GameRecord], None], list[int]]:
    """An ``on_game`` that, as the first game is stored (the workers are
    in their matches then), sends ``signum`` to one worker: one playing a
    game where there is one (the worker that sent that game may have no
    game left to play, and stopping it would prove nothing)."""
    hit: list[int] = []
    # Only this run's workers: a worker of an earlier test of the session
    # may not have been joined yet, and stopping it would prove nothing.
    earlier = {worker.pid for worker in workers()}

    def on_game(record: GameRecord) -> None:
        if not hit:
            ours = [worker.pid for worker in workers() if worker.pid not in earlier]
            [chosen, *_] = [pid for pid in ours if in_a_game(pid)] or ours
            hit.append(chosen)
            os.kill(chosen, signum)

    return on_game, hit


def signalled_until_said(tmp_path: Path, signum: int) -> str:
    """What the executor said of a worker sent ``signum`` mid-run. The
    signal lands in a game in flight in most runs; in some, the worker hit
    has just handed back the last game of its match (its bots not yet
    gone), so it is replaced with nothing to play again and nothing to say.
    Such a run proves only that nothing is lost: it is run again, up to
    three times in all, until a signal lands on a game."""
    for attempt in range(3):
        on_game, hit = signal_a_worker_mid_run(signum)
        store, said, played = run(tmp_path / f"run{attempt}", on_game)
        with store:
            check_all_stored_once(store, played)
            assert store.referee_failures() == []
        assert hit and processes_running(tmp_path / f"run{attempt}" / "bots") == []
        if said:
            break
    [message] = said
    return message


@pytest.mark.slow
def test_a_stopped_worker_is_killed_and_its_game_played_again(tmp_path, short_deadline):
    message = signalled_until_said(tmp_path, signal.SIGSTOP)
    assert "stopped answering (no heartbeat for 8 s)" in message and "played again in a fresh worker" in message


def test_a_killed_worker_costs_nothing(tmp_path):
    message = signalled_until_said(tmp_path, signal.SIGKILL)
    assert "died (killed by SIGKILL)" in message and "played again in a fresh worker" in message


@pytest.mark.slow
def test_a_game_whose_workers_fail_twice_is_a_referee_failure(tmp_path, short_deadline, monkeypatch):
    """The game's first worker stops itself (found by its deadline), the
    fresh one kills itself (found by its exit): the game is stored as a
    referee failure naming both, with no result, and not rated; the rest of
    its match and the other games are played."""
    failing = tmp_path / "failed-once"
    real_play_match = executors.play_match

    def play_match(jobs, specs, limits, log_dir, heartbeat=None):
        for job in jobs:
            if job.key == target:
                if failing.exists():
                    os.kill(os.getpid(), signal.SIGKILL)
                failing.touch()
                os.kill(os.getpid(), signal.SIGSTOP)
            yield from real_play_match([job], specs, limits, log_dir, heartbeat=heartbeat)

    bots = random_bots(tmp_path / "bots", BOTS)
    plan = plan_tournament([bots], check_request(["detour"]), 2, DiceKey.from_seed(5), LIMITS)
    target = plan.jobs[3].key
    monkeypatch.setattr(executors, "play_match", play_match)  # forked workers inherit it
    said: list[str] = []
    with Store(tmp_path / "arena.db", writer=True) as store:
        played = play_missing(plan, store, LocalExecutor(2, notify=said.append), LIMITS, None)
        assert played == PLANNED
        assert store.count_games() == PLANNED
        [(key, seats, detail)] = store.referee_failures()
        assert key == target and seats == plan.jobs[3].seats
        assert "stopped answering (no heartbeat for 8 s)" in detail and "retried" in detail
        assert "died (killed by SIGKILL)" in detail
        names = " vs ".join(plan.specs[bot_id].name for bot_id in seats)
        assert f"({names})" in detail
        assert target not in {game.key for game in store.games()}  # what standings and the site read
        assert len(list(store.games())) == PLANNED - 1
        assert store.placements([target]) == {}
        with closing(sqlite3.connect(store.path)) as conn:
            assert conn.execute("SELECT termination, placements FROM games WHERE key = ?",
                                [target]).fetchone() == (Termination.REFEREE_FAILURE.value, "[]")
            assert conn.execute("SELECT count(*) FROM results WHERE game_key = ?", [target]).fetchone()[0] == 0
    assert len(said) == 2
    assert "played again in a fresh worker" in said[0] and "stored as a referee failure" in said[1]
    assert processes_running(tmp_path / "bots") == []
