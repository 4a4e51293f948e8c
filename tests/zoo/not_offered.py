"""Answers an action that was not offered at its second decision."""

import time

from _zoo import run, say


def made_up(message):
    say({"type": "action", "action": {"made": "up", "offered": len(message["actions"])}})
    time.sleep(3600)


run("not_offered", made_up)
