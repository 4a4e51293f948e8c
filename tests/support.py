"""Helpers shared by the tests: bots folders made on the fly, the CLI run
as a real subprocess."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import zlib
from contextlib import closing
from pathlib import Path

import sqlite_utils

from arena import games as game_registry
from arena import results
from arena.games import GAMES
from arena.games.events import full_events
from arena.model import Forfeit, StoredGame, Termination
from arena.store import _create_event_views, arena_events, arena_json

REPO = Path(__file__).resolve().parent.parent
RANDOM_BOT = REPO / "bots" / "random_bot.py"
ARENA = [sys.executable, "-m", "arena.cli"]
# ARENA_LONG_TESTS=1: the long checks (docs/how-to/run-the-tests.md).
LONG_TESTS = bool(os.environ.get("ARENA_LONG_TESTS"))


def stored_game(game: str, seats: list[str], winners: list[int], **fields) -> StoredGame:
    """A stored game as the Store returns it, for tests of what is computed
    from stored games; placed by its winners unless ``placements`` is given,
    and otherwise a normal finished game. ``forfeit_seat`` (with
    ``termination``) makes that seat's forfeit."""
    forfeit_seat = fields.pop("forfeit_seat", None)
    termination = fields.get("termination", Termination.NORMAL if winners else Termination.TURN_CAP)
    values = dict(key=f"{game}/{'/'.join(seats)}/{fields.get('job_order', 0)}", game=game, round=0,
                  job_order=0, seed=1, seats=tuple(seats), options={},
                  placements=results.placements_from_winners(len(seats), winners), termination=termination,
                  forfeits=() if forfeit_seat is None else (Forfeit(forfeit_seat, termination, "failed"),),
                  scores=None, decisions=0, duration=0.0, logs=(None,) * len(seats), finished_at=0.0)
    values.update(fields)
    return StoredGame(**values)


def reference_standings(db: Path) -> dict[tuple[str, str], dict[str, float]]:
    """Each table's Elo and counts per bot, worked out here from the games
    table alone, the way docs/explanation/ratings.md states the rules, to check
    what arena.stats computed against: K = 16, every bot starts at 1500,
    expectation 1 / (1 + 10^((r_other - r) / 400)); a game of k seats is one
    result between every two seats held by different bots, by place, all
    from the ratings before the game; games in rating order (plan, job_order, key).
    A table is the game at its count (``detour``, ``detour/3p``) and
    ``overall``. A win is a first place alone, a draw a shared first place,
    anything else a loss; score is the pairwise points per game (a tie half),
    first_place_share the first places per game (one shared by m counts 1/m)."""
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT game, players, seats, placements, forfeits FROM games WHERE players > 1 "
                            "AND termination != 'referee_failure' ORDER BY plan, job_order, key").fetchall()
    out: dict[tuple[str, str], dict[str, float]] = {}
    for game, players, seats_text, placements_text, forfeits_text in rows:
        seats, places = json.loads(seats_text), json.loads(placements_text)
        forfeited = [forfeit["seat"] for forfeit in json.loads(forfeits_text)]
        for table in (game if players == 2 else f"{game}/{players}p", "overall"):
            rows_of = {bot: out.setdefault((table, bot), dict.fromkeys(
                ("elo", "games", "wins", "draws", "losses", "forfeits", "points", "firsts"), 0.0) | {"elo": 1500.0})
                for bot in seats}
            before = {bot: row["elo"] for bot, row in rows_of.items()}
            for i in range(players):
                for j in range(i + 1, players):
                    a, b = seats[i], seats[j]
                    if a == b:
                        continue
                    score = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                    expected = 1 / (1 + 10 ** ((before[b] - before[a]) / 400))
                    rows_of[a]["elo"] += 16 * (score - expected)
                    rows_of[b]["elo"] -= 16 * (score - expected)
            firsts = places.count(1)
            for seat, bot in enumerate(seats):
                row = rows_of[bot]
                row["games"] += 1
                row["wins" if places[seat] == 1 and firsts == 1 else "draws" if places[seat] == 1 else "losses"] += 1
                row["forfeits"] += forfeited.count(seat)
                row["points"] += sum(1.0 if places[seat] < places[other] else 0.5 if places[seat] == places[other]
                                     else 0.0 for other in range(players) if other != seat) / (players - 1)
                row["firsts"] += 1 / firsts if places[seat] == 1 else 0.0
    for row in out.values():
        row["score"], row["first_place_share"] = row["points"] / row["games"], row["firsts"] / row["games"]
    return out


