"""The referee: plays one game between seats and records all of it.

It trusts no seat. Every answer is parsed and validated against what was
offered; a timeout, a crash, a line that is not JSON or has the wrong shape,
an oversized line or an action not offered is a forfeit: the offending seat
is out of the game, placed last, with the reason recorded. With two seats
that ends the game; with more, the others play on for their places.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from arena.errors import (
    BotCrashed,
    BotError,
    BotProtocolError,
    BotTimeout,
    IllegalAnswer,
)
from arena.games import get_game
from arena.games.base import CHANCE, TERMINAL, Action, State
from arena.games.dice import DiceStreams
from arena.games.events import chance_event, decision_event, retire_event
from arena.model import DecisionTimes, Event, Forfeit, GameRecord, Job, Termination


class Seat(Protocol):
    """Whoever plays a seat: a bot process or a person at the terminal."""

    @property
    def updates(self) -> bool:
        """Whether the seat hears each event (``observe``); read once it
        has been told the game started (a bot says so in its hello)."""
        ...

    def start_game(self, job: Job, seat: int, state: State) -> None: ...

    def decide(self, state: State, actions: list[Action], timeout: float) -> int: ...

    def observe(self, event: Event, state: State) -> None: ...

    def end_game(self, state: State, result: dict[str, Any]) -> None: ...


_TERMINATION_OF = {BotTimeout: Termination.TIMEOUT, BotCrashed: Termination.CRASH,
                   BotProtocolError: Termination.BAD_OUTPUT, IllegalAnswer: Termination.ILLEGAL}


Watcher = Callable[[Event, float | None], None]  # an event as it happens, and a decision's answer time


def play_game(job: Job, seats: list[Seat], move_timeout: float, watch: Watcher | None = None) -> GameRecord:
    """Play ``job`` to the end with ``seats[i]`` in seat i. A seat that fails
    is out: the game goes on among the others (with two seats, that ends
    it), and the forfeiting seat is placed last. ``watch`` hears every
    event as it is recorded (a live view of the game)."""
    game = get_game(job.game)
    state = game.new_state(len(seats), job.options)
    seating = _Seating(state, seats, watch)
    started = time.monotonic()
    for number in range(len(seats)):
        seating.call(number, seats[number].start_game, job, number, state)
        seating.seated(number)
    dice = DiceStreams(job.seed)
    answer_times: list[float] = []  # per decision event, beside the events (see DecisionTimes)
    while (seat_number := state.current_player()) != TERMINAL and not seating.abandoned:
        event: Event
        if seat_number == CHANCE:
            request = state.chance_request()
            values = dice.draw(request)
            event = chance_event(state, values, request)
            state.apply_chance(values)
        else:
            offered = state.legal_actions()
            asked = time.monotonic()
            chosen = seating.call(seat_number, seats[seat_number].decide, state, offered, move_timeout)
            if chosen is None:
                continue  # that seat is out; the state has moved on without it
            # To a tenth of a millisecond, as the store keeps it: the replay the worker
            # makes from the record then equals the one made later from the store.
            answer = round(time.monotonic() - asked, 4)
            answer_times.append(answer)
            event = decision_event(seat_number, offered, chosen)
            state.apply_action(offered[chosen])
            seating.tell(event, answer)
            continue
        seating.tell(event)
    forfeits = tuple(seating.forfeits)
    placements: tuple[int, ...]
    if seating.abandoned:  # a solo game whose one seat failed: no result of the rules
        placements, scores = (1,), None
    else:
        outcome = state.outcome()
        placements, scores = outcome.placements, outcome.scores
    ended_by_forfeit = bool(forfeits) and len(seats) - len(forfeits) <= 1
    termination = forfeits[-1].termination if ended_by_forfeit else state.outcome().termination
    record = GameRecord(job, seating.events, placements, termination, forfeits, scores,
                        duration=time.monotonic() - started,
                        times=DecisionTimes(move_timeout, tuple(answer_times)))
    result = record.result.to_json()
    for number in seating.playing():
        try:
            seats[number].end_game(state, result)
        except BotError:
            pass  # the game is decided; a bot failing to hear so fails its next game
    return record


class _Seating:
    """The seats of one game and the events so far. A seat that fails is
    out: its forfeit is recorded, the game state retires it, the others
    hear of it, and it is never called again. Once the game is decided, a
    failure is no forfeit (the bot's next game finds it)."""

    def __init__(self, state: State, seats: list[Seat], watch: Watcher | None = None) -> None:
        self.state, self.seats, self.watch = state, seats, watch
        self.events: list[Event] = []
        self.forfeits: list[Forfeit] = []
        self.abandoned = False  # a solo game cannot go on without its one seat
        self.out: set[int] = set()  # the seats that forfeited
        # The seats told the game started (the others learn from its state)
        # that hear of events, in seat order.
        self.hearing: list[int] = []

    def seated(self, number: int) -> None:
        """Seat ``number`` was told the game started; it hears events from
        now on if it wants them (``Seat.updates``)."""
        if self.seats[number].updates:
            self.hearing.append(number)

    def playing(self) -> list[int]:
        return [number for number in range(len(self.seats)) if number not in self.out]

    def call(self, number: int, method: Callable[..., Any], *args: Any) -> Any:
        """``method`` of seat ``number``; None if the seat failed and is out."""
        try:
            return method(*args)
        except (BotError, IllegalAnswer) as exc:
            termination = next((value for kind, value in _TERMINATION_OF.items()
                                if isinstance(exc, kind)), Termination.CRASH)
            self._retire(number, termination, str(exc))
            return None

    def tell(self, event: Event, answer: float | None = None) -> None:
        """Record an event (a decision's with its answer time) and let every
        seat still playing, and the watcher, hear of it."""
        self.events.append(event)
        if self.watch is not None:
            self.watch(event, answer)
        for number in self.hearing:
            if number not in self.out:  # (checked seat by seat: telling one may retire a later one)
                self.call(number, self.seats[number].observe, event, self.state)

    def _retire(self, number: int, termination: Termination, detail: str) -> None:
        if self.state.is_terminal() or self.abandoned:
            return
        self.forfeits.append(Forfeit(number, termination, detail))
        self.out.add(number)
        if len(self.seats) == 1:
            self.abandoned = True
            return
        self.state.retire(number)
        self.tell(retire_event(number, termination.value))
