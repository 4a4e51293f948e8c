"""The rating tables: a game at a player count, or everything together."""

from __future__ import annotations

OVERALL = "overall"


def table_name(game: str, players: int) -> str:
    """The table a game at a player count is rated in: the game's name for
    two players (as tables always were), ``game/Np`` for more."""
    return game if players == 2 else f"{game}/{players}p"


def table_parts(table: str) -> tuple[str, int | None]:
    """The game and player count of a table (``overall``: no count)."""
    if table == OVERALL:
        return OVERALL, None
    game, _, count = table.partition("/")
    return game, int(count[:-1]) if count else 2