def arena_environment(tmpdir: Path | None = None) -> dict[str, str]:
    """The environment the CLI runs in: this checkout's arena, and where
    given a temporary folder of its own, so that a test that counts bot
    working folders sees only those of its own run."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    return env


def field_names(value, names: set[str] | None = None) -> set[str]:
    """Every key of a JSON value, at any depth, and every effect's cause."""
    names = set() if names is None else names
    if isinstance(value, dict):
        names.update(value)
        if "cause" in value:
            names.add(value["cause"])
        for inner in value.values():
            field_names(inner, names)
    elif isinstance(value, list):
        for inner in value:
            field_names(inner, names)
    return names


def processes_running(folder: Path) -> list[str]:
    """Processes whose command line names ``folder`` (bots of a test's
    folder still running), as "pid: command" lines."""
    left = []
    for proc in Path("/proc").iterdir():
        try:
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(folder) in command:
            left.append(f"{proc.name}: {command}")
    return left


def random_bots(folder: Path, names: list[str]) -> Path:
    """A bots folder holding the bundled random bot under each name."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(RANDOM_BOT, folder / f"{name}.py")
    return folder


def python_bot(folder: Path, name: str, source: str) -> Path:
    """A one-file Python bot from source text."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return path


def folder_bot(folder: Path, name: str, source: str, args: list[str]) -> Path:
    """A folder bot whose manifest runs ``python3 main.py ARGS``."""
    bot = folder / name
    bot.mkdir(parents=True, exist_ok=True)
    (bot / "main.py").write_text(textwrap.dedent(source))
    (bot / "bot.json").write_text(json.dumps({"command": [sys.executable, "main.py", *args]}))
    return bot


def arena(*args: str, cwd: Path, timeout: float = 300, check: bool = False,
          tmpdir: Path | None = None) -> subprocess.CompletedProcess:
    """Run the arena CLI as a real process (with ``tmpdir`` as its TMPDIR)."""
    env = arena_environment(tmpdir)
    result = subprocess.run([*ARENA, *args], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"arena {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result


def undo_schema_12(conn: sqlite3.Connection) -> None:
    """What schema 12 (arena.store._luck_v12) and those after add, taken
    away: a database as arena left it before, for tests of upgrades from
    older ones."""
    undo_schema_13(conn)
    conn.execute("DROP INDEX games_luck_unmeasured")
    conn.execute("ALTER TABLE games DROP COLUMN luck")
    conn.execute("ALTER TABLE results DROP COLUMN luck")


def undo_schema_13(conn: sqlite3.Connection) -> None:
    """What schema 13 (arena.store._rating_state_v13) and 14 add, taken away."""
    undo_schema_14(conn)
    for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE rating_state")
    conn.execute("DROP TABLE plans")
    conn.execute("DROP INDEX idx_games_seed_game")
    conn.execute("ALTER TABLE games DROP COLUMN plan")


def undo_schema_14(conn: sqlite3.Connection) -> None:
    """What schema 14 (arena.store._compact_v14) changes, undone (every
    record in its own column, the decision times as JSON text, results and
    rating_history with rowids), and what 15 adds taken away."""
    undo_schema_15(conn)
    for key, record, replay, times in conn.execute("SELECT key, record, replay, decision_times FROM games").fetchall():
        conn.execute("UPDATE games SET record = ?, decision_times = ? WHERE key = ?",
                     [zlib.compress(arena_events(record, replay).encode()), arena_json(times), key])
    for table in ("results", "rating_history"):
        create, = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [table]).fetchone()
        indexes = [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND "
                                                  "tbl_name = ? AND sql IS NOT NULL", [table])]
        conn.execute(f"ALTER TABLE {table} RENAME TO {table}_without_rowid")
        conn.execute(create.removesuffix(" WITHOUT ROWID"))
        conn.execute(f"INSERT INTO {table} SELECT * FROM {table}_without_rowid")
        conn.execute(f"DROP TABLE {table}_without_rowid")
        for sql in indexes:
            conn.execute(sql)
    conn.execute("DROP VIEW moves")
    conn.execute("DROP VIEW events")
    db = sqlite_utils.Database(conn)
    _create_event_views(db, "arena_json(games.record)")


