"""The attacker zoo (tests/zoo/, one bot per attack of issue 24) in a real
tournament, with the defaults, as root and as an ordinary user: every
attack is blocked, the honest bots lose no game to them (one of them needs
a fixed CPU time per move while a CPU hog plays), nothing is left running
and no file is left outside arena's own folders.

Each attacker says on stderr what its attack achieved (``attack NAME:
blocked`` or ``attack NAME: SUCCEEDED: ...``); the test also looks for
itself: the database, the bots' files and arena's package unchanged, no
file left in /tmp, /dev/shm or the temporary folder, no process left, no
connection made to a service listening on this machine."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest
from support import ARENA, RANDOM_BOT, REPO

import arena
from arena.bots import isolation

# Alone, after the parallel tests: the CPU hog must not make an honest bot lose on time,
# on a machine no other test loads.
pytestmark = pytest.mark.serial

# Each attacker and the forfeit its games end in, where it is always the same
# (the hog and the warden killer play on; the memory forker is ended for its
# memory, or runs out of time while its children take it).
ATTACKERS = {"signal_referee": "illegal", "hit_opponent": "illegal", "snoop": "illegal", "rewrite_db": "illegal",
             "tamper_arena": "illegal", "replace_opponent": "illegal", "escape_cgroup": "illegal",
             "kill_warden": None, "cpu_hog": None, "memory_forker": None, "litter": "illegal",
             "network": "illegal"}
SAYS_BLOCKED = set(ATTACKERS) - {"kill_warden", "cpu_hog", "memory_forker", "litter"}
HONEST = ("honest", "needy")
OPTIONS = ["--rounds", "1", "--jobs", "2", "--move-timeout", "1", "--startup-timeout", "10", "--memory", "512M",
           "--address-space", "1G", "--stderr-cap", "64K"]


def _bots(folder: Path, zoo_dir: Path) -> Path:
    bots = folder / "bots"
    bots.mkdir(parents=True)
    for name in [*ATTACKERS, "needy"]:
        shutil.copy(zoo_dir / f"{name}.py", bots)
    shutil.copy(RANDOM_BOT, bots / "honest.py")
    return bots


def _digests(*folders: Path) -> dict[str, tuple[str, int]]:
    """Content and modification time of every file: a write of the same
    bytes is seen too."""
    found = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                found[str(path)] = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
    return found


def _litter() -> list[str]:
    return [str(path) for folder in (Path("/tmp"), Path("/dev/shm")) for path in folder.glob("zoo-litter-*")]


class Watch:
    """What must not change while the attackers play: a service on this
    machine that must see no connection, the files of the bots and of
    arena's package, the temporary folders."""

    def __init__(self, bots: Path, tmpdir: Path) -> None:
        self.bots, self.tmpdir = bots, tmpdir
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.listener.setblocking(False)
        self.files = _digests(bots, Path(arena.__file__).parent)
        self.tmp_before = sorted(os.listdir(tmpdir))

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc_info) -> None:
        self.listener.close()

    def check(self, process_table) -> None:
        with pytest.raises(BlockingIOError):
            self.listener.accept()
        assert _digests(self.bots, Path(arena.__file__).parent) == self.files, "no file of a bot or of arena changed"
        assert process_table.wait_until_none(str(self.bots)) == {}, "nothing of a bot is left running"
        assert _litter() == []
        assert sorted(os.listdir(self.tmpdir)) == self.tmp_before, "no file left in the temporary folder"


