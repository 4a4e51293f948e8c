"""Keeping a bot in its box: what bounds its processes, what kills all of
them, and the optional stronger isolation.

Every bot runs under a warden (arena/bots/warden.py), whatever the machine: the
warden is the child subreaper of the bot's process tree, so no descendant can
detach itself from the tree (double fork, ``setsid``) and outlive the bot.
The process-count limit needs more than that, because the kernel does not
apply RLIMIT_NPROC to root. The *confinement* (``Limits.confinement``) says
how it is enforced; ``auto`` picks the first that works here:

``cgroup``
    Each bot gets a cgroup of its own (cgroup v2, or the v1 ``pids``
    hierarchy) whose ``pids.max`` is the limit; ending the bot kills every
    member of the cgroup. Needs a writable cgroup hierarchy with the pids
    controller: root on most machines.
``uid``
    Root without usable cgroups: each bot runs as a user id of its own (from
    ``UID_BASE`` up, no account needed), so RLIMIT_NPROC bounds it, and every
    process of that user id is the bot's. It keeps one capability,
    CAP_DAC_READ_SEARCH, so it can still read its interpreter and files
    wherever they are; it cannot write outside its working folder (except
    where anyone may) nor signal other processes.
``rlimit``
    Not root: RLIMIT_NPROC, which the kernel counts per user, is set to the
    user's current number of tasks plus the limit.

Optional isolation (``Limits.isolation``), off by default:

``network``
    A network namespace of its own with no interface up, not even loopback:
    no network at all. Root, or unprivileged user namespaces.
``user``
    A user id of its own without any capability: the bot cannot write outside
    its working folder (except where anyone may), read files other users
    cannot read, or signal other processes. Root only; the bot's command and
    interpreter must be readable by other users.
"""

from __future__ import annotations

import functools
import itertools
import os
import resource
import secrets
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.bots import warden
from arena.errors import ArenaError

CONFINEMENTS = ("auto", "cgroup", "uid", "rlimit")
ISOLATIONS = ("network", "user")
UID_BASE = 1 << 30
CGROUP_FOLDER = "arena"

_counter = itertools.count()


@dataclass(frozen=True)
class CgroupPlace:
    """The cgroup folder under which each bot's warden creates the bot's
    cgroup (arena.bots.warden owns and sweeps them)."""

    base: Path
    version: int

    def probe(self) -> None:
        """Make and remove a cgroup with a process limit, to learn that this
        place works; named so that no sweep takes it for a bot's."""
        path = self.base / f"probe-{os.getpid()}-{next(_counter)}-{secrets.token_hex(3)}"
        path.mkdir()
        try:
            (path / "pids.max").write_text("1")
        finally:
            path.rmdir()


def _mounts() -> list[tuple[str, str, list[str]]]:
    """(mount point, filesystem type, super options) of every mount."""
    found = []
    try:
        with open("/proc/self/mountinfo") as handle:
            for line in handle:
                before, _, after = line.partition(" - ")
                fields, tail = before.split(), after.split()
                if len(fields) >= 5 and len(tail) >= 3:
                    found.append((fields[4], tail[0], tail[2].split(",")))
    except OSError:
        pass
    return found


def _words(path: Path) -> list[str]:
    return path.read_text().split()


def _v2_place(mount: str) -> CgroupPlace:
    root = Path(mount)
    if "pids" not in _words(root / "cgroup.controllers"):
        raise OSError("the pids controller is not available in cgroup v2")
    if "pids" not in _words(root / "cgroup.subtree_control"):
        (root / "cgroup.subtree_control").write_text("+pids")
    base = root / CGROUP_FOLDER
    base.mkdir(exist_ok=True)
    if "pids" not in _words(base / "cgroup.subtree_control"):
        (base / "cgroup.subtree_control").write_text("+pids")
    return CgroupPlace(base, 2)


def _v1_place(mount: str) -> CgroupPlace:
    base = Path(mount) / CGROUP_FOLDER
    base.mkdir(exist_ok=True)
    return CgroupPlace(base, 1)


@functools.cache
def cgroup_place() -> CgroupPlace | None:
    """Where bot cgroups go on this machine, or None if arena cannot make
    cgroups with a process limit here. Checked once per process by making
    (and removing) a cgroup; the cgroups of bots whose warden was killed
    outright are emptied and removed."""
    if os.geteuid() != 0:
        return None
    candidates = [(_v2_place, mount) for mount, kind, _ in _mounts() if kind == "cgroup2"]
    candidates += [(_v1_place, mount) for mount, kind, options in _mounts()
                   if kind == "cgroup" and "pids" in options]
    for make_place, mount in candidates:
        try:
            place = make_place(mount)
            place.probe()
        except OSError:
            continue
        warden.remove_abandoned_cgroups(str(place.base), place.version)
        return place
    return None


def resolve(confinement: str) -> str:
    """The confinement ``auto`` stands for on this machine."""
    if confinement not in CONFINEMENTS:
        raise ArenaError(f"unknown confinement: {confinement!r} (available: {', '.join(CONFINEMENTS)})")
    if confinement != "auto":
        return confinement
    if cgroup_place() is not None:
        return "cgroup"
    return "uid" if os.geteuid() == 0 else "rlimit"


