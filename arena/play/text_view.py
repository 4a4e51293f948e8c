"""The games in words, for a person at the terminal: a text board (or the
pieces' places) per game, each offered action's meaning, and what each
step did.

Everything is read from a state's ``to_json()`` (what a bot sees, described
in ``seeds/<game>.md``), the board data and the action dicts, so the
terminal shows exactly what the referee plays. Seats are named by the
names given (``you`` and the bots) and marked A, B, C, D on the boards.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from arena.games import get_game
from arena.results import first_place_words, ordinal

Json = dict[str, Any]
MARKS = "ABCD"


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class TextView:
    """One game's words. ``names[seat]`` names each seat."""

    def __init__(self, game: str, names: list[str]) -> None:
        self.game = game
        # The same bot may play several seats: then its seat tells them apart.
        self.names = [f"{name} (seat {seat})" if names.count(name) > 1 else name for seat, name in enumerate(names)]
        self.board = get_game(game).board

    # -- who is who ---------------------------------------------------------------

    def seat(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat]

    def legend(self) -> str:
        return "   ".join(f"{MARKS[seat]} = {name}" + ("" if name.endswith(f"(seat {seat})") else f" (seat {seat})")
                           for seat, name in enumerate(self.names))

    # -- the three things a person reads --------------------------------------------

    def position(self, state: Json) -> list[str]:
        """The board, or where everything stands, and whose turn with which dice."""
        return _POSITION[self.game](self, state)

    def action(self, action: Json, state: Json) -> str:
        """What choosing ``action`` does, in words."""
        try:
            return _ACTION[self.game](self, action, state)
        except (KeyError, IndexError, TypeError):
            return _compact(action)

    def effects(self, state: Json) -> list[str]:
        """What the latest step did (the state's ``last``), one line per effect."""
        lines = []
        for effect in state.get("last") or []:
            try:
                line = _EFFECT[self.game](self, effect)
            except (KeyError, IndexError, TypeError):
                line = _compact(effect)
            if line:
                lines.append(line)
        return lines

    def result(self, placements: list[int], scores: list[float] | None = None) -> list[str]:
        """Who won (or shares first place, or a draw) and every seat's place."""
        words = first_place_words([self.seat(seat) for seat in range(len(placements))], placements)
        order = sorted(range(len(placements)), key=lambda seat: (placements[seat], seat))
        places = ", ".join(f"{ordinal(placements[seat])} {self.seat(seat)}" +
                           (f" ({scores[seat]:g} {self._score_unit()})" if scores else "") for seat in order)
        return [f"result: {words}", f"places: {places}"]

    def _score_unit(self) -> str:
        return "rolls" if self.game == "slyyde" else "points"


# ----------------------------------------------------------------------------- Slyyde

_SLYYDE_MARKS = {"start": "S", "centre": "C", "safe": "*", "triangle": "^", "black": "#", "back6": "!"}


def _slyyde_position(view: TextView, state: Json) -> list[str]:
    squares = view.board["squares"]
    grid = view.board["grid"]
    pawns: dict[int, str] = {}
    for seat, square in enumerate(state["positions"]):
        if seat not in state.get("retired", []):
            pawns[square] = pawns.get(square, "") + MARKS[seat]
    cells = [[""] * grid for _ in range(grid)]
    for square in squares:
        text = f"{square['n']}{_SLYYDE_MARKS.get(square['kind'], '')}"
        if square["n"] in pawns:
            text += "[" + pawns[square["n"]] + "]"
        cells[square["row"]][square["col"]] = text
    width = max(len(text) for row in cells for text in row) + 1
    lines = ["".join(text.ljust(width) for text in row).rstrip() for row in cells]
    lines.append("S start  C centre (99, the goal)  * safe  ^ slyyde triangle  # black square  ! back 6")
    lines.append(view.legend())
    for seat, square in enumerate(state["positions"]):
        out = " (retired)" if seat in state.get("retired", []) else ""
        lines.append(f"{MARKS[seat]} {view.seat(seat)}: square {square}, {state['rolls'][seat]} rolls{out}")
    if state["phase"] not in ("over", "rolloff"):
        die = f", rolled {state['die']}" if state.get("die") else ""
        lines.append(f"to play: {view.seat(state['turn'])}{die}")
    return lines


