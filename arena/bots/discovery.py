"""Finding bots in bots folders.

A bot is one of: a ``.py`` file (run with the referee's Python), a ``.js``
file (run with node), any other executable file, or a folder holding a
``bot.json`` manifest that names its command. Its name is the file's stem or
the folder's name; its version is the SHA-256 of its files' contents, so an
edited bot is a new version. A folder whose manifest cannot be read is an
unusable bot, listed with its reason, and never stops the others.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import ArenaError
from arena.model import BotSpec

log = logging.getLogger(__name__)

MANIFEST = "bot.json"
_IGNORED_SUFFIXES = {".md", ".txt", ".json", ".pyc", ".log"}


@dataclass(frozen=True)
class Unusable:
    """A bot found in a bots folder that cannot be started: a folder bot
    whose manifest is broken, an entry that cannot be read (a dangling
    link, a FIFO, what this user may not read; its content hash empty).
    Listed (``arena bots``), never played."""

    name: str
    path: str
    content_hash: str
    problem: str


@dataclass(frozen=True)
class Found:
    """What the bots folders hold: the bots that can be started, sorted by
    name, and those that cannot, with why."""

    bots: list[BotSpec]
    unusable: list[Unusable] = field(default_factory=list)


def find_every_bot(folders: Sequence[str | Path]) -> Found:
    """Every bot in the given folders, usable or not. Raises ArenaError for
    a missing folder, no bot at all or two bots with one name."""
    found: dict[str, BotSpec | Unusable] = {}
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            raise ArenaError(f"bots folder does not exist: {str(folder)!r}")
        before = len(found)
        for entry in sorted(folder.iterdir()):
            bot = _bot_at(entry)
            if bot is None:
                if reason := _not_a_bot(entry):
                    log.warning("skipping %s: %s", entry, reason)
                continue
            if bot.name in found:
                raise ArenaError(f"two bots are named {bot.name!r}: {found[bot.name].path} and {bot.path}")
            found[bot.name] = bot
        if len(found) == before and len(folders) > 1:
            log.warning("skipping %s: no bots in it", folder)
    if not found:
        raise ArenaError(f"no bots found in {', '.join(map(str, folders))}")
    ordered = sorted(found.values(), key=lambda bot: bot.name)
    return Found([bot for bot in ordered if isinstance(bot, BotSpec)],
                 [bot for bot in ordered if isinstance(bot, Unusable)])


def discover(folders: Sequence[str | Path]) -> list[BotSpec]:
    """The bots that can be started, sorted by name; each unusable one is
    named on the log with why (a warning: ``arena`` prints it). Raises
    ArenaError as ``find_every_bot`` does, and when no bot is usable."""
    found = find_every_bot(folders)
    for bot in found.unusable:
        log.warning("skipping %s: %s", bot.name, bot.problem)
    if not found.bots:
        raise ArenaError(f"no usable bot in {', '.join(map(str, folders))}")
    return found.bots


def named_bots(found: Iterable[BotSpec], names: Sequence[str]) -> list[BotSpec]:
    """The bots called ``names``, in that order, among those found; a name
    that no bot has is an error that lists the names there are."""
    by_name = {spec.name: spec for spec in found}
    for name in names:
        if name not in by_name:
            raise ArenaError(f"unknown bot: {name!r} (available: {', '.join(sorted(by_name))})")
    return [by_name[name] for name in names]


def _not_a_bot(entry: Path) -> str | None:
    """Why a file a person may have meant as a bot is not one (None for
    what is plainly not meant: hidden or private names, documents)."""
    if entry.name.startswith((".", "_")) or entry.suffix in _IGNORED_SUFFIXES:
        return None
    if entry.is_dir():
        return f"a folder without {MANIFEST} (a folder bot needs one naming its command)"
    return "not executable (chmod +x it, or name it .py or .js)"


def _unreadable(entry: Path) -> str | None:
    """Why an entry that may be a bot cannot be read, without opening it
    (a FIFO would block): a link to nothing, what is neither a file nor a
    folder, what this user may not read. None when it can be read."""
    try:
        mode = entry.stat().st_mode
    except FileNotFoundError:
        if not entry.is_symlink():
            return f"{entry} went away as it was read"
        return (f"{entry} is a link to a missing file ({os.readlink(entry)}); copy a bots folder with "
                "cp -rL, which copies the files its links point to")
    except OSError as exc:  # a link into a folder this user may not enter, a loop of links
        why = (exc.strerror or str(exc)).lower()
        if entry.is_symlink():
            return f"{entry} is a link to {os.readlink(entry)}, which this user cannot reach ({why})"
        return f"{entry} cannot be looked at ({why})"
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        return f"{entry} is {kind}, neither a file nor a folder"
    if not os.access(entry, os.R_OK | (os.X_OK if stat.S_ISDIR(mode) else 0)):
        return f"{entry} cannot be read by this user (permission denied)"
    return None


def _bot_at(entry: Path) -> BotSpec | Unusable | None:
    if entry.name.startswith((".", "_")) or (entry.suffix in _IGNORED_SUFFIXES and not entry.is_dir()):
        return None
    if (problem := _unreadable(entry)) is not None:
        return Unusable(entry.stem, str(entry), "", problem)
    try:
        return _readable_bot_at(entry)
    except OSError as exc:  # a file of a folder bot it may not read, one that went as it was read
        return Unusable(entry.stem, str(entry), "", f"{exc.filename} cannot be read ({exc.strerror})")


def _readable_bot_at(entry: Path) -> BotSpec | Unusable | None:
    if entry.is_dir():
        manifest = entry / MANIFEST
        return _folder_bot(entry, manifest) if manifest.is_file() else None
    command: tuple[str, ...]
    if entry.suffix == ".py":
        command = (sys.executable, str(entry.resolve()))
    elif entry.suffix == ".js":
        command = ("node", str(entry.resolve()))
    elif entry.suffix not in _IGNORED_SUFFIXES and os.access(entry, os.X_OK):
        command = (str(entry.resolve()),)
    else:
        return None
    return BotSpec(entry.stem, command, str(entry.resolve()), content_hash(entry))


def _folder_bot(folder: Path, manifest: Path) -> BotSpec | Unusable:
    root = folder.resolve()
    try:
        data = json.loads(manifest.read_text())
        if not isinstance(data, dict):
            raise ValueError(f"expected a JSON object, got {type(data).__name__}")
        if "command" not in data:
            raise ValueError('no "command" in it')
        command = data["command"]
        if not (isinstance(command, list) and command and all(isinstance(p, str) for p in command)):
            raise ValueError(f'"command" must be a non-empty list of strings, got {command!r}')
    except (OSError, ValueError) as exc:
        return Unusable(folder.name, str(root), content_hash(folder), f"bad manifest {MANIFEST}: {exc}")
    resolved = tuple(str(root / part) if (root / part).exists() else part for part in command)
    return BotSpec(folder.name, resolved, str(root), content_hash(folder))


def bot_files(path: Path) -> list[Path]:
    """The files that make the bot at ``path``: the file itself, or every
    file of a folder bot (compiled caches left out), in a fixed order."""
    if not path.is_dir():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def content_hash(path: Path) -> str:
    """A bot's version: SHA-256 over its files' contents (and, for a folder
    bot, their paths relative to the folder). Wherever the files are copied,
    the same files give the same hash."""
    folder = path.is_dir()
    digest = hashlib.sha256()
    for file in bot_files(path):
        if folder:
            digest.update(str(file.relative_to(path)).encode() + b"\0")
        digest.update(file.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()
