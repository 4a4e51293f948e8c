"""The files arena ships inside its package: templates, static files, the
site's schema and the bundled bots, found through ``importlib.resources``
so that an installed wheel finds them as a checkout does.

arena runs from files on disk, never from a zip: a bot's box binds arena's
package folder and the bot's own file read-only, so every resource is
handed out as a real path.
"""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path

from arena.errors import ArenaError

BOTS_FOLDER = Path("bots")  # where a user's bots are, relative to where arena runs


def package_path(package: str, *parts: str) -> Path:
    """A file or folder shipped in ``package`` (a dotted name), as a path."""
    resource = files(package)
    for part in parts:
        resource = resource / part
    if not isinstance(resource, Path):
        raise ArenaError(f"arena must be installed as files, not in an archive ({package} is in {resource})")
    return resource


def bundled_bots() -> Path:
    """The reference bots arena ships (the checkout's ``bots/`` links to them)."""
    return package_path("arena", "bundled_bots")


def bot_folders(folders: tuple[Path, ...]) -> tuple[Path, ...]:
    """The bots folders to use: those given, except that the default
    ``bots`` falls back to the bundled bots when there is no such folder
    here (a fresh install run from an empty folder), saying so on stderr."""
    if folders == (BOTS_FOLDER,) and not BOTS_FOLDER.is_dir():
        print(f"arena: no ./{BOTS_FOLDER} folder here, so using the bundled bots ({bundled_bots()})",
              file=sys.stderr)
        return (bundled_bots(),)
    return folders
