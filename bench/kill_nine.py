"""What a killed tournament leaves behind: ``arena tournament --jobs 2`` is
killed with SIGKILL (its main process only, as a crash or the OOM killer
would), again and again, at random instants, most of them while its bots
start; after each kill, what is still alive of it is counted.

    .venv/bin/python bench/kill_nine.py [--kills 30] [--seed N] [--settle 20] [--executor dask]

Counted after each kill, once ``--settle`` seconds have passed or nothing is
left: worker processes (the arena command line), every other process of the
run (wardens, boxes, bots: whatever names the run's folder) and the bots'
working folders in the run's own TMPDIR. Survivors are killed before the next
run so that they cannot hide its count. Each run resumes the last one's
database (so some kills land in its last stages: luck, ratings, the site);
one that finished before its kill leaves a fresh database to the next. Exits
1 if anything was left.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BOTS = ["kill_a", "kill_b", "kill_c", "kill_d"]


def processes_of(folder: Path) -> dict[int, tuple[str, int, str]]:
    """Live processes of the runs in ``folder``: those whose command line
    names it (arena's, its forked workers', wardens', boxes', bots') or whose
    environment has its TMPDIR (Dask's spawned workers): pid to command
    line, parent and state (zombies have no command line)."""
    tmpdir = f"TMPDIR={folder / 'tmp'}".encode()
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            environment = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
            stat = Path(f"/proc/{entry}/stat").read_text()
            wchan = Path(f"/proc/{entry}/wchan").read_text()
        except OSError:
            continue
        if command and (str(folder) in command or tmpdir in environment):
            fields = stat[stat.rindex(")") + 2:].split()
            found[int(entry)] = (command, int(fields[1]), f"{fields[0]} {wchan}")
    return found


def left_of(folder: Path) -> tuple[dict, dict, list[str]]:
    """The run's workers (arena's processes: its main process is gone), its
    other processes, its bots' working folders."""
    alive = processes_of(folder)
    workers = {pid: info for pid, info in alive.items() if "arena.cli" in info[0] or "multiprocessing" in info[0]}
    others = {pid: info for pid, info in alive.items() if pid not in workers}
    return workers, others, sorted(p.name for p in (folder / "tmp").glob("arena-bot-*"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=None, help="of the random instants (default: a random one)")
    parser.add_argument("--settle", type=float, default=20.0, help="seconds to wait for the run to go away")
    parser.add_argument("--game", default="slyyde")
    parser.add_argument("--executor", default="local", choices=["local", "dask"])
    args = parser.parse_args()
    seed = random.randrange(1 << 30) if args.seed is None else args.seed
    chooser = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="arena-bench-kill-"))
    (folder / "tmp").mkdir()
    bots = folder / "bots"
    bots.mkdir()
    for name in BOTS:
        shutil.copy(REPO / "arena" / "bundled_bots" / "random_bot.py", bots / f"{name}.py")
    env = dict(os.environ, PYTHONPATH=str(REPO), TMPDIR=str(folder / "tmp"))
    command = [sys.executable, "-m", "arena.cli", "tournament", "--bots", str(bots), "--games", args.game,
               "--players", "2,3", "--rounds", "40", "--jobs", "2", "--move-timeout", "10",
               "--db", str(folder / "arena.db"), "--executor", args.executor]
    totals = {"workers": 0, "others": 0, "folders": 0, "runs with leftovers": 0}
    print(f"random seed {seed}; {args.kills} kills of: {' '.join(command[1:])}", flush=True)
    started = time.monotonic()
    try:
        for number in range(1, args.kills + 1):
            # Three kills in four while the workers start their bots (the
            # first second or so of a run), the rest later, mid-tournament.
            when = chooser.uniform(0.3, 1.5) if chooser.random() < 0.75 else chooser.uniform(1.5, 6.0)
            run = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
            time.sleep(when)
            killed = run.poll() is None
            if killed:
                os.kill(run.pid, signal.SIGKILL)
            else:
                for path in folder.glob("arena.db*"):
                    path.unlink()
            run.wait()
            deadline = time.monotonic() + args.settle
            while any(left := left_of(folder)) and time.monotonic() < deadline:
                time.sleep(0.1)
            workers, others, folders = left
            totals["workers"] += len(workers)
            totals["others"] += len(others)
            totals["folders"] += len(folders)
            totals["runs with leftovers"] += bool(workers or others or folders)
            print(f"kill {number:2} at {when:4.2f} s{'' if killed else ' (had ended)'}: {len(workers)} workers, "
                  f"{len(others)} other processes, {len(folders)} working folders left", flush=True)
            for pid, (line, parent, state) in {**workers, **others}.items():
                print(f"    {pid} parent {parent} state {state}: {line[:150]}", flush=True)
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            for name in folders:
                shutil.rmtree(folder / "tmp" / name, ignore_errors=True)
    finally:
        print(f"{args.kills} kills in {time.monotonic() - started:.0f} s: "
              + ", ".join(f"{value} {key}" for key, value in totals.items()), flush=True)
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if totals["runs with leftovers"] else 0


if __name__ == "__main__":
    sys.exit(main())
