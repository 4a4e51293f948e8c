"""The results database: one SQLite file, written by one process.

The file is checked before anything writes to it: a file that is not SQLite,
is corrupt (read whole up to WHOLE_CHECK_UP_TO), or was made by another
program or a newer arena is refused with a one-line error and left
untouched. The schema is built by numbered
migrations. Each finished game is one transaction, so a kill at any moment
leaves every game either wholly stored or not at all. A writer holds an
exclusive lock file beside the database, so a second tournament on the same
file refuses to start instead of racing the first.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import functools
import hashlib
import json
import os
import sqlite3
import time
import urllib.parse
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import sqlite_utils

from arena import results
from arena.errors import StoreError, StoreInUse
from arena.model import (
    BotSpec,
    DecisionTimes,
    DiceKey,
    Event,
    Forfeit,
    GameRecord,
    RecordTexts,
    StoredEvent,
    StoredGame,
    Termination,
    stored_events,
)

APPLICATION = "arena"
SQLITE_HEADER = b"SQLite format 3\x00"


def _create_v1(db: sqlite_utils.Database) -> None:
    db.table("bots").create({"bot_id": str, "name": str, "content_hash": str, "path": str,
                             "command": str}, pk="bot_id")
    db.table("games").create({
        "key": str, "game": str, "round": int, "job_order": int, "seed": int, "players": int,
        "seats": str, "options": str, "winners": str, "termination": str,
        "forfeit_seat": int, "detail": str, "scores": str, "decisions": int, "duration": float,
        "logs": str, "finished_at": float, "record": bytes,
    }, pk="key")
    db.table("games").create_index(["game", "job_order"])
    db.table("results").create({"game_key": str, "seat": int, "bot_id": str, "game": str,
                                "points": float}, pk=("game_key", "seat"),
                               foreign_keys=[("game_key", "games", "key"), ("bot_id", "bots", "bot_id")])
    db.table("results").create_index(["bot_id", "game"])


def _placements_v2(db: sqlite_utils.Database) -> None:
    """Every game places its seats (1 is best), and several seats may
    forfeit: placements and forfeits per game, placement and forfeit per
    seat; games stored before are filled in from their winners and their
    one forfeit, exactly as they were counted."""
    db.table("games").add_column("placements", str)
    db.table("games").add_column("forfeits", str)
    db.table("results").add_column("placement", int)
    db.table("results").add_column("forfeit", str)
    rows = db.execute("SELECT key, players, winners, termination, forfeit_seat, detail FROM games").fetchall()
    for key, players, winners, termination, forfeit_seat, detail in rows:
        placements = results.placements_from_winners(players, json.loads(winners))
        forfeits = [] if forfeit_seat is None else [
            {"seat": forfeit_seat, "termination": termination, "detail": detail or ""}]
        db.execute("UPDATE games SET placements = ?, forfeits = ? WHERE key = ?",
                   [json.dumps(list(placements)), json.dumps(forfeits), key])
        for seat, place in enumerate(placements):
            db.execute("UPDATE results SET placement = ?, forfeit = ? WHERE game_key = ? AND seat = ?",
                       [place, termination if seat == forfeit_seat else None, key, seat])


def _ratings_v3(db: sqlite_utils.Database) -> None:
    """The ratings as ``arena standings`` shows them, and each bot's Elo
    after each of its games: a cache, rewritten after every run from the
    games (see arena.stats.standings), for people who query the database."""
    db.table("ratings").create({
        "table_name": str, "game": str, "players": int, "bot_id": str, "bot": str, "elo": float,
        "joint": float, "joint_low": float, "joint_high": float, "games": int, "wins": int, "draws": int,
        "losses": int, "forfeits": int, "score": float}, pk=("table_name", "bot_id"))
    db.table("rating_history").create({"table_name": str, "bot_id": str, "game_number": int, "elo": float},
                                      pk=("table_name", "bot_id", "game_number"))


def _joint_bound_v4(db: sqlite_utils.Database) -> None:
    """Why a bot has no joint rating: "never lost", "never won" or
    "separated" (no finite maximum-likelihood rating; ``joint``,
    ``joint_low`` and ``joint_high`` are then NULL), NULL where it has one."""
    db.table("ratings").add_column("joint_bound", str)


def _hello_name_v5(db: sqlite_utils.Database) -> None:
    """The name a bot gives itself in its hello answer, as it gave it (the
    bot's name is its file's; this one is the bot's own say, shown beside
    it). NULL for bots stored before, or not probed by the run that stored
    them."""
    db.table("bots").add_column("hello_name", str)


def _decision_times_v6(db: sqlite_utils.Database) -> None:
    """How long each decision took to answer (a JSON list of seconds, in the
    order of the game's decision events) and the move timeout the seats
    were given: what a replay shows beside each decision. NULL for games
    stored before."""
    db.table("games").add_column("move_timeout", float)
    db.table("games").add_column("decision_times", str)


def _replays_v7(db: sqlite_utils.Database) -> None:
    """Each game's replay as its page embeds it (zlib-compressed JSON, see
    arena.games.replays), made by the worker that played it, so that building
    the site does not replay every game again. NULL for games stored before,
    whose replays the site makes from their events."""
    db.table("games").add_column("replay", bytes)
    db.table("games").add_column("replay_format", int)


def _referee_failures_v8(db: sqlite_utils.Database) -> None:
    """Games may end as ``referee_failure`` (the worker playing them hung or
    died, twice): no placements, no results rows, the reason in ``detail``.
    Nothing changes in the tables; the new version makes an older arena,
    which would not know that termination, refuse the file in one line."""


def _rating_groups_v9(db: sqlite_utils.Database) -> None:
    """Issue 26, in the ratings cache: ``joint_group`` numbers a rating's
    group of bots connected by games where a table has several (NULL where
    it has one), since ratings of two groups cannot be compared; ``score``
    is pairwise points per game from now on, as everywhere else, and
    ``first_place_share`` holds first places per game (a shared one
    shared). The cache is rewritten from the games by the next run."""
    db.table("ratings").add_column("joint_group", int)
    db.table("ratings").add_column("first_place_share", float)


def _dice_key_v10(db: sqlite_utils.Database) -> None:
    """The key every dice seed of this database's games is derived from
    (arena.model.DiceKey): one row, written by the first run that plans
    games here, read by every run after it, so a resumed run plays the
    missing games on the same dice. ``seed`` is the --seed the key was made
    from, NULL for a key drawn at random (a secret only this file holds).
    Databases from before have no row: their games were played on dice
    anyone could compute from the game ids, and stay as they are; the next
    run draws a key and plans anew under keys of a new form."""
    db.table("dice_key").create({"id": int, "secret": str, "seed": int, "made_at": float}, pk="id")


def _queryable_v11(db: sqlite_utils.Database) -> None:
    """Issue 27, for people who query the file (Datasette, sqlite-utils):
    ISO 8601 UTC times beside the epoch seconds (virtual generated columns,
    computed when read, stored nowhere); the player count in ``results``
    and ``rating_history``, where rows of every count meet; the game key of
    each ``rating_history`` row, to join on ``games.key`` (``game_number``
    is the table's game count; the cache's rows from before have NULL in
    both until the next run rewrites them); and the views ``events`` and ``moves``,
    which read the zlib-compressed ``games.record`` through the SQL
    function ``arena_json`` (see :func:`register_functions`: arena's own
    connections, and Datasette and sqlite-utils through arena's plugins,
    have it), so the records stay compressed."""
    for table, column in (("games", "finished_at"), ("dice_key", "made_at")):
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column}_iso TEXT GENERATED ALWAYS AS "
                   f"(strftime('%Y-%m-%dT%H:%M:%fZ', {column}, 'unixepoch')) VIRTUAL")
    db.table("results").add_column("players", int)
    db.execute("UPDATE results SET players = (SELECT players FROM games WHERE games.key = results.game_key)")
    db.table("rating_history").add_column("game_key", str)
    db.table("rating_history").add_column("players", int)
    _create_event_views(db, "arena_json(games.record)")


def _create_event_views(db: sqlite_utils.Database, events: str) -> None:
    """The views ``events`` and ``moves``, reading each game's events
    (a JSON list) from the SQL expression ``events``."""
    db.execute(f"""CREATE VIEW events AS
        SELECT games.key AS game_key, games.game AS game, games.players AS players, event.key AS event,
               json_extract(event.value, '$.kind') AS kind, json_extract(event.value, '$.seat') AS seat,
               event.value AS detail
        FROM games, json_each({events}) AS event""")
    db.execute(f"""CREATE VIEW moves AS
        SELECT games.key AS game_key, games.game AS game, games.players AS players, event.key AS event,
               json_extract(event.value, '$.seat') AS seat,
               json_extract(games.seats, '$[' || json_extract(event.value, '$.seat') || ']') AS bot_id,
               json_quote(coalesce(json_extract(event.value, '$.action'),
                   json_extract(event.value, '$.offered[' || json_extract(event.value, '$.chosen') || ']'))) AS action,
               json_extract(event.value, '$.chosen') AS chosen,
               json_extract(event.value, '$.offered') AS offered
        FROM games, json_each({events}) AS event
        WHERE json_extract(event.value, '$.kind') = 'decision'""")


def _luck_v12(db: sqlite_utils.Database) -> None:
    """The luck of the dice (arena.luck), measured after the game is stored
    (arena.luck.stored): each seat's total in ``results.luck`` beside its
    points (its luck-adjusted result is points less luck), and the luck of
    every chance event in ``games.luck``, compact JSON ``{"totals": [per
    seat], "rolls": [[event number, [per seat]], ...]}``, or ``{"problem":
    why}`` for a game whose luck cannot be measured (a game without an
    evaluation, a record that no longer replays). NULL until measured:
    games stored before are measured by the next site build or ``arena
    standings --luck``."""
    db.table("results").add_column("luck", float)
    db.table("games").add_column("luck", str)
    # What is left to measure, found without reading every game's row.
    db.execute("CREATE INDEX games_luck_unmeasured ON games(job_order, key) WHERE luck IS NULL")


def _rating_state_v13(db: sqlite_utils.Database) -> None:
    """Issue 29, the end of a run costs what is new. ``games.plan`` numbers
    the plan that stored each game (a tournament's, a match's, a gauntlet's:
    ``plans`` holds each plan's number and the digest of its game keys, so a
    resumed run, which plans the same games, stores them under the same
    number), from 1 in the order plans were first run; games stored before
    are plan 0, as are rows written without one. Rating order is plan,
    job_order, key: a new plan's games come after every game stored before,
    so its ratings go on from the stored ones, and an interrupted run rates
    as the whole run would have. The ``rating_state`` row is the tally the
    ratings cache was last written from (arena.stats.standings.Tally, as
    JSON) and which games it counts (every game up to ``games_rowid``, whose
    key is ``last_key``; ``last_order`` the last one rated, in rating
    order). Triggers drop it when a game it may count is deleted, changed,
    or inserted below ``games_rowid``, and the next run rates every game
    again."""
    db.table("games").add_column("plan", int, not_null_default=0)
    db.table("plans").create({"number": int, "digest": str, "made_at": float}, pk="number")
    db.table("plans").create_index(["digest"], unique=True)
    db.table("games").create_index(["seed", "game"])  # a new game's seat-swapped partner, found among the rated
    db.table("rating_state").create({"id": int, "version": str, "schema_version": int, "games_rowid": int,
                                     "last_key": str, "last_order": str, "tally": str}, pk="id")
    _keep_state_triggers(db)


# What makes a saved tally untrustworthy (see _rating_state_v13).
_STATE_TRIGGERS = {
    "rating_state_game_deleted": "DELETE",
    "rating_state_game_changed": "UPDATE OF key, game, round, job_order, plan, seed, players, seats, options, "
                                 "placements, termination, forfeits",
    "rating_state_game_inserted_below": "INSERT",
}


# What the site's saved tally cannot go on from (see _game_changes_v15):
# anything but the luck of a game measured where none was stored.
_CHANGE_TRIGGERS = {
    "game_changes_deleted": "DELETE ON games",
    "game_changes_changed": "UPDATE ON games WHEN old.luck IS NOT NULL OR new.luck IS NULL",
    "game_changes_inserted_below": "INSERT ON games WHEN EXISTS (SELECT 1 FROM games WHERE rowid > new.rowid)",
}


def _keep_state_triggers(db: sqlite_utils.Database) -> None:
    """Make the triggers that drop a saved tally, where they are missing (a
    later migration that rebuilds ``games`` loses them), and drop the tally
    then: games may have changed unseen; likewise the triggers that count
    changes to stored games for the site (from migration 15). Every writer
    checks on opening."""
    present = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    missing = [name for name in _STATE_TRIGGERS if name not in present]
    for name in missing:
        event = _STATE_TRIGGERS[name]
        db.execute(f"CREATE TRIGGER {name} AFTER {event} ON games "
                   + ("WHEN new.rowid <= (SELECT games_rowid FROM rating_state) " if event == "INSERT" else "")
                   + "BEGIN DELETE FROM rating_state; END")
    if missing:
        db.execute("DELETE FROM rating_state")
    if db["game_changes"].exists():
        missing = [name for name in _CHANGE_TRIGGERS if name not in present]
        for name in missing:
            db.execute(f"CREATE TRIGGER {name} AFTER {_CHANGE_TRIGGERS[name]} "
                       "BEGIN UPDATE game_changes SET changes = changes + 1; END")
        if missing:
            db.execute("UPDATE game_changes SET changes = changes + 1")


def _compact_v14(db: sqlite_utils.Database) -> None:
    """Issue 29, fewer bytes per game, nothing lost: a game whose stored
    replay begins with its events (every replay made so far) keeps them
    there alone, ``record`` NULL (``Store.events`` and the views read them
    from the replay: the SQL function ``arena_events(record, replay)``);
    ``decision_times`` is zlib-compressed JSON like ``record``
    (``arena_json(decision_times)``); ``results`` and ``rating_history``
    are WITHOUT ROWID tables, so their primary keys (the game key, the bot
    id) are stored once, not again in an index. Store._migrate then gives
    the pages freed back to the disk (VACUUM)."""
    for table in ("results", "rating_history"):
        _without_rowid(db, table)
    db.execute("DROP VIEW moves")
    db.execute("DROP VIEW events")
    _create_event_views(db, "arena_events(games.record, games.replay)")
    for rows in _games_in_batches(db, "record, replay, decision_times"):
        for rowid, record, replay, times in rows:
            events = None if record is None else zlib.decompress(record)
            kept = None if events is not None and replay is not None and _replay_holds(events, replay) else record
            db.execute("UPDATE games SET record = ?, decision_times = ? WHERE rowid = ?",
                       [kept, None if times is None else zlib.compress(times.encode()), rowid])


def _without_rowid(db: sqlite_utils.Database, table: str) -> None:
    """Rebuild ``table`` as a WITHOUT ROWID table: the same columns, rows
    and indexes."""
    create = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone()[0]
    indexes = [sql for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                                            "AND sql IS NOT NULL", [table])]
    db.execute(f"ALTER TABLE [{table}] RENAME TO [{table}_with_rowid]")
    db.execute(create + " WITHOUT ROWID")
    db.execute(f"INSERT INTO [{table}] SELECT * FROM [{table}_with_rowid]")
    db.execute(f"DROP TABLE [{table}_with_rowid]")
    for sql in indexes:
        db.execute(sql)


def _game_changes_v15(db: sqlite_utils.Database) -> None:
    """Issue 29, the site at the cost of what is new. The site's saved
    tally (arena.site.data.SiteTally) counts the games up to a rowid,
    numbered in the order they were stored; ``game_changes`` counts the
    changes to stored games it cannot go on from (a game deleted, changed,
    or inserted below another; the luck of a game measured where none was
    stored is no such change: the site looks for it), counted by
    triggers."""
    db.table("game_changes").create({"id": int, "changes": int}, pk="id")
    db.table("game_changes").insert({"id": 1, "changes": 0})


def _found_at_once_v16(db: sqlite_utils.Database) -> None:
    """Issue 29, a million games. The end of every run says which games are
    stored as referee failures (``Store.referee_failures``), which read
    every game's row (seconds for a million games not in the page cache):
    an index of those games alone finds them at once. Counting every game,
    the games of a unit (a seed's games between the same bots: a luck unit,
    a seat-swapped pair) are looked for again, among a seed's games
    (``games_of_unit``, ``games_on_seed_before``), which read every one of
    them: the index of seeds (``idx_games_seed_game``, migration 13) holds
    the seats too, and only the unit's games are read."""
    db.execute(f"CREATE INDEX games_referee_failures ON games({RATING_ORDER}) WHERE {REFEREE_FAILURE}")
    db.execute("DROP INDEX idx_games_seed_game")
    db.execute("CREATE INDEX games_unit ON games(seed, game, seats)")


