"""Game records: the events of one game, and replaying them.

A record is the game, the player count, the options and the list of events in
order. An event (arena.model.Event) is a chance draw (which stream, what
purpose, the values), a decision (the seat, the actions offered, the index
chosen) or a seat's retirement (a seat whose bot forfeited leaves a game of
several seats; the others play on).
Replaying the events on a fresh state reproduces the game exactly.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.games.base import CHANCE, ChanceRequest, Game, IllegalAction, State
from arena.model import ChanceEvent, DecisionEvent, Event, RetireEvent


def chance_event(state: State, values: tuple[int, ...], request: ChanceRequest | None = None) -> ChanceEvent:
    """The event of a chance draw; ``request`` is ``state.chance_request()``
    where the caller already has it (asking again costs a little)."""
    if request is None:
        request = state.chance_request()
    return {"kind": "chance", "stream": request.stream, "purpose": request.purpose,
            "values": list(values)}


def decision_event(seat: int, offered: list[dict[str, Any]], chosen: int) -> DecisionEvent:
    return {"kind": "decision", "seat": seat, "offered": offered, "chosen": chosen}


def retire_event(seat: int, reason: str) -> RetireEvent:
    return {"kind": "retire", "seat": seat, "reason": reason}


def replay(game: Game, num_players: int, options: dict[str, Any],
           events: list[Event]) -> Iterator[State]:
    """Yield the initial state and the state after every event (the same
    object, mutated: clone it to keep it). Raises IllegalAction if the
    events do not fit the game."""
    state = game.new_state(num_players, options)
    yield state
    for number, event in enumerate(events):
        if event["kind"] == "chance":
            if state.current_player() != CHANCE:
                raise IllegalAction(f"event {number}: chance recorded where a decision is due")
            state.apply_chance(tuple(event["values"]))
        elif event["kind"] == "retire":
            state.retire(event["seat"])
        else:
            if state.current_player() != event["seat"]:
                raise IllegalAction(f"event {number}: seat {event['seat']} recorded, "
                                    f"seat {state.current_player()} is to decide")
            state.apply_action(event["offered"][event["chosen"]])
        yield state
