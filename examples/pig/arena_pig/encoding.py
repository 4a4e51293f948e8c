"""Pig as numbers for learners (arena.games.encoding): the action indices
and the observation that rules.md's "For learners" section lists."""

from __future__ import annotations

from arena.games.base import Action
from arena.games.encoding import RETIRED, SEATED, ActionCode, Encoding, Field, Json, Vector, scaled

PHASES = ("roll", "choose", "over")


class PigEncoding(Encoding):
    ACTIONS = (
        ActionCode("roll", 1, "`{\"choice\": \"roll\"}`"),
        ActionCode("hold", 1, "`{\"choice\": \"hold\"}`"),
    )
    FIELDS = (
        SEATED, RETIRED,
        Field("turn", 4, "the slot whose turn it is"),
        Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
        Field("scores", 4, "each slot's banked points / the target, capped at 1"),
        Field("turn_total", 1, "the points of this turn so far / the target, capped at 1"),
        Field("die", 6, "the latest roll, one-hot 1 to 6"),
        Field("target", 1, "the target / 1000"),
        Field("turns", 1, "turns played / the turn cap"),
    )

    def action_index(self, action: Action, state: Json) -> int:
        return 0 if action["choice"] == "roll" else 1

    def fill(self, state: Json, seat: int, out: Vector) -> None:
        offsets, target = self.offsets, state["target"]
        self.seated(out)
        self.seats_field(out, "retired", state["retired"], seat)
        self.seats_field(out, "turn", [state["turn"]], seat)
        self.one_hot(out, "phase", PHASES.index(state["phase"]))
        for other, score in enumerate(state["scores"]):
            out[offsets["scores"] + (other - seat) % self.players] = scaled(score, target)
        out[offsets["turn_total"]] = scaled(state["turn_total"], target)
        if state["die"] is not None:
            out[offsets["die"] + state["die"] - 1] = 1.0
        out[offsets["target"]] = scaled(target, 1000)
        out[offsets["turns"]] = scaled(state["turns"], self.game.turn_cap)
