"""Answers after the deadline: at its second decision it waits until the
time is up, and a little more, then answers a legal action."""

import time

from _zoo import run

run("late_answer", lambda message: time.sleep(message["timeout_ms"] / 1000 + 0.3))
