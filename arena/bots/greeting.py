"""Starting a bot once to hear its hello: start its process, shake hands,
close it. A tournament's probe and ``arena check`` both begin this way."""

from __future__ import annotations

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


def greet(spec: BotSpec, limits: Limits, running: set[BotProcess] | None = None) -> Greeting:
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
