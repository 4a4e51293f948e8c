"""One seat's numbers at one decision: the observation vector, the action
mask and the offered action behind each index. The environments and
``serve_policy`` both read a decision through it, so a policy sees the same
numbers in training as in the arena.

Everything here comes from what the protocol sends a bot: the state's
``to_json()`` and the offered actions (arena/bots/protocol.py, ``decide``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.errors import ArenaError
from arena.games.base import Action, InvalidOptions
from arena.games.encoding import Encoding, Json
from arena.games.spec import GameSpec

Observation = np.ndarray[Any, np.dtype[np.float32]]
Mask = np.ndarray[Any, np.dtype[np.int8]]


def encoding_for(spec: GameSpec, players: int, options: dict[str, Any] | None) -> Encoding:
    """The game's encoding for a table it seats; ValueError (one line)
    for a count or option set it cannot seat, or a game without one."""
    if spec.encoding is None:
        raise ValueError(f"{spec.name} brings no encoding for learners (GameSpec.encoding), so it has no environment")
    try:
        spec.game.new_state(players, options)
    except InvalidOptions as exc:
        raise ValueError(str(exc)) from None
    return spec.encoding(spec.game, players, dict(options or {}))


def observation(encoding: Encoding, state: Json, seat: int) -> Observation:
    return encoding.observe(state, seat)


def offered_by_index(encoding: Encoding, state: Json, offered: list[Action]) -> dict[int, Action]:
    """The offered actions by their fixed index; an encoding that gives two
    of them one index is a bug in the game's encoding, said here."""
    by_index: dict[int, Action] = {}
    for action in offered:
        index = encoding.action_index(action, state)
        if index in by_index or not 0 <= index < encoding.action_count:
            raise ArenaError(f"{encoding.game.name}'s encoding gives {action!r} the index {index!r}, "
                             f"{'taken by ' + repr(by_index[index]) if index in by_index else 'out of range'}")
        by_index[index] = action
    return by_index


def mask(encoding: Encoding, by_index: dict[int, Action]) -> Mask:
    out = np.zeros(encoding.action_count, dtype=np.int8)
    for index in by_index:
        out[index] = 1
    return out