def _stored_records_v17(db: sqlite_utils.Database) -> None:
    """Issue 29, a few kilobytes a game: every game's ``record`` is its
    events as stored (``arena.model.stored_events``: each decision keeps the
    action chosen, not the actions offered, which the engine makes again;
    ``games.offered`` is their digest, which checks that it did), and no
    replay is kept: the site's pages make a game's states and words from
    its record (a game that brings a replay engine for the browser) or the
    build makes its replay again (one that does not). The events view shows
    a decision's chosen ``action``; ``moves.offered`` is NULL where the
    record no longer holds them. Store._migrate gives the pages back (VACUUM)."""
    db.table("games").add_column("offered", str)
    db.execute("DROP VIEW moves")
    db.execute("DROP VIEW events")
    _create_event_views(db, "arena_events(games.record, games.replay)")
    for rows in _games_in_batches(db, "record, replay"):
        for rowid, record, replay in rows:
            events = _events(record, replay)
            stored, digest = (None, None) if events is None else stored_events(events)
            db.execute("UPDATE games SET record = ?, offered = ?, replay = NULL, replay_format = NULL WHERE rowid = ?",
                       [None if stored is None else _compressed(stored), digest, rowid])


def _compressed_luck_v18(db: sqlite_utils.Database) -> None:
    """Issue 29, at most 4 KB a game: the luck of every roll (``games.luck``,
    about a kilobyte of JSON text a game) is zlib-compressed like ``record``
    (``arena_json(luck)``: a third of it). Store._migrate gives the pages
    back (VACUUM)."""
    for rows in _games_in_batches(db, "luck", "luck IS NOT NULL"):
        db.conn.executemany("UPDATE games SET luck = ? WHERE rowid = ?",
                            [(zlib.compress(text.encode()), rowid) for rowid, text in rows])


