"""Random playouts: the in-process driver used by the conformance suite,
the tests' sample games and the benchmarks. It plays the rules, it decides
none: every rule decision lives in the game's own rules document."""

from __future__ import annotations

import random
from typing import Any

from arena.games.base import CHANCE, TERMINAL, Game, State
from arena.games.dice import DiceStreams
from arena.games.events import chance_event, decision_event
from arena.model import Event


def random_playout(game: Game, num_players: int, seed: int,
                   options: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
    """Play one game with uniformly random decisions; return the final state
    and the record's events. Chance comes from the seeded streams, decisions
    from their own generator, both derived from ``seed``."""
    state = game.new_state(num_players, options)
    dice = DiceStreams(seed)
    chooser = random.Random(seed)
    events: list[Event] = []
    while (seat := state.current_player()) != TERMINAL:
        if seat == CHANCE:
            request = state.chance_request()
            values = dice.draw(request)
            events.append(chance_event(state, values, request))
            state.apply_chance(values)
        else:
            offered = state.legal_actions()
            chosen = _below(chooser, len(offered))
            events.append(decision_event(seat, offered, chosen))
            state.apply_action(offered[chosen])
    return state, events


def _below(chooser: random.Random, n: int) -> int:
    """``chooser.randrange(n)``, the same value, without its argument checks
    (CPython's randrange(n) is _randbelow(n): getrandbits of n.bit_length()
    bits, drawn again while too large)."""
    bits = n.bit_length()
    value = chooser.getrandbits(bits)
    while value >= n:
        value = chooser.getrandbits(bits)
    return value
