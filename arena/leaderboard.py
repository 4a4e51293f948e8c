"""The leaderboard site, generated from the store as static files."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import jinja2

from arena.ratings import OVERALL, standings
from arena.store import Store

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("arena", "templates"),
                          autoescape=True, undefined=jinja2.StrictUndefined)


def write_atomically(path: Path, text: str) -> None:
    """Write a file so that a reader sees the old page or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def solo_table(store: Store) -> list[dict]:
    """Each bot's average and best score in solo play, per game (lower is better)."""
    rows: dict[tuple[str, str], list[float]] = {}
    for game in store.games("players = 1 AND scores IS NOT NULL"):
        rows.setdefault((game["game"], game["seats"][0]), []).append(game["scores"][0])
    names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
    return [{"game": game, "bot": names.get(bot_id, bot_id), "bot_id": bot_id, "games": len(scores),
             "average": sum(scores) / len(scores), "best": min(scores)}
            for (game, bot_id), scores in sorted(rows.items())]


def build(store: Store, out_dir: Path) -> Path:
    names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
    rows = standings(store.games("players > 1"), names)
    tables: dict[str, list] = {}
    for row in rows:
        tables.setdefault(row.game, []).append(row)
    order = [t for t in tables if t != OVERALL] + ([OVERALL] if OVERALL in tables else [])
    page = _ENV.get_template("index.html").render(
        tables=[(name, tables[name]) for name in order], solo=solo_table(store),
        total=store.count_games())
    index = out_dir / "index.html"
    write_atomically(index, page)
    return index
