"""Ciclovia: cyclists collecting coloured dice across a city, for 2 to 4 players.

Each rider starts in the garage west of the city and rides the streets
towards the arrival points at its east end. A block holds a die; a rider who
stops at the block's door whose number equals the die's value may take the
die. Blue dice score one more, red one less, green give one extra step in the
move, and orange make the next die collected count double. When a rider
reaches the traffic light (the street after block column 4) the first stage
ends: the dice left there are gathered and, topped up from the box, rolled
out again onto the 12 blocks of columns 5 to 8. A rider holding every colour
may enter an arrival point; then every other rider has one last move and
the game ends. Dice points plus bonuses decide.

A turn (one rider's move) is several decisions: each step, each die taken
or left at a door, and whether to stop early. Chance acts only when a stage
is dealt (which colour goes on which block, then the roll of the twelve
dice). The rules as implemented, the board, the JSON state and every action
shape, with every decision on a point the rulebook leaves open, are in
``seeds/ciclovia.md``; "decision N" below refers to its numbered list.
"""

from __future__ import annotations

from math import factorial
from typing import Any

from arena.games.base import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Game,
    IllegalAction,
    Outcome,
    State,
    Termination,
    competition_placements,
)
from arena.games.ciclovia import board as ciclovia_board

TURN_CAP = 1000     # decision 18: a turn is one rider's move
QUIET_TURNS = 100   # decision 17: stage-2 turns in a row with no die taken or arrival

BOARD = ciclovia_board.board_data()
GARAGE: int = BOARD["garage"]
ARRIVALS: frozenset[int] = frozenset(BOARD["arrivals"])
LIGHT: frozenset[int] = frozenset(BOARD["light"]["spaces"])
BROWN: frozenset[int] = frozenset(s["id"] for s in BOARD["spaces"] if s["lane"] == "brown")
EXITS: tuple[tuple[tuple[str, int], ...], ...] = tuple(
    tuple((d, to) for d, to in s["exits"]) for s in BOARD["spaces"])
COLOURS: tuple[str, ...] = tuple(BOARD["colours"])
PER_STAGE: int = BOARD["stage_dice_per_colour"]
STAGE_BLOCKS: dict[int, tuple[int, ...]] = {
    stage: tuple(b["id"] for b in BOARD["blocks"] if b["stage"] == stage) for stage in (1, 2)}
NUM_BLOCKS = len(BOARD["blocks"])


