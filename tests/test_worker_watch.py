"""The referee watches its workers: a worker stopped, hung or killed in the
middle of a tournament is killed and its game played again, once, in a
fresh worker; a game on which two workers fail is stored as a referee
failure, which counts for and against no bot. The other workers play on,
and the tournament ends with every planned game stored exactly once.

Real tournaments: real bot processes, real forked workers (the one that
fails sends itself the signal in the middle of a chosen game), a real
SQLite file."""

from __future__ import annotations

import os
import signal
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from support import processes_running, random_bots

from arena.model import DiceKey, Limits, Termination
from arena.play import executors, match
from arena.play.executors import LocalExecutor
from arena.play.plan import group_into_matches
from arena.play.sources import Planned
from arena.play.tournament import Plan, check_request, plan_tournament, play_missing
from arena.store import Store
from arena.web.live import LiveBoard

LIMITS = Limits(startup_timeout=5.0, move_timeout=1.0)
BOTS = ["watch_a", "watch_b", "watch_c"]
# Three pairs, seat-swapped, twice: 12 games, cut into matches for two workers.
PLANNED = 12


@pytest.fixture
def short_deadline(monkeypatch):
    """A worker is taken for stopped after 5 + 2 × 1 + 1 = 8 s without a
    heartbeat (the slack of a busy machine is 10 s in earnest)."""
    monkeypatch.setattr(match, "WORKER_SLACK", 1.0)


def plan_detour(tmp_path: Path) -> Plan:
    """Three random bots at Detour: 12 games, cut into matches of two for
    two workers."""
    plan = plan_tournament([random_bots(tmp_path / "bots", BOTS)], check_request(["detour"]), 2,
                           DiceKey.from_seed(5), LIMITS)
    assert len(plan.jobs) == PLANNED
    return plan


def run(tmp_path: Path, plan: Plan) -> tuple[Store, list[str], int]:
    """The tournament on two workers, stored in a real file: the open
    store, what the executor told the user, and how many games were stored."""
    said: list[str] = []
    store = Store(tmp_path / "arena.db", writer=True)
    played = play_missing(plan, store, LocalExecutor(2, notify=said.append), LIMITS, tmp_path / "logs")
    return store, said, played


def check_all_stored_once(store: Store, played: int) -> None:
    assert played == PLANNED
    with closing(sqlite3.connect(store.path)) as conn:
        keys = [key for (key,) in conn.execute("SELECT key FROM games")]
        rows = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    assert len(keys) == len(set(keys)) == PLANNED
    assert rows == 2 * PLANNED  # every game has a result for both its seats


# The game workers fail on: the first of its match (games 3 and 9), so
# that the rest of the match is played after it in the fresh worker.
TARGET = 3
# Calls into a seat of that game before its worker fails: both seats
# started, the first decision asked for; the game is under way.
CALLS_BEFORE_FAILING = 4


def fail_in_the_middle_of(target: str, signals: list[int], marks: Path, monkeypatch) -> None:
    """The worker playing game ``target`` sends itself ``signals[n]`` the
    n-th time the game is played (from 0), in the middle of it, with the
    game's bots running: a signal certain to land on a game in flight (one
    sent from outside may find a worker that has just handed back the last
    game of its match, leaving nothing to play again). Workers are forked,
    so they play with this ``play_match``; the files in ``marks`` count the
    signals sent across them."""
    real_play_match = executors.play_match
    marks.mkdir()

    def play_match(jobs, specs, limits, log_dir, heartbeat=None, watch=None):
        playing, calls = 0, 0

        def beat() -> None:
            nonlocal calls
            if jobs[playing].key == target:
                calls += 1
                sent = len(list(marks.iterdir()))
                if calls == CALLS_BEFORE_FAILING and sent < len(signals):
                    (marks / str(sent)).touch()
                    os.kill(os.getpid(), signals[sent])
            if heartbeat is not None:
                heartbeat()

        for record in real_play_match(jobs, specs, limits, log_dir, heartbeat=beat, watch=watch):
            playing, calls = playing + 1, 0
            yield record

    monkeypatch.setattr(executors, "play_match", play_match)  # forked workers inherit it


