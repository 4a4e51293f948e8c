"""Every process arena forks dies with it (arena.lifetime): a child of a
process killed outright, blocked where nothing would wake it, is gone at once;
and a tournament's pools (luck, site) are tied the same way (the kill tests of
tests/test_crash_safety.py run them in real tournaments)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from support import REPO

# A parent that forks two children through fork_context and through a plain
# os.fork after it (the hook holds for every fork from then on): one blocked
# reading a pipe nobody writes to, one waiting for a lock its parent holds
# for good; it prints their pids and waits to be killed.
PARENT = textwrap.dedent("""
    import os, sys, threading, time
    from arena.lifetime import fork_context

    read_end, write_end = os.pipe()
    reader = fork_context().Process(target=os.read, args=(read_end, 1))
    reader.start()
    held = threading.Lock()
    held.acquire()
    waiter = os.fork()
    if waiter == 0:
        held.acquire()
        os._exit(0)
    print(reader.pid, waiter, flush=True)
    time.sleep(600)
""")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_children_blocked_for_good_die_with_a_parent_killed_outright():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=str(REPO)))
    children: list[int] = []
    try:
        children = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(children) == 2 and all(alive(pid) for pid in children)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [pid for pid in children if alive(pid)] == []
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        parent.stdout.close()
        for pid in children:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
