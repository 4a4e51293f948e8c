"""The registry of games. Add a game here explicitly; nothing is discovered."""

from __future__ import annotations

from arena.errors import ArenaError
from arena.games import ciclovia, detour, roundabout, slyyde
from arena.games.base import Game

GAMES: dict[str, Game] = {"ciclovia": ciclovia.GAME, "detour": detour.GAME,
                          "roundabout": roundabout.GAME, "slyyde": slyyde.GAME}


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise ArenaError(f"unknown game: {name!r} (available: {', '.join(sorted(GAMES))})") from None
