"""The interface every game engine implements.

A game is a pure, deterministic state machine. At every point exactly one of
three things is true of a state:

* a seat must decide: ``current_player()`` is that seat (0-based) and
  ``legal_actions()`` lists the choices, JSON-able dicts in a stable order;
* chance acts next: ``current_player()`` is ``CHANCE`` and ``chance_request()``
  says which seeded stream is drawn from and how many dice of how many sides;
* the game is over: ``current_player()`` is ``TERMINAL`` and ``outcome()``
  places every seat and says how it ended.

A seat may also retire at any moment (``retire``): its bot forfeited and
the others play on without it.

The state never draws random numbers itself. The referee (or a search bot)
draws from a :class:`arena.games.dice.DiceStreams` and feeds the values back
with ``apply_chance``, so a game is fully reproduced by its recorded events.
``to_json()`` is exactly what a bot sees, what the replay stores and what the
leaderboard draws.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from arena import results
from arena.model import Termination as Termination  # the engines end games with its members

Action = dict[str, Any]

CHANCE = -1
TERMINAL = -2


class IllegalAction(ValueError):
    """An action that is not among the legal actions of the state."""


class InvalidOptions(ValueError):
    """Options or a player count that the game does not support."""


@dataclass(frozen=True)
class ChanceRequest:
    """What chance does next: roll ``count`` dice with ``sides`` faces each
    from the seeded stream named ``stream``.

    Streams are named so that luck belongs to whoever it belongs to in the
    rulebook: ``"seat:N"`` for the dice seat N rolls on its turns, and a
    name of its own for anything else (``"rolloff"``, ``"popoff"``...).
    ``purpose`` is a short word for the replay and the bots ("roll",
    "rolloff", "popoff", "restock").
    """

    stream: str
    count: int
    sides: int = 6
    purpose: str = "roll"

    def to_json(self) -> dict[str, Any]:
        return {"stream": self.stream, "count": self.count,
                "sides": self.sides, "purpose": self.purpose}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended by its rules.

    ``placements`` holds one placement per seat: 1 is best, seats that tie
    share a placement, and placements follow competition ranking (two seats
    tied first, the next is third: ``(1, 1, 3)``). Seats that retired rank
    below every seat still in the game and tie among themselves.
    ``termination`` is ``NORMAL`` (the rules decided), ``TURN_CAP`` (the
    game's turn cap) or ``STALEMATE`` (no one can ever move again); those
    two tie every seat still in the game. The referee adds forfeits of its
    own. ``scores`` carries game points where the game has them (a points
    game's totals, a solo race's roll count), else None.
    """

    placements: tuple[int, ...]
    termination: Termination = Termination.NORMAL
    scores: tuple[float, ...] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats placed first; none when every seat shares first place
        (a draw), or when a solo game did not end by its rules."""
        if len(self.placements) == 1 and self.termination is not Termination.NORMAL:
            return ()
        return results.winners(self.placements)


def competition_placements(keys: Sequence[Any]) -> tuple[int, ...]:
    """Placements from one sort key per seat (lower is better; equal keys
    tie): each seat is placed one below the number of seats ahead of it."""
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


def race_placements(players: int, winner: int | None, retired: Sequence[int]) -> tuple[int, ...]:
    """A race's placements: the winner first, every other seat still in the
    game tied behind it, the retired seats tied last. With no winner (a turn
    cap, a stalemate) every seat still in the game ties for first."""
    out = set(retired)
    return competition_placements([2 if seat in out else 0 if seat == winner else 1
                                   for seat in range(players)])


class State(ABC):
    """One position of one game. Mutable: ``apply_*`` change it in place;
    ``clone()`` gives an independent copy for search."""

    game: ClassVar[Game]

    @classmethod
    @abstractmethod
    def initial(cls, num_players: int, options: dict[str, Any]) -> State:
        """The starting position (options already checked by name; values are
        checked here, raising InvalidOptions)."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat that decides next, or CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The choices of the deciding seat, in a stable order; never empty
        while a seat is to decide."""

    @abstractmethod
    def chance_request(self) -> ChanceRequest:
        """What chance draws next; only when current_player() is CHANCE."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def apply_chance(self, values: tuple[int, ...]) -> None:
        """Apply the values drawn for chance_request()."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result; only when current_player() is TERMINAL."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (what a bot sees)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """Rebuild a state from ``to_json()``."""

    @abstractmethod
    def retire(self, seat: int) -> None:
        """Take ``seat`` out of the game (its bot forfeited; the others play
        on), at any moment before the end. From then on it never decides and
        never rolls; whatever was pending that involves it is resolved as
        the game's rules document says. When one seat is left of several,
        the game is over and that seat wins. Raises IllegalAction for a seat
        not in the game or a game already over."""

    def _check_retire(self, seat: int, players: int, retired: Sequence[int]) -> None:
        """Refuse a retirement that cannot happen (every engine's first step)."""
        if self.current_player() == TERMINAL:
            raise IllegalAction(f"the game is over: seat {seat!r} cannot retire")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise IllegalAction(f"no seat {seat!r} in a game of {players}")
        if seat in retired:
            raise IllegalAction(f"seat {seat} has already retired")
        if players == 1:
            raise IllegalAction("the only seat of a solo game cannot retire: "
                                "nobody is left to play on")

    def apply_action(self, action: Action) -> None:
        """Apply a decision, refusing anything that was not offered."""
        if self.current_player() < 0:
            raise IllegalAction(f"no decision is due, got {action!r}")
        if action not in self.legal_actions():
            raise IllegalAction(f"action not offered: {action!r}")
        self._apply(action)

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def clone(self) -> State:
        return copy.deepcopy(self)


@dataclass(frozen=True)
class Game:
    """A registered game: its facts and how to make its states.

    ``turn_cap`` is the number of turns after which the engine ends the game
    as a draw (``Termination.TURN_CAP``); each rules document says what a turn
    is. ``options`` names the options ``new_state`` accepts, with a one-line
    description each. ``board`` is the board as data, with coordinates to
    draw it, shared by the engine and the leaderboard.
    """

    name: str
    min_players: int
    max_players: int
    turn_cap: int
    state_class: type[State]
    board: dict[str, Any]
    options: dict[str, str] = field(default_factory=dict)

    def new_state(self, num_players: int, options: dict[str, Any] | None = None) -> State:
        """The initial state; raises InvalidOptions for an unsupported player
        count or option."""
        options = dict(options or {})
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(
                f"{self.name} is for {self.min_players} to {self.max_players} "
                f"players, not {num_players}")
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise InvalidOptions(f"{self.name} has no option {unknown[0]!r} "
                                 f"(available: {', '.join(sorted(self.options)) or 'none'})")
        return self.state_class.initial(num_players, options)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return self.state_class.from_json(data)
