"""Pig in words for the terminal (arena.games.text_view)."""

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

    def describe_effect(self, effect: Json) -> str | None:
        who, cause = self.seat(effect.get("seat")), effect["cause"]
        words = {"roll": lambda: f"{who} rolls {effect['die']}",
                 "bust": lambda: f"{who} rolled a 1 and loses the turn's {effect['lost']} points",
                 "hold": lambda: f"{who} banks {effect['banked']} points, {effect['score']} in all",
                 "win": lambda: f"{who} wins", "retire": lambda: f"{who} is out of the game",
                 "turn_cap": lambda: f"the game stops at the turn cap ({effect['turns']} turns)"}
        return words[cause]()