def _doors_at() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For every space, the (block, door number) pairs of the doors it faces."""
    at: list[list[tuple[int, int]]] = [[] for _ in BOARD["spaces"]]
    for block in BOARD["blocks"]:
        for door in block["doors"]:
            at[door["space"]].append((block["id"], door["number"]))
    return tuple(tuple(sorted(doors)) for doors in at)


DOORS_AT = _doors_at()

# A stage is dealt from three dice of each colour, in this order before the shuffle.
STAGE_DECK: tuple[str, ...] = tuple(c for c in COLOURS for _ in range(PER_STAGE))
SHUFFLE_SIDES = factorial(len(STAGE_DECK))
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
COLOUR_BONUS = {"blue": 1, "red": -1, "green": 0, "orange": 0}
LIGHT_BONUS = 2
ARRIVAL_BONUS = 2
MOST_DICE_BONUS = 3

# Phases: "deal" and "roll" are chance, "turn" is a rider deciding, "over" the end.
DEAL, ROLL, TURN, OVER = "deal", "roll", "turn", "over"


def die_points(colour: str, value: int, doubled: bool) -> int:
    """A collected die's points: colour adjustment first, then doubling
    (decisions 9 and 10)."""
    points = value + COLOUR_BONUS[colour]
    return 2 * points if doubled else points


# die_points of every die there can be, by the die as a rider holds it.
_POINTS = {(colour, value, doubled): die_points(colour, value, doubled)
           for colour in COLOUR_BONUS for value in range(1, 7) for doubled in (False, True)}


def _points(die: tuple[str, int, bool]) -> int:
    points = _POINTS.get(die)
    return die_points(*die) if points is None else points


def _sum_points(dice: list[tuple[str, int, bool]]) -> int:
    try:
        return sum(map(_POINTS.__getitem__, dice))
    except KeyError:  # a die no table holds (a test's, say)
        return sum(map(_points, dice))


def unshuffle(number: int, items: tuple[str, ...]) -> list[str]:
    """Decode a draw 1..n! into a permutation of ``items`` (Lehmer code), so a
    whole shuffle is one chance draw."""
    rest = list(items)
    index = number - 1
    order = []
    for place in range(len(rest) - 1, -1, -1):
        pick, index = divmod(index, factorial(place))
        order.append(rest.pop(pick))
    return order


class Move:
    """The rider's move in progress: how many steps it has used (a reversal
    uses one, decision 5) and may use, whether its green extra step is
    granted, what it did last (a step's direction, or "reverse") and whether
    the rider is at doors deciding which dice to take."""

    __slots__ = ("steps", "allowance", "extra", "last_dir", "collecting")

    def __init__(self, steps: int, allowance: int, extra: bool, last_dir: str | None,
                 collecting: bool) -> None:
        self.steps = steps
        self.allowance = allowance
        self.extra = extra
        self.last_dir = last_dir
        self.collecting = collecting

    @classmethod
    def starting_at(cls, space: int) -> Move:
        """Two steps when the move starts on the fast lane, else one (decision 4)."""
        return cls(0, 2 if space in BROWN else 1, False, None, False)

    def copy(self) -> Move:
        return Move(self.steps, self.allowance, self.extra, self.last_dir, self.collecting)

    def to_json(self) -> dict[str, Any]:
        return {"steps": self.steps, "allowance": self.allowance, "green_extra": self.extra,
                "last_step": self.last_dir, "at_doors": self.collecting}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        return cls(data["steps"], data["allowance"], data["green_extra"], data["last_step"],
                   data["at_doors"])


Die = tuple[str, int]                 # colour, value (on a block)
Collected = tuple[str, int, bool]     # colour, value, doubled


class CicloviaState(State):
    """One position. Riders stand on space ids of the board data."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.stage = 1
        self.phase = DEAL
        self.deck: list[str] | None = None
        self.blocks: list[Die | None] = [None] * NUM_BLOCKS
        self.box = {c: BOARD["dice_per_colour"] - PER_STAGE for c in COLOURS}
        self.pos = [GARAGE] * players
        self.facing = ["E"] * players
        self.dice: list[list[Collected]] = [[] for _ in range(players)]
        self.double_next = [False] * players
        self.arrived = [False] * players
        self.seat = 0
        self.turn = 0
        self.last_progress = 0
        self.move: Move | None = None
        self.light_first: int | None = None
        self.arrival_first: int | None = None
        self.final: list[int] | None = None
        self.ending: str | None = None
        self.retired: list[int] = []
        self.last: list[dict[str, Any]] = []
        self._legal: list[Action] | None = None

    # ----------------------------------------------------------- set-up

    @classmethod
    def initial(cls, num_players: int, options: dict[str, Any]) -> CicloviaState:
        return cls(num_players)

    def clone(self) -> CicloviaState:
        other = CicloviaState.__new__(CicloviaState)
        other.__dict__.update(self.__dict__)
        other.deck = None if self.deck is None else list(self.deck)
        other.blocks = list(self.blocks)
        other.box = dict(self.box)
        other.pos = list(self.pos)
        other.facing = list(self.facing)
        other.dice = [list(d) for d in self.dice]
        other.double_next = list(self.double_next)
        other.arrived = list(self.arrived)
        other.move = None if self.move is None else self.move.copy()
        other.final = None if self.final is None else list(self.final)
        other.last = list(self.last)
        other.retired = list(self.retired)
        other._legal = None
        return other

    # ----------------------------------------------------------- queries

    def current_player(self) -> int:
        if self.phase == TURN:
            return self.seat
        return CHANCE if self.phase in (DEAL, ROLL) else TERMINAL

    def chance_request(self) -> ChanceRequest:
        stream = "board" if self.stage == 1 else "restock"
        if self.phase == DEAL:
            return ChanceRequest(stream, 1, SHUFFLE_SIDES, "shuffle")
        if self.phase == ROLL:
            return ChanceRequest(stream, len(STAGE_DECK), 6, "roll")
        raise IllegalAction(f"no chance is due in phase {self.phase!r}")

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal() if self.phase == TURN else []
        return self._legal

    def _compute_legal(self) -> list[Action]:
        """Takes at the doors just reached (decision 11), else the open
        steps, then stay (at the start of a move) or stop (later), then
        reverse while the move has a step left for it (decision 5)."""
        move = self.move
        assert move is not None
        if move.collecting:
            takes: list[Action] = []
            for block in self.matching_blocks(self.pos[self.seat]):
                colour, value = self.blocks[block]  # type: ignore[misc]
                takes.append({"take": block, "colour": colour, "value": value})
            return takes + [{"leave": True}]
        actions: list[Action] = [{"step": d, "to": to} for d, to in self.open_steps()]
        actions.append({"stop": True} if move.steps else {"stay": True})
        if self.can_reverse():
            actions.append({"reverse": True})
        return actions

    def can_reverse(self) -> bool:
        """Turning round spends one step of the move, so it needs one left;
        never in the garage, nor twice in a row (decision 5)."""
        move = self.move
        assert move is not None
        return (self.pos[self.seat] != GARAGE and move.steps < move.allowance
                and move.last_dir != "reverse")

    def open_steps(self) -> list[tuple[str, int]]:
        """The steps the rider to move may take now: forward (its facing) or
        sideways, never back, onto a free space, and into an arrival point
        only holding every colour (decisions 5, 6, 19)."""
        seat = self.seat
        back = OPPOSITE[self.facing[seat]]
        taken = {p for s, p in enumerate(self.pos)
                 if s != seat and p != GARAGE and s not in self.retired}
        complete = self.has_every_colour(seat)
        return [(d, to) for d, to in EXITS[self.pos[seat]]
                if d != back and to not in taken
                and (complete or to not in ARRIVALS)]

    def matching_blocks(self, space: int) -> list[int]:
        """Blocks whose door at ``space`` shows their die's value."""
        blocks = self.blocks
        return [b for b, number in DOORS_AT[space]
                if blocks[b] is not None and blocks[b][1] == number]  # type: ignore[index]

    def missing(self, seat: int) -> list[str]:
        """The colours a rider still lacks. A doubled die goes to the grey
        area of the score table, not to its colour (decision 10)."""
        held = {colour for colour, _, doubled in self.dice[seat] if not doubled}
        return [c for c in COLOURS if c not in held]

    def has_every_colour(self, seat: int) -> bool:
        return not self.missing(seat)

    def can_still_complete(self, seat: int) -> bool:
        """Whether the dice left on the blocks still let a rider complete the
        colours (decision 15; in stage 1 the restock always brings every
        colour). Each colour it lacks must be on a block; and a pending
        double must first fall on a die it does not need, which cannot be an
        orange (that would pass the double on): a die other than orange
        beyond one of each non-orange colour it lacks."""
        missing = self.missing(seat)
        if self.stage == 1 or not missing:
            return True
        on_board = [die[0] for die in self.blocks if die is not None]
        if any(c not in on_board for c in missing):
            return False
        if not self.double_next[seat]:
            return True
        needed = sum(1 for c in missing if c != "orange")
        return sum(1 for c in on_board if c != "orange") > needed

    def totals(self) -> list[int]:
        """Dice points plus bonuses for every seat. Every rider tied for the
        most dice gets that bonus, if the most is at least one die (decision
        13); riders who retired neither count for it nor get it (decision 24)."""
        counts = [len(self.dice[s]) for s in range(self.players) if s not in self.retired]
        most = max(1, max(counts, default=0))
        return [_sum_points(self.dice[seat])
                + (LIGHT_BONUS if self.light_first == seat else 0)
                + (ARRIVAL_BONUS if self.arrival_first == seat else 0)
                + (MOST_DICE_BONUS if len(self.dice[seat]) == most
                   and seat not in self.retired else 0)
                for seat in range(self.players)]

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        totals = self.totals()
        scores = tuple(float(t) for t in totals)
        if self.ending == "turn_cap":
            return Outcome(competition_placements([s in self.retired
                                                   for s in range(self.players)]),
                           Termination.TURN_CAP, scores=scores)
        # Riders holding every colour have finished the game and rank ahead
        # of those who have not (decision 20); then totals, then dice counts
        # (decision 14); retired riders last (decision 22; decision 21 sums up).
        keys = [(1, False, 0, 0) if seat in self.retired
                else (0, not self.has_every_colour(seat), -totals[seat], -len(self.dice[seat]))
                for seat in range(self.players)]
        return Outcome(competition_placements(keys), Termination.NORMAL, scores=scores)

    # ----------------------------------------------------------- chance

    def apply_chance(self, values: tuple[int, ...]) -> None:
        request = self.chance_request()
        if len(values) != request.count or not all(1 <= v <= request.sides for v in values):
            raise IllegalAction(f"expected {request.count} values from 1 to {request.sides}, "
                                f"got {values!r}")
        self._legal = None
        if self.phase == DEAL:
            self.deck = unshuffle(values[0], STAGE_DECK)
            self.phase = ROLL
            self.last = [{"cause": "shuffle", "stage": self.stage,
                          "colours": [{"block": b, "colour": c}
                                      for b, c in zip(STAGE_BLOCKS[self.stage], self.deck)]}]
            return
        assert self.deck is not None
        placed = []
        for block, colour, value in zip(STAGE_BLOCKS[self.stage], self.deck, values):
            self.blocks[block] = (colour, value)
            placed.append({"block": block, "colour": colour, "value": value})
        self.deck = None
        self.phase = TURN
        self.last = [{"cause": "roll", "stage": self.stage, "dice": placed}]
        if self.stage == 1:
            self._begin_move(min(s for s in range(self.players) if s not in self.retired))
        else:
            assert self.light_first is not None
            self._advance(self.light_first)

    # ----------------------------------------------------------- decisions

    def _apply(self, action: Action) -> None:
        self._legal = None
        self.last = []
        if "step" in action:
            self._step(action["step"], action["to"])
        elif "take" in action:
            self._take(action["take"])
        elif "leave" in action:
            self.last.append({"cause": "leave", "rider": self.seat, "space": self.pos[self.seat]})
            self._after_doors()
        elif "reverse" in action:
            self._reverse()
        else:  # stay, stop
            self.last.append({"cause": "stay" if "stay" in action else "stop",
                              "rider": self.seat, "space": self.pos[self.seat]})
            self._end_move()

    def _step(self, direction: str, to: int) -> None:
        seat, move = self.seat, self.move
        assert move is not None
        start = self.pos[seat]
        self.pos[seat] = to
        move.steps += 1
        move.last_dir = direction
        self.facing[seat] = direction
        self.last.append({"cause": "step", "rider": seat, "from": start, "to": to,
                          "path": [start, to], "dir": direction})
        if to in ARRIVALS:
            self._arrive()
        elif self.matching_blocks(to):
            move.collecting = True
        else:
            self._after_doors()

    def _reverse(self) -> None:
        """Turn round on the spot: one step of the move spent, no die taken
        (decisions 5 and 11); the move goes on if a step is left."""
        seat, move = self.seat, self.move
        assert move is not None
        self.facing[seat] = OPPOSITE[self.facing[seat]]
        move.steps += 1
        move.last_dir = "reverse"
        self.last.append({"cause": "reverse", "rider": seat, "facing": self.facing[seat]})
        self._go_on()

    def _take(self, block: int) -> None:
        seat, move = self.seat, self.move
        assert move is not None
        colour, value = self.blocks[block]  # type: ignore[misc]
        self.blocks[block] = None
        doubled = self.double_next[seat]
        self.dice[seat].append((colour, value, doubled))
        self.double_next[seat] = colour == "orange"
        self.last.append({"cause": "take", "rider": seat, "block": block, "colour": colour,
                          "value": value, "doubled": doubled,
                          "points": die_points(colour, value, doubled)})
        self._progress()
        if colour == "green" and not move.extra:
            move.extra = True
            move.allowance += 1
        if not self.matching_blocks(self.pos[seat]):
            self._after_doors()

    def _after_doors(self) -> None:
        """Done at this space's doors: the light ends stage 1 (decision 7),
        else the move goes on if steps remain and one is open."""
        move = self.move
        assert move is not None
        move.collecting = False
        if self.stage == 1 and self.pos[self.seat] in LIGHT:
            self._end_stage()
        else:
            self._go_on()

    def _go_on(self) -> None:
        """The move ends by itself when no step is left, or when the rider
        can neither step nor turn round."""
        move = self.move
        assert move is not None
        if move.steps >= move.allowance or not (self.open_steps() or self.can_reverse()):
            self._end_move()

    def _arrive(self) -> None:
        seat = self.seat
        self.arrived[seat] = True
        self._progress()
        self.last.append({"cause": "arrive", "rider": seat, "space": self.pos[seat],
                          "first": self.arrival_first is None})
        if self.arrival_first is None:
            self.arrival_first = seat
            self.final = [s for s in self._order_after(seat) if not self.arrived[s]]
        self._end_move()

    def _end_stage(self) -> None:
        """The first rider at the light: gather stage 1's dice, top up from
        the box to three of each colour, and deal stage 2 (decision 8)."""
        self.light_first = self.seat
        self._progress()
        gathered = {c: 0 for c in COLOURS}
        for block in STAGE_BLOCKS[1]:
            die = self.blocks[block]
            if die is not None:
                gathered[die[0]] += 1
                self.blocks[block] = None
        for c in COLOURS:
            self.box[c] -= PER_STAGE - gathered[c]
        self.last.append({"cause": "light", "rider": self.seat, "space": self.pos[self.seat],
                          "gathered": gathered,
                          "from_box": {c: PER_STAGE - gathered[c] for c in COLOURS}})
        self.move = None
        self.turn += 1
        self.stage = 2
        self.phase = DEAL

    def _progress(self) -> None:
        """Something happened this turn: the quiet count restarts after it."""
        self.last_progress = self.turn + 1

    def _end_move(self) -> None:
        self.move = None
        self.turn += 1
        self._advance(self.seat)

    def _advance(self, previous: int) -> None:
        """Start the next rider's move, or end the game: after the last
        moves that follow an arrival, when no rider can complete the colours
        any more (decision 15), when nothing has happened in stage 2 for
        QUIET_TURNS turns (decision 17), or at the turn cap."""
        if self.final is not None:
            if self.final:
                self._begin_move(self.final.pop(0))
            else:
                self._finish("arrival")
        elif not any(self.can_still_complete(s) for s in range(self.players)
                     if not self.arrived[s] and s not in self.retired):
            self._finish("exhausted")
        elif self.stage == 2 and self.turn - self.last_progress >= QUIET_TURNS:
            self._finish("quiet")
        elif self.turn >= TURN_CAP:
            self._finish("turn_cap")
        else:
            self._begin_move(self._order_after(previous)[0])

    def _order_after(self, seat: int) -> list[int]:
        """The other riders still in the game, in seat order after ``seat``."""
        return [other for other in ((seat + k) % self.players for k in range(1, self.players))
                if other not in self.retired]

    def _begin_move(self, seat: int) -> None:
        self.seat = seat
        self.phase = TURN
        self.move = Move.starting_at(self.pos[seat])

    def _finish(self, ending: str) -> None:
        self.phase = OVER
        self.ending = ending
        self.move = None
        self.deck = None  # shuffled but never rolled (a retirement between the two): no draw is due
        self.last.append({"cause": "end", "ending": ending, "scores": self.totals()})

    # ----------------------------------------------------------- retiring

    def retire(self, seat: int) -> None:
        """The rider leaves the city: it blocks nobody, never moves again,
        and its move in progress ends (decisions 21-24)."""
        self._check_retire(seat, self.players, self.retired)
        self._legal = None
        self.last = []
        self.retired.append(seat)
        self.last.append({"cause": "retire", "rider": seat, "space": self.pos[seat]})
        if self.final is not None and seat in self.final:
            self.final.remove(seat)
        active = [s for s in range(self.players) if s not in self.retired]
        if len(active) == 1:
            self._finish("retired")
        elif self.phase == TURN and self.seat == seat:
            self._end_move()

    # ----------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        totals = self.totals()
        return {
            "game": "ciclovia",
            "players": self.players,
            "stage": self.stage,
            "phase": self.phase,
            "turn": self.turn,
            "last_progress": self.last_progress,
            "to_move": self.seat if self.phase == TURN else None,
            "move": None if self.move is None else self.move.to_json(),
            "riders": [{
                "seat": s, "space": self.pos[s], "facing": self.facing[s],
                "arrived": self.arrived[s], "double_next": self.double_next[s],
                "dice": [{"colour": die[0], "value": die[1], "doubled": die[2], "points": _points(die)}
                         for die in self.dice[s]],
                "missing": self.missing(s),
                "score": totals[s]} for s in range(self.players)],
            "blocks": [None if die is None else {"colour": die[0], "value": die[1]}
                       for die in self.blocks],
            "deck": None if self.deck is None else list(self.deck),
            "box": dict(self.box),
            "bonuses": {"light": self.light_first, "arrival": self.arrival_first},
            "final_round": None if self.final is None else list(self.final),
            "ending": self.ending,
            "retired": list(self.retired),
            "scores": totals,
            "last": [dict(effect) for effect in self.last],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CicloviaState:
        state = cls(data["players"])
        state.stage = data["stage"]
        state.phase = data["phase"]
        state.turn = data["turn"]
        state.last_progress = data["last_progress"]
        state.seat = data["to_move"] if data["to_move"] is not None else 0
        state.move = None if data["move"] is None else Move.from_json(data["move"])
        riders = data["riders"]
        state.pos = [r["space"] for r in riders]
        state.facing = [r["facing"] for r in riders]
        state.arrived = [r["arrived"] for r in riders]
        state.double_next = [r["double_next"] for r in riders]
        state.dice = [[(d["colour"], d["value"], d["doubled"]) for d in r["dice"]] for r in riders]
        state.blocks = [None if b is None else (b["colour"], b["value"]) for b in data["blocks"]]
        state.deck = None if data["deck"] is None else list(data["deck"])
        state.box = dict(data["box"])
        state.light_first = data["bonuses"]["light"]
        state.arrival_first = data["bonuses"]["arrival"]
        state.final = None if data["final_round"] is None else list(data["final_round"])
        state.ending = data["ending"]
        state.retired = list(data["retired"])
        state.last = [dict(effect) for effect in data["last"]]
        return state


# GAME needs the state class, so it closes the module.
GAME = Game(
    name="ciclovia",
    min_players=2,
    max_players=4,
    turn_cap=TURN_CAP,
    state_class=CicloviaState,
    board=BOARD,
)
CicloviaState.game = GAME
