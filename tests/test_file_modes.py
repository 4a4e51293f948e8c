"""What arena writes is its user's alone (the database, its journals and
lock, the logs, the bots' stderr), except the site, which is published:
whatever umask arena is started with."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from support import ARENA, RANDOM_BOT, arena_environment

from arena.model import BotSpec
from arena.store import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask():
    """The usual umask, which leaves files readable by all, for this test."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def test_the_database_its_journals_and_its_lock_are_private(tmp_path, open_umask):
    db = tmp_path / "results" / "arena.db"
    with Store(db, writer=True) as store:
        store.add_bots([BotSpec("a", ("a",), "a", "0" * 64)])
        files = {path.name: mode(path) for path in db.parent.iterdir()}
    assert files == {"arena.db": 0o600, "arena.db-wal": 0o600, "arena.db-shm": 0o600, "arena.db.lock": 0o600}


def test_a_tournament_keeps_its_files_private_and_publishes_its_site(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    for name in ("loud_a", "loud_b"):  # each says a line on stderr as it starts
        source = RANDOM_BOT.read_text().replace(
            "import sys\n", f"import sys\nprint('{name} starts', file=sys.stderr)\n", 1)
        (bots / f"{name}.py").write_text(source)
    run = subprocess.run([*ARENA, "tournament", "--bots", "bots", "--games", "detour", "--jobs", "2",
                          "--db", "results/arena.db", "--out", "site/leaderboard"],
                         cwd=tmp_path, env=arena_environment(tmp_path), capture_output=True, text=True,
                         timeout=300, preexec_fn=lambda: os.umask(0o022))
    assert run.returncode == 0, run.stderr
    results = tmp_path / "results"
    assert {path.name: mode(path) for path in results.iterdir() if path.is_file()} == {
        "arena.db": 0o600, "arena.db.lock": 0o600}
    logs = results / "logs"
    assert mode(results) == mode(logs) == 0o700
    stderr_logs = list(logs.rglob("*.stderr.log"))
    assert stderr_logs and all("starts" in log.read_text() for log in stderr_logs)  # one per process started
    assert {mode(path) for path in logs.rglob("*") if path.is_dir()} == {0o700}
    assert {mode(path) for path in logs.rglob("*") if path.is_file()} == {0o600}  # arena.log among them
    site = tmp_path / "site"
    assert {mode(path) for path in [site, *site.rglob("*")] if path.is_dir()} == {0o755}
    assert {mode(path) for path in site.rglob("*") if path.is_file()} == {0o644}
    assert (site / "leaderboard" / "index.html").is_file()
