"""Roundabout as numbers for learners (arena.games.encoding): the action
indices and the observation the rules document's "For learners" section
lists."""

from __future__ import annotations

import itertools

from arena.games.base import Action
from arena.games.encoding import RETIRED, SEATED, ActionCode, Encoding, Field, Json, Vector, scaled
from arena.games.roundabout.engine import GAME

SPACES = len(GAME.board["spaces"])
DARTS = 10  # the most Darts a seat has (two players)
WAYS = ("ring", "in", "out")
PHASES = ("rolloff", "roll", "play", "offer", "over")
PAIRS = {pair: i for i, pair in enumerate(itertools.combinations(range(DARTS), 2))}
SPACE_SIZE = 4 + 2 + 2
MOVES, SINGLES = DARTS * 6 * 3, DARTS
OFFER = MOVES + SINGLES + len(PAIRS)


class RoundaboutEncoding(Encoding):
    ACTIONS = (
        ActionCode("move", MOVES, "`{\"dart\": d, \"die\": v, \"way\": w}`: 18i + 3(v − 1) + (0 ring, 1 in, "
                                  "2 out), where i is d's place among the mover's own Darts "
                                  "(d mod Darts each)"),
        ActionCode("reverse_one", SINGLES, f"`{{\"reverse\": [d]}}`: {MOVES} + i"),
        ActionCode("reverse_two", len(PAIRS), f"`{{\"reverse\": [d, e]}}`: {MOVES + SINGLES} + the pair's "
                                              "place in the pairs i < j of the mover's Darts, in order "
                                              "(0, 1), (0, 2), ..., (8, 9)"),
        ActionCode("offer", 4, f"`{{\"offer\": s}}`: {OFFER} + s"),
        ActionCode("answer", 2, f"`{{\"accept\": true}}` {OFFER + 4}, `{{\"accept\": false}}` {OFFER + 5}"),
        ActionCode("pass", 1, "`{\"pass\": true}`"),
    )
    FIELDS = (
        SEATED, RETIRED,
        Field("turn_player", 4, "the slot whose turn it is in the rotation"),
        Field("mover", 4, "the slot playing the current roll"),
        Field("asking", 4, "the slot offered the roll (phase `offer`)"),
        Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
        Field("dice", 12, "the roll being played: each die one-hot 1 to 6 (zeros between rolls)"),
        Field("dice_left", 6, "the die values not yet played, count of each value 1 to 6 / 2"),
        Field("offer_allowed", 1, "the roller may still offer the roll"),
        Field("contenders", 4, "the slots still in the roll-off"),
        Field("homes", 16, "each slot's home territory, one-hot 4 a slot"),
        Field("on_board", 4, "each slot's Darts still on the board / its Darts at the start"),
        Field("spaces", SPACES * SPACE_SIZE,
              f"every space (ring × 16 + bar), {SPACE_SIZE} numbers: the slot of the Dart standing there "
              "one-hot (4), its direction (clockwise, anticlockwise), captured, frozen"),
        Field("turns", 1, "the turn counter / the turn cap"),
    )

    def action_index(self, action: Action, state: Json) -> int:
        each = state["darts_per_player"]
        if "dart" in action:
            return 18 * (action["dart"] % each) + 3 * (action["die"] - 1) + WAYS.index(action["way"])
        if "reverse" in action:
            darts = [dart % each for dart in action["reverse"]]
            return MOVES + darts[0] if len(darts) == 1 else MOVES + SINGLES + PAIRS[(darts[0], darts[1])]
        if "offer" in action:
            return OFFER + action["offer"]
        if "accept" in action:
            return OFFER + (4 if action["accept"] else 5)
        return OFFER + 6

    def fill(self, state: Json, seat: int, out: Vector) -> None:
        offsets = self.offsets
        players = self.players
        self.seated(out)
        self.seats_field(out, "retired", state["retired"], seat)
        self.seats_field(out, "turn_player", [state["turn_player"]], seat)
        self.seats_field(out, "mover", [state["mover"]], seat)
        self.seats_field(out, "asking", [state["asking"]], seat)
        self.one_hot(out, "phase", PHASES.index(state["phase"]))
        for i, die in enumerate(state["dice"][:2]):
            out[offsets["dice"] + 6 * i + die - 1] = 1.0
        for die in state["dice_left"]:
            out[offsets["dice_left"] + die - 1] += 0.5
        out[offsets["offer_allowed"]] = 1.0 if state["offer_allowed"] else 0.0
        self.seats_field(out, "contenders", state["contenders"], seat)
        each = state["darts_per_player"]
        for other in range(players):
            slot = (other - seat) % players
            out[offsets["homes"] + 4 * slot + state["homes"][other]] = 1.0
            out[offsets["on_board"] + slot] = scaled(state["on_board"][other], each)
        captured, frozen = set(state["captured"]), set(state["frozen"])
        for dart in state["darts"]:
            if dart["space"] is None:
                continue
            base = offsets["spaces"] + SPACE_SIZE * dart["space"]
            out[base + (dart["owner"] - seat) % players] = 1.0
            out[base + (4 if dart["dir"] == 1 else 5)] = 1.0
            out[base + 6] = 1.0 if dart["id"] in captured else 0.0
            out[base + 7] = 1.0 if dart["id"] in frozen else 0.0
        out[offsets["turns"]] = scaled(state["turn"], GAME.turn_cap)
