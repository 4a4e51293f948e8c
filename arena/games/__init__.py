"""The registry of games: every ``GameSpec`` registered under the
``arena.games`` entry point group, arena's own four (pyproject.toml) and any
installed distribution's alike.

The entry points are loaded on first use, once. A plug-in that fails to
load (an import error, not a GameSpec, registered under another name than
its game's) is left out with one line on stderr saying which and why, and
stays listed by ``broken_plugins()`` (``arena games`` shows it): it never breaks the
other games, and it is never silently gone.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points

from arena.errors import ArenaError
from arena.games.base import Game
from arena.games.spec import GameSpec

GROUP = "arena.games"


@functools.cache
def _load() -> tuple[dict[str, GameSpec], dict[str, str]]:
    """(specs by name, why each broken plug-in was left out), in name order."""
    specs: dict[str, GameSpec] = {}
    broken: dict[str, str] = {}
    for entry in sorted(entry_points(group=GROUP), key=lambda entry: (entry.name, entry.value)):
        try:
            spec = entry.load()
        except Exception as exc:  # a plug-in's import may fail any way at all
            broken[entry.name] = f"{entry.value} does not load: {type(exc).__name__}: {exc}"
        else:
            if not isinstance(spec, GameSpec):
                broken[entry.name] = f"{entry.value} is a {type(spec).__name__}, not a GameSpec"
            elif spec.name != entry.name:
                broken[entry.name] = f"{entry.value} is the game {spec.name!r}, registered as {entry.name!r}"
            elif entry.name in specs and specs[entry.name] is not spec:
                broken[entry.name] = f"{entry.value} is a second game registered as {entry.name!r}"
            else:
                specs[entry.name] = spec
        if entry.name in broken:
            print(f"arena: game plug-in {entry.name!r} left out: {broken[entry.name]}", file=sys.stderr)
    return specs, broken


class _Registered(Mapping[str, GameSpec]):
    """The registered games' specs by name, loaded on first use."""

    def __getitem__(self, name: str) -> GameSpec:
        return _load()[0][name]

    def __iter__(self) -> Iterator[str]:
        return iter(_load()[0])

    def __len__(self) -> int:
        return len(_load()[0])


class _Games(Mapping[str, Game]):
    """The registered games' engines by name, loaded on first use."""

    def __getitem__(self, name: str) -> Game:
        return _load()[0][name].game

    def __iter__(self) -> Iterator[str]:
        return iter(_load()[0])

    def __len__(self) -> int:
        return len(_load()[0])


SPECS: Mapping[str, GameSpec] = _Registered()
GAMES: Mapping[str, Game] = _Games()


def broken_plugins() -> dict[str, str]:
    """The plug-ins left out, by entry point name: why each did not load."""
    return dict(_load()[1])


def get_spec(name: str) -> GameSpec:
    try:
        return SPECS[name]
    except KeyError:
        raise ArenaError(f"unknown game: {name!r} (available: {', '.join(sorted(SPECS))})") from None


def get_game(name: str) -> Game:
    return get_spec(name).game