def _league_v19(db: sqlite_utils.Database) -> None:
    """Issue 37, the league: the versions it has entered (each played from
    a snapshot of its files), the units it chose (a seat-swapped pair or a
    pod's rotations; a unit chosen is played to its end even across a
    restart) and each new version's sequential test against its
    predecessor."""
    db.table("league_versions").create({
        "version": str, "name": str, "number": int, "content_hash": str, "snapshot": str, "games": str,
        "predecessor": str, "entered_at": float, "retired_at": float, "retired_why": str}, pk="version")
    db.table("league_units").create({
        "number": int, "table_name": str, "game": str, "players": int, "versions": str, "reason": str,
        "test": str, "chosen_at": float, "done_at": float}, pk="number")
    db.table("league_tests").create({
        "version": str, "predecessor": str, "elo0": float, "elo1": float, "alpha": float, "beta": float,
        "counts": str, "pairs": int, "llr": float, "verdict": str, "decided_at": float}, pk="version")


def _posterior_ratings_v20(db: sqlite_utils.Database) -> None:
    """Issue 37, in the ratings cache: the joint rating is the posterior
    (arena.stats.joint), finite for every bot, so ``joint_bound`` goes;
    ``joint_tier`` is the bot's tier in its table's order (from 1) and
    ``joint_prior_draws`` the prior's weight that made the rating. The
    cache is rewritten from the games by the next run."""
    ratings = db.table("ratings")
    ratings.transform(drop={"joint_bound"})
    ratings.add_column("joint_tier", int)
    ratings.add_column("joint_prior_draws", float)


