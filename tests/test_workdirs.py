"""No bot working folder and no bot cgroup outlives a kill, at any instant.

The warden makes both only once it is sure to die with the referee, and holds
a lock on each for as long as it lives. So killing the referee at any moment
of a bot's start-up leaves nothing behind; and killing the warden too (SIGKILL,
which nobody can clean up after) leaves folders whose lock is free, which the
next arena to start removes. Each test runs its bots under a temporary folder
of its own (TMPDIR), so it sees only its own bots' folders.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import REPO, random_bots

from arena.bots import isolation, warden

# Start one bot and keep it; "go" is printed just before the start begins.
START_ONE_BOT = """
import sys, time
from arena.bots.process import BotProcess
from arena.model import Limits
from arena.bots.discovery import discover
spec = discover([sys.argv[1]])[0]
print("go", flush=True)
BotProcess(spec, Limits(isolation=sys.argv[2]))
print("started", flush=True)
time.sleep(60)
"""

# From ~0 to past the end of a bot's start-up (which takes some 30 to 80 ms
# here): the kill lands before the warden exists, while it sets itself up,
# while it makes the folder and the cgroup, while the bot starts, and after.
INSTANTS = [0.0, 0.001, 0.002, 0.004, 0.006, 0.008, 0.010, 0.013, 0.016, 0.020, 0.025, 0.030, 0.035,
            0.040, 0.050, 0.060, 0.075, 0.090, 0.110, 0.140, 0.200]


@pytest.fixture
def private_tmp(tmp_path):
    root = tmp_path / "tmp"
    root.mkdir()
    return root


@pytest.fixture
def bot_folder(tmp_path):
    return random_bots(tmp_path / "bots", ["workdir_probe"])


def _start(bot_folder: Path, root: Path, mode: str = "none") -> subprocess.Popen:
    """A referee that starts one bot; without a box (``none``) the bot has a
    working folder under ``root``; in a box (``box``), a tmpfs of its own."""
    env = dict(os.environ, TMPDIR=str(root), PYTHONPATH=str(REPO))
    process = subprocess.Popen([sys.executable, "-c", START_ONE_BOT, str(bot_folder), mode], env=env,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "go"
    return process


def _reap(process: subprocess.Popen) -> None:
    process.wait()
    process.stdout.close()


def _folders(root: Path) -> list[str]:
    return sorted(path.name for path in root.glob("arena-bot-*"))


def _abandoned_cgroups() -> list[str]:
    """Bot cgroups on this machine that no live warden holds."""
    place = isolation.cgroup_place()
    if place is None:
        return []
    abandoned = []
    for path in (path for base in set(place.bases.values()) for path in base.glob(f"{warden.CGROUP_PREFIX}*")):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            abandoned.append(path.name)
        except OSError:
            pass
        finally:
            os.close(fd)
    return abandoned


@pytest.mark.parametrize("mode", ["box", "none"])
@pytest.mark.parametrize("instant", INSTANTS)
def test_a_referee_killed_at_any_instant_of_a_bot_start_leaves_no_folder_and_no_cgroup(
        instant, mode, bot_folder, private_tmp, process_table):
    referee = _start(bot_folder, private_tmp, mode)
    time.sleep(instant)
    referee.kill()
    _reap(referee)
    # The warden, bwrap and the bot all name the bot's file on their command line.
    assert process_table.wait_until_none(str(bot_folder), timeout=10) == {}
    # No sweep has run: the warden removed what it had made as it went.
    assert _folders(private_tmp) == []
    assert _abandoned_cgroups() == []


@pytest.mark.parametrize("instant", INSTANTS[::3] + [0.5])
def test_folders_of_a_warden_killed_outright_are_removed_by_the_next_start(instant, bot_folder, private_tmp,
                                                                           process_table):
    referee = _start(bot_folder, private_tmp)
    time.sleep(instant)
    os.kill(referee.pid, signal.SIGSTOP)  # so it starts no warden while its wardens are killed
    for pid in process_table.mentioning(str(bot_folder)):
        with contextlib.suppress(ProcessLookupError):  # one may have ended since the listing
            os.kill(pid, signal.SIGKILL)  # the referee, its warden and the bot: nobody can clean up
    _reap(referee)
    # The bot dies with its warden (its parent-death signal).
    assert process_table.wait_until_none(str(bot_folder), timeout=10) == {}
    # The next arena to start a bot sweeps first: whatever the kill left
    # behind is gone, and its own bot starts as usual.
    again = _start(bot_folder, private_tmp)
    try:
        assert again.stdout.readline().strip() == "started"
        assert len(_folders(private_tmp)) == 1, "only the new bot's folder"
        assert _abandoned_cgroups() == []
    finally:
        again.kill()
        _reap(again)
    assert process_table.wait_until_none(str(bot_folder), timeout=10) == {}


def test_a_sweep_leaves_folders_in_use_alone(bot_folder, private_tmp):
    owner = _start(bot_folder, private_tmp)
    try:
        assert owner.stdout.readline().strip() == "started"
        [name] = _folders(private_tmp)
        assert warden.remove_abandoned(str(private_tmp), "arena-bot-") == []
        assert _folders(private_tmp) == [name]
        left = private_tmp / "arena-bot-left-by-a-kill"
        left.mkdir()
        assert warden.remove_abandoned(str(private_tmp), "arena-bot-") == [str(left)]
        assert _folders(private_tmp) == [name]
    finally:
        owner.kill()
        _reap(owner)


# What each of two Dask worker processes starting together does first
# (arena.play.dask_worker._bot_cache), over and over: sweep the abandoned bot
# caches, make its own, use it; then abandon it (close the lock) for the
# other to sweep. Prints its failures, and when it began and ended.
SWEEP_AND_MAKE = """
import os, sys, time
from arena.bots import warden
root, rounds = sys.argv[1], int(sys.argv[2])
failures = []
began = time.monotonic()
for _ in range(rounds):
    try:
        warden.remove_abandoned(root, "arena-bots-")
        path, lock = warden.make_owned_folder(root, "arena-bots-")
        os.chmod(path, 0o711)
        os.mkdir(os.path.join(path, "unpacked"))
        os.close(lock)
    except OSError as exc:
        failures.append(repr(exc))