def tasks_of_user(uid: int) -> int:
    """How many tasks (processes and threads) run as ``uid``: what the
    kernel compares RLIMIT_NPROC with."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        if int(fields.get("Uid", "-1 ").split()[0]) == uid:
            total += int(fields.get("Threads", "1").strip())
    return total


def _uid_is_mapped(uid: int) -> bool:
    try:
        with open("/proc/self/uid_map") as handle:
            ranges = [tuple(map(int, line.split())) for line in handle if line.strip()]
    except OSError:
        return False
    return any(inside <= uid < inside + count for inside, _, count in ranges)


def next_uid() -> int:
    """A user id for one bot process: unique among the bots alive on this
    machine (built from this process's id and a counter), unused by anyone
    else, and swept clean of leftovers before use."""
    uid = UID_BASE + ((os.getpid() & 0x3FFFFF) << 8) + (next(_counter) & 0xFF)
    if not _uid_is_mapped(uid):
        raise ArenaError(f"user id {uid} is not available here (see /proc/self/uid_map)")
    warden.kill_uid(uid, time.monotonic() + warden.SWEEP_SECONDS)
    return uid


def _clamped(which: int, value: int) -> int:
    """A limit no higher than the hard limit we run under (a process that is
    not root cannot raise it)."""
    hard = resource.getrlimit(which)[1]
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


@dataclass
class Box:
    """How one bot process is confined; handed to its warden."""

    confinement: str
    rlimits: dict[str, Any]
    workdir_root: str
    workdir_prefix: str
    cgroup_base: Path | None = None
    cgroup_version: int = 0
    pids_max: int = 0
    cgroup: str | None = None  # made by the warden; known once it reports
    uid: int | None = None
    keep_read: bool = False
    network: bool = False

    def warden_config(self, status_fd: int) -> dict[str, Any]:
        return {"parent": os.getpid(), "status_fd": status_fd, "rlimits": self.rlimits,
                "workdir_root": self.workdir_root, "workdir_prefix": self.workdir_prefix,
                "cgroup_base": str(self.cgroup_base) if self.cgroup_base else None,
                "pids_max": self.pids_max,
                "cgroup_version": self.cgroup_version, "uid": self.uid,
                "keep_read": self.keep_read, "network": self.network}

    def sweep(self) -> None:
        """The referee's own sweep, after the warden: it finds nothing when
        the warden did its job, and everything when the warden was killed."""
        deadline = time.monotonic() + warden.SWEEP_SECONDS
        if self.cgroup is not None:
            warden.kill_cgroup(self.cgroup, self.cgroup_version, deadline)
            warden.remove_cgroup(self.cgroup, time.monotonic() + 1.0)
        if self.uid is not None:
            warden.kill_uid(self.uid, deadline)


@functools.cache
def network_problem() -> str | None:
    """Why this machine cannot give a bot a network namespace, or None.
    Asked once per process, of a throwaway warden."""
    probe = subprocess.run([sys.executable, "-I", "-S", warden.__file__, "--probe-network"],
                           capture_output=True, text=True, timeout=30)
    return None if probe.returncode == 0 else (probe.stderr.strip() or f"exit status {probe.returncode}")


def check(confinement: str, isolation: tuple[str, ...]) -> None:
    """Refuse, with one line, what this machine cannot do."""
    unknown = sorted(set(isolation) - set(ISOLATIONS))
    if unknown:
        raise ArenaError(f"unknown isolation: {unknown[0]!r} (available: {', '.join(ISOLATIONS)})")
    chosen = resolve(confinement)
    if chosen == "cgroup" and cgroup_place() is None:
        raise ArenaError("confinement 'cgroup' needs a writable cgroup hierarchy with the pids "
                         "controller (usually root)")
    if (chosen == "uid" or "user" in isolation) and os.geteuid() != 0:
        raise ArenaError("running bots as another user needs root")
    if "network" in isolation and (problem := network_problem()):
        raise ArenaError(f"network isolation is not available here: {problem}")


def prepare(limits, workdir_root: str, workdir_prefix: str) -> Box:
    """The box for one new bot process (where its cgroup goes, its user
    id); ``limits`` is an arena.bots.process.Limits. The warden makes the working
    folder, in ``workdir_root``, named ``workdir_prefix`` and a random part."""
    check(limits.confinement, limits.isolation)
    confinement = resolve(limits.confinement)
    own_user = "user" in limits.isolation
    nproc = limits.processes
    if confinement == "rlimit" and not own_user:
        nproc = tasks_of_user(os.getuid()) + limits.processes
    cpu = limits.cpu_seconds
    rlimits = {
        "RLIMIT_CPU": [_clamped(resource.RLIMIT_CPU, cpu), _clamped(resource.RLIMIT_CPU, cpu + 1)],
        "RLIMIT_AS": _clamped(resource.RLIMIT_AS, limits.address_space_bytes),
        "RLIMIT_NPROC": _clamped(resource.RLIMIT_NPROC, nproc),
        "RLIMIT_FSIZE": _clamped(resource.RLIMIT_FSIZE, limits.file_size_bytes),
        "RLIMIT_NOFILE": _clamped(resource.RLIMIT_NOFILE, limits.open_files),
        "RLIMIT_CORE": 0,
    }
    box = Box(confinement, rlimits, workdir_root, workdir_prefix, network="network" in limits.isolation)
    if confinement == "uid" or own_user:
        box.uid = next_uid()
        box.keep_read = not own_user
    if confinement == "cgroup":
        place = cgroup_place()
        assert place is not None, "check() refuses cgroup confinement where there is no cgroup place"
        box.cgroup_base, box.cgroup_version, box.pids_max = place.base, place.version, limits.processes
    return box
