"""The luck of every roll of a game, from its record.

The events are replayed on the engine. Before each chance event the state
says what chance draws (``ChanceRequest``: ``count`` independent dice of
``sides`` faces, every ordered tuple of values equally likely); each seat's
luck at that event is the value of the state after the drawn values minus
the mean value of the states after the outcomes: every ordered tuple where
there are at most ``ENUMERATED`` of them (two dice: 36; no outcomes are
merged, since an engine may tell two orders of the same dice apart), else
``SAMPLES`` tuples drawn uniformly from a generator seeded by the game's
seed and the event's number (so the figures are reproducible; a sample
mean has the mean's expectation, which keeps each term's mean zero).
``stored_luck`` is the form the store keeps (``games.luck``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from arena import results
from arena.errors import ArenaError
from arena.games import get_game
from arena.games.base import ChanceRequest, State
from arena.games.dice import stream_seed
from arena.games.events import replay
from arena.luck.values import PointValues, point_values
from arena.model import Event, StoredEvent

ENUMERATED = 216   # outcomes enumerated whole (three dice); more are sampled
SAMPLES = 64       # outcomes sampled where there are more


@dataclass(frozen=True)
class RollLuck:
    """The luck of one chance event (``event``: its index in the record) for each seat."""

    event: int
    seats: tuple[float, ...]


@dataclass(frozen=True)
class GameLuck:
    """The luck of every chance event of a game and each seat's total."""

    rolls: tuple[RollLuck, ...]
    totals: tuple[float, ...]

    def adjusted(self, placements: Sequence[int]) -> tuple[float, ...]:
        """Each seat's luck-adjusted result: its points less its luck."""
        return tuple(points - luck for points, luck in zip(results.points(placements), self.totals))

    def to_json(self) -> dict[str, Any]:
        """Compact, as the store keeps it: totals to 1e-6 points, each roll
        to 1e-4 (what a chart shows; each event's purpose is in the record)."""
        return {"totals": [round(luck, 6) for luck in self.totals],
                "rolls": [[roll.event, [round(luck, 4) + 0.0 for luck in roll.seats]] for roll in self.rolls]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameLuck:
        return cls(tuple(RollLuck(event, tuple(seats)) for event, seats in data["rolls"]), tuple(data["totals"]))


def outcomes(request: ChanceRequest, sampler: random.Random) -> Iterator[tuple[int, ...]]:
    """The outcomes the expectation is taken over (module docstring)."""
    faces = range(1, request.sides + 1)
    if request.sides ** request.count <= ENUMERATED:
        yield from itertools.product(faces, repeat=request.count)
        return
    for _ in range(SAMPLES):
        yield tuple(sampler.randint(1, request.sides) for _ in range(request.count))


def expected_values(state: State, value: PointValues, sampler: random.Random) -> list[float]:
    """The mean value, per seat, of the states chance can make from ``state``."""
    request = state.chance_request()
    totals: list[float] = []
    count = 0
    for drawn in outcomes(request, sampler):
        child = state.clone()
        child.apply_chance(drawn)
        values = value(child)
        totals = values if not totals else [t + v for t, v in zip(totals, values)]
        count += 1
    return [total / count for total in totals]


def game_luck(game_name: str, players: int, options: dict[str, Any], events: Sequence[Event | StoredEvent],
              seed: int, value: PointValues | None = None) -> GameLuck:
    """The luck of a recorded game (raises IllegalAction if the events do
    not replay on the engine, as ``arena.games.events.replay`` does)."""
    value = value or point_values(game_name, players)
    rolls: list[RollLuck] = []
    totals = [0.0] * players
    states = replay(get_game(game_name), players, options, events)
    state = next(states)
    for number, event in enumerate(events):
        if event["kind"] == "chance":
            sampler = random.Random(stream_seed(seed, f"luck:{number}"))
            expected = expected_values(state, value, sampler)
            state = next(states)
            actual = value(state)
            luck = tuple(a - e for a, e in zip(actual, expected))
            rolls.append(RollLuck(number, luck))
            totals = [t + x for t, x in zip(totals, luck)]
        else:
            state = next(states)
    return GameLuck(tuple(rolls), tuple(totals))



def stored_luck(game_name: str, players: int, options: dict[str, Any], events: Sequence[Event | StoredEvent],
                seed: int) -> dict[str, Any]:
    """A stored game's luck as ``games.luck`` keeps it: ``GameLuck.to_json``,
    or ``{"problem": why}`` where it cannot be measured (a game without an
    evaluation or engine here, a record that no longer replays), so that
    the game is not tried again and again."""
    try:
        return game_luck(game_name, players, options, events, seed).to_json()
    except (ArenaError, KeyError, IndexError, TypeError, ValueError) as exc:
        return {"problem": f"the luck of this game cannot be measured: {exc}"}
