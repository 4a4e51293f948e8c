"""Detour as numbers for learners (arena.games.encoding): the action
indices and the observation the rules document's "For learners" section
lists."""

from __future__ import annotations

from typing import Any

from arena.games.base import Action
from arena.games.detour.engine import GAME
from arena.games.encoding import RETIRED, SEATED, ActionCode, Encoding, Field, Json, Vector, scaled

SPACES = len(GAME.board["spaces"])
CENTRE = GAME.board["centre"]
TOWARD = [port["space"] for port in GAME.board["spaces"][CENTRE]["ports"]]  # by centre port 0..3
PHASES = ("roll", "choose", "direction", "wheel", "popoff", "popoff_start", "own_start", "over")
TURNS = ("cw", "ccw", "half")
PIECES = 8  # four colours of two pieces at most
PIECE_SIZE = 3 + SPACES + 4


class DetourEncoding(Encoding):
    ACTIONS = (
        ActionCode("choose", 12, "`{\"piece\": i, \"die\": d}`: 6 × (i mod 2) + d − 1 (the colour's lower piece "
                                 "first, each die value)"),
        ActionCode("toward", 4, "`{\"toward\": s}`: the centre's port leading to s, 0 north-east to 3 north-west "
                                "(spaces " + ", ".join(map(str, TOWARD)) + ")"),
        ActionCode("wheel", 12, "`{\"wheel\": w, \"turn\": t}`: 3w + (0 cw, 1 ccw, 2 half)"),
        ActionCode("start", 2, "`{\"start\": 0}`, `{\"start\": 1}` (a pop-off's loser, or two colours "
                               "that collided)"),
    )
    FIELDS = (
        SEATED, RETIRED,
        Field("turn", 4, "the slot whose turn it is (`seat`)"),
        Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
        Field("dice", 2, "the dice rolled this turn, each value / 6 (0: none)"),
        Field("wheels", 16, "one-hot orientation k of each wheel A, B, C, D (4 each)"),
        Field("pieces", PIECES * PIECE_SIZE,
              f"8 pieces of {PIECE_SIZE} numbers, the observer's first, then by slot, lower id first: "
              f"1 if the piece exists, 1 if its colour is the one to play, 1 if finished, "
              f"its space one-hot ({SPACES}), its port one-hot (4)"),
        Field("queue", 2 * (PIECES + 1), "the moves still to make this turn, two at most: the piece "
                                         "(its place among the pieces above, one-hot 8) and the die / 6"),
        Field("popoff", 3 * PIECES, "during a pop-off: the mover, the defender and the loser once known, "
                                    "each one-hot over the pieces above"),
        Field("own", 2 * PIECES, "during `own_start`: the moving piece and the other, one-hot over the pieces"),
        Field("turns", 1, "turns completed / the turn cap"),
    )

    def action_index(self, action: Action, state: Json) -> int:
        if "die" in action:
            return 6 * (action["piece"] % 2) + action["die"] - 1
        if "toward" in action:
            return 12 + TOWARD.index(action["toward"])
        if "wheel" in action:
            return 16 + 3 * action["wheel"] + TURNS.index(action["turn"])
        return 28 + action["start"]

    def fill(self, state: Json, seat: int, out: Vector) -> None:
        offsets = self.offsets
        self.seated(out)
        self.seats_field(out, "retired", state["retired"], seat)
        self.seats_field(out, "turn", [state["seat"]], seat)
        self.one_hot(out, "phase", PHASES.index(state["phase"]))
        for i, die in enumerate(state["dice"][:2]):
            out[offsets["dice"] + i] = die / 6
        for wheel, k in enumerate(state["wheels"]):
            out[offsets["wheels"] + 4 * wheel + k] = 1.0
        order = self.piece_order(state, seat)
        place = {piece: i for i, piece in enumerate(order)}
        pieces: list[dict[str, Any]] = state["pieces"]
        for i, piece_id in enumerate(order):
            piece = pieces[piece_id]
            base = offsets["pieces"] + i * PIECE_SIZE
            out[base] = 1.0
            out[base + 1] = 1.0 if piece["colour"] == state["colour"] else 0.0
            out[base + 2] = 1.0 if piece["finished"] else 0.0
            if piece["space"] is not None:
                out[base + 3 + piece["space"]] = 1.0
                out[base + 3 + SPACES + piece["port"]] = 1.0
        for i, move in enumerate(state["queue"][:2]):
            base = offsets["queue"] + i * (PIECES + 1)
            out[base + place[move["piece"]]] = 1.0
            out[base + PIECES] = scaled(move["die"], 6)
        popoff = state["popoff"]
        if popoff is not None:
            for i, key in enumerate(("mover", "defender", "loser")):
                if popoff[key] is not None:
                    out[offsets["popoff"] + i * PIECES + place[popoff[key]]] = 1.0
        if state["own"] is not None:
            for i, piece_id in enumerate(state["own"][:2]):
                out[offsets["own"] + i * PIECES + place[piece_id]] = 1.0
        out[offsets["turns"]] = scaled(state["turns"], state["turn_cap"])

    def piece_order(self, state: Json, seat: int) -> list[int]:
        """The piece ids as the observer lists them: by slot of their seat, then id."""
        players = self.players
        return sorted(range(len(state["pieces"])),
                      key=lambda i: ((state["pieces"][i]["seat"] - seat) % players, i))
