"""Every registered game as an environment for learning, and a policy back
as a bot (docs/how-to/learn.md).

* ``env(game, players=N, options=None)``: the PettingZoo AEC environment,
  wrapped as PettingZoo's classic games are; ``raw_env`` unwrapped
  (arena/env/aec.py says what it observes, rewards and rolls).
* ``SingleAgentEnv(game, ...)``: a Gymnasium environment playing one seat
  against house bots or any policies in the others (arena/env/single.py).
* ``serve_policy(policy)``: a bot process from any ``policy(observation,
  mask) -> action index`` (arena/env/serve.py).

PettingZoo and Gymnasium are the optional extra ``arena[learn]``; they are
imported only when an environment is made, so ``serve_policy`` needs only
numpy inside a bot's box.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.env.serve import serve_policy

if TYPE_CHECKING:
    from arena.env.aec import ArenaEnv
    from arena.games.spec import GameSpec

__all__ = ["SingleAgentEnv", "env", "raw_env", "serve_policy"]


def env(game: str | GameSpec, players: int = 2, options: dict[str, Any] | None = None,
        render_mode: str | None = None) -> Any:
    """``game``'s AEC environment at ``players`` seats, wrapped as PettingZoo's
    classic games are; ValueError for a count or option set it cannot seat."""
    _check_learn()
    from arena.env.factory import env as make

    return make(game, players, options, render_mode)


def raw_env(game: str | GameSpec, players: int = 2, options: dict[str, Any] | None = None,
            render_mode: str | None = None) -> ArenaEnv:
    """``env`` without PettingZoo's wrappers."""
    _check_learn()
    from arena.env.factory import raw_env as make

    return make(game, players, options, render_mode)


def _check_learn() -> None:
    """One line instead of a traceback when the learn extra is missing."""
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"the environments need PettingZoo and Gymnasium, the extra arena[learn] "
                          f"(pip install 'dice-arena[learn]'): {exc}") from None


def __getattr__(name: str) -> Any:
    if name == "SingleAgentEnv":
        _check_learn()
        from arena.env.single import SingleAgentEnv

        return SingleAgentEnv
    raise AttributeError(f"module 'arena.env' has no attribute {name!r}")
