"""Ciclovia as numbers for learners (arena.games.encoding): the action
indices and the observation the rules document's "For learners" section
lists."""

from __future__ import annotations

from arena.games.base import Action
from arena.games.ciclovia.engine import GAME
from arena.games.encoding import RETIRED, SEATED, ActionCode, Encoding, Field, Json, Vector, scaled

SPACES = len(GAME.board["spaces"])
BLOCKS = len(GAME.board["blocks"])
ENTRIES = list(GAME.board["entries"])
DIRECTIONS = ("N", "E", "S", "W")
LAST_STEPS = (*DIRECTIONS, "reverse")
COLOURS = ("blue", "red", "green", "orange")
PHASES = ("deal", "roll", "turn", "over")
FLAGS = ("stay", "reverse", "stop", "leave")
SCORE, DICE, QUIET = 60, 6, 100  # the scales of a total, a count of dice, turns without progress
RIDER_SIZE = SPACES + 4 + 2 + 4 + 1 + 4 + 1


class CicloviaEncoding(Encoding):
    ACTIONS = (
        ActionCode("step", 4, "`{\"step\": d, ...}` from a street space: 0 N, 1 E, 2 S, 3 W"),
        ActionCode("enter", len(ENTRIES), "`{\"step\": \"E\", \"to\": s}` out of the garage: 4 + the street end's "
                                          "place in the board's `entries` (" + ", ".join(map(str, ENTRIES)) + ")"),
        ActionCode("flag", 4, "`{\"stay\": true}` 8, `{\"reverse\": true}` 9, `{\"stop\": true}` 10, "
                              "`{\"leave\": true}` 11"),
        ActionCode("take", BLOCKS, "`{\"take\": b, ...}`: 12 + b, the block whose die is taken"),
    )
    FIELDS = (
        SEATED, RETIRED,
        Field("to_move", 4, "the slot deciding (`to_move`)"),
        Field("stage", 2, "one-hot: stage 1, stage 2"),
        Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
        Field("move", 9, "the move in progress: steps / 4, allowance / 4, green extra used, "
                         "the last step one-hot (N, E, S, W, reverse), at doors"),
        Field("riders", 4 * RIDER_SIZE,
              f"each slot's rider, {RIDER_SIZE} numbers: its space one-hot ({SPACES}), facing one-hot "
              f"(N, E, S, W), arrived, an orange double waiting, its undoubled dice per colour / {DICE} "
              f"(blue, red, green, orange), its doubled dice / {DICE}, each colour missing (4), "
              f"its total / {SCORE}, capped at 1"),
        Field("blocks", BLOCKS * 10, "each block's die: colour one-hot (blue, red, green, orange) and "
                                     "value one-hot 1 to 6; zeros for an empty block"),
        Field("box", 4, f"dice never yet dealt per colour / {DICE}"),
        Field("light", 4, "the slot that reached the traffic light first"),
        Field("arrival", 4, "the slot that arrived first"),
        Field("final_round", 4, "the slots still owed their last move after an arrival"),
        Field("turns", 1, "moves made / the turn cap"),
        Field("quiet", 1, f"moves since the last die taken, light or arrival / {QUIET}, capped at 1"),
    )

    def action_index(self, action: Action, state: Json) -> int:
        if "step" in action:
            if action["step"] == "E" and action["to"] in ENTRIES:
                return 4 + ENTRIES.index(action["to"])
            return DIRECTIONS.index(action["step"])
        if "take" in action:
            return 12 + action["take"]
        for i, flag in enumerate(FLAGS):
            if flag in action:
                return 8 + i
        raise ValueError(f"not a ciclovia action: {action!r}")

    def fill(self, state: Json, seat: int, out: Vector) -> None:
        offsets = self.offsets
        self.seated(out)
        self.seats_field(out, "retired", state["retired"], seat)
        self.seats_field(out, "to_move", [state["to_move"]], seat)
        self.one_hot(out, "stage", state["stage"] - 1)
        self.one_hot(out, "phase", PHASES.index(state["phase"]))
        move = state["move"]
        if move is not None:
            base = offsets["move"]
            out[base] = scaled(move["steps"], 4)
            out[base + 1] = scaled(move["allowance"], 4)
            out[base + 2] = 1.0 if move["green_extra"] else 0.0
            if move["last_step"] is not None:
                out[base + 3 + LAST_STEPS.index(move["last_step"])] = 1.0
            out[base + 8] = 1.0 if move["at_doors"] else 0.0
        players = self.players
        for rider in state["riders"]:
            base = offsets["riders"] + ((rider["seat"] - seat) % players) * RIDER_SIZE
            out[base + rider["space"]] = 1.0
            base += SPACES
            out[base + DIRECTIONS.index(rider["facing"])] = 1.0
            out[base + 4] = 1.0 if rider["arrived"] else 0.0
            out[base + 5] = 1.0 if rider["double_next"] else 0.0
            held = [0, 0, 0, 0, 0]  # undoubled blue, red, green, orange, then doubled
            for die in rider["dice"]:
                held[4 if die["doubled"] else COLOURS.index(die["colour"])] += 1
            for i, count in enumerate(held):
                out[base + 6 + i] = scaled(count, DICE)
            for colour in rider["missing"]:
                out[base + 11 + COLOURS.index(colour)] = 1.0
            out[base + 15] = scaled(rider["score"], SCORE)
        for block, die in enumerate(state["blocks"]):
            if die is not None:
                base = offsets["blocks"] + 10 * block
                out[base + COLOURS.index(die["colour"])] = 1.0
                out[base + 4 + die["value"] - 1] = 1.0
        for i, colour in enumerate(COLOURS):
            out[offsets["box"] + i] = scaled(state["box"][colour], DICE)
        self.seats_field(out, "light", [state["bonuses"]["light"]], seat)
        self.seats_field(out, "arrival", [state["bonuses"]["arrival"]], seat)
        self.seats_field(out, "final_round", state["final_round"] or [], seat)
        out[offsets["turns"]] = scaled(state["turn"], GAME.turn_cap)
        out[offsets["quiet"]] = scaled(state["turn"] - state["last_progress"], QUIET)
