"""Slyyde in words for the terminal (arena.games.text_view): the board or
the pieces' places, each offered action's meaning, and what each step did,
in the rules document's terms."""

from __future__ import annotations

from arena.games.text_view import MARKS, Json, TextView, compact

_SLYYDE_MARKS = {"start": "S", "centre": "C", "safe": "*", "triangle": "^", "black": "#", "back6": "!"}


class SlyydeTextView(TextView):
    score_unit = "rolls"  # a solo game's score: the rolls it took
    engine_moves = frozenset({"move", "diagonal", "stay"})

    def position(self, state: Json) -> list[str]:
        squares = self.board["squares"]
        grid = self.board["grid"]
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
        lines.append(self.legend())
        for seat, square in enumerate(state["positions"]):
            out = " (retired)" if seat in state.get("retired", []) else ""
            lines.append(f"{MARKS[seat]} {self.seat(seat)}: square {square}, {state['rolls'][seat]} rolls{out}")
        if state["phase"] not in ("over", "rolloff"):
            die = f", rolled {state['die']}" if state.get("die") else ""
            lines.append(f"to play: {self.seat(state['turn'])}{die}")
        return lines

    def describe_action(self, action: Json, state: Json) -> str:
        if "back6" in action:
            victim = action["back6"]
            return f"send {self.seat(victim)} back six squares from square {state['positions'][victim]}"
        here = state["positions"][state["turn"]]
        if action["move"] == "diagonal":
            return f"take the black square's diagonal from {here} to square {action['to']}"
        if action["to"] == here:
            return f"move by the die: too far, stay on square {here}"
        return f"move by the die from {here} to square {action['to']}"

    def describe_effect(self, effect: Json, state: Json) -> str | None:
        cause, seat = effect["cause"], effect.get("seat")
        says = self.says
        words = {
            "rolloff": lambda: f"{says(seat, 'rolls')} {effect['die']} to see who starts",
            "first_player": lambda: says(seat, "starts"),
            "roll": lambda: f"{says(seat, 'rolls')} {effect['die']}",
            "move": lambda: f"{says(seat, 'moves')} from {effect['from']} to {effect['to']}",
            "diagonal": lambda: f"{says(seat, 'takes')} the diagonal from {effect['from']} to {effect['to']}",
            "stay": lambda: f"{says(seat, 'stays')} on {effect['at']} (the roll is too high)",
            "slyyde": lambda: f"{says(seat, 'slyydes')} from triangle {effect['from']} to safe square {effect['to']}",
            "sweep": lambda: f"{says(seat, 'is')} swept by {self.seat(effect['by'])} from {effect['from']} "
                             f"to {effect['to']}",
            "back6": lambda: f"{says(effect['by'], 'sends')} {self.seat(seat)} back six, from {effect['from']} "
                             f"to {effect['to']}",
            "bump": lambda: f"{says(effect['by'], 'lands')} on {self.seat(seat)}: back six, from {effect['from']} "
                            f"to {effect['to']}",
            "back6_none": lambda: f"{says(seat, 'lands')} on a back-6 square with no opponent to send back",
            "extra_turn": lambda: f"{says(seat, 'rolled')} a 6 and {'play' if seat == self.you else 'plays'} again",
            "retire": lambda: f"{says(seat, 'is')} out of the game",
            "win": lambda: f"{says(seat, 'reaches')} the centre and {'win' if seat == self.you else 'wins'}",
            "turn_cap": lambda: f"the game stops at the turn cap ({effect['turns']} turns)",
        }
        return words[cause]() if cause in words else compact(effect)