def _slyyde_action(view: TextView, action: Json, state: Json) -> str:
    if "back6" in action:
        return f"send {view.seat(action['back6'])} back six squares from square {state['positions'][action['back6']]}"
    here = state["positions"][state["turn"]]
    if action["move"] == "diagonal":
        return f"take the black square's diagonal from {here} to square {action['to']}"
    if action["to"] == here:
        return f"move by the die: too far, stay on square {here}"
    return f"move by the die from {here} to square {action['to']}"


def _slyyde_effect(view: TextView, effect: Json) -> str | None:
    cause, who = effect["cause"], view.seat(effect.get("seat"))
    words = {
        "rolloff": lambda: f"{who} rolls {effect['die']} to see who starts",
        "first_player": lambda: f"{who} starts",
        "roll": lambda: f"{who} rolls {effect['die']}",
        "move": lambda: f"{who} moves from {effect['from']} to {effect['to']}",
        "diagonal": lambda: f"{who} takes the diagonal from {effect['from']} to {effect['to']}",
        "stay": lambda: f"{who} stays on {effect['at']} (the roll is too high)",
        "slyyde": lambda: f"{who} slyydes from triangle {effect['from']} to safe square {effect['to']}",
        "sweep": lambda: f"{who} is swept by {view.seat(effect['by'])} from {effect['from']} to {effect['to']}",
        "back6": lambda: f"{view.seat(effect['by'])} sends {who} back six, from {effect['from']} to {effect['to']}",
        "bump": lambda: f"{view.seat(effect['by'])} lands on {who}: back six, from {effect['from']} "
                        f"to {effect['to']}",
        "back6_none": lambda: f"{who} lands on a back-6 square with no opponent to send back",
        "extra_turn": lambda: f"{who} rolled a 6 and plays again",
        "retire": lambda: f"{who} is out of the game",
        "win": lambda: f"{who} reaches the centre and wins",
        "turn_cap": lambda: f"the game stops at the turn cap ({effect['turns']} turns)",
    }
    return words[cause]() if cause in words else _compact(effect)


# ----------------------------------------------------------------------------- Detour

_TURNS = {"cw": "a quarter turn clockwise", "ccw": "a quarter turn anticlockwise", "half": "a half turn"}


def _detour_space(view: TextView, space: int | None) -> str:
    """A space by its id and where it lies: the rules document's names."""
    if space is None:
        return "off the board"
    board = view.board
    if space == board["centre"]:
        return f"{space} (the centre)"
    for index, start in enumerate(board["starts"]):
        if start["space"] == space:
            return f"{space} (START {index})"
    for wheel in board["wheels"]:
        if wheel["hub"] == space:
            return f"{space} (hub of wheel {wheel['name']})"
    kind = board["spaces"][space]["kind"] if space < len(board["spaces"]) else ""
    extra = {"finish": ", FINISH", "star": ", a star"}.get(kind, "")
    segment = next((s["name"] for s in board["segments"] if space in s["spaces"]), None)
    return f"{space} ({segment}{extra})" if segment else f"{space}{' (' + extra[2:] + ')' if extra else ''}"


def _detour_position(view: TextView, state: Json) -> list[str]:
    lines = [view.legend()]
    for piece in state["pieces"]:
        owner = f"{MARKS[piece['seat']]} {view.seat(piece['seat'])}"
        if piece["finished"]:
            where = "finished"
        elif piece["space"] is None:
            where = "off the board (retired)"
        else:
            heading = "" if piece["heading"] is None else f", next step to {piece['heading']}"
            where = f"on {_detour_space(view, piece['space'])}{heading}"
        lines.append(f"piece {piece['id']} ({owner}, colour {piece['colour']}): {where}")
    wheels = ", ".join(f"{w['name']} at {k}" for w, k in zip(view.board["wheels"], state["wheels"]))
    lines.append(f"wheels: {wheels} (k: the hub track joins rims k and k+1)")
    if state["phase"] != "over":
        dice = f", dice {state['dice']}" if state["dice"] else ""
        queue = "; still to move: " + ", ".join(f"piece {q['piece']} by {q['die']}" for q in state["queue"]) \
            if state["queue"] else ""
        lines.append(f"to play: {view.seat(state['seat'])} (colour {state['colour']}), "
                     f"phase {state['phase']}{dice}{queue}")
    return lines


