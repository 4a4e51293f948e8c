#!/usr/bin/env python3
"""Search bot: expectimax over the dice by sampling, for every game.

The forward model is the game engine itself (``arena.games``): the bot
rebuilds the state it is sent with ``state_from_json`` and searches copies
of it (``clone``, ``legal_actions``, ``apply_action``, ``chance_request``,
``apply_chance``, ``is_terminal``, ``outcome``).

1. **Our max node.** A turn can hold several decisions (dice to pieces, a
   wheel to turn, steps and dice to take), so the bot first lists every
   sequence of its own decisions to the end of its turn and keeps the
   distinct positions they reach, each scored by the evaluation that the
   greedy bot uses (arena/games/<game>/evaluation.py, described in greedy_bot.py:
   each seat's chance of winning). The
   best few are the candidates; the greedy bot would play the first.
2. **Chance nodes.** Each candidate's value is the average, over sampled
   dice, of what follows: the opponents' turns (each decision taken by its
   owner's one-step evaluation) and then ours, until a horizon of turns
   has passed (per game, ``HORIZONS``, or ``--horizon``), scored by the
   evaluation (or by the result if the game ends). The horizon is counted
   as at two seats, where turns alternate; at more seats each of the
   opponent's turns there becomes a turn of every other seat
   (``turn_changes``), so the search sees its own next turn at any count. The dice come from
   seeded streams named as the referee names them (``seat:N``,
   ``popoff``...), and sample k uses the same streams for every candidate:
   the candidates are compared on the same luck, which makes small
   differences visible with few samples.
3. **Anytime.** Samples go round the candidates in rounds; after rounds 2,
   4, 8, ... the worse half is dropped (sequential halving), so the time
   goes to the close calls. When its share of the move time is spent
   (default 65% of ``timeout_ms``, counted from when the request was read)
   it plays the first action of the candidate with the best average over
   the rounds all survivors completed, and remembers the rest of that plan:
   the next decisions of the same turn are answered at once if the position
   is the one expected.

**Safety margin.** However long the move time, the search stops at least
150 ms before it ends (``arena.house.loop.RESERVE``; so at ``--move-timeout
0.2`` it thinks for 50 ms), and a simulation or a listing of plans under way
at its deadline is cut short, not finished. The margin is what the
referee's clock was measured to count beyond a bot's thinking on a loaded
machine (being scheduled after its wake-up, reading, answering, the
machine's pauses), with ``bench/house_bots_under_load.py``; docs/explanation/house-bots.md
gives the figures, and ``tests/test_house_bots.py`` plays it at
0.2 s with both cores loaded.

It never spends more processor time than its process is allowed (the
referee's CPU limit): as that runs low it thinks less.

Reproducible play: its generator is seeded from each game's ``seed``, so
with a fixed number of samples instead of a clock the same game is played
the same way every time:

    python bots/search_bot.py --samples 60       # ignores the clock
    python bots/search_bot.py --time-share 0.5   # half the move time

(a fixed budget is still cut at 90% of the move time rather than forfeit).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import resource
import sys
import time
from typing import NoReturn

from arena.games.base import CHANCE, State
from arena.games.dice import DiceStreams
from arena.house.evaluations import StateValues, evaluator
from arena.house.loop import serve, think_until

NAME = "search_bot"
TIME_SHARE = 0.65        # of timeout_ms (and never past loop.RESERVE before its end)
HARD_SHARE = 0.9         # a fixed sample budget is still cut here
CANDIDATES = 10          # own-turn plans compared by sampling
# Turn changes simulated after our plan at two seats, per game: in Ciclovia
# our own next moves matter most (routes to the dice), in Roundabout the
# next exchange (blocks, captures); deeper bought nothing measurable in
# Detour and Slyyde. turn_changes gives the same horizon at more seats.
HORIZONS = {"ciclovia": 3, "roundabout": 2, "detour": 1, "slyyde": 1}
PLAN_LIMIT = 4000        # own-turn positions expanded when listing plans
SIMULATION_LIMIT = 80    # decisions per simulation, at most
PRIOR_WEIGHT = 0.5       # samples the evaluation of the plan itself is worth
CPU_RESERVE = 20.0       # seconds of the CPU limit never spent on search
CPU_SPEND = 0.004        # at most this share of the CPU left per decision


def state_key(state: State) -> str:
    """The position, for telling plans apart (``last`` only says how it was
    reached)."""
    data = state.to_json()
    data.pop("last", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def turn_changes(horizon: int, players: int) -> int:
    """The turn changes a simulation plays at ``players`` seats for a
    ``horizon`` counted at two seats (the opponent, us, the opponent...):
    each of the opponent's turns there is every other seat's turn here. Not
    scaled, Ciclovia's 3 at four seats stopped before our own next turn,
    and the search placed no better than greedy (2.63 against 2.87 over 30
    rounds, sign test p = 0.43); with our next turn seen (4 to 7 changes,
    all alike within noise) it placed 2.07 to 2.23, better than at 3 with
    p = 0.0096 (bench/ladder.py --players 4, 0.2 s a move)."""
    theirs, ours = (horizon + 1) // 2, horizon // 2
    return theirs * (players - 1) + ours


class Plan:
    """A sequence of our decisions to the end of our turn, where it leads
    and what the samples said."""

    __slots__ = ("path", "state", "prior", "values")

    def __init__(self, path: list[int], state: State, prior: float) -> None:
        self.path = path
        self.state = state
        self.prior = prior
        self.values: list[float] = []

    def mean(self, rounds: int) -> float:
        return (sum(self.values[:rounds]) + PRIOR_WEIGHT * self.prior) / (rounds + PRIOR_WEIGHT)


class Search:
    """One game's searcher: the evaluation, the generator, the plan being played."""

    def __init__(self, game_name: str, players: int, seed: int, horizon: int | None = None) -> None:
        self.evaluate: StateValues = evaluator(game_name)
        self.rng = random.Random(seed)
        self.changes = turn_changes(horizon or HORIZONS.get(game_name, 1), players)
        self.following: list[tuple[str, int]] = []
        self.samples = 0

    # -- our own turn -----------------------------------------------------------

    def plans(self, state: State, seat: int, deadline: float) -> list[Plan]:
        """Every distinct position our decisions can reach before the turn
        passes or chance acts, with the shortest path there. Past the
        expansion limit, positions are taken as they stand; past the
        deadline, the listing stops at the first plan found (or at once)."""
        found: dict[str, Plan] = {}
        stack: list[tuple[State, list[int]]] = [(state, [])]
        expanded = 0
        while stack:
            if found and time.perf_counter() > deadline:
                break  # out of time: choose among the plans listed so far
            here, path = stack.pop()
            if path and (here.current_player() != seat or expanded >= PLAN_LIMIT
                         or time.perf_counter() > deadline):
                key = state_key(here)
                known = found.get(key)
                if known is None or len(path) < len(known.path):
                    found[key] = Plan(path, here, self.evaluate(here)[seat])
                continue
            expanded += 1
            for index, action in enumerate(here.legal_actions()):
                child = here.clone()
                child.apply_action(action)
                stack.append((child, path + [index]))
        return sorted(found.values(), key=lambda plan: (-plan.prior, plan.path))

    # -- chance and the others' turns ----------------------------------------------

    def one_step(self, state: State) -> int:
        """The decision of whoever decides, by the evaluation of each choice."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return 0
        seat = state.current_player()
        best, best_value = 0, -1.0
        for index, action in enumerate(actions):
            child = state.clone()
            child.apply_action(action)
            value = self.evaluate(child)[seat]
            if value > best_value:
                best, best_value = index, value
        return best

    def simulate(self, start: State, seat: int, sample: int, deadline: float) -> float | None:
        """Our value after the dice of ``sample`` and the horizon's turns of
        one-step play by everyone; None if the deadline passed first (a
        long simulation would otherwise run on past it: up to a tenth of a
        second in Roundabout on a loaded machine)."""
        state = start.clone()
        dice = DiceStreams(sample)
        decider, changes, decisions = seat, 0, 0
        while not state.is_terminal() and decisions < SIMULATION_LIMIT:
            if time.perf_counter() > deadline:
                return None
            player = state.current_player()
            if player == CHANCE:
                state.apply_chance(dice.draw(state.chance_request()))
                continue
            if player != decider:
                decider, changes = player, changes + 1
                if changes > self.changes:
                    break
            state.apply_action(state.legal_actions()[self.one_step(state)])
            decisions += 1
        return self.evaluate(state)[seat]

    # -- the decision -------------------------------------------------------------

    def decide(self, state: State, deadline: float, budget: int | None) -> int:
        """The index of the chosen action among ``state.legal_actions()``.
        With a ``budget`` of samples the clock is ignored up to ``deadline``
        (then the hard one)."""
        actions = state.legal_actions()
        if self.following:
            expected, index = self.following.pop(0)
            if index < len(actions) and expected == state_key(state):
                return index
            self.following = []
        if len(actions) == 1:
            return 0
        seat = state.current_player()
        plans = self.plans(state, seat, deadline)[:CANDIDATES]
        if len(plans) > 1:
            rounds = self.compare(plans, seat, deadline, budget)
            plans.sort(key=lambda plan: -plan.mean(rounds))
        return self.follow(state, plans[0])

    def compare(self, plans: list[Plan], seat: int, deadline: float, budget: int | None) -> int:
        """Sample rounds over the plans, halving them after rounds 2, 4,
        8...; returns how many rounds every survivor completed. The losers
        are removed from ``plans``."""
        base = self.rng.randrange(1 << 62)
        alive = list(plans)
        rounds, cut, spent = 0, 2, 0
        while len(alive) > 1 and time.perf_counter() < deadline:
            if budget is not None and spent >= budget:
                break
            for plan in alive:
                value = self.simulate(plan.state, seat, base + rounds, deadline)
                if value is None:
                    break  # the round stays incomplete: means count completed rounds only
                plan.values.append(value)
                spent += 1
                self.samples += 1
                if time.perf_counter() >= deadline:
                    break
            else:
                rounds += 1
                if rounds == cut:
                    alive.sort(key=lambda plan: -plan.mean(rounds))
                    alive = alive[:max(2, len(alive) // 2)]
                    cut *= 2
                continue
            break
        plans[:] = alive
        return rounds

    def follow(self, state: State, plan: Plan) -> int:
        """Play the plan's first decision and remember the others, each with
        the position it is meant for."""
        self.following = []
        here = state.clone()
        for step, index in enumerate(plan.path):
            if step:
                self.following.append((state_key(here), index))
            here.apply_action(here.legal_actions()[index])
        return plan.path[0]


def cpu_allowance() -> float:
    """Seconds of processor time this decision may use without running into
    the process's CPU limit, however many decisions the match still holds."""
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    limits = [x for x in (soft, hard) if x != resource.RLIM_INFINITY and x > 0]
    if not limits:
        return math.inf
    left = min(limits) - time.process_time() - CPU_RESERVE
    return max(0.001, left * CPU_SPEND)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"search_bot: {message}\n")


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = _Parser(description="Sampling expectimax bot for the arena games.")
    parser.add_argument("--samples", type=int, default=None,
                        help="simulations per decision instead of a clock (reproducible)")
    parser.add_argument("--time-share", type=float, default=TIME_SHARE,
                        help="share of each decision's timeout to search for")
    per_game = ", ".join(f"{game} {turns}" for game, turns in sorted(HORIZONS.items()))
    parser.add_argument("--horizon", type=int, default=None,
                        help=f"turn changes each simulation plays after our plan, counted as at two seats "
                             f"(default: {per_game})")
    parser.add_argument("--name", default=NAME, help="name to give in the hello answer")
    arguments = parser.parse_args(argv)
    if arguments.samples is not None and arguments.samples < 1:
        parser.error(f"--samples must be at least 1, got {arguments.samples}")
    if not 0 < arguments.time_share <= HARD_SHARE:
        parser.error(f"--time-share must be in (0, {HARD_SHARE}], got {arguments.time_share}")
    if arguments.horizon is not None and arguments.horizon < 1:
        parser.error(f"--horizon must be at least 1, got {arguments.horizon}")
    return arguments


class Searcher:
    """The player the shared protocol loop asks (arena/house/loop.py): a
    fresh search per game, thinking within the move time and the CPU limit."""

    def __init__(self, arguments: argparse.Namespace) -> None:
        self.arguments = arguments
        self.search: Search | None = None

    def start(self, game_name: str, players: int, seed: int) -> None:
        self.search = Search(game_name, players, seed, self.arguments.horizon)

    def decide(self, state: State, seconds: float, received: float) -> int:
        share = self.arguments.time_share if self.arguments.samples is None else HARD_SHARE
        deadline = min(think_until(received, seconds, share), received + cpu_allowance())
        assert self.search is not None, "decide before start"
        gc.disable()
        try:
            return self.search.decide(state, deadline, self.arguments.samples)
        finally:
            gc.enable()

    def end(self) -> None:
        self.search = None
        gc.collect()


def main(argv: list[str]) -> None:
    arguments = parse_arguments(argv)
    gc.freeze()
    serve(arguments.name, Searcher(arguments))


if __name__ == "__main__":
    main(sys.argv[1:])
