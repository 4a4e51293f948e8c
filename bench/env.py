"""Environment speed against the engine's: steps per second of every game's
PettingZoo environment (arena.env.env, wrapped as PettingZoo's classic
games are) ÷ the engine's raw plies per second (arena.games.playout's
random playouts, as bench/engines.py measures them), per game, both
measured in this one run, against the target of 0.5.

An environment step is one ``env.last()`` (the observation vector and the
mask, built from the state's JSON) and one ``env.step(action)`` with a
uniformly random offered index, the rolls that follow included; a ply is
one event of a playout, a chance draw or a decision. Speeds are per second
of this process's CPU time, the best of ``--repeats`` slices, the engine's
and the environment's slices taken in turn so that a busy machine slows
both alike.

    python bench/env.py [--seconds 2] [--repeats 3] [--players 2] [--game detour]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.env import env, raw_env  # noqa: E402
from arena.games import SPECS  # noqa: E402
from arena.games.playout import random_playout  # noqa: E402

TARGET = 0.5


def engine_rate(name: str, players: int, seconds: float, seed: int) -> float:
    """Plies per CPU second of random playouts for about ``seconds``."""
    game, plies = SPECS[name].game, 0
    started = time.process_time()
    while (elapsed := time.process_time() - started) < seconds:
        plies += len(random_playout(game, players, seed)[1])
        seed += 1
    return plies / elapsed


def env_rate(name: str, players: int, seconds: float, seed: int, wrapped: bool = True) -> float:
    """Environment steps per CPU second of random play for about ``seconds``
    (``wrapped``: as ``env`` gives it; else ``raw_env``, PettingZoo's wrappers left out)."""
    table = env(name, players) if wrapped else raw_env(name, players)
    chooser = random.Random(seed)
    steps = 0
    started = time.process_time()
    while (elapsed := time.process_time() - started) < seconds:
        table.reset(seed=seed)
        seed += 1
        for _agent in table.agent_iter():
            observation, reward, terminated, truncated, info = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            offered = np.flatnonzero(info["action_mask"])
            table.step(int(offered[chooser.randrange(len(offered))]))
            steps += 1
    return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per game, for each of the two")
    parser.add_argument("--repeats", type=int, default=3, help="slices of that time; the best one counts")
    parser.add_argument("--players", type=int, default=2, help="the table's seats")
    parser.add_argument("--game", choices=sorted(SPECS), action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    print(f"target: environment steps/s ÷ engine plies/s ≥ {TARGET}, {args.players} players")
    print("(raw: the same loop on raw_env, without PettingZoo's wrappers; the ratio is env's)")
    print(f"{'game':12} {'plies/s':>10} {'env steps/s':>12} {'raw steps/s':>12} {'ratio':>6} {'raw':>6}  target")
    failed = []
    for name in sorted(args.game or SPECS):
        best_engine = best_env = best_raw = 0.0
        for repeat in range(args.repeats):
            slice_seconds = args.seconds / args.repeats
            best_engine = max(best_engine, engine_rate(name, args.players, slice_seconds, 1000 * repeat))
            best_env = max(best_env, env_rate(name, args.players, slice_seconds, 1000 * repeat))
            best_raw = max(best_raw, env_rate(name, args.players, slice_seconds, 1000 * repeat, wrapped=False))
        ratio = best_env / best_engine
        if ratio < TARGET:
            failed.append(name)
        print(f"{name:12} {best_engine:10.0f} {best_env:12.0f} {best_raw:12.0f} {ratio:6.2f} "
              f"{best_raw / best_engine:6.2f}  {'pass' if ratio >= TARGET else 'FAIL'}")
    print("every game at or above the target" if not failed else f"below the target: {', '.join(failed)}")


if __name__ == "__main__":
    main()
