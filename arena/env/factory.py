"""The environments' factory, by PettingZoo's classic-games convention:
``raw_env`` is the environment itself, ``env`` the same wrapped as the
classic games are (an illegal action ends the game with -1 for the seat
that made it, an index out of range is refused, and the AEC call order is
enforced)."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from arena.env.aec import ArenaEnv
from arena.errors import ArenaError
from arena.games import get_spec
from arena.games.spec import GameSpec

ILLEGAL_REWARD = -1.0


def spec_of(game: str | GameSpec) -> GameSpec:
    """A registered game by name, or a GameSpec given as it is (a plug-in
    before it is installed); ValueError for a name arena does not have."""
    if isinstance(game, GameSpec):
        return game
    try:
        return get_spec(game)
    except ArenaError as exc:
        raise ValueError(str(exc)) from None


def raw_env(game: str | GameSpec, players: int = 2, options: dict[str, Any] | None = None,
            render_mode: str | None = None) -> ArenaEnv:
    """The AEC environment of ``game`` at ``players`` seats with ``options``;
    ValueError for a count or option set the game cannot seat."""
    return ArenaEnv(spec_of(game), players, options, render_mode)


def env(game: str | GameSpec, players: int = 2, options: dict[str, Any] | None = None,
        render_mode: str | None = None) -> Any:
    """``raw_env`` wrapped as PettingZoo's classic games are."""
    wrapped: Any = wrappers.TerminateIllegalWrapper(raw_env(game, players, options, render_mode),
                                                    illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