def undo_schema_15(conn: sqlite3.Connection) -> None:
    """What schema 15 (arena.store._game_changes_v15) and 16 add, taken away."""
    undo_schema_16(conn)
    for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' "
                                   "AND name LIKE 'game_changes_%'").fetchall():
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE game_changes")


def undo_schema_16(conn: sqlite3.Connection) -> None:
    """What schema 16 (arena.store._found_at_once_v16) changes, undone, and
    what 17 changes."""
    undo_schema_17(conn)
    conn.execute("DROP INDEX games_referee_failures")
    conn.execute("DROP INDEX games_unit")
    conn.execute('CREATE INDEX "idx_games_seed_game" ON "games" ("seed", "game")')


def undo_schema_17(conn: sqlite3.Connection) -> None:
    """What schema 17 (arena.store._stored_records_v17) changes, undone:
    every record whole (each decision's offered actions made again by the
    engine), and no digest of them; and what 18 changes."""
    undo_schema_18(conn)
    rows = conn.execute("SELECT key, game, players, options, record, offered FROM games").fetchall()
    for key, game, players, options, record, digest in rows:
        events = full_events(GAMES[game], players, json.loads(options), json.loads(zlib.decompress(record)), digest)
        conn.execute("UPDATE games SET record = ? WHERE key = ?",
                     [zlib.compress(json.dumps(events, separators=(",", ":")).encode()), key])
    conn.execute("ALTER TABLE games DROP COLUMN offered")


def undo_schema_18(conn: sqlite3.Connection) -> None:
    """What schema 18 (arena.store._compressed_luck_v18) changes, undone:
    the luck stored as JSON text; and what 19 adds."""
    undo_schema_19(conn)
    conn.executemany("UPDATE games SET luck = ? WHERE rowid = ?",
                     [(arena_json(luck), rowid) for rowid, luck in
                      conn.execute("SELECT rowid, luck FROM games WHERE luck IS NOT NULL").fetchall()])


def undo_schema_20(conn: sqlite3.Connection) -> None:
    """What schema 20 (arena.store._posterior_ratings_v20) changes in the
    ratings cache, undone: ``joint_bound`` back, the tier and prior gone."""
    conn.execute("ALTER TABLE ratings ADD COLUMN joint_bound TEXT")
    conn.execute("ALTER TABLE ratings DROP COLUMN joint_tier")
    conn.execute("ALTER TABLE ratings DROP COLUMN joint_prior_draws")


def undo_schema_19(conn: sqlite3.Connection) -> None:
    """What schema 19 (arena.store._league_v19) adds, taken away: the league's tables; and what 20 changes."""
    undo_schema_20(conn)
    for table in ("league_versions", "league_units", "league_tests"):
        conn.execute(f"DROP TABLE {table}")


def undo_schema_11(conn: sqlite3.Connection) -> None:
    """What schema 11 (arena.store._queryable_v11) adds, and those after it,
    taken away: a database as arena left it before, for tests of upgrades
    from older ones."""
    undo_schema_12(conn)
    conn.execute("DROP VIEW moves")
    conn.execute("DROP VIEW events")
    for table, column in (("games", "finished_at_iso"), ("dice_key", "made_at_iso"), ("results", "players"),
                          ("rating_history", "game_key"), ("rating_history", "players")):
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")


def whole_events(store, key: str) -> list:
    """A stored game's events whole: its record as stored, each decision's
    offered actions made again by the engine (and checked by the digest)."""
    game = store.game(key)
    events, digest = store.record(key)
    return full_events(GAMES[game.game], game.players, game.options, events, digest)


def without_browser_engine(monkeypatch, game: str) -> None:
    """Game ``game`` as a game that brings no replay engine for the page
    (as a plug-in game may not): its replays are made in Python, by the
    worker that plays it, and stored."""
    registered, _ = game_registry._load()
    monkeypatch.setitem(registered, game, dataclasses.replace(registered[game], engine_js=None))
