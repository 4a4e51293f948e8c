"""Arena's sqlite-utils plugin (entry point ``sqlite_utils``): the SQL
functions ``arena_json`` and ``arena_events`` on every connection
sqlite-utils opens, so that ``sqlite-utils query arena.db "select * from
moves where game_key = ..."`` reads the compressed games."""

from __future__ import annotations

import sqlite3

from sqlite_utils import hookimpl

from arena.store import register_functions


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    register_functions(conn)
