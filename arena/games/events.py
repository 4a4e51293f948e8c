"""Game records: the events of one game, and replaying them.

A record is the game, the player count, the options and the list of events in
order. An event (arena.model.Event) is a chance draw (which stream, what
purpose, the values), a decision (the seat, the actions offered, the index
chosen) or a seat's retirement (a seat whose bot forfeited leaves a game of
several seats; the others play on).
Replaying the events on a fresh state reproduces the game exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

from arena.games.base import CHANCE, ChanceRequest, Game, IllegalAction, State
from arena.model import ChanceEvent, ChosenEvent, DecisionEvent, Event, RetireEvent, StoredEvent, offered_digest


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
           events: Sequence[Event | StoredEvent]) -> Iterator[State]:
    """Yield the initial state and the state after every event (the same
    object, mutated: clone it to keep it). Raises IllegalAction if the
    events do not fit the game."""
    start = game.new_state(num_players, options)
    yield start
    for state, _ in replayed(start, events):
        yield state


def replayed(state: State, events: Sequence[Event | StoredEvent]) -> Iterator[tuple[State, Event]]:
    """Apply the events to ``state`` one by one, yielding it after each
    with the event whole (a stored decision with the actions the engine
    offers there, ``full_events``)."""
    for number, event in enumerate(events):
        yield state, _apply_event(state, number, event)


def full_events(game: Game, num_players: int, options: dict[str, Any], stored: Sequence[Event | StoredEvent],
                digest: str | None) -> list[Event]:
    """The record with every decision's offered actions, made again by the
    engine, which must offer what the referee offered: the same chosen
    action at every decision and the same digest of all of them (a record
    made under other rules, an engine changed since, raises IllegalAction
    rather than being read wrong). A digest of None checks nothing more (a
    record that keeps its offered actions)."""
    events = [event for _, event in replayed(game.new_state(num_players, options), stored)]
    check_offered(events, digest)
    return events


def check_offered(events: list[Event], digest: str | None) -> None:
    """Raise IllegalAction unless the actions offered in these events are
    the ones whose digest the record keeps."""
    if digest is not None and offered_digest(event["offered"] for event in events
                                             if event["kind"] == "decision") != digest:
        raise IllegalAction("the engine offers other actions than the referee did: "
                            "the record was made under other rules")


def _apply_event(state: State, number: int, event: Event | StoredEvent) -> Event:
    """Apply event ``number`` to ``state``; returns it whole (a stored
    decision with the actions the engine offers there)."""
    if event["kind"] == "chance":
        if state.current_player() != CHANCE:
            raise IllegalAction(f"event {number}: chance recorded where a decision is due")
        state.apply_chance(tuple(event["values"]))
        return event
    if event["kind"] == "retire":
        state.retire(event["seat"])
        return event
    if state.current_player() != event["seat"]:
        raise IllegalAction(f"event {number}: seat {event['seat']} recorded, "
                            f"seat {state.current_player()} is to decide")
    if "action" not in event:
        offered = event["offered"]
    else:
        offered, chosen = state.legal_actions(), cast(ChosenEvent, event)
        if not 0 <= chosen["chosen"] < len(offered) or offered[chosen["chosen"]] != chosen["action"]:
            raise IllegalAction(f"event {number}: the engine does not offer the recorded action at "
                                f"{event['chosen']}: the record was made under other rules")
    state.apply_action(offered[event["chosen"]])
    return decision_event(event["seat"], offered, event["chosen"])
