"""A person against bots: the person at one seat, a bot at each other, in
the terminal (``arena play``) or in the browser (``arena play --web``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.bots.protocol import BotSeat
from arena.games import get_spec
from arena.games.base import Action, State
from arena.games.text_view import StepWords, TextView
from arena.model import BotSpec, DiceKey, Event, Job, Limits
from arena.play.match import game_log, match_log_dir
from arena.play.referee import Seat

PERSON = "you"  # the person's name among the seats


@dataclass(frozen=True)
class PersonAgainstBots:
    """Who sits where: ``bots`` in seat order around the person's ``seat``;
    each game's dice come from ``key`` (drawn, or ``--seed``'s)."""

    game: str
    options: dict[str, Any]
    bots: tuple[BotSpec, ...]
    seat: int
    key: DiceKey

    def names(self) -> tuple[str, ...]:
        bots = [spec.name for spec in self.bots]
        return (*bots[:self.seat], PERSON, *bots[self.seat:])

    def job(self, number: int) -> Job:
        """Game ``number`` (from 0) of this setting, its dice from the key."""
        return Job(f"play/{self.game}/{number}", self.game, self.names(),
                   self.key.derive(f"play/{self.game}/{number}"), options=self.options)

    def bot_seats(self, job: Job, limits: Limits, log_dir: Path) -> list[BotSeat]:
        """A seat for each bot, in seat order, its stderr in the game's
        log folder under ``log_dir`` (as a match keeps it)."""
        folder = match_log_dir(log_dir, [job])
        numbers = [number for number in range(len(job.seats)) if number != self.seat]
        return [BotSeat(spec, limits, game_log(folder, job, number, spec.name))
                for spec, number in zip(self.bots, numbers)]

    def seating(self, person: Seat, bots: Sequence[Seat]) -> list[Seat]:
        """Every seat in order: the person's among the bots'."""
        return [*bots[:self.seat], person, *bots[self.seat:]]


class Narration:
    """A game in words as the person at ``seat`` follows it (the game's
    text view, arena.games.text_view, speaking to them as "you"): the
    offered actions, and every event worded from the state before it and
    the state after it. The terminal prints these words; the play server
    sends them to the page."""

    def __init__(self, job: Job, seat: int, state: State) -> None:
        self.view: TextView = get_spec(job.game).describer(list(job.seats), you=seat)
        self.seen = state.to_json()

    def offered(self, state: State, actions: list[Action]) -> list[str]:
        self.seen = state.to_json()
        return [self.view.action(action, self.seen) for action in actions]

    def step(self, event: Event, state: State) -> StepWords:
        after = state.to_json()
        words = self.view.step(self.seen, event, after)
        self.seen = after
        return words
