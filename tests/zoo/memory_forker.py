"""Attack: memory past the cap through children. At its second decision it
forks eight children that each take 256 MiB, every page touched (each
under its own address-space limit, 2 GiB together), gives them most of its
move time to do so, and plays on; before each later answer it counts the
children that hold their share and are still alive: three of them would be
over a cap of 512 MiB."""

import os
import select
import time

from _zoo import report, run

CHUNK = 256 << 20
held = {"pipe": None, "done": 0, "children": []}


def hold(write_end):
    chunk = bytearray(CHUNK)
    chunk[::4096] = b"\x01" * (CHUNK // 4096)
    os.write(write_end, b"x")
    time.sleep(3600)


def fork(message):
    read_end, write_end = os.pipe()
    for _ in range(8):
        try:
            pid = os.fork()
        except BlockingIOError:  # the process limit (per user without cgroups) is reached: fewer children
            break
        if pid == 0:
            hold(write_end)
        held["children"].append(pid)
    os.close(write_end)
    os.set_blocking(read_end, False)
    held["pipe"] = read_end
    deadline = time.monotonic() + 0.7
    wanted = len(held["children"])
    while held["done"] < wanted and select.select([read_end], [], [], max(0, deadline - time.monotonic()))[0]:
        held["done"] += len(os.read(read_end, 64))


def count():
    if held["pipe"] is None:
        return
    try:
        held["done"] += len(os.read(held["pipe"], 64))
    except BlockingIOError:
        pass
    alive = [pid for pid in held["children"] if os.waitpid(pid, os.WNOHANG) == (0, 0)]
    holding = min(held["done"], len(alive))
    report("memory_forker", [f"{holding} children hold 256 MiB each"] if holding >= 3 else [])


run("memory_forker", fork, think=count)
