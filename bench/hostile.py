"""Figures for the hostile-bot defences: what a bot process costs to start
under its warden, in its box and without one, what freezing and thawing it
costs per decision, and what the worst of the zoo (tests/zoo) costs the
referee. Run: python bench/hostile.py [--flood-seconds 4]

Prints, for ``--isolation box`` and ``none``, the time to start a bot,
shake hands and end it, and the time to thaw and freeze it again; then, in
this process as the referee, the peak memory (VmHWM) and what went by for a
100 MB line, a stderr flood and a fork bomb.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.bots import isolation  # noqa: E402
from arena.bots.process import BotProcess  # noqa: E402
from arena.bots.protocol import handshake  # noqa: E402
from arena.errors import BotError  # noqa: E402
from arena.model import BotSpec, Limits  # noqa: E402

ZOO = Path(tempfile.mkdtemp(prefix="arena-bench-zoo-"))  # self-contained copies: a bot sees only its own file
RANDOM_BOT = ROOT / "bots" / "random_bot.py"
sys.path.insert(0, str(ROOT / "tests" / "zoo"))
from _zoo import self_contained  # noqa: E402

for _bot in ("huge_line", "stderr_flood", "fork_bomb"):
    (ZOO / f"{_bot}.py").write_text(self_contained(ROOT / "tests" / "zoo" / f"{_bot}.py"))


def spec(path: Path) -> BotSpec:
    return BotSpec(path.stem, (sys.executable, str(path)), str(path), "0" * 64)


def peak_kib() -> int:
    return int(re.search(r"VmHWM:\s+(\d+)", Path("/proc/self/status").read_text()).group(1))


def start_costs(rounds: int) -> None:
    for mode in isolation.ISOLATIONS:
        limits = Limits(isolation=mode)
        times, cycles = [], []
        for _ in range(rounds):
            started = time.perf_counter()
            process = BotProcess(spec(RANDOM_BOT), limits)
            handshake(process, 10)
            times.append(time.perf_counter() - started)
            process.freeze()
            started = time.perf_counter()
            for _ in range(100):
                process.thaw()
                process.freeze()
            cycles.append((time.perf_counter() - started) / 100)
            process.close()
        print(f"--isolation {mode:4}: start + hello median {statistics.median(times) * 1000:6.1f} ms, "
              f"max {max(times) * 1000:6.1f} ms; thaw + freeze median {statistics.median(cycles) * 1e6:5.1f} us "
              f"({rounds} bots)")


def misdeed(bot: str, limits: Limits, log: Path | None = None) -> str:
    """Drive one zoo bot to its misdeed (its second decision) as the referee does."""
    process = BotProcess(spec(ZOO / f"{bot}.py"), limits, log)
    decide = {"type": "decide", "state": {}, "actions": [{"n": 0}], "timeout_ms": int(limits.move_timeout * 1000)}
    try:
        handshake(process, 10)
        for _ in range(2):
            process.send(decide, 1)
            process.receive(limits.move_timeout)
        return "answered"
    except BotError as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        started = time.perf_counter()
        process.kill()
        print(f"  ended every process in {(time.perf_counter() - started) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--flood-seconds", type=float, default=4.0)
    args = parser.parse_args()
    place = isolation.cgroup_place()
    print(f"cgroups here: {', '.join(sorted(place.bases)) if place else 'none'}")
    start_costs(args.rounds)

    base = peak_kib()
    print(f"referee peak before the zoo: {base / 1024:.1f} MiB")

    started = time.perf_counter()
    print("huge_line:", misdeed("huge_line", Limits(move_timeout=5)))
    print(f"  refused after {time.perf_counter() - started:.2f} s; referee peak +{(peak_kib() - base) / 1024:.1f} MiB")

    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "flood.log"
        print("stderr_flood:", misdeed("stderr_flood", Limits(move_timeout=args.flood_seconds), log))
        text = log.read_bytes()
        dropped = int(re.search(rb"(\d+) more bytes", text).group(1))
        print(f"  {dropped / 2**30:.2f} GiB flooded in {args.flood_seconds:g} s "
              f"({dropped / 2**30 / args.flood_seconds:.2f} GiB/s); log {len(text)} bytes; "
              f"referee peak +{(peak_kib() - base) / 1024:.1f} MiB")

    if (place and "pids" in place.bases) or os.geteuid() != 0:
        seen = [0]
        stop = threading.Event()

        def count() -> None:
            program = str(ZOO / "fork_bomb.py")
            while not stop.is_set():
                pids = [p for p in os.listdir("/proc") if p.isdigit()]
                mine = 0
                for pid in pids:
                    try:
                        command = Path(f"/proc/{pid}/cmdline").read_bytes()
                    except OSError:
                        continue
                    mine += program.encode() in command and b"--unshare-all" not in command
                seen[0] = max(seen[0], mine)
                stop.wait(0.005)

        watcher = threading.Thread(target=count, daemon=True)
        watcher.start()
        print("fork_bomb:", misdeed("fork_bomb", Limits(move_timeout=1, processes=64)))
        stop.set()
        watcher.join()
        print(f"  at most {seen[0]} of its processes at once (limit 64)")


if __name__ == "__main__":
    main()