def _games_in_batches(db: sqlite_utils.Database, columns: str, where: str = "1") -> Iterator[list[Any]]:
    """The rows of ``games`` (rowid, then ``columns``) that ``where``
    holds for, in rowid order, 500 at a time: a migration rewrites each
    batch before the next is read, never holding every game."""
    last = 0
    while rows := db.execute(f"SELECT rowid, {columns} FROM games WHERE rowid > ? AND {where} "
                             "ORDER BY rowid LIMIT 500", [last]).fetchall():
        yield rows
        last = rows[-1][0]


MIGRATIONS = [_create_v1, _placements_v2, _ratings_v3, _joint_bound_v4, _hello_name_v5, _decision_times_v6,
              _replays_v7, _referee_failures_v8, _rating_groups_v9, _dice_key_v10, _queryable_v11, _luck_v12,
              _rating_state_v13, _compact_v14, _game_changes_v15, _found_at_once_v16, _stored_records_v17,
              _compressed_luck_v18, _league_v19, _posterior_ratings_v20]
SCHEMA_VERSION = len(MIGRATIONS)

# A replay (arena.games.replays) is a JSON object whose first member is the
# game's events, written as the record writes them.
_REPLAY_EVENTS = b'{"events":'


def _replay_holds(events: bytes, replay: bytes) -> bool:
    """Whether a zlib-compressed replay begins with these events (JSON, as
    the record writes them): only as much of it is decompressed."""
    start = _REPLAY_EVENTS + events + b","
    return zlib.decompressobj().decompress(replay, len(start)) == start


def game_blobs(events: list[Event], replay: str | None, times: DecisionTimes) -> dict[str, bytes | str | None]:
    """The stored columns of a game's record: ``record`` (the events as
    stored), ``offered`` (the digest of the actions offered), ``replay``
    (as stored: the payload's bytes, for a game the site's pages cannot
    replay themselves) and ``decision_times`` (to a tenth of a
    millisecond, as the replays show them: finer figures are the
    scheduler's noise, and took twice the bytes)."""
    stored, digest = stored_events(events)
    return {"record": _compressed(stored), "offered": digest,
            "replay": None if replay is None else base64.b64decode(replay),
            "decision_times": _compressed([round(seconds, 4) for seconds in times.seconds])}


def luck_blob(luck: Mapping[str, Any]) -> bytes:
    """A game's luck (``arena.luck.measure.stored_luck``) as ``games.luck``
    stores it (``_compressed_luck_v18``)."""
    return _compressed(luck)


def _compressed(value: Any) -> bytes:
    return zlib.compress(json.dumps(value, separators=(",", ":")).encode())


def arena_json(blob: bytes | None) -> str | None:
    """The JSON text of a zlib-compressed column (``games.record``,
    ``games.replay``, ``games.decision_times``, ``games.luck``), for SQL:
    ``arena_json(record)``. NULL for NULL."""
    return None if blob is None else zlib.decompress(blob).decode()


def arena_events(record: bytes | None, replay: bytes | None) -> str | None:
    """A game's events as JSON text, for SQL: from its record, or from its
    replay where the record is NULL (the replay holds them). NULL for a
    game with neither."""
    if record is not None:
        return zlib.decompress(record).decode()
    if replay is None:
        return None
    text = zlib.decompress(replay).decode()
    _, end = json.JSONDecoder().raw_decode(text, len(_REPLAY_EVENTS))
    return text[len(_REPLAY_EVENTS):end]


def _events(record: bytes | None, replay: bytes | None) -> list[Any] | None:
    """A game's events as ``arena_events`` finds them, parsed (once)."""
    if record is not None:
        events: list[Any] = json.loads(zlib.decompress(record))
        return events
    if replay is None:
        return None
    events, _ = json.JSONDecoder().raw_decode(zlib.decompress(replay).decode(), len(_REPLAY_EVENTS))
    return events


def register_functions(conn: sqlite3.Connection) -> None:
    """Give a connection the SQL functions the views use (``arena_json``,
    ``arena_events``).
    Arena's connections have them; arena.sql's plugins give them to
    Datasette's and sqlite-utils' connections."""
    conn.create_function("arena_json", 1, arena_json, deterministic=True)
    conn.create_function("arena_events", 2, arena_events, deterministic=True)


# SQLite's quick_check reads the whole file (about a second a gigabyte):
# files up to this size get it at every open. In a larger one, SQLite finds
# a file cut short as it opens it (its header counts the pages) and a
# damaged page when it reads it: a one-line error then (arena.cli).
WHOLE_CHECK_UP_TO = 256 * 2**20


def check_database(path: Path) -> None:
    """Refuse a file arena must not write to, without modifying it."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb") as handle:
        if handle.read(16) != SQLITE_HEADER:
            raise StoreError(f"{str(path)!r} is not an SQLite database")
    # Without a write-ahead log there is no writer: read the file as immutable,
    # so that SQLite creates no -wal and -shm files beside someone's file.
    immutable = "" if path.with_name(path.name + "-wal").exists() else "&immutable=1"
    try:
        conn = sqlite3.connect(f"file:{urllib.parse.quote(str(path))}?mode=ro{immutable}", uri=True)
        try:
            if path.stat().st_size <= WHOLE_CHECK_UP_TO and conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise StoreError(f"{str(path)!r} is corrupt (SQLite integrity check failed)")
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                return
            if "meta" not in tables:
                raise StoreError(f"{str(path)!r} is not an arena database")
            meta = dict(conn.execute("SELECT key, value FROM meta"))
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{str(path)!r} cannot be read as a database: {exc}") from None
    if meta.get("application") != APPLICATION:
        raise StoreError(f"{str(path)!r} is not an arena database")
    version = int(meta.get("schema_version", "0"))
    if version > SCHEMA_VERSION:
        raise StoreError(f"{str(path)!r} was written by a newer arena (schema {version}; "
                         f"this arena reads up to {SCHEMA_VERSION})")


def stored_dice_key(path: Path) -> DiceKey | None:
    """The dice key a database holds, read without writing to it (a run
    reads it to plan before it takes the lock); None for no file, or one
    without a key. Call check_database first."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    immutable = "" if path.with_name(path.name + "-wal").exists() else "&immutable=1"
    conn = sqlite3.connect(f"file:{urllib.parse.quote(str(path))}?mode=ro{immutable}", uri=True)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='dice_key'").fetchone():
            return None
        row = conn.execute("SELECT secret, seed FROM dice_key WHERE id = 1").fetchone()
    finally:
        conn.close()
    return None if row is None else DiceKey(bytes.fromhex(row[0]), row[1])


