"""Arena's Datasette plugin (entry point ``datasette``, installed with
``pip install 'dice-arena[datasette]'``): the SQL functions ``arena_json``
and ``arena_events`` on every connection, and metadata.json's descriptions for every arena
database Datasette serves, whatever its file's name."""

from __future__ import annotations

import sqlite3
from typing import Any

from datasette import hookimpl

from arena.sql import is_arena_database, tables_metadata
from arena.store import register_functions


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    register_functions(conn)


@hookimpl
def get_metadata(datasette: Any) -> dict[str, Any]:
    return {"databases": {name: tables_metadata() for name, database in datasette.databases.items()
                          if database.path is not None and is_arena_database(database.path)}}