def failed_once(tmp_path: Path, signum: int, monkeypatch) -> str:
    """What the executor said of the worker that sent itself ``signum`` in
    the middle of the target game, once the game was played again, every
    game stored once and no bot left running; the message names the game."""
    plan = plan_detour(tmp_path)
    fail_in_the_middle_of(plan.jobs[TARGET].key, [signum], tmp_path / "signalled", monkeypatch)
    store, said, played = run(tmp_path, plan)
    with store:
        check_all_stored_once(store, played)
        assert store.referee_failures() == []
    assert len(list((tmp_path / "signalled").iterdir())) == 1
    assert processes_running(tmp_path / "bots") == []
    [message] = said
    job = plan.jobs[TARGET]
    names = " vs ".join(plan.specs[bot_id].name for bot_id in job.seats)
    assert f" while playing detour game {job.key} ({names}); it is played again in a fresh worker" in message
    return message


@pytest.mark.slow
def test_a_stopped_worker_is_killed_and_its_game_played_again(tmp_path, short_deadline, monkeypatch):
    message = failed_once(tmp_path, signal.SIGSTOP, monkeypatch)
    assert "stopped answering (no heartbeat for 8 s) while playing" in message


def test_a_killed_worker_costs_nothing(tmp_path, monkeypatch):
    message = failed_once(tmp_path, signal.SIGKILL, monkeypatch)
    assert "died (killed by SIGKILL) while playing" in message


def test_the_live_board_starts_a_game_over_when_its_worker_is_lost(tmp_path, monkeypatch):
    """The events a live board heard of a game whose worker was killed in
    the middle of it are dropped when the fresh worker starts the game
    again: when each game ends, the board holds exactly the game's events
    as stored, the replayed game's included (not its lost start as well)."""
    plan = plan_detour(tmp_path)
    target = plan.jobs[TARGET].key
    fail_in_the_middle_of(target, [signal.SIGKILL], tmp_path / "signalled", monkeypatch)
    board = LiveBoard(LIMITS.move_timeout)
    firsts: list[str] = []

    def heard(job, index, event, answer) -> None:
        if board.event(job, index, event, answer, lambda: {}):
            firsts.append(job.key)

    steps_at_end = {}
    source = Planned(group_into_matches(plan.jobs, 2), plan.specs)
    for record in LocalExecutor(2).play(source, LIMITS, tmp_path / "logs", watch=heard):
        [playing] = [game for game in board.status()["playing"] if game["key"] == record.job.key]
        steps_at_end[record.job.key] = (playing["steps"], len(record.events))
        board.ended(record.job.key, len(steps_at_end))
    assert len(list((tmp_path / "signalled").iterdir())) == 1
    assert len(steps_at_end) == PLANNED
    assert all(heard_steps == stored for heard_steps, stored in steps_at_end.values()), steps_at_end
    assert firsts.count(target) == 2 and len(firsts) == PLANNED + 1  # the target started twice
    assert board.status()["playing"] == []


@pytest.mark.slow
def test_a_game_whose_workers_fail_twice_is_a_referee_failure(tmp_path, short_deadline, monkeypatch):
    """The game's first worker stops itself (found by its deadline), the
    fresh one kills itself (found by its exit), each in the middle of the
    game: the game is stored as a referee failure naming both, with no
    result, and not rated; the rest of its match and the other games are
    played."""
    plan = plan_detour(tmp_path)
    target = plan.jobs[TARGET].key
    fail_in_the_middle_of(target, [signal.SIGSTOP, signal.SIGKILL], tmp_path / "signalled", monkeypatch)
    store, said, played = run(tmp_path, plan)
    with store:
        assert played == PLANNED
        assert store.count_games() == PLANNED
        [(key, seats, detail)] = store.referee_failures()
        assert key == target and seats == plan.jobs[TARGET].seats
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
