"""Where things go on the site: game addresses, chunk files and bot folders.

A game is known on the site by its number (1 for the first game to finish,
as the games list counts them); its replay is one page for all games
(``replay.html#game=N``) that reads the game from the chunk file of its
number. Nothing a bot chose reaches a path as it is: bot folders are named
by the safe characters of the name and a hash of all of it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from arena.stats.tables import table_parts

REPLAYS_PER_CHUNK = 1000  # games per replay chunk (data/replays/<chunk>.js)
ROWS_PER_CHUNK = 5000  # games per games-list chunk (data/list/<chunk>.js)


def replay_address(number: int) -> str:
    """A game's replay, relative to the site's root (static/games.js makes
    the same address, static/replay-page.js reads it)."""
    return f"replay.html#game={number}"


def old_game_id(key: str) -> str:
    """The name an older arena gave a game's page (games/<xx>/<id>.html):
    its links are redirected to the game's replay."""
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def replay_chunk(number: int) -> int:
    """The replay chunk holding game ``number`` (from 1): games 1 to 1000
    are chunk 0, so new games land in the last chunk or a new one."""
    return (number - 1) // REPLAYS_PER_CHUNK  # static/replay-page.js finds it alike


def replay_chunk_path(chunk: int) -> str:
    return f"data/replays/{chunk}.js"


def list_chunk_path(chunk: int) -> str:
    return f"data/list/{chunk}.js"


def slug(name: str) -> str:
    """A file name for a bot name: its safe characters and a hash of the
    whole name, so two names never share a folder (even on a file system
    that ignores case) and nothing a bot picked reaches the path as is."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")[:40] or "bot"
    return f"{safe}-{hashlib.sha1(name.encode()).hexdigest()[:8]}"


def table_page(table: str) -> str:
    """The page of a rating table (``game``, ``game/3p``, ``overall``),
    relative to the site's root: one folder deep, whatever the table."""
    return f"tables/{table.replace('/', '-')}.html"


def table_title(table: str) -> str:
    """A table's name for people: ``game`` is "Game", ``game/3p`` "Game, 3
    players", ``overall`` "Overall"."""
    game, players = table_parts(table)
    return game.capitalize() + (f", {players} players" if players not in (None, 2) else "")


def version_of(bot_id: str) -> str:
    """The version part of a bot id, for a bot the bots table lacks."""
    return bot_id.rsplit("@", 1)[-1] if "@" in bot_id else "unknown"


@dataclass(frozen=True)
class BotInfo:
    """A bot version as the site names it and where its pages are."""

    bot_id: str
    name: str
    version: str  # the first 12 hex digits of the content hash

    @property
    def folder(self) -> str:
        return f"bots/{slug(self.name)}"

    @property
    def page(self) -> str:
        return f"{self.folder}/{self.version}.html"

    @property
    def name_page(self) -> str:
        return f"{self.folder}/index.html"
