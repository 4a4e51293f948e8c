"""A person in a browser tab as a seat of the referee: the states, the
offered actions and the events go to the page with their words (the
game's text view, through arena.play.person.Narration), which the page
shows as they are.

The referee runs in a thread of its own; the page lives on the server's
event loop. What the referee tells this seat goes out through ``send``
(which hands it to the loop); ``decide`` waits for the page's choice on a
thread-safe queue."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from arena.bots.protocol import pause_bots
from arena.errors import BotTimeout, IllegalAnswer
from arena.games.base import Action, State
from arena.model import Event, Job
from arena.play.person import Narration
from arena.play.referee import Seat

# Put on the choices queue when the page has gone: the game is abandoned.
LEFT = object()


class PersonLeft(Exception):
    """The page closed mid-game. Not a forfeit: the referee does not catch
    it, so the game stops where it is and nothing is recorded."""


class BrowserSeat:
    """Shows every state to the page and waits for a choice when it is the
    person's turn: for ever, or ``timeout`` seconds (then it is a forfeit by
    timeout, as for a bot)."""

    updates = True  # the page shows every event

    def __init__(self, send: Callable[[dict[str, Any]], None], choices: queue.Queue[Any],
                 timeout: float | None) -> None:
        self.send, self.choices, self.timeout = send, choices, timeout
        self.seat = 0

    def start_game(self, job: Job, seat: int, state: State) -> None:
        self.seat = seat
        self.narration = Narration(job, seat, state)
        self.send({"type": "start", "game": job.game, "seat": seat, "names": list(job.seats),
                   "options": job.options, "state": state.to_json()})

    def decide(self, state: State, actions: list[Action], timeout: float) -> int:
        pause_bots()  # no bot thinks on a person's time
        self.send({"type": "decide", "state": state.to_json(), "actions": actions,
                   "words": self.narration.offered(state, actions),
                   "timeout_ms": None if self.timeout is None else int(self.timeout * 1000)})
        try:
            choice = self.choices.get(timeout=self.timeout)
        except queue.Empty:
            self.send({"type": "out", "message": f"You had {self.timeout:g} s to choose: you are out of this game."})
            raise BotTimeout(f"no choice within {self.timeout:g} s") from None
        if choice is LEFT:
            raise PersonLeft("the page was closed")
        if not (isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(actions)):
            raise IllegalAnswer(f"expected an action number from 0 to {len(actions) - 1}, got {choice!r}")
        return choice

    def observe(self, event: Event, state: State) -> None:
        self.send({"type": "event", "event": event, "words": self.narration.step(event, state),
                   "state": state.to_json()})

    def end_game(self, state: State, result: dict[str, Any]) -> None:
        """The page hears the end from the server, with the whole record."""


class WatchedSeat:
    """A bot's seat in a game the page may leave: once it has, the next
    call ends the game (PersonLeft), so that the bots do not play on
    unwatched (a person who timed out is out, and the others play on)."""

    # Every event is a moment to notice the page has gone.
    updates = True

    def __init__(self, seat: Seat, left: threading.Event) -> None:
        self.seat, self.left = seat, left

    def _check(self) -> None:
        if self.left.is_set():
            raise PersonLeft("the page was closed")

    def start_game(self, job: Job, seat: int, state: State) -> None:
        self._check()
        self.seat.start_game(job, seat, state)

    def decide(self, state: State, actions: list[Action], timeout: float) -> int:
        self._check()
        return self.seat.decide(state, actions, timeout)

    def observe(self, event: Event, state: State) -> None:
        self._check()
        self.seat.observe(event, state)

    def end_game(self, state: State, result: dict[str, Any]) -> None:
        self.seat.end_game(state, result)
