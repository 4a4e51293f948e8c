"""The games list's fields, as ``schema.json`` names and orders them.

The schema file is the one place the layout of ``data/games.js``, of the
chunk files and of the replay payload is written down. This module reads the field names from it,
so Python writes rows in the schema's order and with the schema's names
(which go into the data file too, for static/games.js to look fields up by
name). A row built with a name the schema lacks, or without one it has,
fails here rather than in a browser.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

SCHEMA: dict[str, Any] = json.loads(files("arena.site").joinpath("schema.json").read_text(encoding="utf-8"))


def fields(definition: str) -> list[str]:
    """The field names of a positional record in ``$defs``, in order."""
    return [item["title"] for item in SCHEMA["$defs"][definition]["prefixItems"]]


GAME_ROW = fields("gameRow")
BOT = fields("bot")


def record(names: list[str], **values: Any) -> list[Any]:
    """A positional record from named values, in the order of ``names``."""
    if values.keys() != set(names):
        missing, extra = sorted(set(names) - values.keys()), sorted(values.keys() - set(names))
        raise ValueError(f"a record needs exactly the schema's fields: missing {missing}, unknown {extra}")
    return [values[name] for name in names]


def games_list(games: list[str], bots: list[list[Any]], total: int, chunk_size: int) -> dict[str, Any]:
    """What data/games.js holds: the field names and what every chunk of
    rows (data/list/<chunk>.js) shares."""
    return {"fields": {"rows": GAME_ROW, "bots": BOT}, "games": games, "bots": bots, "total": total,
            "chunkSize": chunk_size}