def _check_tournament(folder: Path, run: subprocess.CompletedProcess) -> None:
    assert run.returncode == 0, run.stderr
    players = len(ATTACKERS) + len(HONEST)
    with closing(sqlite3.connect(folder / "arena.db")) as db:
        rows = db.execute("SELECT seats, termination, forfeit_seat, detail FROM games").fetchall()
    assert len(rows) == players * (players - 1)
    for seats, termination, forfeit_seat, detail in rows:
        names = [seat.split("@")[0] for seat in json.loads(seats)]
        if forfeit_seat is not None:
            loser = names[forfeit_seat]
            assert loser not in HONEST, (names, termination, detail)
            expected = ATTACKERS[loser]
            assert expected is None or termination == expected, (loser, termination, detail)
            if loser == "memory_forker" and termination == "crash":
                assert detail.endswith("memory limit of 512M exceeded"), detail
        else:
            assert not {"rewrite_db", "signal_referee"} & set(names), "their games end in their forfeit"
    logs = {name: "".join(path.read_text(errors="replace")
                          for path in (folder / "logs" / "bots").rglob(f"*-{name}.stderr.log"))
            for name in ATTACKERS}
    for name, log in logs.items():
        assert "SUCCEEDED" not in log, log[log.index("SUCCEEDED") - 40:][:400]
        if name in SAYS_BLOCKED:
            assert f"attack {name}: blocked" in log, f"{name} never attacked"
    assert "litter wrote /box/zoo-litter-" in logs["litter"], "it wrote, in its box"


@pytest.mark.slow
def test_every_attack_is_blocked_in_a_tournament_with_cgroups(zoo_dir, zoo_game, process_table, tmp_path):
    """As root, or as a user systemd delegates cgroups to: every limit is
    the kernel's."""
    place = isolation.cgroup_place()
    if place is None or set(place.bases) != set(isolation.CONTROLLERS):
        pytest.skip(f"no cgroups for this user ({isolation.cgroup_problem()}): the ordinary-user test covers it")
    bots = _bots(tmp_path, zoo_dir)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, PYTHONPATH=str(REPO), TMPDIR=str(tmpdir))
    with Watch(bots, tmpdir) as watch:
        run = subprocess.run([*ARENA, "tournament", "--bots", str(bots), "--games", zoo_game, *OPTIONS],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        _check_tournament(tmp_path, run)
        watch.check(process_table)
    assert "warning" not in run.stderr, "every cgroup controller arena uses is there"


@pytest.mark.slow
def test_every_attack_is_blocked_in_a_tournament_as_an_ordinary_user(ordinary_user, zoo_dir, zoo_game,
                                                                     process_table):
    """No cgroup for this user: the warden's watcher holds the memory cap,
    RLIMIT_NPROC the processes, the freezer the CPU between decisions; the
    arena it runs is a venv under its private home. Nothing holds cpu_hog
    to one core while it decides, so its forty children take both cores
    from the game played at the same time (its seat-swapped twin, against
    needy too): needy's clock does not count the time it waits for a CPU
    (arena.bots.turn_clock), which once cost it a game on time."""
    account, home, python = ordinary_user
    folder = home / "tournament"
    folder.mkdir()
    bots = _bots(folder, zoo_dir)
    tmpdir = folder / "tmp"
    tmpdir.mkdir()
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, account.pw_uid, account.pw_gid)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "TMPDIR": str(tmpdir), "LANG": "C.UTF-8"}
    with Watch(bots, tmpdir) as watch:
        run = subprocess.run([str(python), "-m", "arena.cli", "tournament", "--bots", str(bots), "--games",
                              zoo_game, *OPTIONS], cwd=folder, env=env, user=account.pw_uid, group=account.pw_gid,
                             extra_groups=[], capture_output=True, text=True, timeout=600)
        if "bubblewrap cannot make a box here" in run.stderr:
            pytest.skip(run.stderr.strip().splitlines()[-1])
        _check_tournament(folder, run)
        watch.check(process_table)
    assert ("warning: no usable cgroup here, so not enforced per bot: the one-core CPU quota, memory (watched "
            "every few tens of ms instead of capped by the kernel), processes (RLIMIT_NPROC per user instead)"
            in run.stderr)
    assert isolation.cgroup_place() is not None, "root here has cgroups: only the user lacked them"