print(len(failures), began, time.monotonic(), *failures[:3], sep="\\n")
"""


def test_two_workers_sweeping_and_making_their_folders_together_never_fail(private_tmp):
    """Two processes sweep and make bot caches in one folder at once: a
    folder swept between its owner's mkdir and lock is made again, never
    a FileNotFoundError (the old code failed 15 times in 4,000 such rounds)."""
    rounds = 1500
    racers = [subprocess.Popen([sys.executable, "-c", SWEEP_AND_MAKE, str(private_tmp), str(rounds)],
                               env=dict(os.environ, PYTHONPATH=str(REPO)), stdout=subprocess.PIPE, text=True)
              for _ in range(2)]
    reports = [racer.communicate(timeout=60)[0].splitlines() for racer in racers]
    assert [racer.returncode for racer in racers] == [0, 0]
    assert [report[0] for report in reports] == ["0", "0"], reports
    (first_began, first_ended), (second_began, second_ended) = [map(float, r[1:3]) for r in reports]
    overlap = min(first_ended, second_ended) - max(first_began, second_began)
    assert overlap > 0.5 * min(first_ended - first_began, second_ended - second_began)  # they raced


def test_a_folder_swept_before_its_owner_opened_it_is_made_again(tmp_path, monkeypatch):
    """A sweeper (another worker's first bot) may remove a folder between
    its owner's mkdir and open: the owner makes another, never fails."""
    made = []
    real_mkdir = os.mkdir

    def mkdir_then_swept(path, mode=0o777):
        real_mkdir(path, mode)
        made.append(path)
        if len(made) == 1:
            os.rmdir(path)  # what the sweeper does: the folder is not locked yet

    monkeypatch.setattr(warden.os, "mkdir", mkdir_then_swept)
    path, fd = warden.make_owned_folder(str(tmp_path), "arena-bot-test-")
    try:
        assert len(made) == 2 and path == made[1] and os.path.isdir(path)
    finally:
        os.close(fd)
