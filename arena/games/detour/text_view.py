"""Detour in words for the terminal (arena.games.text_view): the board or
the pieces' places, each offered action's meaning, and what each step did,
in the rules document's terms."""

from __future__ import annotations

from arena.games.base import Game
from arena.games.detour.engine import piece_owner
from arena.games.text_view import MARKS, Json, TextView, compact

_TURNS = {"cw": "a quarter turn clockwise", "ccw": "a quarter turn anticlockwise", "half": "a half turn"}


def _space(view: DetourTextView, space: int | None) -> str:
    """A space by its id and where it lies: the rules document's names."""
    if space is None:
        return "off the board"
    board = view.board
    if space == board["centre"]:
        return f"{space} (the centre)"
    for index, start in enumerate(board["starts"]):
        if start["space"] == space:
            return f"{space} (START {index})"
    if space in view.hubs:
        return view.hubs[space]
    kind = board["spaces"][space]["kind"] if space < len(board["spaces"]) else ""
    extra = {"finish": ", FINISH", "star": ", a star"}.get(kind, "")
    segment = next((s["name"] for s in board["segments"] if space in s["spaces"]), None)
    return f"{space} ({segment}{extra})" if segment else f"{space}{' (' + extra[2:] + ')' if extra else ''}"


def _spot(view: DetourTextView, space: int | None) -> str:
    """A space as briefly as the board shows it: its number, or the hub
    of its wheel (hubs turn with their wheel and carry no number)."""
    return "off the board" if space is None else view.hubs.get(space, str(space))


def _owner(view: DetourTextView, piece: int) -> int:
    return piece_owner(piece, len(view.names))


def _piece(view: DetourTextView, piece: int, state: Json) -> str:
    """A piece by its owner and the space it stands on (the board numbers
    its spaces; pieces carry no number): "alpha's piece on 12"."""
    space = state["pieces"][piece]["space"]
    return f"{view.whose(_owner(view, piece))} piece" + ("" if space is None else f" on {_spot(view, space)}")


class DetourTextView(TextView):
    engine_moves = frozenset({"move"})

    def __init__(self, game: Game, names: list[str], you: int | None = None) -> None:
        super().__init__(game, names, you)
        self.hubs = {wheel["hub"]: f"the hub of wheel {wheel['name']}" for wheel in self.board["wheels"]}

    def position(self, state: Json) -> list[str]:
        lines = [self.legend()]
        for piece in state["pieces"]:
            owner = f"{MARKS[piece['seat']]} {self.seat(piece['seat'])}"
            if piece["finished"]:
                where = "finished"
            elif piece["space"] is None:
                where = "off the board (retired)"
            else:
                heading = "" if piece["heading"] is None else f", next step to {piece['heading']}"
                where = f"on {_space(self, piece['space'])}{heading}"
            lines.append(f"piece {piece['id']} ({owner}, colour {piece['colour']}): {where}")
        wheels = ", ".join(f"{w['name']} at {k}" for w, k in zip(self.board["wheels"], state["wheels"]))
        lines.append(f"wheels: {wheels} (k: the hub track joins rims k and k+1)")
        if state["phase"] != "over":
            dice = f", dice {state['dice']}" if state["dice"] else ""
            queue = "; still to move: " + ", ".join(f"{_piece(self, q['piece'], state)} by {q['die']}"
                                                    for q in state["queue"]) if state["queue"] else ""
            lines.append(f"to play: {self.seat(state['seat'])} (colour {state['colour']}), "
                         f"phase {state['phase']}{dice}{queue}")
        return lines

    def describe_action(self, action: Json, state: Json) -> str:
        if "die" in action:
            where = _spot(self, state["pieces"][action["piece"]]["space"])
            return f"move the piece on {where} first, by {action['die']} (the other piece moves the other die)"
        if "toward" in action:
            return f"leave the centre toward space {_space(self, action['toward'])}"
        if "wheel" in action:
            name = self.board["wheels"][action["wheel"]]["name"]
            return f"turn wheel {name} {_TURNS[action['turn']]}"
        start = self.board["starts"][action["start"]]["space"]
        if state["phase"] == "own_start":
            return f"send the moving piece to START {action['start']} (space {start}), the other to the other"
        return f"send the losing piece to START {action['start']} (space {start})"

    def describe_effect(self, effect: Json, state: Json) -> str | None:
        cause = effect["cause"]
        if cause == "roll":
            return f"{self.says(effect['seat'], 'rolls')} {' and '.join(map(str, effect['dice']))}"
        if cause == "move":
            whose = self.whose(_owner(self, effect["piece"]))
            return f"{whose} piece moves {effect['die']} from {_spot(self, effect['from'])} " \
                   f"to {_space(self, effect['to'])}"
        if cause == "wheel":
            name = self.board["wheels"][effect["wheel"]]["name"]
            carried = "".join(f", carrying {_piece(self, piece, state)}" for piece in effect.get("carried") or [])
            return f"wheel {name} turns {_TURNS.get(effect['turn'], effect['turn'])}{carried}"
        if cause == "popoff":
            pops = effect["pops"]
            mover = f"{self.whose(_owner(self, effect['mover']))} moving piece"
            defender = f"{self.whose(_owner(self, effect['defender']))} piece"
            winner = "pop again" if effect["winner"] is None else \
                f"{mover if effect['winner'] == effect['mover'] else defender} wins"
            return f"pop-off: {mover} pops {pops[0]}, {defender} pops {pops[1]}: {winner}"
        if cause == "sent_back":
            return f"{self.whose(_owner(self, effect['piece']))} piece on {_spot(self, effect['from'])} goes back to " \
                   f"START {effect['start']} (space {effect['to']})"
        if cause == "finish":
            return f"{self.whose(_owner(self, effect['piece']))} piece finishes from {effect['space']} " \
                   "and leaves the board"
        if cause == "win":
            return self.says(effect["seat"], "wins")
        if cause == "retire":
            return f"{self.says(effect['seat'], 'is')} out of the game"
        if cause == "popoff_void":
            return f"the pop-off on {_spot(self, effect['space'])} is called off"
        if cause == "turn_cap":
            return f"the game stops at the turn cap ({effect['turns']} turns)"
        return compact(effect)