class Store:
    """Read and write results. Open with ``writer=True`` to take the lock."""

    def __init__(self, path: str | Path, writer: bool = False, checked: bool = False) -> None:
        """``checked``: a reader in a process that another process started
        after opening the same file, which checked it (the integrity check
        reads the whole file: seconds for a large one)."""
        self.path = Path(path)
        self._lock = None
        self._plan_digest: str | None = None  # the plan this writer stores games of (use_plan)
        self._plan: int | None = None  # its number, taken when the writer stores its first game
        if not (checked and not writer):
            check_database(self.path)
        if not writer and not self.path.exists():
            raise StoreError(f"no results database at {str(self.path)!r}: run a tournament first")
        if writer:
            self.path.parent.mkdir(parents=True, exist_ok=True)  # as --out and --log-dir are made
            self._lock = _take_lock(self.path)
            # Private whatever the umask: SQLite gives the -wal and -shm
            # files the database file's mode.
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        register_functions(conn)
        self.db = sqlite_utils.Database(conn)
        try:
            if writer:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self._migrate()
            elif int(self._meta().get("schema_version", "0")) != SCHEMA_VERSION:
                raise StoreError(f"{str(self.path)!r} has an older schema: run a tournament to upgrade it")
        except BaseException:
            self.close()
            raise

    def _meta(self) -> dict[str, str]:
        if not self.db["meta"].exists():
            return {}
        return {row["key"]: row["value"] for row in self.db["meta"].rows}

    def _migrate(self) -> None:
        with self.db.conn:
            self.db.execute("BEGIN IMMEDIATE")
            if not self.db["meta"].exists():
                self.db.table("meta").create({"key": str, "value": str}, pk="key")
                self.db.table("meta").insert({"key": "application", "value": APPLICATION})
            version = int(self._meta().get("schema_version", "0"))
            for migration in MIGRATIONS[version:]:
                migration(self.db)
            _keep_state_triggers(self.db)
            self.db.table("meta").upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")
        if 0 < version <= MIGRATIONS.index(_compressed_luck_v18):
            # Give the disk back the pages compacting freed (outside any
            # transaction, as VACUUM must be: seconds per 100,000 games).
            self.db.execute("VACUUM")

    def close(self) -> None:
        self.db.conn.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------

    def keep_dice_key(self, key: DiceKey) -> None:
        """Store the run's dice key if this database has none; refuse one
        that differs from the stored key (another run stored its own between
        this run's look at the file and its lock)."""
        with self.db.conn:
            self.db.execute("BEGIN IMMEDIATE")
            stored = self.dice_key()
            if stored is None:
                self.db.table("dice_key").insert({"id": 1, "secret": key.secret.hex(), "seed": key.seed,
                                                  "made_at": time.time()})
            elif stored != key:
                raise StoreError(f"{str(self.path)!r} got another dice key while this run planned: run again")

    def add_bots(self, specs: list[BotSpec], hello_names: dict[str, str] | None = None) -> None:
        """Store bot versions; ``hello_names`` (by bot id) are what their
        handshakes said. A bot without one keeps the name stored before."""
        hello_names = hello_names or {}
        with self.db.conn:
            self.db.execute("BEGIN")
            self.db.table("bots").upsert_all(
                [{"bot_id": s.bot_id, "name": s.name, "content_hash": s.content_hash,
                  "path": s.path, "command": json.dumps(list(s.command)),
                  **({"hello_name": hello_names[s.bot_id]} if s.bot_id in hello_names else {})}
                 for s in specs],
                pk="bot_id")

    def use_plan(self, keys: Iterable[str]) -> None:
        """The games this writer stores belong to the plan of these game
        keys: stored under that plan's number, the one it got when it was
        first run (a resumed run's games rate as the whole run's would).
        A writer told of no plan stores its games under a plan of its own."""
        self._plan_digest = hashlib.sha1("\n".join(sorted(keys)).encode()).hexdigest()
        self._plan = None

    def _plan_number(self) -> int:
        if self._plan_digest is not None:
            row = self.db.execute("SELECT number FROM plans WHERE digest = ?", [self._plan_digest]).fetchone()
            if row is not None:
                return int(row[0])
        cursor = self.db.execute("INSERT INTO plans (digest, made_at) VALUES (?, ?)", [self._plan_digest, time.time()])
        return int(cursor.lastrowid or 0)

    def add_game(self, record: GameRecord) -> bool:
        """Store one finished game in one transaction. A game whose key is
        already stored is left as it is; returns whether it was new."""
        job = record.job
        points = results.points(record.placements)
        with self.db.conn:
            self.db.execute("BEGIN IMMEDIATE")
            if self.db.execute("SELECT 1 FROM games WHERE key = ?", [job.key]).fetchone():
                return False
            if self._plan is None:
                self._plan = self._plan_number()
            self.db.table("games").insert({
                "plan": self._plan,
                "key": job.key, "game": job.game, "round": job.round, "job_order": job.order,
                "seed": job.seed, "players": len(job.seats), "seats": json.dumps(list(job.seats)),
                "options": json.dumps(job.options), "winners": json.dumps(list(record.winners)),
                "placements": json.dumps(list(record.placements)),
                "termination": record.termination.value,
                "forfeits": json.dumps([forfeit.to_json() for forfeit in record.forfeits]),
                "forfeit_seat": record.forfeit_seat, "detail": record.failure or record.detail,
                "scores": None if record.scores is None else json.dumps(list(record.scores)),
                "decisions": record.decisions, "duration": record.duration,
                "logs": json.dumps(list(record.logs)), "finished_at": time.time(),
                "move_timeout": record.times.move_timeout,
                "replay_format": None if record.replay is None else record.replay_format,
                **game_blobs(record.events, record.replay, record.times),
            })
            if record.termination is Termination.REFEREE_FAILURE:
                return True  # no result: nothing for any seat
            forfeited = {forfeit.seat: forfeit.termination.value for forfeit in record.forfeits}
            self.db.table("results").insert_all(
                [{"game_key": job.key, "seat": seat, "bot_id": bot_id, "game": job.game,
                  "players": len(job.seats), "points": points[seat], "placement": record.placements[seat],
                  "forfeit": forfeited.get(seat)} for seat, bot_id in enumerate(job.seats)])
        return True

    def add_luck(self, measured: Mapping[str, dict[str, Any]]) -> None:
        """Store the luck of stored games (``arena.luck.stored``: by game key,
        as ``games.luck`` holds it), in one transaction; a game whose luck is
        stored already keeps it."""
        with self.db.conn:
            self.db.execute("BEGIN IMMEDIATE")
            for key, luck in measured.items():
                if self.db.execute("UPDATE games SET luck = ? WHERE key = ? AND luck IS NULL",
                                   [luck_blob(luck), key]).rowcount:
                    for seat, total in enumerate(luck.get("totals") or ()):
                        self.db.execute("UPDATE results SET luck = ? WHERE game_key = ? AND seat = ?",
                                        [total, key, seat])

    @contextlib.contextmanager
    def rewriting_ratings(self) -> Iterator[RatingsWriter]:
        """One transaction that rewrites the ratings cache (arena.ratings_cache):
        the rating history in batches as games are rated, so that it is never
        held whole (a million games' is hundreds of MB), then the rows and the
        tally (:class:`RatingsWriter`). Nothing is kept of it unless all is."""
        with self.db.conn:
            self.db.execute("BEGIN IMMEDIATE")
            yield RatingsWriter(self.db)

    # -- reading ---    # -- reading ----------------------------------------------------------------

    # -- the league (arena.play.league) ----------------------------------------

    def league_versions(self) -> list[dict[str, Any]]:
        """Every version the league entered, in the order it entered them."""
        return [dict(row) for row in self.db["league_versions"].rows_where(order_by="entered_at, version")]

    def add_league_version(self, row: dict[str, Any]) -> None:
        with self.db.conn:
            self.db.table("league_versions").insert(row, pk="version", replace=True)

    def retire_league_version(self, version: str, why: str) -> None:
        with self.db.conn:
            self.db.execute("UPDATE league_versions SET retired_at = ?, retired_why = ? "
                            "WHERE version = ? AND retired_at IS NULL", [time.time(), why, version])

    def league_units(self) -> list[dict[str, Any]]:
        """Every unit the league chose, by number."""
        return [dict(row) for row in self.db["league_units"].rows_where(order_by="number")]

    def add_league_unit(self, row: dict[str, Any]) -> None:
        with self.db.conn:
            self.db.table("league_units").insert(row, pk="number")

    def finish_league_unit(self, number: int) -> None:
        with self.db.conn:
            self.db.execute("UPDATE league_units SET done_at = ? WHERE number = ?", [time.time(), number])

    def league_tests(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self.db["league_tests"].rows_where(order_by="version")]

    def put_league_test(self, row: dict[str, Any]) -> None:
        with self.db.conn:
            self.db.table("league_tests").insert(row, pk="version", replace=True)

    def dice_key(self) -> DiceKey | None:
        """The dice key stored here, or None (a new database, or one from
        before arena kept one)."""
        row = self.db.execute("SELECT secret, seed FROM dice_key WHERE id = 1").fetchone()
        return None if row is None else DiceKey(bytes.fromhex(row[0]), row[1])

    def count_games(self) -> int:
        count: int = self.db.execute("SELECT count(*) FROM games").fetchone()[0]
        return count

    def stored_keys(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT key FROM games")}

    def bots(self) -> dict[str, dict[str, Any]]:
        return {row["bot_id"]: row for row in self.db["bots"].rows}

    def games(self, game: str | None = None, solo: bool | None = None) -> Iterator[StoredGame]:
        """Stored games without their event records, in rating order: all of
        them, or those of one game, or only solo (or only multi-seat) ones.
        Referee failures are no games of the bots (``referee_failures``
        lists them), so everything computed from here leaves them out."""
        conditions, params = [NO_REFEREE_FAILURE], []
        if game is not None:
            conditions.append("game = ?")
            params.append(game)
        if solo is not None:
            conditions.append("players = 1" if solo else "players > 1")
        sql = f"SELECT {_STORED_SELECT} FROM games"
        if conditions:
            sql += " WHERE " + " AND ".join(conditions)
        sql += f" ORDER BY {RATING_ORDER}"
        for row in self.db.execute(sql, params):
            yield _stored_game(dict(zip(_STORED_COLUMNS, row)))

    def games_since(self, games_rowid: int) -> Iterator[StoredGame]:
        """The multi-seat games stored after the game at ``games_rowid``
        (referee failures left out, as by :meth:`games`), in rating order."""
        sql = (f"SELECT {_STORED_SELECT} FROM games WHERE rowid > ? AND players > 1 "
               f"AND {NO_REFEREE_FAILURE} ORDER BY {RATING_ORDER}")
        for row in self.db.execute(sql, [games_rowid]):
            yield _stored_game(dict(zip(_STORED_COLUMNS, row)))

    def games_on_seed_before(self, game: str, seed: int, seats: tuple[str, ...], games_rowid: int,
                             order: tuple[Any, ...]) -> Iterator[StoredGame]:
        """The two-seat games of ``game`` on ``seed`` between the bots of
        ``seats`` stored up to the game at ``games_rowid`` that come before
        ``order`` in rating order (referee failures left out), in rating
        order: a game's possible seat-swapped partners among those rated
        before it."""
        sql = (f"SELECT {_STORED_SELECT} FROM games WHERE {_OF_UNIT.format(rowid='<=')} AND ({RATING_ORDER}) "
               f"< (?, ?, ?) AND players = 2 AND {NO_REFEREE_FAILURE} ORDER BY {RATING_ORDER}")
        for row in self.db.execute(sql, [*_unit_parameters(game, seed, seats, games_rowid), *order]):
            yield _stored_game(dict(zip(_STORED_COLUMNS, row)))

    def last_stored(self) -> tuple[int, str | None]:
        """The rowid and key of the game stored last (0 and None for none)."""
        row = self.db.execute("SELECT rowid, key FROM games ORDER BY rowid DESC LIMIT 1").fetchone()
        return (0, None) if row is None else (row[0], row[1])

    def rating_state(self, version: str) -> RatingState | None:
        """The saved tally of the ratings cache, if it may be gone on from:
        made by the same rating code (``version``) on the same schema, and
        still counting the games it counted (the triggers of migration 13
        drop it otherwise; the game at its rowid is checked as well, and
        that the triggers are there). None means: rate every game again."""
        triggers = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        if not set(_STATE_TRIGGERS) <= triggers:
            return None
        row = self.db.execute("SELECT version, schema_version, games_rowid, last_key, last_order, tally "
                              "FROM rating_state WHERE id = 1").fetchone()
        if row is None or row[0] != version or row[1] != SCHEMA_VERSION:
            return None
        stored = self.db.execute("SELECT key FROM games WHERE rowid = ?", [row[2]]).fetchone()
        if (stored[0] if stored else None) != row[3]:
            return None
        last_order = json.loads(row[4])
        return RatingState(version, row[2], row[3], None if last_order is None else tuple(last_order), row[5])

    def placements(self, keys: list[str]) -> dict[str, results.Placements]:
        """The placements of those of these games that are stored, by key."""
        marks = ", ".join("?" * len(keys))
        return {key: tuple(json.loads(placements)) for key, placements in
                self.db.execute(f"SELECT key, placements FROM games WHERE key IN ({marks}) "
                                f"AND {NO_REFEREE_FAILURE}", keys)}

    def referee_failures(self) -> list[tuple[str, tuple[str, ...], str]]:
        """The games the referee could not play: key, seats (bot ids) and
        why, in plan order."""
        # The condition as the index's (_found_at_once_v16), to use it.
        rows = self.db.execute(f"SELECT key, seats, detail FROM games WHERE {REFEREE_FAILURE} ORDER BY {RATING_ORDER}")
        return [(key, _tuple(seats), detail) for key, seats, detail in rows]

    def record(self, key: str) -> tuple[list[StoredEvent], str | None]:
        """A game's events as stored (``arena.model.stored_events``) and the
        digest of the actions offered (None for a game stored without
        events); arena.games.events' full_events makes it whole."""
        row = self.db.execute("SELECT record, replay, offered FROM games WHERE key = ?", [key]).fetchone()
        if row is None:
            raise StoreError(f"no game with key {key!r}")
        return _events(row[0], row[1]) or [], row[2]

    def record_texts(self, key: str) -> RecordTexts:
        """A game's record and decision times as JSON text: what a replay the
        page makes from the record holds (``arena.games.replays.record_replay``),
        the decision times as stored and the events each decision without
        its action (the page takes it among the engine's offered actions),
        made by SQLite's JSON functions, not parsed and written again in
        Python (twice the time: minutes for a million games). The events
        come in the order of the record, as SQLite's one scan of it gives
        them; the page would show a problem where they did not replay."""
        row = self.db.execute("SELECT (SELECT json_group_array(json_remove(value, '$.action')) "
                              "FROM json_each(arena_events(record, replay))), offered, move_timeout, "
                              "arena_json(decision_times) FROM games WHERE key = ?", [key]).fetchone()
        if row is None:
            raise StoreError(f"no game with key {key!r}")
        return RecordTexts(row[0], row[1], row[2], row[3] or "[]")

    def luck(self, key: str) -> dict[str, Any] | None:
        """The luck of a game's dice as stored with it (``_luck_v12``), or None."""
        row = self.db.execute("SELECT luck FROM games WHERE key = ?", [key]).fetchone()
        if row is None:
            raise StoreError(f"no game with key {key!r}")
        return None if row[0] is None else dict(json.loads(zlib.decompress(row[0])))

    def replay_luck(self, key: str) -> str | None:
        """The luck of a game's dice as its replay draws it: the stored luck
        as JSON text (compact, as ``json.dumps`` with ``separators=(",", ":")``
        and ``ensure_ascii=False`` writes it) where it holds totals (where it
        was measured), else None. Luck as ``add_luck`` stores it is that text
        compressed (SQLite checks that it is valid and compact, this that it
        has no escape): it is not parsed and written again, which a million
        games' rolls take minutes for."""
        row = self.db.execute("SELECT luck, CASE WHEN json_valid(luck) THEN json_type(luck, '$.totals') IS NOT NULL "
                              "AND json(luck) = luck END FROM (SELECT arena_json(luck) AS luck FROM games "
                              "WHERE key = ?)", [key]).fetchone()
        if row is None:
            raise StoreError(f"no game with key {key!r}")
        text, compact_with_totals = row
        if compact_with_totals and text.isascii() and "\\" not in text:
            return str(text)
        luck = None if text is None else json.loads(text)
        if not isinstance(luck, dict) or "totals" not in luck:
            return None
        return json.dumps(luck, separators=(",", ":"), ensure_ascii=False)

    def unmeasured_luck(self) -> list[str]:
        """The keys of the games whose luck is not stored yet, in plan order
        (games between bots: a referee failure has no result, a solo game
        no opponent for luck to favour)."""
        return [key for (key,) in self.db.execute(
            f"SELECT key FROM games WHERE luck IS NULL AND players > 1 AND {NO_REFEREE_FAILURE} "
            "ORDER BY job_order, key")]

    def decision_times(self, key: str) -> DecisionTimes:
        row = self.db.execute("SELECT move_timeout, decision_times FROM games WHERE key = ?", [key]).fetchone()
        if row is None:
            raise StoreError(f"no game with key {key!r}")
        return DecisionTimes(row[0], tuple(json.loads(zlib.decompress(row[1]))) if row[1] is not None else ())

    def replay(self, key: str, replay_format: int) -> str | None:
        """The game's replay payload as stored with it (base64, as the page
        embeds it), or None where none was stored in this format."""
        row = self.db.execute("SELECT replay, replay_format FROM games WHERE key = ?", [key]).fetchone()
        if row is None:
            raise StoreError(f"no game with key {key!r}")
        return None if row[0] is None or row[1] != replay_format else base64.b64encode(row[0]).decode("ascii")

    def game(self, key: str) -> StoredGame:
        """One stored game, without its events."""
        row = self.db.execute(f"SELECT {_STORED_SELECT} FROM games WHERE key = ?", [key]).fetchone()
        if row is None:
            raise StoreError(f"no game with key {key!r}")
        return _stored_game(dict(zip(_STORED_COLUMNS, row)))

    def stored_games(self, games_rowid: int = 0) -> Iterator[tuple[int, StoredGame]]:
        """The games stored after the game at ``games_rowid`` (every game
        for 0; referee failures left out, as by :meth:`games`), with their
        rowids, in the order they were stored: the order they finished
        (``finished_at`` is the time a game is stored), which the site
        numbers them in."""
        sql = f"SELECT rowid, {_STORED_SELECT} FROM games WHERE rowid > ? AND {NO_REFEREE_FAILURE} ORDER BY rowid"
        for row in self.db.execute(sql, [games_rowid]):
            yield row[0], _stored_game(dict(zip(_STORED_COLUMNS, row[1:])))

    def games_of_unit(self, game: str, seed: int, seats: tuple[str, ...], games_rowid: int) -> Iterator[StoredGame]:
        """The games of ``game`` on ``seed`` among the bots of ``seats`` (no
        other bot seated) stored before the game at ``games_rowid`` (referee
        failures left out), in the order they were stored: a game's unit of
        luck (arena.stats.luck) among them."""
        sql = (f"SELECT {_STORED_SELECT} FROM games WHERE {_OF_UNIT.format(rowid='<')} AND {NO_REFEREE_FAILURE} "
               "ORDER BY rowid")
        for row in self.db.execute(sql, _unit_parameters(game, seed, seats, games_rowid)):
            yield _stored_game(dict(zip(_STORED_COLUMNS, row)))

    def key_at(self, games_rowid: int) -> str | None:
        """The key of the game at this rowid, None where none is."""
        row = self.db.execute("SELECT key FROM games WHERE rowid = ?", [games_rowid]).fetchone()
        return None if row is None else str(row[0])

    def schema_version(self) -> int:
        return int(self._meta().get("schema_version", "0"))

    def game_changes(self) -> int:
        """How many times a stored game was deleted, changed or inserted below
        another (``_game_changes_v15``): the site goes on from its tally
        only while this stays as it was."""
        changes: int = self.db.execute("SELECT changes FROM game_changes WHERE id = 1").fetchone()[0]
        return changes

    def luck_stored(self, keys: list[str]) -> list[str]:
        """Those of these games whose luck is stored now."""
        found: list[str] = []
        for start in range(0, len(keys), 500):
            batch = keys[start:start + 500]
            found += [key for (key,) in self.db.execute(
                f"SELECT key FROM games WHERE key IN ({', '.join('?' * len(batch))}) AND luck IS NOT NULL", batch)]
        return found


REFEREE_FAILURE = f"termination = '{Termination.REFEREE_FAILURE.value}'"
NO_REFEREE_FAILURE = f"termination != '{Termination.REFEREE_FAILURE.value}'"
RATING_ORDER = "plan, job_order, key"  # plans as first run, each in its own order (see _rating_state_v13)
_STORED_COLUMNS = ("key", "game", "round", "job_order", "seed", "seats", "options", "placements",
                   "termination", "forfeits", "scores", "decisions", "duration", "logs", "finished_at", "plan",
                   "luck")
# The luck totals only, not every roll's (SQLite reads them out of the JSON).
_STORED_SELECT = ", ".join(_STORED_COLUMNS[:-1]) + ", json_extract(arena_json(luck), '$.totals')"


class RatingsWriter:
    """Writes the ratings cache inside :meth:`Store.rewriting_ratings`'s
    transaction: the rating history's rows, a batch at a time, then the
    rows (which replace those stored) and the tally they come from."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db

    def clear_history(self) -> None:
        """The history is rated again from the first game: the rows stored go."""
        self.db.execute("DELETE FROM rating_history")

    def add_history(self, history: list[tuple[str, str, int, str, int | None, float]]) -> None:
        """History rows: (table, bot id, the table's game number, that game's
        key, the table's player count (None for overall), Elo after it)."""
        self.db.conn.executemany(
            "INSERT INTO rating_history (table_name, bot_id, game_number, game_key, players, elo) "
            "VALUES (?, ?, ?, ?, ?, ?)", history)

    def write(self, rows: Iterable[Mapping[str, Any]], state: RatingState) -> None:
        """The rows of the standings (as JSON), replacing those stored, and the tally."""
        columns = self.db.table("ratings").columns_dict
        self.db.execute("DELETE FROM ratings")
        self.db.table("ratings").insert_all(
            [{name: value for name, value in row.items() if name in columns} for row in rows])
        self.db.table("rating_state").upsert(
            {"id": 1, "version": state.version, "schema_version": SCHEMA_VERSION, "games_rowid": state.games_rowid,
             "last_key": state.last_key, "last_order": json.dumps(state.last_order), "tally": state.tally},
            pk="id")


# The games of a game on a seed stored before a rowid, none of whose seats is
# held by a bot other than the given ones (_unit_parameters): found in the
# index of units (_found_at_once_v16) alone, so that only their rows are read.
_OF_UNIT = ("rowid IN (SELECT rowid FROM games WHERE seed = ? AND game = ? AND rowid {rowid} ? AND NOT EXISTS "
            "(SELECT 1 FROM json_each(games.seats) WHERE json_each.value NOT IN (SELECT value FROM json_each(?))))")


def _unit_parameters(game: str, seed: int, seats: tuple[str, ...], games_rowid: int) -> list[Any]:
    return [seed, game, games_rowid, json.dumps(sorted(set(seats)))]


@dataclass(frozen=True)
class RatingState:
    """A saved tally of the ratings (arena.stats.standings.Tally as JSON
    text) and what it counts: every game stored up to ``games_rowid``
    (whose key is ``last_key``), the last of them in rating order
    ``last_order`` (plan, job_order, key; None for no game rated), made by
    rating code ``version``."""

    version: str
    games_rowid: int
    last_key: str | None
    last_order: tuple[Any, ...] | None
    tally: str


def _stored_game(row: dict[str, Any]) -> StoredGame:
    """A games row as a StoredGame: the JSON columns decoded here, once."""
    scores = row["scores"]
    return StoredGame(
        key=row["key"], game=row["game"], round=row["round"], job_order=row["job_order"], seed=row["seed"],
        seats=_tuple(row["seats"]), options=json.loads(row["options"]),
        placements=_tuple(row["placements"]), termination=Termination(row["termination"]),
        forfeits=_forfeits(row["forfeits"]), scores=_tuple(scores) if scores is not None else None,
        decisions=row["decisions"], duration=row["duration"], logs=_tuple(row["logs"]),
        finished_at=row["finished_at"], plan=row["plan"],
        luck=None if row["luck"] is None else tuple(json.loads(row["luck"])))


# The same seats, placements, logs and forfeits come back in many games (a
# site build reads every game): each text is decoded once. Their values are
# immutable, so games may share them; options (a dict) are decoded per game.
@functools.lru_cache(maxsize=1 << 16)
def _tuple(text: str) -> tuple[Any, ...]:
    return tuple(json.loads(text))


@functools.lru_cache(maxsize=1 << 12)
def _forfeits(text: str) -> tuple[Forfeit, ...]:
    return tuple(Forfeit.from_json(forfeit) for forfeit in json.loads(text))


def _take_lock(path: Path) -> IO[str]:
    lock_path = path.with_name(path.name + ".lock")
    handle = os.fdopen(os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600), "a+")
    try:
        # lockf, not flock: a POSIX lock belongs to this process alone, so forked
        # workers do not hold it on after the writer is gone.
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StoreInUse(f"{str(path)!r} is in use by another arena process "
                         f"(lock {str(lock_path)!r}); wait for it to finish") from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle
