"""Where things go on the site: names of game pages and bot folders.

Nothing a bot chose reaches a path as it is: game pages are named by a hash
of the game's key and bot folders by the safe characters of the name and a
hash of all of it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from arena.stats.tables import table_parts


def game_id(key: str) -> str:
    """A game's page name: stable, short, safe whatever the key holds."""
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def game_path(key: str) -> str:
    return page_of_game_id(game_id(key))


def page_of_game_id(gid: str) -> str:
    """A game's page from its page name (``game_id``), as static/games.js finds it."""
    return f"games/{gid[:2]}/{gid}.html"


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
