"""Stopping a tournament in any way loses nothing and counts nothing twice.

A real parallel tournament (``arena tournament --jobs 2`` as a process, random
bots that play the same game the same way every time) is killed with SIGKILL
at random moments, again and again, and rerun to the end: the database holds
exactly the planned games, each once, as an uninterrupted run stores them,
and the ratings are the same; after each kill, no process of the run is left
(workers, pools, wardens, bots) and no bot's working folder. SIGINT and SIGTERM stop it cleanly. A second
tournament on the same database refuses to start; a corrupt database or one
from another version is refused and left as it was.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import ARENA, REPO, arena, arena_environment, random_bots

from arena import store
from arena.cli import main
from arena.store import SCHEMA_VERSION, register_functions

# Whole tournaments in real processes: the slow set (-m "not slow" leaves it out).
pytestmark = pytest.mark.slow

ROUNDS = 4
# Three bots, each round: three pairs, seat-swapped, and their pod of three
# in its three rotations.
PLANNED = (3 * 2 + 3) * ROUNDS
BOTS = ["crashsafe_a", "crashsafe_b", "crashsafe_c"]


def tournament_args(game: str, db: str = "arena.db") -> list[str]:
    # A generous move timeout: on a busy machine an honest bot must never
    # forfeit, or the comparison with the uninterrupted run means nothing.
    return ["tournament", "--bots", "bots", "--games", game, "--players", "2,3", "--rounds", str(ROUNDS), "--jobs", "2",
            "--seed", "7", "--move-timeout", "10", "--db", db]


def start_arena(args: list[str], cwd: Path) -> subprocess.Popen:
    """The CLI as a real process in a session of its own (so a test can
    signal it and its workers the way a terminal does), with Ctrl-C's
    default disposition even when the tests themselves run in the
    background of a shell, which starts them with SIGINT ignored."""
    return subprocess.Popen([*ARENA, *args], cwd=cwd, env=arena_environment(private_tmp(cwd)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_default_sigint)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stored(db: Path) -> dict[str, tuple]:
    """Every stored game as what it was: key to seats, seed, result, the
    whole record of events and the points of each seat (not how long it
    took nor when it finished)."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        register_functions(conn)
        games = conn.execute("SELECT key, game, seats, seed, job_order, winners, termination, forfeit_seat, "
                             "detail, scores, decisions, arena_events(record, replay) FROM games").fetchall()
        points = conn.execute("SELECT game_key, seat, bot_id, points FROM results ORDER BY game_key, seat").fetchall()
    by_game: dict[str, list] = {}
    for key, seat, bot_id, value in points:
        by_game.setdefault(key, []).append((seat, bot_id, value))
    return {row[0]: (*row[1:-1], json.loads(row[-1]), tuple(by_game.get(row[0], ())))
            for row in games}


