"""Where the matches of a run come from: a plan made once, or a league
choosing as it goes (arena.play.league). Executors ask a source whenever
they have room for another match."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Protocol

from arena.model import BotSpec, Job


@dataclass(frozen=True)
class Match:
    """Games between the same bots, played in order by one set of their
    processes (arena.play.plan.group_into_matches), and the bots' specs."""

    jobs: list[Job]
    specs: dict[str, BotSpec]


class MatchSource(Protocol):
    """Where the matches of a run come from, asked whenever a worker is
    free: a plan made once (``Planned``) or a league choosing as it goes."""

    def next_match(self) -> Match | None:
        """The next match, or None when there is nothing to play just now."""
        ...

    @property
    def finished(self) -> bool:
        """Whether nothing more will ever come."""
        ...


class Planned:
    """A fixed list of matches, handed out in order."""

    def __init__(self, matches: list[list[Job]], specs: dict[str, BotSpec]) -> None:
        self.matches, self.specs = deque(matches), specs

    def next_match(self) -> Match | None:
        return Match(self.matches.popleft(), self.specs) if self.matches else None

    @property
    def finished(self) -> bool:
        return not self.matches
