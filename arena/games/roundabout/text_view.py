"""Roundabout in words for the terminal (arena.games.text_view): the board or
the pieces' places, each offered action's meaning, and what each step did,
in the rules document's terms."""

from __future__ import annotations

from arena.games.text_view import MARKS, Json, TextView, compact

_WAYS = {"ring": "round its ring", "in": "inward (toward ring 0)", "out": "outward (toward ring 4)"}
_ARROWS = {1: ">", -1: "<"}


def _at(view: RoundaboutTextView, space: int) -> str:
    """A space by its ring and bar, as the grid of ``position`` and the
    board drawing number them: "ring 2 bar 7"."""
    return f"ring {space // view.board['bars']} bar {space % view.board['bars']}"


class RoundaboutTextView(TextView):
    engine_moves = frozenset({"move", "bear_off"})

    def position(self, state: Json) -> list[str]:
        rings, bars = self.board["rings"], self.board["bars"]
        captured = set(state.get("captured", []))
        cells: dict[int, str] = {}
        for dart in state["darts"]:
            if dart["space"] is not None:
                mark = MARKS[dart["owner"]]
                mark = mark.lower() if dart["id"] in captured else mark
                cells[dart["space"]] = cells.get(dart["space"], "") + mark + _ARROWS.get(dart["dir"], "")
        width = max([4, *(len(text) + 1 for text in cells.values())])
        header = "bar".ljust(8) + "".join(str(bar).ljust(width) for bar in range(bars))
        territory = {bar: t["colour"][0] for t in self.board["territories"] for bar in t["bars"]}
        lines = [header.rstrip(), ("".ljust(8) + "".join(territory[bar].ljust(width) for bar in range(bars))).rstrip()]
        for ring in range(rings):
            row = "".join((cells.get(ring * bars + bar) or ".").ljust(width) for bar in range(bars))
            lines.append(f"ring {ring}".ljust(8) + row.rstrip())
        lines.append("> clockwise, < anticlockwise; a lower-case letter is a captured dart; "
                     "territories r g b y (red green blue yellow)")
        lines.append(self.legend())
        for seat in range(len(self.names)):
            darts = [d for d in state["darts"] if d["owner"] == seat and d["space"] is not None]
            home, target = state["homes"][seat], state["targets"][seat]
            lines.append(f"{MARKS[seat]} {self.seat(seat)}: {len(darts)} darts on the board, home "
                         f"{self.board['territories'][home]['colour']}, ringers in "
                         f"{self.board['territories'][target]['colour']}"
                         + "".join(f"; a dart on {_at(self, d['space'])}" for d in darts))
        if state["phase"] in ("play", "offer"):
            left = f", dice left {state['dice_left']}" if state.get("dice_left") is not None else ""
            who = state["asking"] if state["phase"] == "offer" else state["mover"]
            lines.append(f"to play: {self.seat(who)}, dice {state['dice']}{left}")
        return lines

    def describe_action(self, action: Json, state: Json) -> str:
        if "dart" in action:
            dart = state["darts"][action["dart"]]
            way = _WAYS[action["way"]]
            if action["way"] == "ring":
                way += " (clockwise)" if dart["dir"] == 1 else " (anticlockwise)"
            return f"move the dart on {_at(self, dart['space'])} by {action['die']} {way}"
        if "reverse" in action:
            where = " and ".join(_at(self, state["darts"][dart]["space"]) for dart in action["reverse"])
            return f"turn the dart{'s' if len(action['reverse']) > 1 else ''} on {where} round instead of moving " \
                   "(ends the roll)"
        if "offer" in action:
            return f"offer the roll to {self.seat(action['offer'])}"
        if "accept" in action:
            return "take the offered roll" if action["accept"] else "decline the offered roll"
        if action.get("pass"):
            return "end the roll without moving"
        return compact(action)

    def describe_effect(self, effect: Json, state: Json) -> str | None:
        cause = effect["cause"]
        seat = effect.get("seat")
        if cause == "rolloff":
            return "roll-off: " + ", ".join(f"{self.seat(seat)} {value}" for seat, value in effect["rolls"])
        if cause == "roll":
            return f"{self.says(seat, 'rolls')} {' and '.join(map(str, effect['dice']))}"
        if cause == "move":
            jump = " jumping a block" if effect.get("jump") else ""
            way = _WAYS.get(effect["way"], str(effect["way"])).split(" (")[0]
            return f"{self.says(seat, 'moves')} a dart {effect['die']} {way} from {_at(self, effect['from'])} " \
                   f"to {_at(self, effect['to'])}{jump}"
        if cause == "bear_off":
            return f"{self.whose(seat)} dart comes home on {_at(self, effect['space'])} and leaves the board"
        if cause == "ringer":
            where = ", ".join(_at(self, space) for space in effect["spaces"])
            return f"{self.says(seat, 'makes')} a ringer: the darts on {where} leave the board"
        if cause == "reverse":
            return f"{self.says(seat, 'turns')} the dart on {_at(self, state['darts'][effect['dart']]['space'])} round"
        if cause == "offer":
            return f"{self.says(seat, 'offers')} the roll {' and '.join(map(str, effect['dice']))} " \
                   f"to {self.seat(effect['to'])}"
        if cause in ("accept", "decline"):
            return f"{self.says(seat, cause + 's')} the offered roll"
        if cause == "pass":
            return f"{self.says(seat, 'ends')} the roll without moving"
        if cause == "skip":
            return f"{self.says(seat, 'misses')} the turn ({effect['reason']})"
        if cause == "win":
            return self.says(seat, "wins")
        if cause == "end":
            return f"the game ends ({effect['reason'].replace('_', ' ')})"
        if cause == "retire":
            return f"{self.says(seat, 'is')} out of the game"
        return compact(effect)