def count_games(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


def private_tmp(workdir: Path) -> Path:
    """The run's own temporary folder (its TMPDIR), where its bots' working
    folders go: what a test checks for leftovers, untouched by other tests."""
    folder = workdir / "tmp"
    folder.mkdir(exist_ok=True)
    return folder


def leftover_workdirs(workdir: Path) -> list[str]:
    """The bot working folders left in the run's temporary folder, each with
    what it holds and whether a live process still holds its lock."""
    found = []
    for path in private_tmp(workdir).glob("arena-bot-*"):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            owner = "no owner"
        except OSError:
            owner = "owned by a live process"
        finally:
            os.close(fd)
        found.append(f"{path.name} ({owner}; holds {sorted(p.name for p in path.iterdir())})")
    return found


def consistent(db: Path) -> None:
    """The database is sound and every stored game is whole: a result row
    for each of its seats, and its events (its record, or its replay)."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        register_functions(conn)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        broken = conn.execute("SELECT key FROM games WHERE players != (SELECT count(*) FROM results "
                              "WHERE game_key = key) OR arena_events(record, replay) IS NULL").fetchall()
        assert broken == []
        orphans = conn.execute("SELECT count(*) FROM results WHERE game_key NOT IN (SELECT key FROM games)")
        assert orphans.fetchone()[0] == 0


@pytest.fixture(scope="module")
def reference(tmp_path_factory, zoo_game):
    """The uninterrupted run: what every interrupted one must end up as."""
    folder = tmp_path_factory.mktemp("reference")
    random_bots(folder / "bots", BOTS)
    started = time.monotonic()
    arena(*tournament_args(zoo_game), cwd=folder, check=True)
    games = stored(folder / "arena.db")
    assert len(games) == PLANNED
    assert {row[5] for row in games.values()} <= {"normal", "turn_cap"}, "an honest bot forfeited"
    standings = arena("standings", "--format", "json", cwd=folder, check=True).stdout
    return {"games": games, "standings": standings, "seconds": time.monotonic() - started, "game": zoo_game}


@pytest.fixture
def workdir(tmp_path):
    random_bots(tmp_path / "bots", BOTS)
    return tmp_path


def test_sigkill_at_random_moments_loses_nothing_and_counts_nothing_twice(reference, workdir, process_table):
    db = workdir / "arena.db"
    seed = random.randrange(1 << 30)
    chooser = random.Random(seed)
    # One kill while it starts (probing the bots, creating the database),
    # then kills at random points of the tournament: once a random number of
    # games are stored, after a random moment more (mid-game, mid-store...).
    moments = [("startup", chooser.uniform(0.1, 1.0))]
    moments += [("games", target) for target in sorted(chooser.sample(range(2, PLANNED - 3), 3))]
    kills = 0
    for kind, when in moments:
        before = count_games(db)
        run = start_arena(tournament_args(reference["game"]), workdir)
        if kind == "startup":
            time.sleep(when)
        else:
            while count_games(db) < when and run.poll() is None:
                time.sleep(0.005)
            time.sleep(chooser.uniform(0, 0.2))
        if run.poll() is None:
            os.kill(run.pid, signal.SIGKILL)  # the main process only, as a crash would
            kills += 1
        run.communicate()
        # Its workers, its pools' and their bots die with it (parent-death
        # signals), and the bots' working folders go with them.
        assert process_table.wait_until_run_gone(private_tmp(workdir), timeout=15) == {}, f"random seed {seed}"
        assert leftover_workdirs(workdir) == []
        if db.exists():
            consistent(db)
        partial = stored(db) if db.exists() else {}
        assert len(partial) >= before
        assert all(reference["games"][key] == game for key, game in partial.items()), f"random seed {seed}"
    assert kills >= 3, f"only {kills} kills (random seed {seed})"
    assert 0 < count_games(db) < PLANNED
    final = arena(*tournament_args(reference["game"]), cwd=workdir, check=True, tmpdir=private_tmp(workdir))
    assert re.search(rf"{PLANNED} games planned, \d+ already stored, \d+ to play", final.stderr)
    assert stored(db) == reference["games"], f"random seed {seed}"
    assert arena("standings", "--format", "json", cwd=workdir, check=True).stdout == reference["standings"]


def test_thirty_kills_at_random_instants_leave_no_process_and_no_folder():
    """bench/kill_nine.py: 30 runs of a tournament killed with SIGKILL at
    random instants, most while the bots start, some in a run's last stages
    (its luck and site pools): after each, not one worker, bot or working
    folder is left."""
    run = subprocess.run([sys.executable, str(REPO / "bench" / "kill_nine.py"), "--kills", "30", "--settle", "20"],
                         capture_output=True, text=True, timeout=900)
    summary = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 0, run.stdout + run.stderr
    assert summary.endswith(": 0 workers, 0 others, 0 folders, 0 runs with leftovers"), run.stdout


@pytest.mark.parametrize("how", ["sigint-to-the-group", "sigterm"])
def test_sigint_and_sigterm_stop_cleanly_and_say_how_to_resume(how, reference, workdir, process_table):
    db = workdir / "arena.db"
    run = start_arena(tournament_args(reference["game"]), workdir)
    try:
        deadline = time.monotonic() + 60
        while count_games(db) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.02)
        assert run.poll() is None, "the tournament ended before it could be interrupted"
        if how == "sigterm":
            os.kill(run.pid, signal.SIGTERM)
        else:  # Ctrl-C: the terminal signals the foreground process group
            os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 130, err
    assert "Traceback" not in err
    message = err.strip().splitlines()[-1]
    match = re.fullmatch(r"arena: interrupted: (\d+) games? stored this run, (\d+) still to play; "
                         r"run the same command again to resume", message)
    assert match, message
    # Bot processes are gone, the database is sound, and it holds only whole
    # games exactly as the uninterrupted run played them: the games that were
    # running were abandoned, not stored as forfeits of killed bots.
    assert process_table.wait_until_run_gone(private_tmp(workdir), timeout=15) == {}
    assert leftover_workdirs(workdir) == []
    consistent(db)
    partial = stored(db)
    assert int(match.group(1)) == len(partial) and int(match.group(2)) == PLANNED - len(partial)
    assert 2 <= len(partial) < PLANNED
    assert all(reference["games"][key] == game for key, game in partial.items())
    # And the same command resumes.
    again = arena(*tournament_args(reference["game"]), cwd=workdir, check=True, tmpdir=private_tmp(workdir))
    assert f"{PLANNED} games planned, {len(partial)} already stored, {PLANNED - len(partial)} to play" in again.stderr
    assert stored(db) == reference["games"]


def test_a_second_tournament_on_the_same_database_refuses(reference, workdir):
    db = workdir / "arena.db"
    first = start_arena(tournament_args(reference["game"]), workdir)
    try:
        deadline = time.monotonic() + 60
        while count_games(db) < 1 and time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.02)
        assert first.poll() is None, "the first tournament ended too soon"
        second = arena(*tournament_args(reference["game"]), cwd=workdir, tmpdir=private_tmp(workdir))
        # Reading while it runs is fine.
        reading = arena("standings", "--format", "json", cwd=workdir)
        out, err = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert second.returncode == 1
    assert second.stderr.strip() == (f"Error: {str(Path('arena.db'))!r} is in use by another arena process "
                                      f"(lock {'arena.db.lock'!r}); wait for it to finish")
    assert reading.returncode == 0, reading.stderr
    assert first.returncode == 0, err
    assert stored(db) == reference["games"]


# -- databases arena must not touch ------------------------------------------------------


def _real_database(folder: Path, game: str) -> Path:
    random_bots(folder / "bots", ["alpha", "beta"])
    arena("tournament", "--bots", "bots", "--games", game, "--rounds", "1", "--jobs", "1",
          "--move-timeout", "10", cwd=folder, check=True)
    db = folder / "arena.db"
    with closing(sqlite3.connect(db)) as conn:  # fold the write-ahead log in: one file, as a user would copy it
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (folder / "arena.db.lock").unlink()
    return db


def _newer(db: Path) -> None:
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION + 1)])


def _older(db: Path) -> None:
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")


def _garbage_after_header(db: Path) -> None:
    data = bytearray(db.read_bytes())
    data[100:] = random.Random(3).randbytes(len(data) - 100)
    db.write_bytes(bytes(data))


def _page_overwritten(db: Path) -> None:
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    last = len(data) // page - 1
    data[last * page: last * page + page] = b"\xa5" * page
    db.write_bytes(bytes(data))


def _truncated(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2 + 17])


def _not_sqlite(db: Path) -> None:
    db.write_text("game,winner\nslyyde,alpha\n")


@pytest.mark.parametrize("damage, message", [
    (_newer, f"was written by a newer arena (schema {SCHEMA_VERSION + 1}; this arena reads up to {SCHEMA_VERSION})"),
    (_garbage_after_header, "arena.db' "),
    (_page_overwritten, "arena.db' "),
    (_truncated, "arena.db' "),
    (_not_sqlite, "'arena.db' is not an SQLite database"),
], ids=["newer-schema", "garbage-after-header", "page-overwritten", "truncated", "not-sqlite"])
def test_a_database_from_another_version_or_corrupt_is_refused_and_left_as_it_was(damage, message, zoo_game,
                                                                                    tmp_path):
    db = _real_database(tmp_path, zoo_game)
    damage(db)
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    for command in (["tournament", "--bots", "bots", "--games", zoo_game, "--rounds", "2"],
                    ["standings"], ["leaderboard"]):
        result = arena(*command, cwd=tmp_path)
        assert result.returncode == 1, (command, result.stdout)
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
        assert result.stderr.startswith("Error: ") and message in result.stderr, result.stderr
        if damage in (_garbage_after_header, _page_overwritten, _truncated):
            assert re.search(r"is corrupt|cannot be read as a database|not an arena database", result.stderr)
    after = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    assert after == before, "the file is as it was, and nothing was created beside it"


def test_a_database_with_an_older_schema_is_refused_by_readers_and_left_as_it_was(zoo_game, tmp_path):
    db = _real_database(tmp_path, zoo_game)
    _older(db)
    before = db.read_bytes()
    reading = arena("standings", cwd=tmp_path)
    assert reading.returncode == 1
    assert reading.stderr.strip() == "Error: 'arena.db' has an older schema: run a tournament to upgrade it"
    assert db.read_bytes() == before


def _games_page_overwritten(db: Path) -> None:
    """A page of the games table's rows overwritten, which reading every
    game meets."""
    with closing(sqlite3.connect(db)) as conn:
        page = conn.execute("SELECT max(pageno) FROM dbstat WHERE name = 'games' AND pagetype = 'leaf'").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(db.read_bytes())
    data[(page - 1) * size: page * size] = b"\xa5" * size
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("damage, message", [
    (_games_page_overwritten, "Error: the results database could not be read: "),
    (_truncated, "Error: 'arena.db' cannot be read as a database: "),  # SQLite refuses it as it opens it
], ids=["page-overwritten", "truncated"])
def test_a_database_too_large_to_check_whole_is_refused_where_damaged(damage, message, zoo_game, tmp_path,
                                                                       monkeypatch):
    """Above store.WHOLE_CHECK_UP_TO a file is not read whole at every open:
    one cut short is refused as SQLite opens it, the file left as it was, and a
    damaged page is refused when it is read (here: a site built from every
    game, after the ratings are written), in one line."""
    db = _real_database(tmp_path, zoo_game)
    damage(db)
    before = db.read_bytes()
    monkeypatch.setattr(store, "WHOLE_CHECK_UP_TO", 0)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["leaderboard", "--out", str(tmp_path / "fresh")])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.output
    assert damage is _games_page_overwritten or db.read_bytes() == before
