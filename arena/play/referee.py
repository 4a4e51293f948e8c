"""The referee: plays one game between seats and records all of it.

It trusts no seat. Every answer is parsed and validated against what was
offered; a timeout, a crash, a line that is not JSON or has the wrong shape,
an oversized line or an action not offered ends the game at once by forfeit:
the offending seat loses, every other seat wins, and the reason is recorded.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from arena.errors import (
    BotCrashed,
    BotError,
    BotProtocolError,
    BotTimeout,
    IllegalAnswer,
)
from arena.games import get_game
from arena.games.base import CHANCE, Action, State
from arena.games.dice import DiceStreams
from arena.model import GameRecord, Job, Termination
from arena.play.events import chance_event, decision_event


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
