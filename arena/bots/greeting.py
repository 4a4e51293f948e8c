"""Starting a bot once to hear its hello: start its process, shake hands,
close it. A tournament's probe and ``arena check`` both begin this way."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from arena.bots.process import BotProcess
from arena.bots.protocol import handshake
from arena.errors import BotError
from arena.model import BotSpec, Limits


@dataclass(frozen=True)
class Greeting:
    """The bot's hello answer, or the error that stopped it: ``started``
    tells a process that would not start from a handshake that failed."""

    hello: dict[str, Any] | None
    error: BotError | None = None
    started: bool = True


class Greetings:
    """The bots being greeted at once, for a caller interrupted meanwhile to
    kill: a bot that finishes starting after that is killed as it is added,
    instead of being waited for until its start-up limit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[BotProcess] = set()
        self._killed = False

    def add(self, process: BotProcess) -> None:
        with self._lock:
            self._running.add(process)
            if not self._killed:
                return
        process.kill()

    def discard(self, process: BotProcess) -> None:
        with self._lock:
            self._running.discard(process)

    def kill_all(self) -> None:
        with self._lock:
            self._killed = True
            running = list(self._running)
        for process in running:
            process.kill()


def greet(spec: BotSpec, limits: Limits, running: Greetings | None = None) -> Greeting:
    """Start the bot, shake hands within the start-up limit, close it. While
    the handshake runs the process is in ``running`` (where given), so that
    a caller interrupted meanwhile can kill it."""
    try:
        process = BotProcess(spec, limits)
    except BotError as exc:
        return Greeting(None, exc, started=False)
    if running is not None:
        running.add(process)
    try:
        return Greeting(handshake(process, limits.startup_timeout))
    except BotError as exc:
        failed = exc
    finally:
        process.close()  # its stderr is drained to the end: the tail is whole
        if running is not None:
            running.discard(process)
    return Greeting(None, _with_stderr_tail(failed, process.stderr_tail()))


def _with_stderr_tail(error: BotError, tail: str) -> BotError:
    """The error, saying what the bot last wrote on stderr: a bot that
    cannot start usually says why there (a missing module, a bad path), and
    no game log keeps it."""
    if not tail:
        return error
    return type(error)(f"{error}; its stderr ended with: {tail}")
