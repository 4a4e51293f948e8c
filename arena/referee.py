"""The referee: plays one game between seats and records all of it.

It trusts no seat. Every answer is parsed and validated against what was
offered; a timeout, a crash, a line that is not JSON or has the wrong shape,
an oversized line or an action not offered ends the game at once by forfeit:
the offending seat loses, every other seat wins, and the reason is recorded.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from arena.errors import BotCrashed, BotError, BotProtocolError, BotTimeout
from arena.games import get_game
from arena.games.base import CHANCE, Action, State
from arena.games.dice import DiceStreams
from arena.record import chance_event, decision_event


class Termination(Enum):
    NORMAL = "normal"
    TURN_CAP = "turn_cap"
    STALEMATE = "stalemate"
    TIMEOUT = "timeout"
    CRASH = "crash"
    ILLEGAL = "illegal"
    BAD_OUTPUT = "bad_output"


FORFEITS = (Termination.TIMEOUT, Termination.CRASH, Termination.ILLEGAL, Termination.BAD_OUTPUT)


class IllegalAnswer(ValueError):
    """A well-formed answer naming an action that was not offered."""


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


@dataclass
class GameRecord:
    """Everything about one played game."""

    job: Job
    events: list[dict[str, Any]]
    winners: tuple[int, ...]
    termination: Termination
    forfeit_seat: int | None = None
    detail: str | None = None
    scores: tuple[float, ...] | None = None
    duration: float = 0.0
    logs: tuple[str | None, ...] = ()

    @property
    def decisions(self) -> int:
        return sum(1 for event in self.events if event["kind"] == "decision")

    def to_json(self) -> dict[str, Any]:
        return {"job": self.job.to_json(), "events": self.events, "winners": list(self.winners),
                "termination": self.termination.value, "forfeit_seat": self.forfeit_seat,
                "detail": self.detail, "scores": None if self.scores is None else list(self.scores),
                "duration": self.duration, "logs": list(self.logs)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(Job.from_json(data["job"]), data["events"], tuple(data["winners"]),
                   Termination(data["termination"]), data["forfeit_seat"], data["detail"],
                   None if data["scores"] is None else tuple(data["scores"]), data["duration"],
                   tuple(data["logs"]))


class Seat(Protocol):
    """Whoever plays a seat: a bot process or a person at the terminal."""

    def start_game(self, job: Job, seat: int, state: State) -> None: ...

    def decide(self, state: State, actions: list[Action], timeout: float) -> int: ...

    def observe(self, event: dict[str, Any], state: State) -> None: ...

    def end_game(self, state: State, result: dict[str, Any]) -> None: ...


class _Forfeit(Exception):
    def __init__(self, seat: int, termination: Termination, detail: str) -> None:
        super().__init__(detail)
        self.seat, self.termination, self.detail = seat, termination, detail


_TERMINATION_OF = {BotTimeout: Termination.TIMEOUT, BotCrashed: Termination.CRASH,
                   BotProtocolError: Termination.BAD_OUTPUT, IllegalAnswer: Termination.ILLEGAL}


def play_game(job: Job, seats: list[Seat], move_timeout: float) -> GameRecord:
    """Play ``job`` to the end with ``seats[i]`` in seat i."""
    game = get_game(job.game)
    state = game.new_state(len(seats), job.options)
    dice = DiceStreams(job.seed)
    events: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        for number, seat in enumerate(seats):
            _guard(number, seat.start_game, job, number, state)
        _run(state, seats, dice, events, move_timeout)
    except _Forfeit as forfeit:
        winners = tuple(n for n in range(len(seats)) if n != forfeit.seat)
        record = GameRecord(job, events, winners, forfeit.termination, forfeit.seat, forfeit.detail)
    else:
        outcome = state.outcome()
        termination = Termination(outcome.ending)
        record = GameRecord(job, events, outcome.winners, termination, scores=outcome.scores)
    record.duration = time.monotonic() - started
    result = {"winners": list(record.winners), "termination": record.termination.value,
              "forfeit_seat": record.forfeit_seat, "detail": record.detail}
    for number, seat in enumerate(seats):
        if number != record.forfeit_seat:
            try:
                seat.end_game(state, result)
            except BotError:
                pass  # the game is decided; a bot failing to hear so fails its next game
    return record


def _run(state: State, seats: list[Seat], dice: DiceStreams, events: list[dict[str, Any]],
         move_timeout: float) -> None:
    while not state.is_terminal():
        seat_number = state.current_player()
        if seat_number == CHANCE:
            values = dice.draw(state.chance_request())
            event = chance_event(state, values)
            state.apply_chance(values)
        else:
            offered = state.legal_actions()
            chosen = _guard(seat_number, seats[seat_number].decide, state, offered, move_timeout)
            event = decision_event(seat_number, offered, chosen)
            state.apply_action(offered[chosen])
        events.append(event)
        for number, seat in enumerate(seats):
            _guard(number, seat.observe, event, state)


def _guard(seat_number: int, call, *args):
    """Call a seat; turn its failure into a forfeit of that seat."""
    try:
        return call(*args)
    except (BotError, IllegalAnswer) as exc:
        termination = next((value for kind, value in _TERMINATION_OF.items()
                            if isinstance(exc, kind)), Termination.CRASH)
        raise _Forfeit(seat_number, termination, str(exc)) from None
