#!/usr/bin/env python3
"""Greedy bot: a one-ply heuristic for every game.

One ply here means one turn of our own: for each offered action the bot
plays, on a copy of the state (``arena.games`` engines are the forward
model), every sequence of its own further decisions until the turn passes to
someone else or chance acts (the next roll, a pop-off, a deal), scores each
position reached with the game's evaluation (``arena/games/<game>/evaluation.py``,
described below), and picks the action
leading to the best one. It never looks at the opponents' answers or at
dice to come; that is the search bot's job (search_bot.py uses these
same evaluations at its leaves). Ties are broken by a generator seeded from
each game's seed, so a game is replayed identically.

Every evaluation turns a position into a chance of winning for each seat:
a per-seat strength (lower "turns still needed" in the races, higher
"points" in Ciclovia), adjusted for who moves next, through a softmax.

Slyyde (arena/games/slyyde/rules.md): the strength is the expected number of turns a
pawn still needs to reach the Centre alone (a 6 is a free turn), computed
once by value iteration over the track with the best use of every black
square's diagonal and every triangle's slyyde. Progress: the diagonal is
taken when it saves turns; dice values: the exact-count finish and the 6's
extra roll are in the table. Safety and captures: landing on an opponent, a
Back-6 pick and a sweep are seen through the positions they leave, and a
Back-6 pick hurts the opponent it sets back most.

Detour (arena/games/detour/rules.md): a piece's strength is the expected number of its
own turns to land exactly on a FINISH, computed by dynamic programming over
the path the piece is bound to follow with the wheels as they stand (passing
a FINISH without the exact count means going round again, which the path
shows), best direction for a piece on the centre Star. A seat needs all its
pieces home: its slowest piece counts fully, the others partly. Dice values:
which die goes to which piece, and which wheel to turn after a star, are
chosen by the turns they save us and cost the opponents. Captures: a
pending pop-off counts as a coin flip between the two outcomes; landing on
one's own piece (both back to START) is seen through the position.

Ciclovia (arena/games/ciclovia/rules.md): the strength is the current total (dice
points and bonuses) plus the promise of the position: a pending orange
double, the best die the rider can still reach (its points, more for a
colour still missing unless a pending double would take it, less the steps
to its door), a charge for every colour still missing (no arrival and no win
without all four), larger the farther its nearest die and largest when stage
2 has none left, and a charge for the distance to the arrival points.

Roundabout (arena/games/roundabout/rules.md): a seat's strength is its pip count, the
ring steps every Dart still needs to come round into its home territory (a
Dart inside its home has the whole lap to go), in turns of about eight pips,
with a charge for every captured Dart and a bonus for a ringer under way
(Darts already lined up on one ring of the target territory). Captures,
blocks and bear-offs are seen through the positions they leave.
"""

from __future__ import annotations

import math
import random
import time

from arena.games.base import State
from arena.house.evaluations import StateValues, evaluator
from arena.house.loop import serve, think_until

NAME = "greedy_bot"
PLAN_BUDGET = 3000      # own-turn positions expanded per decision, at most
TIME_SHARE = 0.4        # of the move time, after which positions are scored as they stand
                        # (and never past loop.RESERVE before its end)


def plan_values(state: State, evaluate: StateValues,
                deadline: float = math.inf, budget: int = PLAN_BUDGET) -> list[float]:
    """For each legal action, the best value for the deciding seat over its
    own decisions that follow in the same turn. Past ``deadline`` (a
    ``time.perf_counter`` reading) or ``budget`` expansions per action,
    positions are scored as they stand."""
    seat = state.current_player()
    actions = state.legal_actions()
    share = max(1, budget // len(actions))
    values = []
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        values.append(_best(child, seat, evaluate, [share], deadline))
    return values


def _best(state: State, seat: int, evaluate: StateValues, budget: list[int], deadline: float) -> float:
    if state.current_player() != seat or budget[0] <= 0 or time.perf_counter() > deadline:
        return evaluate(state)[seat]
    budget[0] -= 1
    best = -1.0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        best = max(best, _best(child, seat, evaluate, budget, deadline))
    return best


def choose(state: State, evaluate: StateValues, rng: random.Random, deadline: float = math.inf) -> int:
    """The index of the greedy action; ties broken by ``rng``."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return 0
    values = plan_values(state, evaluate, deadline)
    top = max(values)
    best = [i for i, v in enumerate(values) if v >= top - 1e-12]
    return best[0] if len(best) == 1 else rng.choice(best)


# ---------------------------------------------------------------- protocol

class Greedy:
    """The player the shared protocol loop asks (arena/house/loop.py)."""

    def __init__(self) -> None:
        self.rng = random.Random()
        self.evaluate: StateValues | None = None

    def start(self, game_name: str, players: int, seed: int) -> None:
        self.rng.seed(seed)
        self.evaluate = evaluator(game_name)

    def decide(self, state: State, seconds: float, received: float) -> int:
        assert self.evaluate is not None, "the loop asks for decisions between start and end"
        return choose(state, self.evaluate, self.rng, think_until(received, seconds, TIME_SHARE))

    def end(self) -> None:
        self.evaluate = None


if __name__ == "__main__":
    serve(NAME, Greedy())
