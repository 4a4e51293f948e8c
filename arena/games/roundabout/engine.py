"""Roundabout: race Darts round a wheel of five rings and sixteen bars and
bring them home, for 2, 3 or 4 players.

A turn is one roll of two dice, played die by die: each decision moves one
Dart the full value of one die, either round its ring in the direction it
points or along its bar inward or outward. Blocks (two Darts of one player
side by side) cannot be passed by anyone else; a single Dart on a bar beside
two Darts of one opponent is captured and frozen; Darts that come home are
removed at once, and so are Ringers (a row of one player's Darts on one ring
of the territory opposite his home). Odd doubles may instead reverse one or
two Darts, even doubles may jump blocks, and with three or four players the
roller may offer his roll to an opponent of his choice (the Golden Rule).

The rules as implemented, the board, the set-ups, the JSON state, the action
shapes and every decision on a point the rulebook leaves open are in
``seeds/roundabout.md``; "decision N" below refers to its numbered list.
"""

from __future__ import annotations

from typing import Any

from arena.games.base import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Game,
    InvalidOptions,
    Outcome,
    State,
    Termination,
    race_placements,
)
from arena.games.roundabout import board as roundabout_board

# Turns (one per seat in rotation, see decision 14) after which the game is
# cut short as a draw. Random play finishes far sooner (see the rules doc).
TURN_CAP = 1000

# ---------------------------------------------------------------- board tables
# Everything below is read from the same data GAME.board publishes.

BOARD = roundabout_board.board_data()
BARS: int = BOARD["bars"]
RINGS: int = BOARD["rings"]
NSPACES = RINGS * BARS
RING_OF: tuple[int, ...] = tuple(s["ring"] for s in BOARD["spaces"])
BAR_OF: tuple[int, ...] = tuple(s["bar"] for s in BOARD["spaces"])
TERR_OF: tuple[int, ...] = tuple(s["territory"] for s in BOARD["spaces"])
SPACE_AT: dict[tuple[int, int], int] = {(s["ring"], s["bar"]): s["id"] for s in BOARD["spaces"]}
TERRITORY_BARS: tuple[tuple[int, ...], ...] = tuple(tuple(t["bars"]) for t in BOARD["territories"])
SEAT_TERRITORIES: dict[int, tuple[int, ...]] = {
    int(n): tuple(t) for n, t in BOARD["seat_territories"].items()}
DARTS_PER_PLAYER: dict[int, int] = {int(n): d for n, d in BOARD["darts_per_player"].items()}
SETUPS: dict[int, list[list[tuple[int, int]]]] = {
    int(n): [[(d["space"], d["dir"]) for d in seat] for seat in seats]
    for n, seats in BOARD["setups"].items()}

# The four ways a Dart can move, as indices into PATHS: round its ring
# clockwise or anticlockwise (only the way it points), inward, outward.
CW, CCW, IN, OUT = 0, 1, 2, 3
WAY_NAMES = ("ring", "ring", "in", "out")
WAY_OF = {"in": IN, "out": OUT}
# For the JSON: SPOTS[space] is (space, ring, bar), and SPOTS[-1] (a Dart
# removed) is all None; OWNERS[players][dart] the seat that owns the Dart.
SPOTS: tuple[tuple[int | None, int | None, int | None], ...] = tuple(
    (s, RING_OF[s], BAR_OF[s]) for s in range(NSPACES)) + ((None, None, None),)
