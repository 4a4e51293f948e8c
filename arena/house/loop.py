"""The protocol loop the house bots share (bots/greedy_bot.py,
bots/search_bot.py).

It answers the referee on stdin/stdout until ``bye`` or the end of input:
``hello`` with every registered game that brings an evaluation (the
evaluation tables are built then, inside the start-up limit), ``decide`` with the action the player picks
among the state's legal actions (the offered list's first action if the
engine and the referee ever disagreed), and it tells the player when a game
starts and ends. A bot that is not one of ours should read
``protocol/PROTOCOL.md`` instead.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Protocol

from arena.games import get_game
from arena.games.base import Game, State
from arena.house.evaluations import evaluated_games, evaluator

# What every decision keeps back from the move time, for what the bot does
# not control: being scheduled once the referee wakes it, reading and
# parsing the request, answering, and the pauses of a loaded machine. A
# house bot thinks until a share of the move time, but never later than
# this before its end: at --move-timeout 0.2, 50 ms of thinking. Chosen
# with bench/house_bots_under_load.py (docs/explanation/house-bots.md has the
# figures): with both cores busy, the search bot's own time from reading
# decide to answering reached 101 ms (its thinking 50 ms), the referee's
# clock 133 ms.
RESERVE = 0.15


def think_until(received: float, seconds: float, share: float) -> float:
    """When to stop thinking (a ``time.perf_counter`` reading): ``share``
    of the move time ``seconds`` after the request was ``received``, and
    never later than RESERVE before the move time is up."""
    return received + max(0.0, min(share * seconds, seconds - RESERVE))


class Player(Protocol):
    def start(self, game_name: str, players: int, seed: int) -> None:
        """A game of ``players`` seats begins; ``seed`` is for the player's
        own randomness."""

    def decide(self, state: State, seconds: float, received: float) -> int:
        """The index of the chosen action in ``state.legal_actions()``;
        ``seconds`` is the move time, ``received`` the ``time.perf_counter``
        reading when the request was read."""

    def end(self) -> None:
        """The game is over."""


def serve(name: str, player: Player) -> None:
    game: Game | None = None
    reply: dict[str, Any]
    for line in sys.stdin:
        received = time.perf_counter()
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            games = evaluated_games()
            for game_name in games:
                evaluator(game_name)
            reply = {"type": "hello", "name": name, "games": games}
        elif kind == "game_start":
            game = get_game(message["game"])
            player.start(message["game"], message["players"], message["seed"])
            continue
        elif kind == "decide":
            if game is None:
                continue  # no game has started: nothing sensible to answer
            state = game.state_from_json(message["state"])
            action = state.legal_actions()[player.decide(state, message["timeout_ms"] / 1000, received)]
            offered = message["actions"]
            reply = {"type": "action", "action": action if action in offered else offered[0]}
        elif kind == "game_end":
            player.end()
            continue
        elif kind == "bye":
            return
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
