"""A policy as an arena bot: ``serve_policy(policy)`` answers the referee
over the JSON-lines protocol (protocol/PROTOCOL.md) on stdin and stdout,
asking ``policy(observation, mask)`` for every decision, with the same
numbers the environments give (arena/env/view.py). A bot file is then

    from arena.env import serve_policy
    serve_policy(lambda observation, mask: int(mask.nonzero()[0][0]))

and it plays under ``arena tournament`` in its box like any bot (arena's
package and its Python environment are mounted there read-only). It needs
numpy, not PettingZoo or Gymnasium.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from arena.env.view import Mask, Observation, encoding_for, mask, observation, offered_by_index
from arena.games import SPECS, get_spec
from arena.games.encoding import Encoding

Policy = Callable[[Observation, Mask], Any]


def serve_policy(policy: Policy, name: str = "policy", games: Sequence[str] | None = None,
                 stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
    """Play as a bot until ``bye`` or the end of input. ``games``: the games
    to offer (default: every registered game with an encoding, as far as
    the referee plays it). A policy's index that is not offered is answered
    as it is, an illegal action (the game is lost and the log says why)."""
    reader = sys.stdin if stdin is None else stdin
    writer = sys.stdout if stdout is None else stdout
    playable = sorted(games) if games is not None else sorted(n for n, spec in SPECS.items() if spec.encoding)
    encoding: Encoding | None = None
    seat = 0
    for line in reader:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            reply: dict[str, Any] = {"type": "hello", "name": name,
                                     "games": [game for game in playable if game in message["games"]]}
        elif kind == "game_start":
            encoding = encoding_for(get_spec(message["game"]), message["players"], message["options"])
            seat = message["seat"]
            continue
        elif kind == "decide" and encoding is not None:
            state, offered = message["state"], message["actions"]
            by_index = offered_by_index(encoding, state, offered)
            choice = policy(observation(encoding, state, seat), mask(encoding, by_index))
            action = by_index.get(int(choice))
            if action is None:
                print(f"policy chose action index {choice!r}, which is not offered (offered: "
                      f"{', '.join(map(str, sorted(by_index)))})", file=sys.stderr, flush=True)
            reply = {"type": "action", "action": action}
        elif kind == "bye":
            return
        else:
            continue
        writer.write(json.dumps(reply) + "\n")
        writer.flush()