OWNERS = {players: tuple(dart // per for dart in range(per * players))
          for players, per in DARTS_PER_PLAYER.items()}
NO_BARS: frozenset[int] = frozenset()


def _neighbours(s: int) -> tuple[int, ...]:
    """The spaces orthogonally next to ``s``: the consecutive bars on its
    ring (the ring closes) and the adjacent rings on its bar."""
    ring, bar = RING_OF[s], BAR_OF[s]
    near = [SPACE_AT[ring, (bar + 1) % BARS], SPACE_AT[ring, (bar - 1) % BARS]]
    near += [SPACE_AT[r, bar] for r in (ring - 1, ring + 1) if 0 <= r < RINGS]
    return tuple(near)


def _path(s: int, way: int, steps: int) -> tuple[tuple[int, ...], int] | None:
    """The spaces passed over and the landing space of a move, or None if it
    would leave the board (bars end at ring 0 and ring 4)."""
    ring, bar = RING_OF[s], BAR_OF[s]
    if way in (CW, CCW):
        sign = 1 if way == CW else -1
        cells = [SPACE_AT[ring, (bar + sign * k) % BARS] for k in range(1, steps + 1)]
    else:
        sign = -1 if way == IN else 1
        if not 0 <= ring + sign * steps < RINGS:
            return None
        cells = [SPACE_AT[ring + sign * k, bar] for k in range(1, steps + 1)]
    return tuple(cells[:-1]), cells[-1]


def _capture_pairs(s: int) -> tuple[tuple[int, int], ...]:
    """The other two spaces of every row of three adjacent rings on the bar
    of ``s`` that includes ``s``: where two Darts of one player capture."""
    ring, bar = RING_OF[s], BAR_OF[s]
    pairs = []
    for low in range(max(0, ring - 2), min(ring, RINGS - 3) + 1):
        others = [SPACE_AT[r, bar] for r in range(low, low + 3) if r != ring]
        pairs.append((others[0], others[1]))
    return tuple(pairs)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(NSPACES))
CAPTURE_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    _capture_pairs(s) for s in range(NSPACES))
# COLUMN[space]: every space of that space's bar.
COLUMN: tuple[tuple[int, ...], ...] = tuple(
    tuple(SPACE_AT[r, BAR_OF[s]] for r in range(RINGS)) for s in range(NSPACES))
# PATHS[space][way][die] -> (passed, landing) or None; die index 0 unused.
PATHS: tuple[tuple[tuple[Any, ...], ...], ...] = tuple(
    tuple((None,) + tuple(_path(s, way, die) for die in range(1, 7)) for way in range(4))
    for s in range(NSPACES))
