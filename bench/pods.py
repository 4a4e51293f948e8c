"""Pods: how long planning takes and how balanced the designs are, and a
four-seat tournament of the house bots with its rating intervals as rounds
are added.

    .venv/bin/python bench/pods.py [--games roundabout,ciclovia] [--rounds 1,2,4] [--move-timeout 0.2]

Part one plans one round of every game for 4, 12 and 40 bots at three and
four seats (``plan_pods``, the planner ``arena tournament --players`` uses)
and prints the time, the pods and the balance: pods per bot and meetings per
pair of bots, least and most. Part two plays the four bundled bots (random
in Python and JavaScript, greedy, and search on a fixed budget of samples so
that it answers well inside the move time) in pods of four through
``play_missing``, the path a tournament takes, raising the rounds (a resumed
run plays only the new ones) and printing games per second and each bot's
joint rating with its 95% interval after each.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from arena.model import BotSpec, DiceKey, Limits  # noqa: E402
from arena.play.executors import LocalExecutor  # noqa: E402
from arena.play.plan import Entrant, plan_pods  # noqa: E402
from arena.play.tournament import check_request, plan_tournament, play_missing  # noqa: E402
from arena.stats.standings import compute  # noqa: E402
from arena.store import Store  # noqa: E402


def planning() -> None:
    print("planning one round: bots, seats, pods, games, time, balance")
    for count in (4, 12, 40):
        entrants = [Entrant(BotSpec(f"bot{n:02d}", ("x",), "x", f"{n:064d}"), frozenset(["detour"]))
                    for n in range(count)]
        for seats in (3, 4):
            started = time.perf_counter()
            jobs, [balance] = plan_pods(entrants, ["detour"], seats, 1, DiceKey.from_seed(1))
            elapsed = time.perf_counter() - started
            print(f"  {count:3} bots {seats} seats: {balance.pods:5} pods {len(jobs):6} games "
                  f"{elapsed * 1000:8.1f} ms  pods per bot {balance.per_bot[0]}-{balance.per_bot[1]}, "
                  f"meetings per pair {balance.per_pair[0]}-{balance.per_pair[1]}"
                  + ("  (every combination)" if balance.all_combinations else ""))


def house_bots(folder: Path) -> Path:
    bots = folder / "bots"
    bots.mkdir()
    for name in ("random_bot.py", "random_bot_js.js", "greedy_bot.py"):
        shutil.copy(REPO / "bots" / name, bots / name)
    search = bots / "search_bot"
    search.mkdir()
    shutil.copy(REPO / "bots" / "search_bot.py", search / "search_bot.py")
    (search / "bot.json").write_text(json.dumps({"command": [sys.executable, "search_bot.py", "--samples", "12"]}))
    return bots


def tournament(games: list[str], rounds: list[int], move_timeout: float) -> None:
    limits = Limits(move_timeout=move_timeout)
    with tempfile.TemporaryDirectory(prefix="arena-bench-pods-") as scratch:
        folder = Path(scratch)
        bots = house_bots(folder)
        for game in games:
            print(f"\n{game}, four house bots in pods of four, {move_timeout:g} s a move")
            with Store(folder / f"{game}.db", writer=True) as store:
                for count in rounds:
                    plan = plan_tournament([bots], check_request([game], [4]), count, DiceKey.from_seed(1),
                                           limits)
                    started = time.perf_counter()
                    played = play_missing(plan, store, LocalExecutor(2), limits, None)
                    elapsed = time.perf_counter() - started
                    names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
                    rows = [row for row in compute(store.games(), names).rows if row.table_name == f"{game}/4p"]
                    ratings = ", ".join(f"{row.bot} {row.joint:.0f} ({row.joint_low:.0f}-"
                                        f"{row.joint_high:.0f})" for row in rows)
                    print(f"  {count} rounds ({rows[0].games} games each): {played} new games in "
                          f"{elapsed:.1f} s, {played / elapsed:.2f} games/s; joint: {ratings}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="roundabout,detour,ciclovia,slyyde")
    parser.add_argument("--rounds", default="1,2,4", help="rounds after each step, rising")
    parser.add_argument("--move-timeout", type=float, default=0.2)
    args = parser.parse_args()
    planning()
    tournament(args.games.split(","), [int(n) for n in args.rounds.split(",")], args.move_timeout)


if __name__ == "__main__":
    main()
