"""The values every layer shares: a bot's spec and limits, a game to play, a
played game's record, a stored game, how a game ended.

This module imports nothing of arena's layers (only the scoring rule, which
imports nothing at all), so the referee, the executors, the store, the
ratings and the site can all use these types without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from arena import results


class Termination(Enum):
    """How a game ended: by its rules, or by a seat's forfeit."""

    NORMAL = "normal"
    TURN_CAP = "turn_cap"
    STALEMATE = "stalemate"
    TIMEOUT = "timeout"
    CRASH = "crash"
    ILLEGAL = "illegal"
    BAD_OUTPUT = "bad_output"


FORFEITS = (Termination.TIMEOUT, Termination.CRASH, Termination.ILLEGAL, Termination.BAD_OUTPUT)


@dataclass(frozen=True)
class Limits:
    """Per-bot-process limits. Defaults are safe for a shared machine and
    generous for an honest bot; see the README for what each one protects.

    ``isolation`` is ``box`` (every bot in a bubblewrap sandbox of its own,
    arena.bots.isolation) or ``none`` (unsafe, for machines without it).
    ``memory_bytes`` bounds all of a bot's processes together; ``disk_bytes``
    each of its writable folders (working folder, /tmp, /dev/shm). Without
    ``ponder`` a bot is frozen between its decisions."""

    startup_timeout: float = 10.0
    move_timeout: float = 1.0
    max_line_bytes: int = 1 << 20
    stderr_bytes: int = 1 << 20
    cpu_seconds: int = 600
    address_space_bytes: int = 4 << 30
    processes: int = 64
    file_size_bytes: int = 16 << 20
    open_files: int = 256
    memory_bytes: int = 1 << 30
    disk_bytes: int = 64 << 20
    ponder: bool = False
    isolation: str = "box"


@dataclass(frozen=True)
class BotSpec:
    """A bot found in a bots folder: how to start it and which version it is."""

    name: str
    command: tuple[str, ...]
    path: str
    content_hash: str

    @property
    def bot_id(self) -> str:
        return f"{self.name}@{self.content_hash[:12]}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "command": list(self.command), "path": self.path,
                "content_hash": self.content_hash}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BotSpec:
        return cls(data["name"], tuple(data["command"]), data["path"], data["content_hash"])


@dataclass(frozen=True)
class Job:
    """One game to play: which game, who sits where, with which seed.

    ``key`` names the job uniquely within a store; it is what makes a resumed
    tournament skip games already played. ``order`` is the job's place in the
    deterministic plan, the order in which ratings are computed.
    """

    key: str
    game: str
    seats: tuple[str, ...]
    seed: int
    round: int = 0
    order: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "game": self.game, "seats": list(self.seats), "seed": self.seed,
                "round": self.round, "order": self.order, "options": self.options}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Job:
        return cls(data["key"], data["game"], tuple(data["seats"]), data["seed"], data["round"],
                   data["order"], data["options"])


@dataclass(frozen=True)
class Forfeit:
    """A seat whose bot failed (timed out, crashed, answered garbage or
    played illegally): it is out of the game and placed last."""

    seat: int
    termination: Termination
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "termination": self.termination.value, "detail": self.detail}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Forfeit:
        return cls(data["seat"], Termination(data["termination"]), data["detail"])


@dataclass(frozen=True)
class DecisionTimes:
    """How long each decision of a game took to answer, in seconds, in the
    order of the game's decision events, and the time each seat was given
    (the move timeout). Kept beside the events, never in them: two runs of
    one game have the same events and different times. Games stored before
    arena measured them have none (``move_timeout`` None)."""

    move_timeout: float | None = None
    seconds: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"move_timeout": self.move_timeout, "seconds": list(self.seconds)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DecisionTimes:
        return cls(data["move_timeout"], tuple(data["seconds"]))


class _Forfeits:
    """What records and stored games say about forfeits, from their list."""

    forfeits: tuple[Forfeit, ...]

    @property
    def forfeit_seat(self) -> int | None:
        """The first seat that forfeited (the only one in a two-seat game)."""
        return self.forfeits[0].seat if self.forfeits else None

    @property
    def detail(self) -> str | None:
        """What the first forfeit was, in words."""
        return self.forfeits[0].detail if self.forfeits else None


@dataclass
class GameRecord(_Forfeits):
    """Everything about one played game.

    ``termination`` is how the game ended: by its rules (normal, turn cap,
    stalemate), or by the forfeit that left a single seat in it. Forfeits
    that the others played on after are in ``forfeits`` either way."""

    job: Job
    events: list[dict[str, Any]]
    placements: results.Placements
    termination: Termination
    forfeits: tuple[Forfeit, ...] = ()
    scores: tuple[float, ...] | None = None
    duration: float = 0.0
    logs: tuple[str | None, ...] = ()
    times: DecisionTimes = DecisionTimes()
    # The replay as the game's page embeds it (arena.site.replays) and that
    # module's REPLAY_FORMAT, made by the worker that played the game, in
    # parallel with the others, so the site need not replay the game again;
    # None where it was not made.
    replay: str | None = None
    replay_format: int = 0

    @property
    def decisions(self) -> int:
        return sum(1 for event in self.events if event["kind"] == "decision")

    @property
    def winners(self) -> tuple[int, ...]:
        return results.winners(self.placements)

    def to_json(self) -> dict[str, Any]:
        return {"job": self.job.to_json(), "events": self.events, "placements": list(self.placements),
                "termination": self.termination.value, "forfeits": [f.to_json() for f in self.forfeits],
                "scores": None if self.scores is None else list(self.scores),
                "duration": self.duration, "logs": list(self.logs), "times": self.times.to_json(),
                "replay": self.replay, "replay_format": self.replay_format}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(Job.from_json(data["job"]), data["events"], tuple(data["placements"]),
                   Termination(data["termination"]), tuple(Forfeit.from_json(f) for f in data["forfeits"]),
                   None if data["scores"] is None else tuple(data["scores"]), data["duration"],
                   tuple(data["logs"]), DecisionTimes.from_json(data["times"]), data.get("replay"),
                   data.get("replay_format", 0))


@dataclass(frozen=True)
class StoredGame(_Forfeits):
    """A game as the store holds it, without its events (``Store.events``
    reads those): what ratings, standings and the site are computed from."""

    key: str
    game: str
    round: int
    job_order: int
    seed: int
    seats: tuple[str, ...]
    options: dict[str, Any]
    placements: results.Placements
    termination: Termination
    forfeits: tuple[Forfeit, ...]
    scores: tuple[float, ...] | None
    decisions: int
    duration: float
    logs: tuple[str | None, ...]
    finished_at: float

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def winners(self) -> tuple[int, ...]:
        return results.winners(self.placements)
