"""Ciclovia in words for the terminal (arena.games.text_view): the board or
the pieces' places, each offered action's meaning, and what each step did,
in the rules document's terms."""

from __future__ import annotations

from arena.games.text_view import MARKS, Json, TextView, compact

_DIRECTIONS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _space(view: CicloviaTextView, space: int) -> str:
    if space == view.board["garage"]:
        return "the garage"
    if space in view.board["arrivals"]:
        return f"arrival space {space}"
    return f"space {space}" + (" (traffic light)" if space in view.board["light"]["spaces"] else "")


def _dice(dice: list[Json]) -> str:
    return ", ".join(f"{d['colour']} {d['value']}{' doubled' if d.get('doubled') else ''}" for d in dice) or "none"


class CicloviaTextView(TextView):
    def position(self, state: Json) -> list[str]:
        lines = [self.legend()]
        for rider in state["riders"]:
            seat = rider["seat"]
            status = " (arrived)" if rider["arrived"] else " (retired)" if seat in state.get("retired", []) else ""
            lines.append(f"{MARKS[seat]} {self.seat(seat)}: {_space(self, rider['space'])}, facing "
                         f"{_DIRECTIONS.get(rider['facing'], rider['facing'])}, score {rider['score']}{status}; "
                         f"dice {_dice(rider['dice'])}; missing {', '.join(rider['missing']) or 'none'}")
        on_blocks = [f"{block} {die['colour']} {die['value']}" for block, die in enumerate(state["blocks"]) if die]
        lines.append(f"dice on the blocks (block colour value): {', '.join(on_blocks) or 'none'}")
        move = state.get("move")
        if state["phase"] == "turn" and state.get("to_move") is not None and move:
            lines.append(f"to play: {self.seat(state['to_move'])}, stage {state['stage']}, steps used "
                         f"{move['steps']} of {move['allowance']}" + (", at the doors" if move.get("at_doors") else ""))
        return lines

    def describe_action(self, action: Json, state: Json) -> str:
        if "step" in action:
            return f"step {_DIRECTIONS[action['step']]} to {_space(self, action['to'])}"
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
        return compact(action)

    def describe_effect(self, effect: Json, state: Json) -> str | None:
        cause = effect["cause"]
        rider = effect.get("rider")
        says = self.says
        if cause == "step":
            return f"{says(rider, 'rides')} {_DIRECTIONS.get(effect['dir'], effect['dir'])} from {effect['from']} " \
                   f"to {_space(self, effect['to'])}"
        if cause == "take":
            return f"{says(rider, 'takes')} the {effect['colour']} {effect['value']} from block {effect['block']} " \
                   f"({effect['points']} points{', doubled' if effect.get('doubled') else ''})"
        if cause in ("leave", "stay", "stop"):
            return {"leave": f"{says(rider, 'takes')} no more dice", "stay": f"{says(rider, 'stays')} put",
                    "stop": f"{says(rider, 'stops')} on {effect['space']}"}[cause]
        if cause == "reverse":
            return f"{says(rider, 'turns')} round, now facing {_DIRECTIONS.get(effect['facing'], effect['facing'])}"
        if cause == "arrive":
            return f"{says(rider, 'arrives')}{' first' if effect.get('first') else ''}"
        if cause == "light":
            return f"{says(rider, 'reaches')} the traffic light first"
        if cause == "roll":
            return "dice rolled onto the blocks: " + ", ".join(
                f"block {d['block']} {d['colour']} {d['value']}" for d in effect["dice"])
        if cause == "shuffle":
            return None  # the roll that follows says where each die landed
        if cause == "end":
            return f"the game ends ({effect['ending']}): scores {', '.join(map(str, effect['scores']))}"
        if cause == "retire":
            return f"{says(rider, 'is')} out of the game"
        return compact(effect)
