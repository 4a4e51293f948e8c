#!/usr/bin/env python3
"""Random bot: plays every game arena has (the hello names them, installed
plug-in games too) by choosing uniformly among the legal actions.

The simplest complete bot for the arena protocol (see protocol/PROTOCOL.md):
read one JSON object per line from stdin, answer "hello" and "decide",
seed its choices from each game_start, ignore everything else, leave on "bye" or end of input.
"""

import json
import random
import sys


def main() -> None:
    chooser = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            reply = {"type": "hello", "name": "random_bot", "games": message["games"]}
        elif kind == "game_start":
            chooser.seed(message["seed"])  # same game, same choices: reproducible tournaments
            continue
        elif kind == "decide":
            reply = {"type": "action", "action": chooser.choice(message["actions"])}
        elif kind == "bye":
            return
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
