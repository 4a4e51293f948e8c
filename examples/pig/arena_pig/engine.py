"""Pig: roll a die as often as you dare; a 1 loses the turn's points, holding
banks them; the first to the target wins. rules.md is the rules document.

The engine implements arena's game interface (arena.games.base): a pure
state machine whose only chance is the die of the seat whose turn it is,
drawn by the referee from that seat's own stream.
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
    competition_placements,
)

TARGET = 50          # points to win, unless the "target" option says otherwise
TURN_CAP = 1000      # turns (each seat's turn counts one): then a draw
ROLL, CHOOSE, OVER = "roll", "choose", "over"
ROLL_AGAIN: Action = {"choice": "roll"}
HOLD: Action = {"choice": "hold"}


class PigState(State):
    def __init__(self, players: int, target: int) -> None:
        self.players = players
        self.target = target
        self.scores = [0] * players
        self.turn = 0
        self.turn_total = 0
        self.phase = ROLL
        self.die: int | None = None
        self.turns = 0
        self.winner: int | None = None
        self.ending: str | None = None
        self.retired: list[int] = []
        self.last: list[dict[str, Any]] = []

    @classmethod
    def initial(cls, num_players: int, options: dict[str, Any]) -> PigState:
        target = options.get("target", TARGET)
        if isinstance(target, bool) or not isinstance(target, int) or not 10 <= target <= 1000:
            raise InvalidOptions(f"pig's target is a whole number from 10 to 1000, not {target!r}")
        return cls(num_players, target)

    def current_player(self) -> int:
        return CHANCE if self.phase == ROLL else self.turn if self.phase == CHOOSE else TERMINAL

    def legal_actions(self) -> list[Action]:
        return [dict(ROLL_AGAIN), dict(HOLD)] if self.phase == CHOOSE else []

    def chance_request(self) -> ChanceRequest:
        if self.phase != ROLL:
            raise IllegalAction("no die is due")
        return ChanceRequest(f"seat:{self.turn}", 1)

    def apply_chance(self, values: tuple[int, ...]) -> None:
        if self.phase != ROLL or len(values) != 1 or not 1 <= values[0] <= 6:
            raise IllegalAction(f"expected one die from 1 to 6 for a roll, got {values!r}")
        seat, die = self.turn, values[0]
        self.die = die
        self.last = [{"cause": "roll", "seat": seat, "die": die}]
        if die == 1:
            self.last.append({"cause": "bust", "seat": seat, "lost": self.turn_total})
            self._next_turn()
            return
        self.turn_total += die
        if self.scores[seat] + self.turn_total >= self.target:
            self._bank(seat)
            self._end(seat)
        else:
            self.phase = CHOOSE

    def _apply(self, action: Action) -> None:
        self.last = []
        if action == HOLD:
            self._bank(self.turn)
            self._next_turn()
        else:
            self.phase = ROLL

    def _bank(self, seat: int) -> None:
        self.scores[seat] += self.turn_total
        self.last.append({"cause": "hold", "seat": seat, "banked": self.turn_total, "score": self.scores[seat]})
        self.turn_total = 0

    def _next_turn(self) -> None:
        """A turn played: the next seat's, unless that was the turn cap's."""
        self.turns += 1
        if self.turns >= TURN_CAP:
            self.turn_total = 0
            self.phase, self.ending = OVER, "turn_cap"
            self.last.append({"cause": "turn_cap", "turns": self.turns})
            return
        self._pass_turn()

    def _pass_turn(self) -> None:
        """The turn passes to the next seat still in the game."""
        self.turn_total = 0
        seat = (self.turn + 1) % self.players
        while seat in self.retired:
            seat = (seat + 1) % self.players
        self.turn, self.phase = seat, ROLL

    def _end(self, winner: int) -> None:
        self.phase, self.winner, self.ending = OVER, winner, "normal"
        self.last.append({"cause": "win", "seat": winner})

    def retire(self, seat: int) -> None:
        """The seat's banked points stay but it never plays again; on its own
        turn, the turn's points are lost and the next seat plays."""
        self._check_retire(seat, self.players, self.retired)
        self.retired.append(seat)
        self.last = [{"cause": "retire", "seat": seat}]
        active = [s for s in range(self.players) if s not in self.retired]
        if len(active) == 1:
            self._end(active[0])
        elif seat == self.turn:
            self._pass_turn()  # a turn taken away, not a turn played

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        out = set(self.retired)
        if self.ending == "turn_cap":
            keys = [(1, 0) if seat in out else (0, 0) for seat in range(self.players)]
        else:
            keys = [(2, 0) if seat in out else (0, 0) if seat == self.winner else (1, -self.scores[seat])
                    for seat in range(self.players)]
        return Outcome(competition_placements(keys), Termination(self.ending or "normal"),
                       tuple(float(score) for score in self.scores))

    def to_json(self) -> dict[str, Any]:
        return {"game": "pig", "players": self.players, "target": self.target, "scores": list(self.scores),
                "turn": self.turn, "turn_total": self.turn_total, "phase": self.phase, "die": self.die,
                "turns": self.turns, "winner": self.winner, "ending": self.ending,
                "retired": list(self.retired), "last": [dict(effect) for effect in self.last]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PigState:
        state = cls(data["players"], data["target"])
        state.scores = list(data["scores"])
        state.turn, state.turn_total, state.phase = data["turn"], data["turn_total"], data["phase"]
        state.die, state.turns = data["die"], data["turns"]
        state.winner, state.ending = data["winner"], data["ending"]
        state.retired = list(data["retired"])
        state.last = [dict(effect) for effect in data["last"]]
        return state


GAME = Game(name="pig", min_players=2, max_players=4, turn_cap=TURN_CAP, state_class=PigState, board={},
            options={"target": f"points to win, {TARGET} by default (10 to 1000)"})
PigState.game = GAME
