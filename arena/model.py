"""The values every layer shares: a bot's spec and limits, a game to play, a
played game's record, a stored game, how a game ended.

This module imports nothing of arena's layers (only the scoring rule, which
imports nothing at all), so the referee, the executors, the store, the
ratings and the site can all use these types without importing each other.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, TypedDict

from arena import results


class Termination(Enum):
    """How a game ended: by its rules, by a seat's forfeit, or not at all
    (``REFEREE_FAILURE``: the worker playing it hung or died, and again on
    the retry; no bot's fault, so no result: no placements, not rated)."""

    NORMAL = "normal"
    TURN_CAP = "turn_cap"
    STALEMATE = "stalemate"
    TIMEOUT = "timeout"
    CRASH = "crash"
    ILLEGAL = "illegal"
    BAD_OUTPUT = "bad_output"
    REFEREE_FAILURE = "referee_failure"


class ChanceEvent(TypedDict):
    """Chance drew ``values`` from the seeded stream ``stream`` (``purpose``:
    "roll", "rolloff"... for the replay and the bots)."""

    kind: Literal["chance"]
    stream: str
    purpose: str
    values: list[int]


class DecisionEvent(TypedDict):
    """Seat ``seat`` was offered ``offered`` and chose the one at ``chosen``."""

    kind: Literal["decision"]
    seat: int
    offered: list[dict[str, Any]]
    chosen: int


class RetireEvent(TypedDict):
    """Seat ``seat`` left the game: its bot forfeited (``reason``, a
    Termination's value); the others play on."""

    kind: Literal["retire"]
    seat: int
    reason: str


class ChosenEvent(TypedDict):
    """A decision as a record keeps it (arena.games.events.stored_events):
    the action seat ``seat`` chose, at ``chosen`` among the actions its
    engine offers there, which the engine makes again on replay."""

    kind: Literal["decision"]
    seat: int
    chosen: int
    action: dict[str, Any]


# One event of a game's record, told apart by "kind"; JSON as the referee
# wrote it.
Event = ChanceEvent | DecisionEvent | RetireEvent
# One event as a record is stored: a decision without its offered actions.
StoredEvent = ChanceEvent | ChosenEvent | RetireEvent


def stored_events(events: list[Event]) -> tuple[list[StoredEvent], str]:
    """The record as it is stored, and the digest of what it leaves out:
    each decision keeps the action chosen, not the actions offered, which
    are the engine's legal actions there (the referee offers no others) and
    about half of a record's bytes; ``arena.games.events.full_events``
    makes them again."""
    stored: list[StoredEvent] = []
    for event in events:
        if event["kind"] == "decision":
            stored.append({"kind": "decision", "seat": event["seat"], "chosen": event["chosen"],
                           "action": event["offered"][event["chosen"]]})
        else:
            stored.append(event)
    return stored, offered_digest(event["offered"] for event in events if event["kind"] == "decision")


def offered_digest(offered: Iterable[list[dict[str, Any]]]) -> str:
    """CRC-32 of every decision's offered actions as canonical JSON (keys
    sorted, ASCII, no spaces), in hex; the replay page makes the same."""
    text = json.dumps(list(offered), sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(text.encode()):08x}"


FORFEITS = (Termination.TIMEOUT, Termination.CRASH, Termination.ILLEGAL, Termination.BAD_OUTPUT)


@dataclass(frozen=True)
class Limits:
    """Per-bot-process limits. Defaults are safe for a shared machine and
    generous for an honest bot; docs/explanation/trust-model.md says what each one protects.

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


def bot_name(bot_id: str) -> str:
    """The name in a bot id (``name@version``, BotSpec.bot_id)."""
    return bot_id.rsplit("@", 1)[0]


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


def keyed_int(secret: bytes, label: str) -> int:
    """HMAC-SHA256 of ``label`` under ``secret``, as 63 bits (an SQLite
    INTEGER): without the secret, no label's value says anything about
    another's, however many a bot has seen."""
    digest = hmac.new(secret, label.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class DiceKey:
    """The secret every dice seed of a run is derived from.

    Drawn from ``secrets`` unless the run was given ``--seed``, in which
    case it is a hash of that number, so the run can be repeated (and
    predicted, by anyone who knows the number). ``seed`` is that number,
    None for a drawn key. It is never sent to a bot: a bot gets a game id
    and a seed for its own choices, both keyed hashes of its game's dice
    seed (Job.game_id, Job.bot_seed)."""

    secret: bytes
    seed: int | None = None

    @classmethod
    def draw(cls) -> DiceKey:
        return cls(secrets.token_bytes(32))

    @classmethod
    def from_seed(cls, seed: int) -> DiceKey:
        return cls(hashlib.sha256(f"arena dice key from seed {seed}".encode()).digest(), seed)

    @classmethod
    def chosen(cls, seed: int | None) -> DiceKey:
        """``--seed``'s key, or a drawn one without it."""
        return cls.draw() if seed is None else cls.from_seed(seed)

    def derive(self, label: str) -> int:
        """The dice seed of what ``label`` names (a pair, a pod, a round)."""
        return keyed_int(self.secret, label)

    def __repr__(self) -> str:  # never the secret in a log or a traceback
        return f"DiceKey(seed={self.seed!r})"


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

    @property
    def game_id(self) -> str:
        """What names the game to its bots: a keyed hash of the key under
        the game's dice seed, so it tells nothing of the seed, the bots or
        the round, nor which other games share this one's dice."""
        return f"{keyed_int(self._secret, 'game id/' + self.key):016x}"

    def bot_seed(self, seat: int) -> int:
        """The seed a seat's bot gets for its own choices: from it no die
        can be computed, and it differs between games that share dice."""
        return keyed_int(self._secret, f"bot seed/{self.key}/{seat}")

    @property
    def _secret(self) -> bytes:
        return self.seed.to_bytes(8, "big", signed=True)


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
class RecordTexts:
    """A game's record as JSON text (``Store.record_texts``): its events as
    stored, each decision without its action, the digest of the actions
    offered, the move timeout (None where not recorded) and the seconds
    each decision took (a JSON list)."""

    events: str
    offered: str | None
    move_timeout: float | None
    decision_times: str


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


@dataclass(frozen=True)
class GameResult(_Forfeits):
    """How a played game came out: placements, how it ended, the forfeits
    and the game's points where it has them. ``to_json`` is the ``result``
    every seat hears at the end (protocol/schema/game_end.json); the
    browser's end message carries the same fields."""

    placements: results.Placements
    termination: Termination
    forfeits: tuple[Forfeit, ...] = ()
    scores: tuple[float, ...] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        return results.winners(self.placements)

    def to_json(self) -> dict[str, Any]:
        return {"placements": list(self.placements), "winners": list(self.winners),
                "termination": self.termination.value, "forfeits": [f.to_json() for f in self.forfeits],
                "forfeit_seat": self.forfeit_seat, "detail": self.detail}


@dataclass
class GameRecord(_Forfeits):
    """Everything about one played game.

    ``termination`` is how the game ended: by its rules (normal, turn cap,
    stalemate), or by the forfeit that left a single seat in it. Forfeits
    that the others played on after are in ``forfeits`` either way."""

    job: Job
    events: list[Event]
    placements: results.Placements
    termination: Termination
    forfeits: tuple[Forfeit, ...] = ()
    scores: tuple[float, ...] | None = None
    duration: float = 0.0
    logs: tuple[str | None, ...] = ()
    times: DecisionTimes = DecisionTimes()
    # The replay as the game's page embeds it (arena.games.replays) and that
    # module's REPLAY_FORMAT, made by the worker that played the game, in
    # parallel with the others, so the site need not replay the game again;
    # None where it was not made.
    replay: str | None = None
    replay_format: int = 0
    # Why the referee could not play the game (a REFEREE_FAILURE), in words.
    failure: str | None = None

    @classmethod
    def referee_failure(cls, job: Job, failure: str) -> GameRecord:
        """The record of a game the referee could not play: no events, no
        placements, no forfeit, so that it counts for and against no bot."""
        return cls(job, [], (), Termination.REFEREE_FAILURE, failure=failure)

    @property
    def decisions(self) -> int:
        return sum(1 for event in self.events if event["kind"] == "decision")

    @property
    def winners(self) -> tuple[int, ...]:
        return results.winners(self.placements)

    def decision_seconds(self, seat: int) -> list[float]:
        """How long each answered decision of ``seat`` took, in order (the
        referee times every decision; a forfeited one has no time)."""
        decisions = (event for event in self.events if event["kind"] == "decision")
        return [seconds for event, seconds in zip(decisions, self.times.seconds) if event["seat"] == seat]

    @property
    def result(self) -> GameResult:
        return GameResult(self.placements, self.termination, self.forfeits, self.scores)

    def to_json(self) -> dict[str, Any]:
        return {"job": self.job.to_json(), "events": self.events, "placements": list(self.placements),
                "termination": self.termination.value, "forfeits": [f.to_json() for f in self.forfeits],
                "scores": None if self.scores is None else list(self.scores),
                "duration": self.duration, "logs": list(self.logs), "times": self.times.to_json(),
                "replay": self.replay, "replay_format": self.replay_format, "failure": self.failure}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(Job.from_json(data["job"]), data["events"], tuple(data["placements"]),
                   Termination(data["termination"]), tuple(Forfeit.from_json(f) for f in data["forfeits"]),
                   None if data["scores"] is None else tuple(data["scores"]), data["duration"],
                   tuple(data["logs"]), DecisionTimes.from_json(data["times"]), data.get("replay"),
                   data.get("replay_format", 0), data.get("failure"))


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
    # Each seat's luck (arena.luck), as stored in results.luck; None until
    # it is measured, or where it cannot be (a game without an evaluation).
    luck: tuple[float, ...] | None = None
    plan: int = 0  # the number of the plan that stored it (arena.store: rating order is plan, job_order, key)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def winners(self) -> tuple[int, ...]:
        return results.winners(self.placements)
