"""Pig in words (arena.games.text_view): the terminal prints them, and the
play page and the replays show them."""

from __future__ import annotations

from arena.games.text_view import MARKS, Json, TextView


class PigTextView(TextView):
    def position(self, state: Json) -> list[str]:
        lines = [self.legend(), f"first to {state['target']} points wins"]
        for seat, score in enumerate(state["scores"]):
            out = " (retired)" if seat in state["retired"] else ""
            lines.append(f"{MARKS[seat]} {self.seat(seat)}: {score} points{out}")
        if state["phase"] != "over":
            lines.append(f"to play: {self.seat(state['turn'])}, {state['turn_total']} points this turn")
        return lines

    def describe_action(self, action: Json, state: Json) -> str:
        if action["choice"] == "hold":
            banked = state["scores"][state["turn"]] + state["turn_total"]
            return f"hold: bank {state['turn_total']} points (then {banked})"
        return f"roll again, risking the {state['turn_total']} points of this turn on a 1"

    def describe_effect(self, effect: Json, state: Json) -> str | None:
        seat, cause, says = effect.get("seat"), effect["cause"], self.says  # says: "bot rolls", "you roll"
        words = {"roll": lambda: f"{says(seat, 'rolls')} {effect['die']}",
                 "bust": lambda: f"{says(seat, 'rolled')} a 1 and {'lose' if seat == self.you else 'loses'} "
                                 f"the turn's {effect['lost']} points",
                 "hold": lambda: f"{says(seat, 'banks')} {effect['banked']} points, {effect['score']} in all",
                 "win": lambda: says(seat, "wins"), "retire": lambda: f"{says(seat, 'is')} out of the game",
                 "turn_cap": lambda: f"the game stops at the turn cap ({effect['turns']} turns)"}
        return words[cause]()