# The same paths as move generation walks them: STEPS[space][ring_way][die]
# lists (way, way's name, passed, landing) for the three ways a Dart
# pointing ``ring_way`` (0 clockwise, 1 anticlockwise) may go (round its
# ring, in, out, in that order), leaving out those that leave the board.
STEPS: tuple[tuple[tuple[tuple[tuple[int, str, tuple[int, ...], int], ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple((way, WAY_NAMES[way], *PATHS[s][way][die]) for way in (ring_way, IN, OUT)
                      if PATHS[s][way][die] is not None) if die else ()
                for die in range(7))
          for ring_way in (CW, CCW))
    for s in range(NSPACES))

# Phases: "rolloff" and "roll" are chance, "play" and "offer" are decisions.
ROLLOFF, ROLL, PLAY, OFFER, OVER = "rolloff", "roll", "play", "offer", "over"
PASS: Action = {"pass": True}
ACCEPT_ACTIONS: list[Action] = [{"accept": True}, {"accept": False}]
# Chance requests are values: one of each is enough.
ROLL_REQUESTS = tuple(ChanceRequest(f"seat:{seat}", 2, 6, "roll") for seat in range(4))


class RoundaboutState(State):
    """One position.

    ``pos[d]`` is the space of Dart ``d`` (-1 once removed) and ``dirs[d]``
    its direction round the ring (+1 clockwise, -1 anticlockwise); Dart
    ``d`` belongs to seat ``d // per``. ``cell`` and ``own`` are the board
    seen from the spaces (Dart and owner on each space, -1 if empty), kept
    in step with ``pos`` because every rule looks at neighbours.
    """

    def __init__(self, players: int, pos: list[int], dirs: list[int]) -> None:
        self.players = players
        self.per = DARTS_PER_PLAYER[players]
        self.homes = SEAT_TERRITORIES[players]
        self.targets = tuple((t + 2) % 4 for t in self.homes)
        self.pos = pos
        self.dirs = dirs
        self.cell = [-1] * NSPACES
        self.own = [-1] * NSPACES
        for dart, s in enumerate(pos):
            if s >= 0:
                self.cell[s] = dart
                self.own[s] = dart // self.per
        self.phase = ROLLOFF
        self.contenders: list[int] = list(range(players))
        self.turn = 0
        self.turn_player = -1
        self.mover = -1
        self.asking = -1
        self.dice: list[int] = []
        self.left: list[int] = []
        self.frozen: frozenset[int] = frozenset()
        self.offer_allowed = False
        self.winner = -1
        self.end_reason = ""
        self.retired: list[int] = []
        self.last: list[dict[str, Any]] = []
        self._legal: list[Action] | None = None

    # ----------------------------------------------------------- set-up

    @classmethod
    def initial(cls, num_players: int, options: dict[str, Any]) -> RoundaboutState:
        if num_players not in SETUPS:
            raise InvalidOptions(f"roundabout is for 2 to 4 players, not {num_players}")
        pos, dirs = [], []
        for seat in SETUPS[num_players]:
            for s, d in seat:
                pos.append(s)
                dirs.append(d)
        return cls(num_players, pos, dirs)

    @classmethod
    def position(cls, players: int, darts: dict[int, list[tuple[int, int, int]]],
                 to_move: int, turn: int = 1) -> RoundaboutState:
        """A position built from a description, for tests and analysis:
        ``darts[seat]`` lists that seat's Darts on the board as
        (ring, bar, direction); the seat's other Darts count as removed.
        ``to_move`` is about to roll (or is skipped at once if all his Darts
        are captured, as at any turn start)."""
        per = DARTS_PER_PLAYER[players]
        pos, dirs = [-1] * (per * players), [1] * (per * players)
        for seat, placed in darts.items():
            if len(placed) > per:
                raise ValueError(f"seat {seat} has {per} darts, got {len(placed)}")
            for k, (ring, bar, direction) in enumerate(placed):
                pos[seat * per + k] = SPACE_AT[ring, bar]
                dirs[seat * per + k] = direction
        if len(set(p for p in pos if p >= 0)) != sum(p >= 0 for p in pos):
            raise ValueError("two darts on one space")
        state = cls(players, pos, dirs)
        state.contenders = []
        state.turn = turn - 1
        state._start_turn(to_move)
        return state

    # ----------------------------------------------------------- interface

    def current_player(self) -> int:
        if self.phase == PLAY:
            return self.mover
        if self.phase == OFFER:
            return self.asking
        if self.phase == OVER:
            return TERMINAL
        return CHANCE

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            if self.phase == PLAY:
                self._legal = self._play_options()
            elif self.phase == OFFER:
                self._legal = list(ACCEPT_ACTIONS)
            else:
                self._legal = []
        return self._legal

    def chance_request(self) -> ChanceRequest:
        if self.phase == ROLL:
            return ROLL_REQUESTS[self.turn_player]
        if self.phase == ROLLOFF:
            return ChanceRequest("rolloff", len(self.contenders), 6, "rolloff")
        raise ValueError(f"no chance is due in phase {self.phase!r}")

    def apply_chance(self, values: tuple[int, ...]) -> None:
        phase = self.phase
        if phase == ROLL:
            count = 2
        elif phase == ROLLOFF:
            count = len(self.contenders)
        else:
            raise ValueError(f"no chance is due in phase {phase!r}")
        if len(values) != count or not 1 <= min(values) <= max(values) <= 6:
            raise ValueError(f"expected {count} dice, got {values!r}")
        self.last = []
        self._legal = None
        if phase == ROLLOFF:
            self._rolloff(list(values))
        else:
            self._roll(list(values))
        self._settle()

    def _apply(self, action: Action) -> None:
        self.last = []
        self._legal = None
        if self.phase == OFFER:
            self._answer_offer(action["accept"])
        else:
            self._play(action)
        self._settle()

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise ValueError("the game is not over")
        if self.winner >= 0:
            # Decision 20: the first home wins; the others tie behind.
            return Outcome(race_placements(self.players, self.winner, self.retired), Termination.NORMAL)
        return Outcome(race_placements(self.players, None, self.retired), Termination(self.end_reason))

    def clone(self) -> RoundaboutState:
        new = RoundaboutState.__new__(RoundaboutState)
        new.__dict__.update(self.__dict__)
        new.pos = self.pos[:]
        new.dirs = self.dirs[:]
        new.cell = self.cell[:]
        new.own = self.own[:]
        new.contenders = self.contenders[:]
        new.dice = self.dice[:]
        new.left = self.left[:]
        new.last = self.last[:]
        new.retired = self.retired[:]
        new._legal = None if self._legal is None else list(self._legal)
        return new

    # ----------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        darts = [{"id": dart, "owner": owner, "space": space, "ring": ring, "bar": bar, "dir": way}
                 for dart, owner, (space, ring, bar), way
                 in zip(range(len(self.pos)), OWNERS[self.players], map(SPOTS.__getitem__, self.pos), self.dirs)]
        return {
            "game": "roundabout",
            "players": self.players,
            "darts_per_player": self.per,
            "homes": list(self.homes),
            "targets": list(self.targets),
            "darts": darts,
            "on_board": [self._count(seat) for seat in range(self.players)],
            "captured": sorted(d for seat in range(self.players) for d in self._captured(seat)),
            "phase": self.phase,
            "turn": self.turn,
            "turn_player": self._seat_or_none(self.turn_player),
            "mover": self._seat_or_none(self.mover),
            "asking": self._seat_or_none(self.asking),
            "dice": list(self.dice),
            "dice_left": list(self.left),
            "frozen": sorted(self.frozen),
            "offer_allowed": self.offer_allowed,
            "contenders": list(self.contenders),
            "winner": self._seat_or_none(self.winner),
            "end_reason": self.end_reason or None,
            "retired": list(self.retired),
            "last": [dict(e) for e in self.last],
        }

    @staticmethod
    def _seat_or_none(seat: int) -> int | None:
        return seat if seat >= 0 else None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundaboutState:
        pos = [-1 if d["space"] is None else d["space"] for d in data["darts"]]
        dirs = [d["dir"] for d in data["darts"]]
        state = cls(data["players"], pos, dirs)
        state.phase = data["phase"]
        state.turn = data["turn"]
        state.turn_player = _seat(data["turn_player"])
        state.mover = _seat(data["mover"])
        state.asking = _seat(data["asking"])
        state.dice = list(data["dice"])
        state.left = list(data["dice_left"])
        state.frozen = frozenset(data["frozen"])
        state.offer_allowed = data["offer_allowed"]
        state.contenders = list(data["contenders"])
        state.winner = _seat(data["winner"])
        state.end_reason = data["end_reason"] or ""
        state.retired = list(data["retired"])
        state.last = [dict(e) for e in data["last"]]
        return state

    # ----------------------------------------------------------- board queries

    def _count(self, seat: int) -> int:
        per = self.per
        return per - self.pos[seat * per:(seat + 1) * per].count(-1)  # -1: removed

    def _is_block(self, s: int, owner: int) -> bool:
        """Whether the Dart of ``owner`` on ``s`` is part of a block: another
        Dart of the same player beside it on its ring or on its bar."""
        own = self.own
        for n in NEIGHBOURS[s]:
            if own[n] == owner:
                return True
        return False

    def _crosses_block(self, passed: tuple[int, ...], seat: int) -> bool:
        """Whether a move of ``seat`` passes over a Dart of another player's
        block (blocks stop every other player, decision 5)."""
        own = self.own
        for q in passed:
            o = own[q]
            if o >= 0 and o != seat and self._is_block(q, o):
                return True
        return False

    def _is_captured(self, dart: int) -> bool:
        """A Dart is captured when it is its owner's only Dart on its bar and
        it and two Darts of one other player fill three adjacent rings of
        that bar, in any order (decision 6)."""
        s = self.pos[dart]
        if s < 0:
            return False
        own, seat = self.own, dart // self.per
        for a, b in CAPTURE_PAIRS[s]:
            other = own[a]
            if other >= 0 and other == own[b] and other != seat:
                return sum(1 for q in COLUMN[s] if own[q] == seat) == 1
        return False

    def _captured(self, seat: int) -> list[int]:
        """The seat's captured Darts (_is_captured for each, inlined: this
        runs for every seat at every state's JSON)."""
        per, pos, own = self.per, self.pos, self.own
        found = []
        for d in range(seat * per, (seat + 1) * per):
            s = pos[d]
            if s < 0:
                continue
            for a, b in CAPTURE_PAIRS[s]:
                other = own[a]
                if other >= 0 and other == own[b] and other != seat:
                    if sum(1 for q in COLUMN[s] if own[q] == seat) == 1:
                        found.append(d)
                    break
        return found

    def _all_captured(self, seat: int) -> bool:
        """Whether the seat has Darts on the board and all are captured."""
        pos = self.pos
        on_board = sum(1 for d in range(seat * self.per, (seat + 1) * self.per) if pos[d] >= 0)
        return on_board > 0 and len(self._captured(seat)) == on_board

    def _closed_bars(self) -> set[int]:
        """Bars holding one of the mover's frozen Darts: no other Dart of his
        may end the turn there (decision 7)."""
        return {BAR_OF[self.pos[d]] for d in self.frozen if self.pos[d] >= 0}

    def _end_ok(self) -> bool:
        """Whether the turn may end in this position: each frozen Dart still
        on the board is still its owner's only Dart on its bar."""
        if not self.frozen:
            return True
        seat = self.mover
        for d in self.frozen:
            s = self.pos[d]
            if s >= 0:
                bar = BAR_OF[s]
                if sum(1 for r in range(RINGS) if self.own[r * BARS + bar] == seat) != 1:
                    return False
        return True

    # ----------------------------------------------------------- move generation

    def _moves(self, any_one: bool = False) -> tuple[list[Action], bool]:
        """The die moves open to the mover as actions, in Dart, die, way
        order, and whether one of them jumps no block (then a die must be
        played). Even doubles may jump blocks (decision 10); moves that
        would leave a Dart illegally on a closed bar are left out (decision
        7). ``any_one``: stop at the first move (the look-ahead only asks
        whether there is one)."""
        m, per, own, pos, dirs = self.mover, self.per, self.own, self.pos, self.dirs
        frozen = self.frozen
        left = self.left
        values: tuple[int, ...]  # the die values left, each once, in order
        if len(left) == 2 and left[0] != left[1]:
            values = (left[0], left[1]) if left[0] < left[1] else (left[1], left[0])
        else:
            values = (left[0],) if left else ()
        dice = self.dice
        jumping = dice[0] == dice[1] and dice[0] % 2 == 0
        closed = self._closed_bars() if frozen else NO_BARS
        # Only a move that stops on a closed bar, or one made while another
        # Dart has stopped on one, needs the full look-ahead.
        settled = not closed or self._end_ok()
        found: list[Action] = []
        mandatory = False
        for d in range(m * per, (m + 1) * per):
            c = pos[d]
            if c < 0 or d in frozen:
                continue
            by_die = STEPS[c][0 if dirs[d] > 0 else 1]
            for v in values:
                for way, name, passed, dest in by_die[v]:
                    if own[dest] >= 0:
                        continue
                    jump = False
                    for q in passed:
                        o = own[q]
                        if o >= 0 and o != m:
                            for n in NEIGHBOURS[q]:
                                if own[n] == o:
                                    jump = True
                                    break
                            if jump:
                                break
                    if jump and not jumping:
                        continue
                    if closed and (not settled or BAR_OF[dest] in closed) \
                            and not self._closed_move_ok(d, v, way):
                        continue
                    found.append({"dart": d, "die": v, "way": name})
                    if not jump:
                        mandatory = True
                    if any_one:
                        return found, mandatory
        return found, mandatory

    def _closed_move_ok(self, dart: int, die: int, way: int) -> bool:
        """With a frozen Dart on the board, a move is allowed if the turn
        could end legally after it: at once, or after a second die that
        takes the Dart that stopped on a closed bar away again."""
        # A copy of what _move changes is enough: the rest is shared, unchanged.
        trial = RoundaboutState.__new__(RoundaboutState)
        trial.__dict__.update(self.__dict__)
        trial.pos, trial.cell, trial.own = self.pos[:], self.cell[:], self.own[:]
        trial.left = self.left[:]
        trial.last = []
        trial._move(dart, die, way)
        if trial.phase == OVER or trial._end_ok():
            return True
        return bool(trial.left) and bool(trial._moves(any_one=True)[0])

    def _play_options(self) -> list[Action]:
        """Everything the mover may do now (decisions 2, 9, 10, 13)."""
        options, mandatory = self._moves()
        fresh = len(self.left) == 2
        if fresh and self.dice[0] == self.dice[1] and self.dice[0] % 2 == 1:
            options += self._reversals()
        if fresh and self.offer_allowed:
            options += [{"offer": seat} for seat in self._opponents()]
        if options and not mandatory and self._end_ok():
            options.append(dict(PASS))
        return options

    def _opponents(self) -> list[int]:
        """The roller's opponents in turn order from the seat after him:
        the seats he may offer his roll to (decision 13)."""
        return [seat for seat in ((self.turn_player + k) % self.players
                                  for k in range(1, self.players))
                if seat not in self.retired]

    def _reversals(self) -> list[Action]:
        """Odd doubles: reverse one or two Darts that are neither captured
        nor in their owner's home territory (decision 9)."""
        m, per, home = self.mover, self.per, self.homes[self.mover]
        able = [d for d in range(m * per, (m + 1) * per)
                if self.pos[d] >= 0 and d not in self.frozen and TERR_OF[self.pos[d]] != home]
        options: list[Action] = []
        for i, a in enumerate(able):
            options.append({"reverse": [a]})
            options += [{"reverse": [a, b]} for b in able[i + 1:]]
        return options

    # ----------------------------------------------------------- applying

    def _play(self, action: Action) -> None:
        if "dart" in action:
            dart, named = action["dart"], action["way"]
            way = (CW if self.dirs[dart] > 0 else CCW) if named == "ring" else WAY_OF[named]
            self.offer_allowed = False
            self._move(dart, action["die"], way)
            if self.phase == PLAY and not self.left:
                self._end_roll(acted=True)
        elif "reverse" in action:
            for dart in action["reverse"]:
                self.dirs[dart] = -self.dirs[dart]
                self.last.append({"cause": "reverse", "seat": self.mover, "dart": dart,
                                  "dir": self.dirs[dart]})
            self._end_roll(acted=True)
        elif "offer" in action:
            self.offer_allowed = False
            self.last.append({"cause": "offer", "seat": self.mover, "to": action["offer"],
                              "dice": list(self.dice)})
            self.phase = OFFER
            self.asking = action["offer"]
        else:
            self.last.append({"cause": "pass", "seat": self.mover, "dice_left": list(self.left)})
            self._end_roll(acted=len(self.left) < 2)

    def _move(self, dart: int, die: int, way: int) -> None:
        """Move one Dart one die; bear it off or complete a ringer."""
        m, own, cell = self.mover, self.own, self.cell
        start = self.pos[dart]
        passed, dest = PATHS[start][way][die]
        effect = {"cause": "move", "seat": m, "dart": dart, "die": die, "way": WAY_NAMES[way],
                  "from": start, "to": dest, "path": [start, *passed, dest],
                  "jump": self._crosses_block(passed, m)}
        self.last.append(effect)
        self.left.remove(die)
        cell[start] = -1
        own[start] = -1
        home = self.homes[m]
        if TERR_OF[start] != home and TERR_OF[dest] == home:
            self.pos[dart] = -1
            self.last.append({"cause": "bear_off", "seat": m, "dart": dart, "space": dest})
        else:
            self.pos[dart] = dest
            cell[dest] = dart
            own[dest] = m
            if not self._ringer(dest):
                return
        if max(self.pos[m * self.per:(m + 1) * self.per]) < 0:  # none left on the board
            self.phase = OVER
            self.winner = m
            self.end_reason = "won"
            self.last.append({"cause": "win", "seat": m})

    def _ringer(self, s: int) -> bool:
        """Remove a ringer completed by landing on ``s`` (decision 11);
        say whether there was one."""
        m = self.mover
        if TERR_OF[s] != self.targets[m]:
            return False
        ring, bar = RING_OF[s], BAR_OF[s]
        bars = TERRITORY_BARS[TERR_OF[s]]
        own = self.own
        if self.players == 2:
            row = ring * BARS
            for b in bars:
                if own[row + b] != m:
                    return False
            run = list(bars)
        else:
            low = high = bar
            while low - 1 in bars and own[ring * BARS + low - 1] == m:
                low -= 1
            while high + 1 in bars and own[ring * BARS + high + 1] == m:
                high += 1
            run = list(range(low, high + 1)) if high - low >= 2 else []
        if not run:
            return False
        spaces = [ring * BARS + b for b in run]
        darts = [self.cell[q] for q in spaces]
        for q, d in zip(spaces, darts):
            self.cell[q] = -1
            own[q] = -1
            self.pos[d] = -1
        self.last.append({"cause": "ringer", "seat": m, "darts": darts, "spaces": spaces})
        return True

    def _answer_offer(self, accept: bool) -> None:
        """The one opponent offered the roll takes it, or declines it and
        the roller must play it himself (decision 13)."""
        seat = self.asking
        self.last.append({"cause": "accept" if accept else "decline", "seat": seat})
        if accept:
            self._begin_play(seat)
        else:
            self._roller_plays_on()

    def _roller_plays_on(self) -> None:
        """A declined offer: the roller plays his roll after all, with the
        Darts frozen that were frozen when he began to play it, at his roll
        (decisions 7 and 23), even where the seat that captured them has
        retired since."""
        self.phase = PLAY
        self.mover = self.turn_player
        self.asking = -1

    # ----------------------------------------------------------- retiring

    def retire(self, seat: int) -> None:
        """The seat's Darts leave the board and it loses every turn from
        now on (decisions 21-24)."""
        self._check_retire(seat, self.players, self.retired)
        self.last = []
        self._legal = None
        self.retired.append(seat)
        darts = [d for d in range(seat * self.per, (seat + 1) * self.per) if self.pos[d] >= 0]
        for d in darts:
            self.cell[self.pos[d]] = -1
            self.own[self.pos[d]] = -1
            self.pos[d] = -1
        self.last.append({"cause": "retire", "seat": seat, "darts": darts})
        active = [s for s in range(self.players) if s not in self.retired]
        if len(active) == 1:
            self.phase = OVER
            self.winner = active[0]
            self.end_reason = "won"
            self.dice, self.left, self.frozen = [], [], frozenset()
            self.mover = self.asking = -1
            self.offer_allowed = False
            self.last.append({"cause": "win", "seat": self.winner})
            return
        if self.phase == ROLLOFF:
            if seat in self.contenders:
                self.contenders.remove(seat)
                if len(self.contenders) == 1:
                    only = self.contenders.pop()
                    self._start_turn(only)
            return
        if self.phase == OFFER and self.asking == seat:
            self.last.append({"cause": "decline", "seat": seat})
            self._roller_plays_on()
        elif self.turn_player == seat and self.phase in (ROLL, OFFER) \
                or self.phase == PLAY and self.mover == seat:
            # Its roll, or a roll it accepted, is lost; the rotation goes on
            # after the roller.
            self._start_turn((self.turn_player + 1) % self.players)
        self._settle()

    # ----------------------------------------------------------- turn flow

    def _rolloff(self, values: list[int]) -> None:
        self.last.append({"cause": "rolloff", "rolls": [[seat, v] for seat, v
                                                         in zip(self.contenders, values)]})
        best = max(values)
        tied = [seat for seat, v in zip(self.contenders, values) if v == best]
        if len(tied) == 1:
            self.contenders = []
            self._start_turn(tied[0])
        else:
            self.contenders = tied

    def _roll(self, values: list[int]) -> None:
        self.dice = values
        self.left = list(values)
        self.last.append({"cause": "roll", "seat": self.turn_player, "dice": list(values)})
        self.offer_allowed = self.players >= 3
        self._begin_play(self.turn_player)

    def _begin_play(self, seat: int) -> None:
        """``seat`` now plays the roll; his Darts captured now stay frozen
        for the whole roll (decision 7)."""
        self.phase = PLAY
        self.mover = seat
        self.asking = -1
        self.frozen = frozenset(self._captured(seat))

    def _settle(self) -> None:
        """Play out whatever holds no choice (decision 3): a roll with no
        move left ends, a single forced move is made."""
        while self.phase == PLAY:
            options = self._play_options()
            if not options:
                self._end_roll(acted=len(self.left) < 2)
            elif len(options) == 1:
                self._play(options[0])
            else:
                self._legal = options
                return
        self._legal = None

    def _end_roll(self, acted: bool) -> None:
        if not acted and self._stalled():
            self._stop("stalemate")
            return
        self._start_turn((self.turn_player + 1) % self.players)

    def _start_turn(self, seat: int) -> None:
        """Begin ``seat``'s turn; a seat whose Darts are all captured loses
        it without rolling (decision 8)."""
        self.dice, self.left, self.frozen = [], [], frozenset()
        self.mover = self.asking = -1
        self.offer_allowed = False
        while True:
            if seat in self.retired:
                seat = (seat + 1) % self.players
                continue
            self.turn += 1
            if self.turn > TURN_CAP:
                self._stop("turn_cap")
                return
            self.turn_player = seat
            if not self._all_captured(seat):
                self.phase = ROLL
                return
            self.last.append({"cause": "skip", "seat": seat, "reason": "all darts captured"})
            if self._stalled():
                self._stop("stalemate")
                return
            seat = (seat + 1) % self.players

    def _stop(self, reason: str) -> None:
        self.phase = OVER
        self.end_reason = reason
        self.turn = min(self.turn, TURN_CAP)
        self.dice, self.left, self.frozen = [], [], frozenset()
        self.mover = self.asking = -1
        self.offer_allowed = False
        self.last.append({"cause": "end", "reason": reason})

    def _stalled(self) -> bool:
        """Whether no seat could ever act again, whatever the dice (decision
        15): no uncaptured Dart may be reversed (it is in its home) and none
        has any move of any die value, jumping or not."""
        own = self.own
        for seat in range(self.players):
            per, home = self.per, self.homes[seat]
            for d in range(seat * per, (seat + 1) * per):
                c = self.pos[d]
                if c < 0 or self._is_captured(d):
                    continue
                if TERR_OF[c] != home:
                    return False
                ring_way = CW if self.dirs[d] > 0 else CCW
                for way in (ring_way, IN, OUT):
                    for v in range(1, 7):
                        path = PATHS[c][way][v]
                        if path is None or own[path[1]] >= 0:
                            continue
                        if v % 2 == 0 or not self._crosses_block(path[0], seat):
                            return False
        return True


def _seat(value: int | None) -> int:
    return -1 if value is None else value


GAME = Game(
    name="roundabout",
    min_players=2,
    max_players=4,
    turn_cap=TURN_CAP,
    state_class=RoundaboutState,
    board=BOARD,
    options={},
)
RoundaboutState.game = GAME
