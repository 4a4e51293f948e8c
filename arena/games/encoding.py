"""A game as numbers, for learners: a fixed index for every action the game
can offer, and a flat vector of numbers for what one seat sees.

The legal lists of a game vary from decision to decision; a learner needs
one fixed set of action indices per game, with a mask of the legal ones,
and an observation of one fixed size. A game's package brings both as an
``Encoding`` subclass named in its ``GameSpec`` (``encoding``), as it brings
its evaluation for the house bots; ``arena.env`` turns it into PettingZoo
and Gymnasium environments, and ``arena.env.serve_policy`` into a bot.

Both halves read only what a bot is sent over the protocol: the state's
``to_json()`` (the seat's own view; arena's games hide nothing today, but an
encoding never reaches into the engine) and the offered action dicts. The
observation is written for one *observer*: seats are taken in turn order
from the observer's, so slot 0 is always the observer itself, slot 1 the
seat after it, and so on (``Encoding.slot``).

Every field is in [0, 1]: one-hots and flags as 0 or 1, counts and totals
divided by a named scale and capped at 1. Each field is documented in the
game's rules document, in the table ``reference()`` writes (a test checks
the document holds it as written).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from arena.games.base import Action, Game

if TYPE_CHECKING:  # numpy only where an observation is made: bots in the box import the games without it
    import numpy as np

Json = dict[str, Any]
Vector: TypeAlias = "np.ndarray[Any, np.dtype[np.float32]]"
SEATS = 4  # arena's games seat at most four: every per-seat field has four slots


@dataclass(frozen=True)
class Field:
    """``size`` numbers of the observation, starting at the field's offset."""

    name: str
    size: int
    words: str


@dataclass(frozen=True)
class ActionCode:
    """A range of action indices (``first`` to ``first + size - 1``) and what they are."""

    name: str
    size: int
    words: str


class Encoding(ABC):
    """One game's numbers, for one player count and option set.

    Subclasses declare ``ACTIONS`` and ``FIELDS`` (in order: their sizes add
    up to the action count and the observation size) and implement
    ``action_index`` and ``fill``. Both must hold whatever the options and
    player count, so a game's spaces are one shape for all of them.
    """

    ACTIONS: ClassVar[tuple[ActionCode, ...]]
    FIELDS: ClassVar[tuple[Field, ...]]
    # The index of a "roll" step, for a game whose seats may go a whole game
    # without a choice (Slyyde): the environments then ask a seat for it
    # before each roll from its own stream ("seat:N"), the one action
    # offered, so every seat has a decision each turn. Bots are never asked.
    ROLL_STEP: ClassVar[int | None] = None

    def __init__(self, game: Game, players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = players
        self.options = dict(options)
        self.offsets: dict[str, int] = {}
        offset = 0
        for item in self.FIELDS:
            self.offsets[item.name] = offset
            offset += item.size
        self.size = offset
        self.action_offsets: dict[str, int] = {}
        offset = 0
        for code in self.ACTIONS:
            self.action_offsets[code.name] = offset
            offset += code.size
        self.action_count = offset

    # -- what a game's encoding says ----------------------------------------------------------

    @abstractmethod
    def action_index(self, action: Action, state: Json) -> int:
        """The fixed index of an offered ``action`` in ``state`` (the state
        it is offered in): two actions offered together never share one."""

    @abstractmethod
    def fill(self, state: Json, seat: int, out: Vector) -> None:
        """Write seat ``seat``'s view of ``state`` into ``out`` (``size``
        zeros on entry)."""

    # -- shared by every game -----------------------------------------------------------------

    def observe(self, state: Json, seat: int) -> Vector:
        """Seat ``seat``'s observation of ``state``, ``size`` numbers in [0, 1]
        (float32: written in place, a few dozen numbers of zeros)."""
        import numpy as np

        out = np.zeros(self.size, dtype=np.float32)
        self.fill(state, seat, out)
        return out

    def slot(self, seat: int | None, observer: int) -> int | None:
        """Seat ``seat`` as the observer sees it: 0 itself, 1 the next seat in turn order."""
        return None if seat is None else (seat - observer) % self.players

    def seat_of(self, slot: int, observer: int) -> int:
        return (observer + slot) % self.players

    def one_hot(self, out: Vector, name: str, index: int | None) -> None:
        """Set position ``index`` of field ``name`` (nothing for None)."""
        if index is not None:
            out[self.offsets[name] + index] = 1.0

    def seats_field(self, out: Vector, name: str, seats: Sequence[int | None], observer: int) -> None:
        """A four-slot field with a 1 at the slot of every seat in ``seats``."""
        for seat in seats:
            if seat is not None:
                out[self.offsets[name] + (seat - observer) % self.players] = 1.0

    def seated(self, out: Vector) -> None:
        """The ``seats`` field every encoding starts with: 1 for each slot that holds a seat."""
        base = self.offsets["seats"]
        for slot in range(self.players):
            out[base + slot] = 1.0


def scaled(value: float, scale: float) -> float:
    """``value / scale``, capped to [0, 1]."""
    return min(max(value / scale, 0.0), 1.0)


def seats_fields(names_words: Sequence[tuple[str, str]]) -> tuple[Field, ...]:
    """Four-slot fields, one per (name, words)."""
    return tuple(Field(name, SEATS, words) for name, words in names_words)


SEATED = Field("seats", SEATS, "1 for each slot that holds a seat of this game (slot 0 is the observer)")
RETIRED = Field("retired", SEATS, "1 for each slot whose seat has retired (its bot forfeited)")


def reference(encoding: type[Encoding]) -> str:
    """The Markdown tables of an encoding's action indices and observation
    fields, as the game's rules document holds them."""
    lines = ["| indices | actions |", "|---|---|"]
    first = 0
    for code in encoding.ACTIONS:
        span = f"{first}" if code.size == 1 else f"{first}-{first + code.size - 1}"
        lines.append(f"| {span} | {code.words} |")
        first += code.size
    lines += ["", f"{first} action indices in all.", "", "| numbers | field | what |", "|---|---|---|"]
    first = 0
    for item in encoding.FIELDS:
        span = f"{first}" if item.size == 1 else f"{first}-{first + item.size - 1}"
        lines.append(f"| {span} | `{item.name}` | {item.words} |")
        first += item.size
    lines += ["", f"{first} numbers in all."]
    return "\n".join(lines) + "\n"
