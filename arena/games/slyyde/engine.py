"""Slyyde: a race along a square spiral to the centre, for 1 to 4 players.

Each player has one pawn. A turn is one roll of one die and the move it
gives; a 6 earns another turn. Landing squares act: Slyyde Triangles throw the
lander forward to their Safe square and sweep the pawns on their straight
path there too, Back-6 squares let the lander send an opponent back six,
landing on an opponent sends it back six, and a pawn that starts its turn on
a black square may take the diagonal shortcut on a 1 or a 6. Solo play is a
race against the roll counter.

Most turns hold no choice, so a state whose only possible step is to roll is
a CHANCE state; decisions exist only where the rulebook gives one: the black
square's diagonal, and which opponent a Back-6 square sends back. The rules
as implemented, and every decision on a point the rulebook leaves open, are
in ``seeds/slyyde.md``; the decision numbers below refer to it.
"""

from __future__ import annotations

from typing import Any

from arena.games.base import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Game,
    IllegalAction,
    InvalidOptions,
    Outcome,
    State,
    Termination,
    race_placements,
)
from arena.games.slyyde import board as slyyde_board

TURN_CAP = 1000
BACK_STEPS = 6

# The engine's lookup tables, read from the same board data GAME.board holds.
BOARD = slyyde_board.board_data()
START: int = BOARD["start"]
CENTRE: int = BOARD["centre"]
IMMUNE: frozenset[int] = frozenset(BOARD["immune"])
DIAGONAL: dict[int, int] = {b["square"]: b["diagonal"] for b in BOARD["black"]}
TRIANGLE: dict[int, tuple[int, tuple[int, ...]]] = {
    t["square"]: (t["safe"], tuple(t["path"])) for t in BOARD["triangles"]}
BACK6_SQUARES: frozenset[int] = frozenset(BOARD["back6"])

# Phases: "rolloff" and "roll" are chance, "move" and "back6" are decisions.
ROLLOFF, ROLL, MOVE, BACK6, OVER = "rolloff", "roll", "move", "back6", "over"