def _detour_action(view: TextView, action: Json, state: Json) -> str:
    if "die" in action:
        return f"move piece {action['piece']} first, by {action['die']} (the other piece moves the other die)"
    if "toward" in action:
        return f"leave the centre toward space {_detour_space(view, action['toward'])}"
    if "wheel" in action:
        name = view.board["wheels"][action["wheel"]]["name"]
        return f"turn wheel {name} {_TURNS[action['turn']]}"
    start = view.board["starts"][action["start"]]["space"]
    if state["phase"] == "own_start":
        return f"send the moving piece to START {action['start']} (space {start}), the other to the other"
    return f"send the losing piece to START {action['start']} (space {start})"


def _detour_owner(view: TextView, piece: int) -> str:
    # Piece i belongs to colour i // 2, colour c to seat c % players (seeds/detour.md).
    return view.seat((piece // 2) % len(view.names))


def _detour_effect(view: TextView, effect: Json) -> str | None:
    cause = effect["cause"]
    piece = effect.get("piece")
    owner = _detour_owner(view, piece) if isinstance(piece, int) else ""
    if cause == "roll":
        return f"{view.seat(effect['seat'])} rolls {', '.join(map(str, effect['dice']))}"
    if cause == "move":
        return f"{owner} moves piece {piece} by {effect['die']} from {effect['from']} to " \
               f"{_detour_space(view, effect['to'])}"
    if cause == "wheel":
        name = view.board["wheels"][effect["wheel"]]["name"]
        carried = f", carrying piece {', '.join(map(str, effect['carried']))}" if effect.get("carried") else ""
        return f"wheel {name} turns {_TURNS.get(effect['turn'], effect['turn'])}{carried}"
    if cause == "popoff":
        pops = effect["pops"]
        winner = "pop again" if effect["winner"] is None else f"piece {effect['winner']} wins"
        return f"pop-off: piece {effect['mover']} pops {pops[0]}, piece {effect['defender']} pops {pops[1]}: {winner}"
    if cause == "sent_back":
        return f"{owner}'s piece {piece} goes back to START {effect['start']} (space {effect['to']})"
    if cause == "finish":
        return f"{owner}'s piece {piece} finishes"
    if cause == "win":
        return f"{view.seat(effect['seat'])} wins"
    if cause == "retire":
        return f"{view.seat(effect['seat'])} is out of the game"
    if cause == "popoff_void":
        return f"the pop-off on {effect['space']} is called off"
    if cause == "turn_cap":
        return f"the game stops at the turn cap ({effect['turns']} turns)"
    return _compact(effect)


# ----------------------------------------------------------------------------- Ciclovia

_DIRECTIONS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _ciclovia_space(view: TextView, space: int) -> str:
    if space == view.board["garage"]:
        return "the garage"
    if space in view.board["arrivals"]:
        return f"arrival space {space}"
    return f"space {space}" + (" (traffic light)" if space in view.board["light"]["spaces"] else "")


def _ciclovia_dice(dice: list[Json]) -> str:
    return ", ".join(f"{d['colour']} {d['value']}{' doubled' if d.get('doubled') else ''}" for d in dice) or "none"


def _ciclovia_position(view: TextView, state: Json) -> list[str]:
    lines = [view.legend()]
    for rider in state["riders"]:
        seat = rider["seat"]
        status = " (arrived)" if rider["arrived"] else " (retired)" if seat in state.get("retired", []) else ""
        lines.append(f"{MARKS[seat]} {view.seat(seat)}: {_ciclovia_space(view, rider['space'])}, facing "
                     f"{_DIRECTIONS.get(rider['facing'], rider['facing'])}, score {rider['score']}{status}; "
                     f"dice {_ciclovia_dice(rider['dice'])}; missing {', '.join(rider['missing']) or 'none'}")
    on_blocks = [f"{block} {die['colour']} {die['value']}" for block, die in enumerate(state["blocks"]) if die]
    lines.append(f"dice on the blocks (block colour value): {', '.join(on_blocks) or 'none'}")
    move = state.get("move")
    if state["phase"] == "turn" and state.get("to_move") is not None and move:
        lines.append(f"to play: {view.seat(state['to_move'])}, stage {state['stage']}, steps used "
                     f"{move['steps']} of {move['allowance']}" + (", at the doors" if move.get("at_doors") else ""))
    return lines


def _ciclovia_action(view: TextView, action: Json, state: Json) -> str:
    if "step" in action:
        return f"step {_DIRECTIONS[action['step']]} to {_ciclovia_space(view, action['to'])}"
    if "take" in action:
        return f"take the {action['colour']} {action['value']} from block {action['take']}"
    if action.get("stay"):
        return "stay where you are (do not move this turn)"
    if action.get("reverse"):
        return "turn round on the spot (uses a step)"
    if action.get("leave"):
        return "take no more dice here"
    if action.get("stop"):
        return "end the move here"
    return _compact(action)


def _ciclovia_effect(view: TextView, effect: Json) -> str | None:
    cause = effect["cause"]
    who = view.seat(effect.get("rider"))
    if cause == "step":
        return f"{who} rides {_DIRECTIONS.get(effect['dir'], effect['dir'])} from {effect['from']} to " \
               f"{_ciclovia_space(view, effect['to'])}"
    if cause == "take":
        return f"{who} takes the {effect['colour']} {effect['value']} from block {effect['block']} " \
               f"({effect['points']} points{', doubled' if effect.get('doubled') else ''})"
    if cause in ("leave", "stay", "stop"):
        return {"leave": f"{who} takes no more dice", "stay": f"{who} stays put",
                "stop": f"{who} stops on {effect['space']}"}[cause]
    if cause == "reverse":
        return f"{who} turns round, now facing {_DIRECTIONS.get(effect['facing'], effect['facing'])}"
    if cause == "arrive":
        return f"{who} arrives{' first' if effect.get('first') else ''}"
    if cause == "light":
        return f"{who} reaches the traffic light first"
    if cause == "roll":
        return "dice rolled onto the blocks: " + ", ".join(
            f"{d['block']} {d['colour']} {d['value']}" for d in effect["dice"])
    if cause == "shuffle":
        return None  # the roll that follows says where each die landed
    if cause == "end":
        return f"the game ends ({effect['ending']}): scores {', '.join(map(str, effect['scores']))}"
    if cause == "retire":
        return f"{who} is out of the game"
    return _compact(effect)


# ----------------------------------------------------------------------------- Roundabout

_WAYS = {"ring": "round its ring", "in": "inward (toward ring 0)", "out": "outward (toward ring 4)"}
_ARROWS = {1: ">", -1: "<"}


def _roundabout_position(view: TextView, state: Json) -> list[str]:
    rings, bars = view.board["rings"], view.board["bars"]
    captured = set(state.get("captured", []))
    cells: dict[int, str] = {}
    for dart in state["darts"]:
        if dart["space"] is not None:
            mark = MARKS[dart["owner"]]
            cells[dart["space"]] = cells.get(dart["space"], "") + (mark.lower() if dart["id"] in captured else mark) \
                + _ARROWS.get(dart["dir"], "")
    width = max([4, *(len(text) + 1 for text in cells.values())])
    header = "bar".ljust(8) + "".join(str(bar).ljust(width) for bar in range(bars))
    territory = {bar: t["colour"][0] for t in view.board["territories"] for bar in t["bars"]}
    lines = [header.rstrip(), ("".ljust(8) + "".join(territory[bar].ljust(width) for bar in range(bars))).rstrip()]
    for ring in range(rings):
        row = "".join((cells.get(ring * bars + bar) or ".").ljust(width) for bar in range(bars))
        lines.append(f"ring {ring}".ljust(8) + row.rstrip())
    lines.append("> clockwise, < anticlockwise; a lower-case letter is a captured dart; "
                 "territories r g b y (red green blue yellow)")
    lines.append(view.legend())
    for seat in range(len(view.names)):
        darts = [d for d in state["darts"] if d["owner"] == seat and d["space"] is not None]
        home, target = state["homes"][seat], state["targets"][seat]
        lines.append(f"{MARKS[seat]} {view.seat(seat)}: {len(darts)} darts on the board, home "
                     f"{view.board['territories'][home]['colour']}, ringers in "
                     f"{view.board['territories'][target]['colour']}"
                     + "".join(f"; dart {d['id']} on {d['space']}" for d in darts))
    if state["phase"] in ("play", "offer"):
        left = f", dice left {state['dice_left']}" if state.get("dice_left") is not None else ""
        who = state["asking"] if state["phase"] == "offer" else state["mover"]
        lines.append(f"to play: {view.seat(who)}, dice {state['dice']}{left}")
    return lines


def _roundabout_action(view: TextView, action: Json, state: Json) -> str:
    if "dart" in action:
        dart = state["darts"][action["dart"]]
        way = _WAYS[action["way"]]
        if action["way"] == "ring":
            way += " (clockwise)" if dart["dir"] == 1 else " (anticlockwise)"
        return f"move dart {action['dart']} (on {dart['space']}) by {action['die']} {way}"
    if "reverse" in action:
        return f"turn dart{'s' if len(action['reverse']) > 1 else ''} " \
               f"{' and '.join(map(str, action['reverse']))} round instead of moving (ends the roll)"
    if "offer" in action:
        return f"offer the roll to {view.seat(action['offer'])}"
    if "accept" in action:
        return "take the offered roll" if action["accept"] else "decline the offered roll"
    if action.get("pass"):
        return "end the roll without moving"
    return _compact(action)


def _roundabout_effect(view: TextView, effect: Json) -> str | None:
    cause = effect["cause"]
    who = view.seat(effect.get("seat"))
    if cause == "rolloff":
        return "roll-off: " + ", ".join(f"{view.seat(seat)} {value}" for seat, value in effect["rolls"])
    if cause == "roll":
        return f"{who} rolls {' and '.join(map(str, effect['dice']))}"
    if cause == "move":
        jump = " jumping a block" if effect.get("jump") else ""
        way = _WAYS.get(effect["way"], str(effect["way"])).split(" (")[0]
        return f"{who} moves dart {effect['dart']} by {effect['die']} {way} from {effect['from']} " \
               f"to {effect['to']}{jump}"
    if cause == "bear_off":
        return f"{who}'s dart {effect['dart']} comes home on {effect['space']} and leaves the board"
    if cause == "ringer":
        return f"{who} makes a ringer with darts {', '.join(map(str, effect['darts']))}"
    if cause == "reverse":
        return f"{who} turns dart {effect['dart']} round"
    if cause == "offer":
        return f"{who} offers the roll {effect['dice']} to {view.seat(effect['to'])}"
    if cause in ("accept", "decline"):
        return f"{who} {cause}s the offered roll"
    if cause == "pass":
        return f"{who} ends the roll without moving"
    if cause == "skip":
        return f"{who} misses the turn ({effect['reason']})"
    if cause == "win":
        return f"{who} wins"
    if cause == "end":
        return f"the game ends ({effect['reason'].replace('_', ' ')})"
    if cause == "retire":
        return f"{who} is out of the game"
    return _compact(effect)


_POSITION: dict[str, Callable[[TextView, Json], list[str]]] = {
    "slyyde": _slyyde_position, "detour": _detour_position,
    "ciclovia": _ciclovia_position, "roundabout": _roundabout_position}
_ACTION: dict[str, Callable[[TextView, Json, Json], str]] = {
    "slyyde": _slyyde_action, "detour": _detour_action,
    "ciclovia": _ciclovia_action, "roundabout": _roundabout_action}
_EFFECT: dict[str, Callable[[TextView, Json], str | None]] = {
    "slyyde": _slyyde_effect, "detour": _detour_effect,
    "ciclovia": _ciclovia_effect, "roundabout": _roundabout_effect}
