"""A person at the terminal as a seat, for ``arena play``."""

from __future__ import annotations

import json
from typing import Any

import click

from arena.games.base import Action, State


class HumanSeat:
    """Shows the state and the numbered choices; reads a number."""

    def start_game(self, job, seat: int, state: State) -> None:
        self.seat = seat
        click.echo(f"You play seat {seat} of {job.game}. Rules: seeds/{job.game}.md")

    def decide(self, state: State, actions: list[Action], timeout: float) -> int:
        click.echo(json.dumps(state.to_json(), separators=(",", ":"))[:2000])
        for number, action in enumerate(actions):
            click.echo(f"  {number}: {json.dumps(action)}")
        return click.prompt("your choice", type=click.IntRange(0, len(actions) - 1))

    def observe(self, event: dict[str, Any], state: State) -> None:
        if event["kind"] == "chance":
            click.echo(f"dice ({event['stream']}, {event['purpose']}): {event['values']}")
        elif event["kind"] == "retire":
            click.echo(f"seat {event['seat']} is out of the game ({event['reason']})")
        elif event["seat"] != self.seat:
            click.echo(f"seat {event['seat']} chose {json.dumps(event['offered'][event['chosen']])}")

    def end_game(self, state: State, result: dict[str, Any]) -> None:
        click.echo(f"game over: {result}")
