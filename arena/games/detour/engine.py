"""Detour: race two arrow pieces through four turning Detour Wheels to FINISH,
for 2 to 4 players (or 2 players with four pieces each).

Pieces keep their direction of travel: a piece is a space and the port of
that space its arrow points out of, and every step leaves each space by the
port opposite the one it came in by, so there is never a fork to choose at.
The four wheels re-route the paths: each carries a track through its hub
star space and a bare arc, and turning one changes which paths they join.
A turn is a roll of the colour's dice (two, or one when one piece is left),
then up to several decisions: which piece moves first with which die, the
direction out of the centre Star Space, which wheel to turn after landing on
a star, and which START space a pop-off loser goes back to. Pop-offs are
played out faithfully on their own chance stream.

The rules as implemented, the board and every decision on a point the
rulebook leaves open are in ``seeds/detour.md``; decision numbers in the
comments below refer to it.
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
from arena.games.detour.board import BOARD

TURN_CAP = 2000          # colour-turns; see seeds/detour.md, "End of the game"
SIX = 6
# A piece off the board is [FINISHED, FINISHED] once it has finished, and
# [RETIRED, RETIRED] when its seat retired with it still on the board.
FINISHED, RETIRED = -1, -2

# Phases: ROLL and POPOFF are chance, OVER is terminal, the rest are decisions.
ROLL, CHOOSE, DIRECTION, WHEEL, POPOFF, POPOFF_START, OWN_START, OVER = (
    "roll", "choose", "direction", "wheel", "popoff", "popoff_start", "own_start", "over")
TURNS = {"cw": 1, "ccw": -1, "half": 2}   # quarter turns each way, and a half turn (decision 6)

# ---------------------------------------------------------------- lookup tables
# All read from BOARD, the same data GAME.board holds.

SPACES: list[dict[str, Any]] = BOARD["spaces"]
KIND: tuple[str, ...] = tuple(space["kind"] for space in SPACES)
CENTRE: int = BOARD["centre"]
HUBS: tuple[int, ...] = tuple(wheel["hub"] for wheel in BOARD["wheels"])
STARS: frozenset[int] = frozenset(s["id"] for s in SPACES if s["kind"] in ("star", "hub", "centre"))
FINISHES: frozenset[int] = frozenset(BOARD["finishes"])
START_SPACES: tuple[int, ...] = tuple(start["space"] for start in BOARD["starts"])
START_ARROWS: tuple[int, ...] = tuple(start["arrow"] for start in BOARD["starts"])
WHEEL_ORDER = tuple(range(len(HUBS)))


def _through(space: int, port: int) -> int:
    """The port a piece leaves by after entering ``space`` through ``port``."""
    return (port + 2) % 4 if len(SPACES[space]["ports"]) == 4 else 1 - port


def _arrive(link: dict[str, Any]) -> tuple[int, int]:
    return link["space"], _through(link["space"], link["port"])


# RIM_ARRIVAL[w][r]: (space, exit port) on reaching the board space at rim r of wheel w.
RIM_ARRIVAL: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(_arrive(rim) for rim in wheel["rims"]) for wheel in BOARD["wheels"])
HUB_ENDS = frozenset(BOARD["hub_ends"])
# LINKS[s][p] = (0, space, exit) fixed path, (1, wheel, rim) into a wheel's rim,
# (2, wheel, end) out of a hub along its track end.
LINKS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((0, *_arrive(link)) if "space" in link
          else (1, link["wheel"], link["rim"]) if "rim" in link
          else (2, link["wheel"], link["end"])
          for link in space["ports"])
    for space in SPACES)


def step(space: int, port: int, wheels: list[int]) -> tuple[int, int]:
    """One space forward from ``space`` out of ``port`` with the wheels at
    ``wheels``: the next space and the port the piece will leave that one by."""
    kind, a, b = LINKS[space][port]
    if kind == 0:
        return a, b
    turned = wheels[a]
    if kind == 2:
        return RIM_ARRIVAL[a][(b + turned) % 4]
    end = (b - turned) % 4
    if end in HUB_ENDS:
        return HUBS[a], 1 - end
    other = end ^ 1        # the arc joins track ends 2 and 3
    return RIM_ARRIVAL[a][(other + turned) % 4]


def walk(space: int, port: int, count: int, wheels: list[int]) -> tuple[list[int], int]:
    """The spaces entered by ``count`` steps (the path) and the final exit port."""
    path = []
    for _ in range(count):
        kind, a, b = LINKS[space][port]
        space, port = (a, b) if kind == 0 else step(space, port, wheels)  # most links are plain
        path.append(space)
    return path, port


# Chance requests are values: _ROLLS[seat][dice] (one die per live piece of
# the colour, so never none when a roll is due) and the pop-off's.
_ROLLS = tuple(tuple(ChanceRequest(f"seat:{seat}", count, 6, "roll") for count in range(3))
               for seat in range(4))
_POPOFF = ChanceRequest("popoff", 2, 6, "popoff")


class DetourState(State):
    """One position.

    ``pieces[i]`` is ``[space, port]`` (both FINISHED once the piece is off
    at FINISH, RETIRED once its seat retired with it on the board). Piece i
    belongs to colour ``i // 2``; colour c belongs to seat ``c % players``.
    With two players and the four-piece option there are four colours, two
    per seat, taking their turns in colour order.
    """

    def __init__(self, players: int, colours: int, pieces: list[list[int]], wheels: list[int],
                 colour: int, phase: str, dice: list[int], queue: list[list[int]],
                 popoff: dict[str, Any] | None, own: list[int] | None, turns: int,
                 winner: int | None, ending: str | None, last: list[dict[str, Any]],
                 retired: list[int] | None = None) -> None:
        self.players = players
        self.colours = colours
        self.pieces = pieces
        self.wheels = wheels
        self.colour = colour
        self.phase = phase
        self.dice = dice
        self.queue = queue
        self.popoff = popoff
        self.own = own
        self.turns = turns
        self.winner = winner
        self.ending = ending
        self.last = last
        self.retired = [] if retired is None else retired
        self._legal: list[Action] | None = None

    # ----------------------------------------------------------- set-up

    @classmethod
    def initial(cls, num_players: int, options: dict[str, Any]) -> DetourState:
        per_player = options.get("pieces", 2)
        if type(per_player) is not int or per_player not in (2, 4):
            raise InvalidOptions(f"pieces must be 2 or 4, got {per_player!r}")
        if per_player == 4 and num_players != 2:
            raise InvalidOptions(f"four pieces each is a two-player option, not for {num_players}")
        colours = num_players * per_player // 2
        pieces = [[START_SPACES[i % 2], START_ARROWS[i % 2]] for i in range(2 * colours)]
        return cls(num_players, colours, pieces, list(BOARD["start_orientations"]), 0, ROLL,
                   [], [], None, None, 0, None, None, [])

    def clone(self) -> DetourState:
        copy = DetourState(self.players, self.colours, [list(p) for p in self.pieces],
                           list(self.wheels), self.colour, self.phase, list(self.dice),
                           [list(q) for q in self.queue],
                           None if self.popoff is None else _copy_popoff(self.popoff),
                           None if self.own is None else list(self.own), self.turns,
                           self.winner, self.ending, [dict(e) for e in self.last],
                           list(self.retired))
        copy._legal = None if self._legal is None else list(self._legal)
        return copy

    # -------------------------------------------------------- interface

    def current_player(self) -> int:
        phase = self.phase
        if phase == ROLL or phase == POPOFF:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        if phase == POPOFF_START:
            return self.owner(self._popoff()["loser"])
        return self.colour % self.players

    def chance_request(self) -> ChanceRequest:
        if self.phase == ROLL:
            return _ROLLS[self.colour % self.players][len(self.live_pieces(self.colour))]
        if self.phase == POPOFF:
            return _POPOFF
        raise IllegalAction(f"no chance is due in phase {self.phase!r}")

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == CHOOSE:
            dice = sorted(set(self.dice))
            return [{"piece": piece, "die": die}
                    for piece in self.live_pieces(self.colour) for die in dice]
        if phase == DIRECTION:
            return [{"toward": LINKS[CENTRE][port][1]} for port in range(4)]
        if phase == WHEEL:
            return [{"wheel": wheel, "turn": turn} for wheel in WHEEL_ORDER for turn in TURNS]
        if phase == POPOFF_START or phase == OWN_START:
            return [{"start": index} for index in range(len(START_SPACES))]
        return []

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        if self.winner is None:
            assert self.ending is not None, "a game over without a winner says how it ended"
            return Outcome(race_placements(self.players, None, self.retired), Termination(self.ending))
        # Decision 21: the first player home wins; the others tie behind.
        return Outcome(race_placements(self.players, self.winner, self.retired), Termination.NORMAL)

    def _popoff(self) -> dict[str, Any]:
        """The pop-off under way (phases POPOFF and POPOFF_START)."""
        assert self.popoff is not None, "no pop-off is under way"
        return self.popoff

    # ------------------------------------------------------- helpers

    def owner(self, piece: int) -> int:
        return piece_owner(piece, self.players)

    def live_pieces(self, colour: int) -> list[int]:
        first, pieces = 2 * colour, self.pieces
        if pieces[first][0] >= 0:
            return [first, first + 1] if pieces[first + 1][0] >= 0 else [first]
        return [first + 1] if pieces[first + 1][0] >= 0 else []

    def occupant(self, space: int, besides: int) -> int | None:
        """The piece other than ``besides`` standing on ``space`` (never a START)."""
        for piece, (where, _) in enumerate(self.pieces):
            if where == space and piece != besides:
                return piece
        return None

    def heading(self, piece: int) -> int | None:
        """The space the piece's arrow points at, with the wheels as they stand."""
        space, port = self.pieces[piece]
        return None if space < 0 else step(space, port, self.wheels)[0]

    # ------------------------------------------------------- chance

    def apply_chance(self, values: tuple[int, ...]) -> None:
        self._legal = None
        self.last = []
        if self.phase == ROLL:
            self._roll(list(values))
        elif self.phase == POPOFF:
            self._pop(values[0], values[1])
        else:
            raise IllegalAction(f"no chance is due in phase {self.phase!r}")

    def _roll(self, dice: list[int]) -> None:
        self.dice = dice
        self.last.append({"cause": "roll", "colour": self.colour,
                          "seat": self.colour % self.players, "dice": list(dice)})
        live = self.live_pieces(self.colour)
        if len(live) == 2:
            self.phase = CHOOSE
        else:
            self.queue = [[live[0], dice[0]]]
            self._next_move()

    def _pop(self, mover_pop: int, defender_pop: int) -> None:
        """One round of the pop-off: both pop until exactly one pops a 6
        (decision 9)."""
        popoff = self._popoff()
        popoff["pops"].append([mover_pop, defender_pop])
        won = None
        if mover_pop == SIX and defender_pop != SIX:
            won = popoff["mover"]
        elif defender_pop == SIX and mover_pop != SIX:
            won = popoff["defender"]
        self.last.append({"cause": "popoff", "pops": [mover_pop, defender_pop],
                          "mover": popoff["mover"], "defender": popoff["defender"],
                          "winner": won})
        if won is not None:
            popoff["loser"] = popoff["defender"] if won == popoff["mover"] else popoff["mover"]
            self.phase = POPOFF_START

    # ------------------------------------------------------- decisions

    def _apply(self, action: Action) -> None:
        self._legal = None
        self.last = []
        phase = self.phase
        if phase == CHOOSE:
            self._choose(action["piece"], action["die"])
        elif phase == DIRECTION:
            self._direct(action["toward"])
        elif phase == WHEEL:
            self._turn_wheel(action["wheel"], action["turn"])
            self._next_move()
        elif phase == POPOFF_START:
            self._popoff_back(action["start"])
        elif phase == OWN_START:
            assert self.own is not None, "two own pieces wait to go back"
            mover, other = self.own
            self.own = None
            self._send_both_back(mover, other, action["start"])
        else:
            raise IllegalAction(f"no decision is due in phase {phase!r}")

    def _choose(self, piece: int, die: int) -> None:
        """Which piece moves first, and with which die; the other piece
        takes the other die (decision 4)."""
        other_piece = next(p for p in self.live_pieces(self.colour) if p != piece)
        dice = list(self.dice)
        dice.remove(die)
        self.queue = [[piece, die], [other_piece, dice[0]]]
        self._next_move()

    def _direct(self, toward: int) -> None:
        """A piece that starts its move on the centre Star Space leaves by
        any of its four paths (decision 7)."""
        piece, _ = self.queue[0]
        port = next(p for p in range(4) if LINKS[CENTRE][p][1] == toward)
        self.pieces[piece][1] = port
        self._move()

    def _next_move(self) -> None:
        if not self.queue:
            self._end_turn()
            return
        piece = self.queue[0][0]
        if self.pieces[piece][0] == CENTRE:
            self.phase = DIRECTION
        else:
            self._move()

    def _move(self) -> None:
        piece, die = self.queue.pop(0)
        start, port = self.pieces[piece]
        path, port = walk(start, port, die, self.wheels)
        land = path[-1]
        self.pieces[piece] = [land, port]
        self.last.append({"cause": "move", "piece": piece, "die": die, "from": start,
                          "to": land, "path": [start, *path]})
        self._land(piece, land)

    def _land(self, piece: int, land: int) -> None:
        """What exact landing on ``land`` does."""
        if land in FINISHES:
            self.pieces[piece] = [FINISHED, FINISHED]
            self.last.append({"cause": "finish", "piece": piece, "space": land})
            owner = self.owner(piece)
            if all(self.pieces[p][0] < 0 for p in range(len(self.pieces))
                   if self.owner(p) == owner):
                self._finish_game(owner)
                return
            self._next_move()
            return
        if KIND[land] == "start":
            self._next_move()
            return
        other = self.occupant(land, piece)
        if other is not None and self.owner(other) == self.owner(piece):
            self.queue = []
            if other // 2 == piece // 2:
                # Same colour: the two are interchangeable (decision 11).
                first, second = sorted((piece, other))
                self._send_both_back(first, second, 0)
            else:
                self.own = [piece, other]
                self.phase = OWN_START
            return
        if other is not None:
            self.popoff = {"mover": piece, "defender": other, "space": land, "pops": [],
                           "loser": None}
            self.phase = POPOFF
            return
        if land in STARS:
            self.phase = WHEEL
            return
        self._next_move()

    def _popoff_back(self, index: int) -> None:
        popoff = self._popoff()
        self.popoff = None
        loser = popoff["loser"]
        self._send_back(loser, index, "popoff")
        if loser != popoff["mover"] and popoff["space"] in STARS:
            self.phase = WHEEL      # the mover won and stands on a star
        else:
            self._next_move()

    def _send_both_back(self, mover: int, other: int, index: int) -> None:
        """Landing on one's own piece: both go back, one to each START, and
        the turn is over (decision 11)."""
        self._send_back(mover, index, "own")
        self._send_back(other, 1 - index, "own")
        self.queue = []
        self._end_turn()

    def _send_back(self, piece: int, index: int, reason: str) -> None:
        space = self.pieces[piece][0]
        self.pieces[piece] = [START_SPACES[index], START_ARROWS[index]]
        self.last.append({"cause": "sent_back", "piece": piece, "from": space,
                          "to": START_SPACES[index], "start": index, "reason": reason})

    def _turn_wheel(self, wheel: int, turn: str) -> None:
        """A quarter turn either way or a half turn; a piece in the hub
        holder turns with it (decision 6)."""
        self.wheels[wheel] = (self.wheels[wheel] + TURNS[turn]) % 4
        carried = [p for p, (space, _) in enumerate(self.pieces) if space == HUBS[wheel]]
        self.last.append({"cause": "wheel", "wheel": wheel, "turn": turn,
                          "orientation": self.wheels[wheel], "carried": carried})

    def _end_turn(self) -> None:
        self.turns += 1
        if self.turns >= TURN_CAP:
            self.dice = []
            self.phase = OVER
            self.ending = "turn_cap"
            self.last.append({"cause": "turn_cap", "turns": self.turns})
            return
        self._pass_turn()

    def _finish_game(self, seat: int) -> None:
        self.phase = OVER
        self.winner = seat
        self.ending = "normal"
        self.queue = []
        self.dice = []
        self.last.append({"cause": "win", "seat": seat})

    # ------------------------------------------------------- retiring

    def retire(self, seat: int) -> None:
        """The seat's pieces leave the board and its colours lose their
        turns (decisions 22-25)."""
        self._check_retire(seat, self.players, self.retired)
        self._legal = None
        self.last = []
        self.retired.append(seat)
        pieces = [p for p in range(len(self.pieces))
                  if self.owner(p) == seat and self.pieces[p][0] >= 0]
        for piece in pieces:
            self.pieces[piece] = [RETIRED, RETIRED]
        self.last.append({"cause": "retire", "seat": seat, "pieces": pieces})
        active = [s for s in range(self.players) if s not in self.retired]
        if len(active) == 1:
            self._finish_game(active[0])
            return
        if self.colour % self.players == seat:
            self.queue = []     # its turn ends; a pop-off of its piece is called off
            self.popoff = None
            self.own = None
            self._pass_turn()
        elif self.popoff is not None and self.owner(self.popoff["defender"]) == seat:
            # A pop-off against its piece is called off: the mover stays,
            # as if it had won, and turns a wheel on a star (decision 23).
            space, mover = self.popoff["space"], self.popoff["mover"]
            self.popoff = None
            self.last.append({"cause": "popoff_void", "piece": mover, "space": space})
            if space in STARS:
                self.phase = WHEEL
            else:
                self._next_move()

    def _pass_turn(self) -> None:
        """The turn passes to the next colour with pieces on the board,
        without counting as a turn played."""
        self.dice = []
        colour = self.colour
        for _ in range(self.colours):
            colour = (colour + 1) % self.colours
            if self.live_pieces(colour):
                break
        self.colour = colour
        self.phase = ROLL

    # ------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        players, wheels = self.players, self.wheels
        pieces = []
        for piece, (space, port) in enumerate(self.pieces):
            seat = (piece // 2) % players  # piece_owner(piece, players), inlined: to_json is hot
            if space < 0:
                pieces.append({"id": piece, "colour": piece // 2, "seat": seat, "space": None, "port": None,
                               "heading": None, "finished": space == FINISHED})
            else:
                pieces.append({"id": piece, "colour": piece // 2, "seat": seat, "space": space, "port": port,
                               "heading": step(space, port, wheels)[0],  # self.heading(piece)
                               "finished": False})
        return {
            "game": "detour",
            "players": self.players,
            "pieces_per_player": 2 * self.colours // self.players,
            "colours": [{"colour": c, "seat": c % self.players, "pieces": [2 * c, 2 * c + 1]}
                        for c in range(self.colours)],
            "pieces": pieces,
            "wheels": list(self.wheels),
            "colour": self.colour,
            "seat": self.colour % self.players,
            "phase": self.phase,
            "dice": list(self.dice),
            "queue": [{"piece": piece, "die": die} for piece, die in self.queue],
            "popoff": None if self.popoff is None else _copy_popoff(self.popoff),
            "own": None if self.own is None else list(self.own),
            "turns": self.turns,
            "turn_cap": TURN_CAP,
            "winner": self.winner,
            "ending": self.ending,
            "retired": list(self.retired),
            "last": [dict(effect) for effect in self.last],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DetourState:
        off = {True: [FINISHED, FINISHED], False: [RETIRED, RETIRED]}
        pieces = [list(off[p["finished"]]) if p["space"] is None else [p["space"], p["port"]]
                  for p in data["pieces"]]
        return cls(data["players"], len(data["colours"]), pieces, list(data["wheels"]),
                   data["colour"], data["phase"], list(data["dice"]),
                   [[q["piece"], q["die"]] for q in data["queue"]],
                   None if data["popoff"] is None else _copy_popoff(data["popoff"]),
                   None if data["own"] is None else list(data["own"]), data["turns"],
                   data["winner"], data["ending"], [dict(e) for e in data["last"]],
                   list(data["retired"]))


def piece_owner(piece: int, players: int) -> int:
    """The seat a piece belongs to: piece i is of colour i // 2, colour c
    is seat c % players (the rules document's set-up)."""
    return (piece // 2) % players


def _copy_popoff(popoff: dict[str, Any]) -> dict[str, Any]:
    return {**popoff, "pops": [list(pop) for pop in popoff["pops"]]}


# GAME needs the state class, so it closes the module.
GAME = Game(
    name="detour",
    min_players=2,
    max_players=4,
    turn_cap=TURN_CAP,
    state_class=DetourState,
    board=BOARD,
    options={"pieces": "pieces per player, 2 (default) or 4 (two colours; two players only)"},
)
DetourState.game = GAME
