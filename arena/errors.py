"""The exception tree. Library code raises these; the CLI turns them into
one-line messages and a non-zero exit."""

from __future__ import annotations


class ArenaError(Exception):
    """Root of every error arena reports to a user."""


class BotError(ArenaError):
    """A bot process misbehaved."""


class BotTimeout(BotError):
    """A bot did not answer within its deadline."""


class BotCrashed(BotError):
    """A bot process exited or closed its output."""


class BotProtocolError(BotError):
    """A bot sent something that is not a valid protocol message."""


class BotChanged(BotError):
    """A bot's files are not the version that was planned: they changed
    between planning and the start of one of its processes."""


class IllegalAnswer(ValueError):
    """A well-formed answer naming an action that was not offered."""


class StoreError(ArenaError):
    """The results database cannot be used (wrong version, corrupt, locked)."""


class StoreInUse(StoreError):
    """Another arena process holds the database's writer lock."""
