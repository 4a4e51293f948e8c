"""The results database for other tools: Datasette and sqlite-utils.

``metadata.json`` describes every table, view and column, in Datasette's
metadata format, for a database named ``arena`` (the file ``arena.db``:
``datasette arena.db -m metadata.json`` works without arena installed).
With arena installed, its plugins do more, for a file of any name:
:mod:`arena.sql.datasette_plugin` serves these descriptions for every
arena database Datasette opens, and it and :mod:`arena.sql.sqlite_utils_plugin`
give every connection the SQL functions ``arena_json`` and ``arena_events``,
which the views ``events`` and ``moves`` read the compressed games with.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import urllib.parse
from importlib.resources import files
from pathlib import Path
from typing import Any

from arena.store import APPLICATION

METADATA = Path(str(files(__name__) / "metadata.json"))


@functools.cache
def tables_metadata() -> dict[str, Any]:
    """metadata.json's description of an arena database (its ``arena`` entry)."""
    described: dict[str, Any] = json.loads(METADATA.read_text())["databases"]["arena"]
    return described


@functools.cache
def is_arena_database(path: str) -> bool:
    """Whether the SQLite file at ``path`` is arena's (read-only; a file
    that cannot be read is not)."""
    try:
        conn = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'application'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == APPLICATION
