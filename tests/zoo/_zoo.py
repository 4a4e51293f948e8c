"""Shared by the zoo's bots: an honest bot's loop with one misdeed.

Not a bot itself (the leading underscore hides it from discovery). A
one-file bot sees nothing beside its own file in its box, so the tests run
each bot as ``self_contained`` makes it: this module pasted in place of its
``from _zoo import ...``. Each bot in this folder is a real program that plays honestly (the first offered action)
until its misdeed is due, then misbehaves in one particular way. The first line
each process writes to stderr names it and its pid, so a test can count the
processes a match needed.
"""

import json
import os
import sys
from pathlib import Path

GAMES = ["ciclovia", "detour", "roundabout", "slyyde"]


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def run(name, misdeed, nth=2):
    """Play honestly; at the ``nth`` decide message of this process's life,
    call ``misdeed(message)``. If it returns, the bot answers honestly."""
    sys.stderr.write(f"zoo {name} pid {os.getpid()} run {os.urandom(4).hex()} started\n")
    sys.stderr.flush()
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            say({"type": "hello", "name": name, "games": GAMES})
        elif kind == "decide":
            decisions += 1
            if decisions == nth:
                misdeed(message)
            say({"type": "action", "action": message["actions"][0]})
        elif kind == "bye":
            return


def self_contained(bot):
    """The source of the zoo bot at ``bot`` with this module in place of its
    import of it."""
    text = Path(bot).read_text()
    start = text.find("from _zoo import ")
    if start < 0:
        return text
    end = text.index("\n", start) + 1
    return text[:start] + Path(__file__).read_text() + text[end:]
