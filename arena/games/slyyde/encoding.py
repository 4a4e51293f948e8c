"""Slyyde as numbers for learners (arena.games.encoding): the action
indices and the observation the rules document's "For learners" section
lists."""

from __future__ import annotations

from arena.games.base import Action
from arena.games.encoding import RETIRED, SEATED, ActionCode, Encoding, Field, Json, Vector, scaled
from arena.games.slyyde.engine import GAME

SQUARES = len(GAME.board["squares"])
PHASES = ("rolloff", "roll", "move", "back6", "over")
ROLLS = 100  # the scale of a seat's roll count


class SlyydeEncoding(Encoding):
    ACTIONS = (
        ActionCode("move", 2, "`{\"move\": \"roll\", ...}` 0, `{\"move\": \"diagonal\", ...}` 1"),
        ActionCode("back6", 4, "`{\"back6\": S}`: 2 + S"),
        ActionCode("roll", 1, "the turn's roll: the environments' own step before every roll from the seat's "
                              "stream, the only action then (half the two-seat games have no other choice; bots "
                              "are never asked it)"),
    )
    ROLL_STEP = 6
    FIELDS = (
        SEATED, RETIRED,
        Field("turn", 4, "the slot whose turn it is (none during the roll-off)"),
        Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
        Field("positions", 4 * SQUARES, f"each slot's square, one-hot ({SQUARES} a slot)"),
        Field("rolls", 4, f"each slot's turn rolls / {ROLLS}, capped at 1"),
        Field("contenders", 4, "the slots still in the roll-off"),
        Field("first_player", 4, "the slot that started (none until known)"),
        Field("die", 6, "the latest turn roll, one-hot 1 to 6"),
        Field("turns", 1, "turns played / the turn cap"),
    )

    def action_index(self, action: Action, state: Json) -> int:
        if "move" in action:
            return 0 if action["move"] == "roll" else 1
        return 2 + action["back6"]

    def fill(self, state: Json, seat: int, out: Vector) -> None:
        offsets = self.offsets
        self.seated(out)
        self.seats_field(out, "retired", state["retired"], seat)
        self.seats_field(out, "turn", [state["turn"]], seat)
        self.one_hot(out, "phase", PHASES.index(state["phase"]))
        players = self.players
        for other, square in enumerate(state["positions"]):
            slot = (other - seat) % players
            out[offsets["positions"] + slot * SQUARES + square] = 1.0
            out[offsets["rolls"] + slot] = scaled(state["rolls"][other], ROLLS)
        self.seats_field(out, "contenders", state["contenders"], seat)
        self.seats_field(out, "first_player", [state["first_player"]], seat)
        if state["die"] is not None:
            out[offsets["die"] + state["die"] - 1] = 1.0
        out[offsets["turns"]] = scaled(state["turns"], state["turn_cap"])
