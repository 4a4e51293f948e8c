"""A tiny helper for writing an arena bot in Python: copy this file beside
your bot. It speaks protocol version 1 (see ../PROTOCOL.md) and calls your
function for every decision.

    from arena_bot import run

    def choose(state, actions, timeout_ms, rng):
        return actions[0]

    run("first_choice", ["slyyde"], choose)

``rng`` is a random.Random seeded from each game's seed, so a bot that takes
its randomness from it plays reproducibly.
"""

import json
import random
import sys


def run(name, games, choose, on_update=None):
    """Answer the referee until it says bye or closes our input."""
    rng = random.Random()
    want_updates = on_update is not None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            _send({"type": "hello", "name": name, "games": list(games), "updates": want_updates})
        elif kind == "game_start":
            rng.seed(message["seed"])
        elif kind == "decide":
            action = choose(message["state"], message["actions"], message["timeout_ms"], rng)
            _send({"type": "action", "action": action})
        elif kind == "update" and want_updates:
            on_update(message["event"])
        elif kind == "bye":
            return


def _send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
