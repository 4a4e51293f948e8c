"""A real league (``arena league`` as a process, real bot processes in their
boxes, a real SQLite file): bots enter, a changed bot's new version plays
within seconds and its test against the old one reaches a verdict, a removed
bot retires, and a league killed with SIGKILL goes on from what is stored,
losing and repeating nothing."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

import pytest
from support import ARENA, REPO, arena_environment, random_bots

pytestmark = pytest.mark.slow

GREEDY_BOT = REPO / "arena" / "bundled_bots" / "greedy_bot.py"


def _rows(db: Path, sql: str, *args) -> list[tuple]:
    if not db.exists():
        return []
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as conn:
        try:
            return conn.execute(sql, args).fetchall()
        except sqlite3.OperationalError:  # the league has not made its tables yet
            return []


def _wait_for(what: str, check, timeout: float, league: subprocess.Popen):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if league.poll() is not None:
            raise AssertionError(f"the league ended ({league.returncode}) before {what}")
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {timeout:g} s")


def _start(tmp_path: Path, *extra: str) -> subprocess.Popen:
    """The league in a session of its own, its terminal lines in league.out."""
    with open(tmp_path / "league.out", "a") as out:
        return subprocess.Popen([*ARENA, "league", "--bots", "bots", "--games", "detour", "--move-timeout", "0.5",
                                 "--jobs", "2", "--db", "league.db", "--out", "site", *extra],
                                cwd=tmp_path, env=arena_environment(tmp_path), stdout=out, stderr=out,
                                start_new_session=True)


def test_a_league_enters_versions_tests_them_retires_bots_and_survives_sigkill(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta", "gamma"])
    db = tmp_path / "league.db"
    league = _start(tmp_path)
    try:
        _wait_for("four stored games", lambda: _rows(db, "SELECT count(*) FROM games")[0][0] >= 4
                  if _rows(db, "SELECT count(*) FROM games") else False, 60, league)
        changed = time.time()
        shutil.copy(GREEDY_BOT, tmp_path / "bots" / "alpha.py")
        [(new, number)] = _wait_for("alpha's new version", lambda: _rows(
            db, "SELECT version, number FROM league_versions WHERE name = 'alpha' AND retired_at IS NULL "
                "AND number = 2"), 20, league)
        assert number == 2
        first_chosen = _wait_for("a unit with the new version", lambda: _rows(
            db, "SELECT min(chosen_at) FROM league_units WHERE versions LIKE ?", f'%"{new}"%')[0][0], 20, league)
        assert first_chosen - changed <= 10, f"the new version's first unit came {first_chosen - changed:.1f} s after"
        _wait_for("the new version's first stored game", lambda: _rows(
            db, "SELECT 1 FROM games WHERE seats LIKE ?", f'%"{new}"%'), 30, league)
        [(old_version, old_retired)] = _rows(
            db, "SELECT version, retired_why FROM league_versions WHERE name = 'alpha' AND number = 1")
        assert old_retired == "superseded"
        [(verdict, llr, pairs)] = _wait_for("the version test's verdict", lambda: _rows(
            db, "SELECT verdict, llr, pairs FROM league_tests WHERE version = ? AND verdict IS NOT NULL", new),
            240, league)
        assert verdict == "better" and llr >= 2.94 and pairs >= 1

        (tmp_path / "bots" / "gamma.py").unlink()
        _wait_for("gamma's retirement", lambda: _rows(
            db, "SELECT 1 FROM league_versions WHERE name = 'gamma' AND retired_why = 'removed'"), 20, league)
        gamma = _rows(db, "SELECT version FROM league_versions WHERE name = 'gamma'")[0][0]
        retired_at = _rows(db, "SELECT retired_at FROM league_versions WHERE name = 'gamma'")[0][0]
        later = _rows(db, "SELECT 1 FROM league_units WHERE chosen_at > ? AND versions LIKE ?", retired_at + 0.5,
                      f'%"{gamma}"%')
        assert not later, "a retired bot was scheduled"
    finally:
        league.kill()  # SIGKILL, to the league alone: its workers must go with it
        league.wait()
    assert "is better than alpha v1 (LLR" in (tmp_path / "league.out").read_text()

    before = dict(_rows(db, "SELECT key, finished_at FROM games"))
    unfinished = [number for (number,) in _rows(db, "SELECT number FROM league_units WHERE done_at IS NULL")]
    again = _start(tmp_path, "--stop-after", "6")
    try:
        again.wait(timeout=180)
    finally:
        if again.poll() is None:
            os.killpg(again.pid, signal.SIGKILL)
    assert again.returncode == 0, (tmp_path / "league.out").read_text()[-2000:]
    after = dict(_rows(db, "SELECT key, finished_at FROM games"))
    assert all(after[key] == finished for key, finished in before.items()), "a stored game was lost or played again"
    for number in unfinished:  # the units the kill interrupted were finished first
        assert _rows(db, "SELECT done_at FROM league_units WHERE number = ?", number)[0][0] is not None
    for number, versions in _rows(db, "SELECT number, versions FROM league_units WHERE done_at IS NOT NULL"):
        keys = [key for (key,) in _rows(db, "SELECT key FROM games WHERE key LIKE ?", f"league/u{number:06d}/%")]
        assert len(keys) == len(json.loads(versions)), (number, keys)
    assert len(after) >= len(before) + 6
    assert (tmp_path / "site" / "index.html").is_file()
    # The bot page's timeline: both versions in the order they came, the verdict beside the new one.
    page = next(path for path in (tmp_path / "site").glob("bots/*/index.html")
                if '<h1 class="bot-name">alpha</h1>' in path.read_text())
    rows = re.findall(r'<tr data-bot-id="([^"]+)">(.*?)</tr>', page.read_text().split('id="timeline"')[1]
                      .split("</table>")[0], re.S)
    assert [bot_id for bot_id, _ in rows] == [old_version, new]
    assert "v1 @" in rows[0][1] and "retired (superseded)" in rows[0][1]
    assert "v2 @" in rows[1][1] and "alpha v2 is better than alpha v1 (LLR" in rows[1][1]
    assert all(re.search(r"\d+ <span class=\"muted\">\(\d+ to \d+\)</span>", cells) for _, cells in rows)


def test_a_league_on_dask_plays_a_new_version_on_the_workers_already_running(tmp_path):
    random_bots(tmp_path / "bots", ["alpha", "beta"])
    db = tmp_path / "league.db"
    league = _start(tmp_path, "--executor", "dask")
    try:
        _wait_for("two stored games", lambda: (_rows(db, "SELECT count(*) FROM games") or [(0,)])[0][0] >= 2,
                  120, league)
        shutil.copy(GREEDY_BOT, tmp_path / "bots" / "alpha.py")
        [(new,)] = _wait_for("alpha's new version", lambda: _rows(
            db, "SELECT version FROM league_versions WHERE name = 'alpha' AND number = 2"), 30, league)
        _wait_for("a game of the new version", lambda: _rows(db, "SELECT 1 FROM games WHERE seats LIKE ?",
                                                             f'%"{new}"%'), 60, league)
        league.send_signal(signal.SIGTERM)
        assert league.wait(timeout=60) == 130
    finally:
        if league.poll() is None:
            os.killpg(league.pid, signal.SIGKILL)
    assert "league stopped" in (tmp_path / "league.out").read_text()
