"""Issue 29: the site at the cost of what is new. A build goes on from the
tally saved with the site (manifest.json) and counts only the games stored
since; the reference is a build counting every game into an empty folder,
and the site built on from the tally is byte-identical to it, every file
(the manifest, which holds the tally, too). Where the saved tally cannot be
trusted every game is counted again, the reason logged, and the result is
still the reference.

Real tournaments (random bots in their sandboxes) through the command line
onto a real SQLite file, and the site of test_leaderboard's tournament
(forfeits with stderr logs, solo games, a bot named by a script) changed
by hand in each of the ways that make its tally untrustworthy."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

import pytest
from support import ARENA, arena, arena_environment, random_bots
from test_leaderboard import Site, private_copy, tournament_site

from arena import ratings_cache
from arena.model import BotSpec
from arena.site import builder
from arena.stats import units
from arena.store import Store, register_functions

GONE_ON = "{} new games counted onto the saved tally"


def files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


def assert_as_built_from_every_game(db: Path, out: Path, fresh: Path) -> None:
    """The site in ``out`` is, file for file and byte for byte, the site a
    build counting every game writes into an empty folder."""
    shutil.rmtree(fresh, ignore_errors=True)
    with Store(db) as store:
        builder.build(store, fresh)
    built, reference = files(out), files(fresh)
    assert sorted(built) == sorted(reference)
    assert [name for name in reference if built[name] != reference[name]] == []


def counted(log: str) -> list[str]:
    """What each build of the log counted: a number of new games, or why every game."""
    return [line.split("site: ", 1)[1] for line in log.splitlines() if "site: " in line]


def test_tournaments_through_the_command_line_build_on_the_site_as_from_every_game(tmp_path):
    """Real runs onto one database and site: each end of run counts its
    own games onto the saved tally (its log says so), ``arena leaderboard``
    with nothing new writes nothing, and every site is byte-identical to
    one built from every game, including after a run killed midway and
    resumed."""
    fresh = tmp_path / "fresh"
    db, out = tmp_path / "arena.db", tmp_path / "leaderboard"
    random_bots(tmp_path / "bots", ["alpha", "beta"])
    arena("tournament", "--games", "slyyde", "--rounds", "2", "--seed", "1", cwd=tmp_path, check=True)
    assert_as_built_from_every_game(db, out, fresh)
    random_bots(tmp_path / "bots", ["gamma"])
    arena("tournament", "--games", "slyyde", "--rounds", "2", "--seed", "1", cwd=tmp_path, check=True)
    assert_as_built_from_every_game(db, out, fresh)
    arena("tournament", "--games", "slyyde", "--players", "3", "--rounds", "1", "--seed", "1", cwd=tmp_path,
          check=True)
    assert_as_built_from_every_game(db, out, fresh)
    # A run killed after its first games are stored, then run again: it
    # plays the rest, and its end counts what the killed run stored too.
    random_bots(tmp_path / "bots", ["delta"])
    command = [*ARENA, "tournament", "--games", "slyyde,detour", "--rounds", "2", "--seed", "1"]
    with Store(db) as store:
        before = store.count_games()
    run = subprocess.Popen(command, cwd=tmp_path, env=arena_environment(), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and run.poll() is None:
            with Store(db) as store:
                if store.count_games() >= before + 3:
                    break
            time.sleep(0.05)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)  # the run's session: it and its workers
        run.wait()
    with Store(db) as store:
        interrupted = store.count_games() - before
    arena(*command[len(ARENA):], cwd=tmp_path, check=True)
    with Store(db) as store:
        resumed = store.count_games() - before - interrupted
    assert interrupted >= 3 and resumed > 0
    assert_as_built_from_every_game(db, out, fresh)
    before_leaderboard = {path: path.stat().st_mtime_ns for path in out.rglob("*")}
    arena("leaderboard", cwd=tmp_path, check=True)
    assert {path: path.stat().st_mtime_ns for path in out.rglob("*")} == before_leaderboard
    log = (tmp_path / "logs" / "arena.log").read_text()
    assert counted(log) == ["every game counted: no saved tally (a first build, or a site of an older arena)",
                            GONE_ON.format(12 - 4), GONE_ON.format(3),
                            GONE_ON.format(interrupted + resumed)]


# ------------------------------------------------------------------ what makes a tally untrustworthy


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Site:
    return tournament_site(tmp_path_factory)


@pytest.fixture
def copy(site, tmp_path) -> Site:
    """A private copy of the database, its logs and its site."""
    copied = private_copy(site, tmp_path)
    with Store(copied.db) as store:  # its own site: log pages are named by where the logs are
        builder.build(store, copied.out)
    return copied


def _sql(copy: Site, *statements: str) -> None:
    with closing(sqlite3.connect(copy.db)) as conn:
        for statement in statements:
            conn.execute(statement)
        conn.commit()


def _store_again(copy: Site, source_where: str, **changed: object) -> None:
    """Store a copy of a stored game under a new key (and rowid), as a run
    would, with ``changed`` columns."""
    with closing(sqlite3.connect(copy.db)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] != "finished_at_iso"]
        row = conn.execute(f"SELECT {', '.join(columns)} FROM games WHERE {source_where} LIMIT 1").fetchone()
        values = dict(zip(columns, row)) | {"key": "stored/again"} | changed
        conn.execute(f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                     [values[name] for name in columns])
        conn.commit()


def _manifest(copy: Site, change) -> None:
    path = copy.out / builder.MANIFEST
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest))


def _old_site(copy: Site) -> None:
    """A site built by the arena before: its manifest holds no tally (and
    what it says the site was made from is summed up otherwise)."""
    _manifest(copy, lambda manifest: [manifest.pop("tally"), manifest.update(inputs="0" * 40)])


def _other_code(copy: Site) -> None:
    _manifest(copy, lambda manifest: manifest.update(code="another arena", inputs="0" * 40))


def _a_game_deleted(copy: Site) -> None:
    _sql(copy, "DELETE FROM results WHERE game_key = (SELECT key FROM games WHERE players = 2 LIMIT 1)",
         "DELETE FROM games WHERE key = (SELECT key FROM games WHERE players = 2 LIMIT 1)")


def _a_result_changed(copy: Site) -> None:
    _sql(copy, "UPDATE games SET placements = '[2, 1]' WHERE key = "
               "(SELECT key FROM games WHERE players = 2 AND placements = '[1, 2]' LIMIT 1)")


def _a_game_inserted_below(copy: Site) -> None:
    with closing(sqlite3.connect(copy.db)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] != "finished_at_iso"]
        row = conn.execute(f"SELECT {', '.join(columns)} FROM games WHERE players = 2 LIMIT 1").fetchone()
        values = dict(zip(columns, row)) | {"key": "inserted/by/hand"}
        conn.execute(f"INSERT INTO games (rowid, {', '.join(columns)}) VALUES (-1, {', '.join('?' * len(columns))})",
                     [values[name] for name in columns])
        conn.commit()


def _the_last_game_gone_unseen(copy: Site) -> None:
    """The last game counted deleted where the triggers were lost."""
    _sql(copy, "DROP TRIGGER game_changes_deleted",
         "DELETE FROM games WHERE rowid = (SELECT max(rowid) FROM games)")


def _a_new_game_names_an_old_log(copy: Site) -> None:
    with closing(sqlite3.connect(copy.db)) as conn:
        key = next(key for key, logs in conn.execute("SELECT key, logs FROM games WHERE players = 2")
                   if any(path and (copy.root / path).is_file() for path in json.loads(logs)))
    _store_again(copy, f"key = '{key}'", finished_at=time.time())


def _a_bot_renamed(copy: Site) -> None:
    _sql(copy, "UPDATE bots SET name = 'renamed' WHERE name = 'beta'")


def _a_list_chunk_removed(copy: Site) -> None:
    (copy.out / "data" / "list" / "0.js").unlink()


@pytest.mark.parametrize("change, reason", [
    (_old_site, "no saved tally (a first build, or a site of an older arena)"),
    (_other_code, "the code or the database's schema changed"),
    (_a_game_deleted, "a stored game was deleted or changed, or a game was stored among the others"),
    (_a_result_changed, "a stored game was deleted or changed, or a game was stored among the others"),
    (_a_game_inserted_below, "a stored game was deleted or changed, or a game was stored among the others"),
    (_the_last_game_gone_unseen, "the last game counted is no longer stored"),
    (_a_new_game_names_an_old_log, "a stderr log of a game counted before is named by a new one"),
    (_a_bot_renamed, "a bot's name changed"),
    (_a_list_chunk_removed, "a chunk of the site is missing"),
])
def test_a_tally_that_cannot_be_trusted_is_not_gone_on_from(copy, change, reason, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="arena.site.builder")
    change(copy)
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert counted(caplog.text) == [f"every game counted: {reason}"]
    assert_as_built_from_every_game(copy.db, copy.out, tmp_path / "fresh")
    _store_again(copy, "players = 2 ORDER BY rowid DESC", key="one/more", finished_at=time.time() + 60,
                 logs="[null, null]")
    caplog.clear()
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert counted(caplog.text) == [GONE_ON.format(1)]  # the tally saved then is gone on from
    assert_as_built_from_every_game(copy.db, copy.out, tmp_path / "fresh")


def test_a_game_whose_luck_is_measured_late_is_counted_with_it(copy, tmp_path, caplog):
    """A game counted before its luck was stored (an old game, measured by
    ``arena leaderboard`` later): once it is, its luck is in the luck
    tables and in its replay chunk, as a build from every game has it."""
    caplog.set_level(logging.INFO, logger="arena.site.builder")
    with closing(sqlite3.connect(copy.db)) as conn:
        register_functions(conn)
        key, luck = conn.execute("SELECT key, arena_json(luck) FROM games WHERE players = 2 "
                                 "AND arena_json(luck) LIKE '%totals%' LIMIT 1").fetchone()
    _sql(copy, f"UPDATE games SET luck = NULL WHERE key = '{key}'", f"UPDATE results SET luck = NULL "
                                                                    f"WHERE game_key = '{key}'")
    with Store(copy.db) as store:
        builder.build(store, copy.out)
        assert json.loads((copy.out / builder.MANIFEST).read_text())["tally"]["unmeasured"] == [key]
    with Store(copy.db, writer=True) as store:
        store.add_luck({key: json.loads(luck)})
    caplog.clear()
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert counted(caplog.text) == ["every game counted: the luck of 1 games counted was stored since"]
    assert_as_built_from_every_game(copy.db, copy.out, tmp_path / "fresh")
    assert json.loads((copy.out / builder.MANIFEST).read_text())["tally"]["unmeasured"] == []


def test_games_are_numbered_in_the_order_they_were_stored(copy, tmp_path, caplog):
    """A game stored since comes after every game counted, whatever its
    finished_at says (a database filled with times ahead of the clock, as
    bench/leaderboard.py's): the tally is gone on from."""
    caplog.set_level(logging.INFO, logger="arena.site.builder")
    _store_again(copy, "players = 2", finished_at=1.0, logs="[null, null]")
    with Store(copy.db) as store:
        builder.build(store, copy.out)
        last = list(store.stored_games())[-1][1]
    assert counted(caplog.text) == [GONE_ON.format(1)] and last.key == "stored/again"
    assert_as_built_from_every_game(copy.db, copy.out, tmp_path / "fresh")


def test_a_build_with_no_new_game_but_a_new_bot_counts_nothing_again(copy, tmp_path, caplog):
    """Something changed (a bot stored, as a run whose games were all
    stored before stores its bots) but no game is new: the build goes on
    from the tally with none, counting no game twice."""
    caplog.set_level(logging.INFO, logger="arena.site.builder")
    with Store(copy.db, writer=True) as store:
        store.add_bots([BotSpec("newcomer", ("true",), "/bots/newcomer", "ab" * 32)])
    with Store(copy.db) as store:
        builder.build(store, copy.out)
    assert counted(caplog.text) == [GONE_ON.format(0)]
    assert_as_built_from_every_game(copy.db, copy.out, tmp_path / "fresh")


def test_luck_units_summed_again_from_the_store_give_the_same_site(copy, tmp_path, monkeypatch):
    """A build holds the running sums of only so many units of luck (a
    million games' would not fit); a unit no longer held is summed again
    from its earlier games, in the order they were stored: the same sums;
    a unit never let go is new, and nothing is looked for."""
    looked_for = []
    games_of_unit = Store.games_of_unit

    def spied(store, *args):
        looked_for.append(args)
        return games_of_unit(store, *args)

    monkeypatch.setattr(Store, "games_of_unit", spied)
    with Store(copy.db) as store:
        builder.build(store, tmp_path / "every unit held")
    assert looked_for == []  # a unit never let go has no earlier games to look for
    monkeypatch.setattr(units, "UNITS_KEPT", 1)
    with Store(copy.db) as store:
        builder.build(store, tmp_path / "few units")
    assert looked_for
    assert files(tmp_path / "few units") == files(tmp_path / "every unit held") == files(copy.out)


def test_standings_rated_in_a_process_of_their_own_give_the_same_site(copy, tmp_path, monkeypatch):
    """A build counting every game of a large store rates them in another
    process meanwhile (its tally sent back as JSON): the same site."""
    monkeypatch.setattr(builder, "RATE_ELSEWHERE_FROM", 1)
    with Store(copy.db) as store:
        builder.build(store, tmp_path / "rated elsewhere")
    assert files(tmp_path / "rated elsewhere") == files(copy.out)


def test_the_ratings_cache_rewritten_in_a_process_of_their_own_is_the_one_written_here(copy, tmp_path, monkeypatch):
    """``arena leaderboard`` writes the ratings cache as the site rates the
    games; counting every game of a large store, in another process
    (the writer's child) while this one counts the site: the same cache and
    rating history as rewriting it here, and the same site."""
    (tmp_path / "other").mkdir()
    other = private_copy(copy, tmp_path / "other")
    _sql(copy, "DELETE FROM rating_state", "DELETE FROM ratings", "DELETE FROM rating_history")
    monkeypatch.setattr(builder, "RATE_ELSEWHERE_FROM", 1)
    with Store(copy.db, writer=True) as store:
        builder.build(store, tmp_path / "rewritten elsewhere", rewrite_ratings=True)
    with Store(other.db, writer=True) as store:
        ratings_cache.rewrite(store)

    def cache(db: Path) -> list[list[tuple]]:
        with closing(sqlite3.connect(db)) as conn:
            return [conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
                    for table in ("ratings", "rating_history", "rating_state")]

    assert cache(copy.db) == cache(other.db) and cache(copy.db)[1]
    assert files(tmp_path / "rewritten elsewhere") == files(copy.out)