class SlyydeState(State):
    """One position. Positions are track numbers, 0 (Start) to 99 (Centre)."""

    def __init__(self, players: int, positions: list[int], rolls: list[int], phase: str,
                 turn: int | None, first_player: int | None, contenders: list[int],
                 die: int | None, turns: int, winner: int | None, ending: str | None,
                 last: list[dict[str, Any]], retired: list[int] | None = None) -> None:
        self.players = players
        self.positions = positions
        self.rolls = rolls
        self.phase = phase
        self.turn = turn
        self.first_player = first_player
        self.contenders = contenders
        self.die = die
        self.turns = turns
        self.winner = winner
        self.ending = ending
        self.last = last
        self.retired = [] if retired is None else retired
        self._legal: list[Action] | None = None

    # ----------------------------------------------------------- set-up

    @classmethod
    def initial(cls, num_players: int, options: dict[str, Any]) -> SlyydeState:
        first = options.get("first_player")
        if first is not None and (isinstance(first, bool) or not isinstance(first, int)
                                  or not 0 <= first < num_players):
            raise InvalidOptions(f"first_player must be a seat from 0 to {num_players - 1}, "
                                 f"got {first!r}")
        if num_players == 1:
            first = 0
        phase = ROLL if first is not None else ROLLOFF
        contenders = [] if first is not None else list(range(num_players))
        return cls(num_players, [START] * num_players, [0] * num_players, phase, first,
                   first, contenders, None, 0, None, None, [])

    # -------------------------------------------------------- interface

    def current_player(self) -> int:
        if self.phase in (ROLL, ROLLOFF):
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self._seat()

    def _seat(self) -> int:
        """The seat whose turn it is: known once the roll-off is over."""
        assert self.turn is not None, "no seat has the turn during the roll-off"
        return self.turn

    def chance_request(self) -> ChanceRequest:
        if self.phase == ROLL:
            return _ROLLS[self._seat()]
        if self.phase == ROLLOFF:
            return ChanceRequest("rolloff", len(self.contenders), 6, "rolloff")
        raise IllegalAction(f"no chance is due in phase {self.phase!r}")

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[Action]:
        if self.phase == MOVE:
            assert self.die is not None, "a move is chosen after a roll"
            here = self.positions[self._seat()]
            return [{"move": "roll", "to": forward_target(here, self.die)},
                    {"move": "diagonal", "to": DIAGONAL[here]}]
        if self.phase == BACK6:
            return [{"back6": seat} for seat in self._back6_targets()]
        return []

    def apply_chance(self, values: tuple[int, ...]) -> None:
        if self.phase == ROLLOFF:
            self._begin()
            self._rolloff(values)
        elif self.phase == ROLL:
            self._begin()
            self._roll(values[0])
        else:
            raise IllegalAction(f"no chance is due in phase {self.phase!r}")

    def _apply(self, action: Action) -> None:
        self._begin()
        seat = self._seat()
        if self.phase == MOVE:
            target = action["to"]
            self._move(seat, target, "diagonal" if action["move"] == "diagonal" else "move")
        else:
            self.phase = ROLL  # provisional: _end_turn decides what follows
            self._send_back(action["back6"], seat, "back6")
            self._end_turn()

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        scores = (self.rolls[0],) if self.players == 1 else None
        if self.ending == "turn_cap":
            return Outcome(race_placements(self.players, None, self.retired), Termination.TURN_CAP, scores)
        assert self.winner is not None, "a game over without a turn cap has a winner"
        # Decision 22: the first pawn home wins; the others tie behind it.
        return Outcome(race_placements(self.players, self.winner, self.retired), Termination.NORMAL, scores)

    # ----------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "slyyde",
            "players": self.players,
            "phase": self.phase,
            "turn": self.turn,
            "first_player": self.first_player,
            "contenders": list(self.contenders),
            "positions": list(self.positions),
            "rolls": list(self.rolls),
            "die": self.die,
            "turns": self.turns,
            "turn_cap": TURN_CAP,
            "winner": self.winner,
            "ending": self.ending,
            "retired": list(self.retired),
            "last": [_copy_effect(effect) for effect in self.last],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SlyydeState:
        return cls(data["players"], list(data["positions"]), list(data["rolls"]),
                   data["phase"], data["turn"], data["first_player"],
                   list(data["contenders"]), data["die"], data["turns"], data["winner"],
                   data["ending"], [_copy_effect(effect) for effect in data["last"]],
                   list(data["retired"]))

    def clone(self) -> SlyydeState:
        # Effects in `last` are never mutated once recorded, so sharing them is safe.
        return SlyydeState(self.players, list(self.positions), list(self.rolls), self.phase,
                           self.turn, self.first_player, list(self.contenders), self.die,
                           self.turns, self.winner, self.ending, list(self.last),
                           list(self.retired))

    # ----------------------------------------------------------- retiring

    def retire(self, seat: int) -> None:
        """The seat's pawn leaves the race (decisions 23-26)."""
        self._check_retire(seat, self.players, self.retired)
        self._begin()
        self.retired.append(seat)
        self.last.append({"cause": "retire", "seat": seat})
        active = self.active()
        if len(active) == 1:
            self._finish(active[0])
        elif self.phase == ROLLOFF:
            if seat in self.contenders:
                self.contenders.remove(seat)
                if len(self.contenders) == 1:   # the one left tied for highest starts
                    self.first_player = self.turn = self.contenders[0]
                    self.contenders = []
                    self.phase = ROLL
                    self.last.append({"cause": "first_player", "seat": self.turn})
        elif self.turn == seat:
            self.phase = ROLL   # its turn ends here, with whatever it had left
            self.die = None
            self.turn = self._next_active(seat)
        elif self.phase == BACK6:
            targets = self._back6_targets()
            mover = self._seat()
            if len(targets) == 1:
                self._send_back(targets[0], mover, "back6")  # decision 12
            elif not targets:
                self.last.append({"cause": "back6_none", "seat": mover})
            if len(targets) <= 1:
                self._end_turn()

    def active(self) -> list[int]:
        """The seats still in the game, in seat order."""
        return [seat for seat in range(self.players) if seat not in self.retired]

    def _next_active(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that is still in the game."""
        retired = self.retired
        for other in _OTHERS[self.players][seat]:
            if other not in retired:
                return other
        raise StopIteration  # (as next() on no seat left: a game of one never asks)

    # ----------------------------------------------------------- rules

    def _begin(self) -> None:
        """Start a new step: forget the cached actions and the last effects."""
        self._legal = None
        self.last = []

    def _rolloff(self, values: tuple[int, ...]) -> None:
        """Everyone still in the roll-off rolls; the highest starts, ties
        re-roll among themselves."""
        for seat, value in zip(self.contenders, values):
            self.last.append({"cause": "rolloff", "seat": seat, "die": value})
        best = max(values)
        self.contenders = [seat for seat, value in zip(self.contenders, values) if value == best]
        if len(self.contenders) == 1:
            self.first_player = self.turn = self.contenders[0]
            self.contenders = []
            self.phase = ROLL
            self.last.append({"cause": "first_player", "seat": self.turn})

    def _roll(self, die: int) -> None:
        seat = self._seat()
        self.die = die
        self.rolls[seat] += 1
        self.turns += 1
        self.last.append({"cause": "roll", "seat": seat, "die": die})
        here = self.positions[seat]
        if here in DIAGONAL and die in (1, 6):
            self.phase = MOVE  # the black square's option is a decision
            return
        self._move(seat, forward_target(here, die), "move")

    def _move(self, seat: int, target: int, cause: str) -> None:
        """The mover's own move forward (by the die or the diagonal), then
        whatever the landing square triggers, then the end of the turn."""
        here = self.positions[seat]
        self.phase = ROLL  # provisional: a Back-6 choice or _end_turn may change it
        if target == here:
            self.last.append({"cause": "stay", "seat": seat, "at": here})  # decision 9
            self._end_turn()
            return
        path = list(range(here, target + 1)) if cause == "move" else [here, target]
        self.positions[seat] = target
        self.last.append({"cause": cause, "seat": seat, "from": here, "to": target, "path": path})
        if target == CENTRE:
            self._finish(seat)
            return
        if target in TRIANGLE:
            self._slyyde(seat, target)
        elif target not in IMMUNE:
            self._bump_all(seat, target)
        if target in BACK6_SQUARES and self.players > 1:
            targets = self._back6_targets()
            if len(targets) > 1:
                self.phase = BACK6
                return
            if targets:
                self._send_back(targets[0], seat, "back6")  # decision 12
            else:
                self.last.append({"cause": "back6_none", "seat": seat})
        self._end_turn()

    def _bump_all(self, mover: int, square: int) -> None:
        """Every opponent on the mover's landing square goes back six, in
        clockwise order from the mover (decision 6)."""
        if self.positions.count(square) < 2:  # the mover alone
            return
        for seat in self._others(mover):
            if self.positions[seat] == square and seat not in self.retired:
                self._send_back(seat, mover, "bump")

    def _send_back(self, seat: int, by: int, cause: str) -> None:
        """Move a pawn back six along the track, never below the Start; only a
        triangle acts on a pawn moved backward (decisions 2-5)."""
        here = self.positions[seat]
        target = max(START, here - BACK_STEPS)
        self.positions[seat] = target
        self.last.append({"cause": cause, "seat": seat, "by": by, "from": here, "to": target,
                          "path": list(range(here, target - 1, -1))})
        if target in TRIANGLE:
            self._slyyde(seat, target)

    def _slyyde(self, seat: int, triangle: int) -> None:
        """The pawn on a triangle goes to its Safe square; every other pawn on
        the straight path that is not on a Safe square goes there too."""
        safe, line = TRIANGLE[triangle]
        self.positions[seat] = safe
        self.last.append({"cause": "slyyde", "seat": seat, "from": triangle, "to": safe,
                          "path": [triangle, *line, safe]})
        for other in self._others(seat):
            here = self.positions[other]
            if here in line and here not in IMMUNE and other not in self.retired:
                self.positions[other] = safe
                self.last.append({"cause": "sweep", "seat": other, "by": seat, "from": here,
                                  "to": safe, "path": [*line[line.index(here):], safe]})

    def _back6_targets(self) -> list[int]:
        return [seat for seat in range(self.players)
                if seat != self.turn and self.positions[seat] not in IMMUNE
                and seat not in self.retired]

    def _end_turn(self) -> None:
        if self.turns >= TURN_CAP:
            self.phase = OVER
            self.ending = "turn_cap"
            self.last.append({"cause": "turn_cap", "turns": self.turns})
            return
        self.phase = ROLL
        if self.die == 6:
            self.last.append({"cause": "extra_turn", "seat": self.turn})
        else:
            self.turn = self._next_active(self._seat()) if self.players > 1 else self._seat()

    def _finish(self, seat: int) -> None:
        self.phase = OVER
        self.winner = seat
        self.ending = "normal"
        self.last.append({"cause": "win", "seat": seat})

    def _others(self, seat: int) -> tuple[int, ...]:
        """The other seats in clockwise (seat) order, starting after ``seat``."""
        return _OTHERS[self.players][seat]


# _OTHERS[players][seat]: the other seats clockwise from ``seat``.
_OTHERS = {players: tuple(tuple((seat + step) % players for step in range(1, players))
                          for seat in range(players)) for players in range(1, 5)}
# Chance requests are values: one roll request per seat is enough.
_ROLLS = tuple(ChanceRequest(f"seat:{seat}", 1, 6, "roll") for seat in range(4))


def forward_target(here: int, die: int) -> int:
    """Where a forward move by ``die`` ends: the exact Centre or short of it;
    a roll that overshoots leaves the pawn where it is."""
    target = here + die
    return target if target <= CENTRE else here


def _copy_effect(effect: dict[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, list) else value
            for key, value in effect.items()}


# GAME needs the state class, so it closes the module.
GAME = Game(
    name="slyyde",
    min_players=1,
    max_players=4,
    turn_cap=TURN_CAP,
    state_class=SlyydeState,
    board=BOARD,
    options={"first_player": "the seat that starts, skipping the roll-off; tournaments "
                             "never set it (seeds/slyyde.md, decision 21)"},
)
SlyydeState.game = GAME
