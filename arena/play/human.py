"""A person at the terminal as a seat, for ``arena play``: the board and
the choices in words (the game's text view, arena.games.text_view), a
number read back."""

from __future__ import annotations

from typing import Any

import click

from arena.bots.protocol import pause_bots
from arena.games import get_spec
from arena.games.base import Action, State
from arena.model import Event, Job
from arena.play.person import Narration


class HumanSeat:
    """Shows the position and the numbered choices; reads a number. Every
    step of the game is told in words as it happens, the bots' and the
    person's alike."""

    updates = True

    def start_game(self, job: Job, seat: int, state: State) -> None:
        self.seat = seat
        spec = get_spec(job.game)
        self.narration = Narration(job, seat, state)
        self.view = self.narration.view
        click.echo(f"You play seat {seat} of {job.game} ({self.view.legend()}). Rules: {spec.rules_path()} "
                   f"(or arena rules {job.game})")

    def decide(self, state: State, actions: list[Action], timeout: float) -> int:
        pause_bots()  # no bot thinks on a person's time
        click.echo("")
        for line in self.view.position(state.to_json()):
            click.echo("  " + line)
        click.echo("your choices:")
        for number, words in enumerate(self.narration.offered(state, actions), 1):
            click.echo(f"  {number}: {words}")
        return click.prompt("your choice", type=click.IntRange(1, len(actions))) - 1

    def observe(self, event: Event, state: State) -> None:
        words = self.narration.step(event, state)
        for line in [words["line"]] if event["kind"] == "retire" else words["effects"]:
            click.echo("> " + line)
        if words["forced"]:
            click.echo("> (forced: the only move)")

    def end_game(self, state: State, result: dict[str, Any]) -> None:
        seen = state.to_json()
        click.echo("\nfinal position:")
        for line in self.view.position(seen):
            click.echo("  " + line)
        scores = state.outcome().scores if state.is_terminal() else None
        for line in self.view.result(result["placements"], list(scores) if scores else None):
            click.echo(line)
