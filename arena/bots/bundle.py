"""Bots without a shared filesystem: a bot packed as a ``BotBundle`` (its
files and a command free of this machine's paths) travels to another
machine, where it is unpacked once per content hash, checked against that
hash, and its command rewritten: a ``.py`` bot run with this Python runs with
that machine's. The Dask executor ships bots this way."""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any

from arena.bots.discovery import bot_files, content_hash
from arena.errors import ArenaError
from arena.model import BotSpec

_PYTHON, _BOT, _ARG = "python", "bot", "arg"


@dataclasses.dataclass(frozen=True)
class BotBundle:
    """A bot's files and its command, free of this machine's paths.

    ``files`` holds (path relative to the bot folder, mode, bytes); a one-file
    bot has one entry named after the file. Each command part is ``(python,
    "")`` for the referee's Python, ``(bot, relative path)`` for a file of the
    bot, or ``(arg, text)`` kept as it is.
    """

    name: str
    content_hash: str
    entry: str
    folder: bool
    files: tuple[tuple[str, int, bytes], ...]
    command: tuple[tuple[str, str], ...]

    @property
    def bot_id(self) -> str:
        return BotSpec(self.name, (), "", self.content_hash).bot_id

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> BotBundle:
        """The bundle from ``dataclasses.asdict``, as it travels."""
        return cls(data["name"], data["content_hash"], data["entry"], data["folder"],
                   tuple((path, mode, content) for path, mode, content in data["files"]),
                   tuple((kind, value) for kind, value in data["command"]))


def pack_bot(spec: BotSpec) -> BotBundle:
    """Read a bot's files; refuse a bot whose files changed since discovery,
    since its content hash, which names its version, would no longer say what
    is played."""
    root = Path(spec.path)
    folder = root.is_dir()
    paths = bot_files(root)
    try:
        digest = content_hash(root)
        files = tuple((str(PurePosixPath(*p.relative_to(root).parts)) if folder else root.name,
                       p.stat().st_mode & 0o777, p.read_bytes()) for p in paths)
    except OSError as exc:
        raise ArenaError(f"cannot read bot {spec.name!r}: {exc}") from None
    if digest != spec.content_hash:
        raise ArenaError(f"bot {spec.name!r} changed since it was checked "
                         f"(content hash {digest[:12]}, expected {spec.content_hash[:12]}): run again")
    command = tuple(_portable(part, spec.path) for part in spec.command)
    return BotBundle(spec.name, spec.content_hash, root.name, folder, files, command)


def _portable(part: str, bot_path: str) -> tuple[str, str]:
    if part == sys.executable:
        return (_PYTHON, "")
    if part == bot_path:
        return (_BOT, "")
    if part.startswith(bot_path.rstrip(os.sep) + os.sep):
        return (_BOT, str(PurePosixPath(*Path(part).relative_to(bot_path).parts)))
    return (_ARG, part)


def unpack_bot(bundle: BotBundle, cache: Path) -> BotSpec:
    """The bot as a spec runnable here: its files under ``cache`` (unpacked
    once per content hash, checked against it) and its command rewritten."""
    home = cache / bundle.content_hash / bundle.entry
    if not home.exists():
        _unpack(bundle, cache, home)
    command = []
    for kind, value in bundle.command:
        if kind == _PYTHON:
            command.append(sys.executable)
        elif kind == _BOT:
            command.append(str(home / safe_relative(value)) if value else str(home))
        else:
            command.append(value)
    return BotSpec(bundle.name, tuple(command), str(home), bundle.content_hash)


def _unpack(bundle: BotBundle, cache: Path, home: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=cache))
    try:
        target = staging / bundle.entry
        for relative, mode, content in bundle.files:
            path = target / safe_relative(relative) if bundle.folder else target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
            path.chmod(mode)
        if bundle.folder:
            for path in [target, *target.rglob("*")]:
                if path.is_dir():
                    path.chmod(0o755)  # whatever the umask: the bot may run as another user
        digest = content_hash(target)
        if digest != bundle.content_hash:
            raise ArenaError(f"bot {bundle.name!r} arrived damaged (content hash {digest[:12]}, "
                             f"expected {bundle.content_hash[:12]})")
        home.parent.mkdir(parents=True, exist_ok=True)
        home.parent.chmod(0o711)
        try:
            os.rename(target, home)
        except OSError:
            if not home.exists():  # else another task unpacked the same bot first
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def safe_relative(relative: str) -> Path:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ArenaError(f"refusing a path outside its folder: {relative!r}")
    return Path(*path.parts)
