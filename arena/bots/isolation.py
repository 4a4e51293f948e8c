"""Keeping a bot in its box.

Every bot runs under a warden (arena/bots/warden.py), the child subreaper of
its process tree. By default (``Limits.isolation == "box"``) the warden
starts the bot inside a bubblewrap sandbox (``bwrap``, the one Flatpak uses),
as IOI's ``isolate`` confines contestants:

* its own PID namespace: the bot cannot see, signal or ptrace the referee,
  its warden or other bots, and /proc shows only its own processes; when the
  namespace's init dies, the kernel kills everything left in it;
* its own mount namespace: read-only, only the system runtime (/usr, /bin,
  /lib*, a few files of /etc), the interpreter's prefix, arena's own package
  folder (which house bots import) and the bot's own file or folder, each at
  its own absolute path so commands work unchanged; writable, a private
  empty working folder (``WORKDIR``), /tmp and /dev/shm, each a tmpfs of
  ``Limits.disk_bytes`` that vanishes with the box; nothing else (not the
  database, the logs, the site, other bots, the checkout or home folders);
* empty network, IPC, UTS and cgroup namespaces, a user namespace that cannot
  make more, no capabilities, no_new_privs, a session of its own, a clean
  environment, and death with its warden;
* a seccomp filter (arena/bots/seccomp.py) that refuses the system calls no
  bot needs and that widen the kernel's attack surface (keyrings, ptrace,
  perf, userfaultfd, io_uring, bpf, mounts, namespaces...), with EPERM.

All of a bot's processes together are bounded by a cgroup where arena can
make one: ``pids.max`` (processes), one core of CPU (the cpu quota) and
``--memory`` of resident memory. On cgroup v2 the bots' cgroups are below
one arena manages: under systemd a scope it delegates (arena.bots.systemd),
to root or to an ordinary user; elsewhere, as root, the root of what arena
sees (a container's, whose processes move to a leaf first); on v1, as
root, each hierarchy's root. Where it cannot (an ordinary user with no
systemd user manager, or on v1), the warden sums the resident memory of
the bot's processes every ``warden.WATCH_SECONDS`` and ends the bot over the
cap, RLIMIT_NPROC bounds the processes per user, and one warning line says
that the CPU quota is not enforced. Between its decisions a bot is frozen
(SIGSTOP to every process of its box; see ``Freezer``) unless
``Limits.ponder`` allows it to think on the other seats' time.

``Limits.isolation == "none"`` runs the bot without a box (only the warden,
the limits and a working folder in the temporary folder): loudly, for
machines where bubblewrap cannot run.
"""

from __future__ import annotations

import errno
import functools
import itertools
import logging
import os
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import arena
from arena.bots import seccomp, systemd, warden
from arena.errors import ArenaError
from arena.model import BotSpec, Limits

log = logging.getLogger(__name__)

ISOLATIONS = ("box", "none")
CGROUP_FOLDER = "arena"
WORKDIR = "/box"  # the bot's working folder and home, inside its box
RUNTIME = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "passwd", "group",
       "nsswitch.conf", "mime.types")
CPU_PERIOD_US = 100_000
CONTROLLERS = ("pids", "cpu", "memory")
LEAF = "leaf"  # where the processes of a cgroup arena takes charge of go (see _take_charge)

NO_BOX_WARNING = ("warning: --isolation none: bots run without a box, with every power of the user arena "
                  "runs as (they can read the database, signal the referee, reach the network)")

_counter = itertools.count()


# -- cgroups ----------------------------------------------------------------------------------


class CgroupsRefused(Exception):
    """A cgroup hierarchy arena cannot use here; the message says why."""


@dataclass(frozen=True)
class CgroupPlace:
    """Where each bot's warden creates the bot's cgroups: one folder per
    controller it has (v1: a hierarchy each; v2: the same folder for all)."""

    version: int
    bases: dict[str, Path]

    def settings(self, limits: Limits) -> dict[str, dict[str, str]]:
        """Base folder -> {file: value} for one bot's cgroup there."""
        wanted: dict[str, dict[str, str]] = {}
        for controller, base in self.bases.items():
            files = wanted.setdefault(str(base), {})
            if controller == "pids":
                files["pids.max"] = str(limits.processes)
            elif controller == "cpu" and self.version == 1:
                files["cpu.cfs_period_us"] = str(CPU_PERIOD_US)
                files["cpu.cfs_quota_us"] = str(CPU_PERIOD_US)
            elif controller == "cpu":
                files["cpu.max"] = f"{CPU_PERIOD_US} {CPU_PERIOD_US}"
            elif controller == "memory" and self.version == 1:
                files["memory.limit_in_bytes"] = str(limits.memory_bytes)
                if (base / "memory.memsw.limit_in_bytes").exists():
                    files["memory.memsw.limit_in_bytes"] = str(limits.memory_bytes)
            elif controller == "memory":
                files["memory.max"] = str(limits.memory_bytes)
                files["memory.swap.max"] = "0"
        return wanted


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


def _probe(base: Path, files: dict[str, str]) -> None:
    """Make a cgroup, write its settings and remove it, to learn that this
    place works; named so that no sweep takes it for a bot's."""
    path = base / f"probe-{os.getpid()}-{next(_counter)}-{secrets.token_hex(3)}"
    path.mkdir()
    try:
        for name, value in files.items():
            (path / name).write_text(value)
    finally:
        path.rmdir()


_PROBE_VALUES = {"pids": {"pids.max": "1"}, "cpu": {"cpu.cfs_quota_us": "100000"},
                 "memory": {"memory.limit_in_bytes": str(1 << 30)}}
_PROBE_VALUES_V2 = {"pids": {"pids.max": "1"}, "cpu": {"cpu.max": "100000 100000"},
                    "memory": {"memory.max": str(1 << 30)}}


def _weigh_bots(base: Path, version: int) -> None:
    """Give the folder of every bot's cgroup the CPU weight of one ordinary
    process per core. The folder competes for the CPU as one entity beside
    each process outside it: at the default weight, all the bots of the
    machine together would get what one of those processes gets, and on a
    busy machine a bot woken for its move would wait for the CPU past its
    move time (each bot stays capped at one core by its own quota)."""
    (base / ("cpu.shares" if version == 1 else "cpu.weight")).write_text(str(_bots_weight(version)))


def _bots_weight(version: int) -> int:
    """The CPU weight of one ordinary process (or systemd unit) per core."""
    cores = os.cpu_count() or 1
    return 1024 * cores if version == 1 else min(10_000, 100 * cores)


def _take_charge(cgroup: Path, available: list[str]) -> None:
    """Give the controllers to the cgroups below ``cgroup``, first moving its
    processes into a leaf of their own where the kernel asks it: only the
    root may both hold processes and give controllers to its children (in
    a container, whose root holds the container's processes, as
    docker-in-docker does; in arena's own scope, arena alone)."""
    enable = " ".join(f"+{c}" for c in available)
    for _ in range(5):  # a process forked while the others move lands beside them: move it too
        try:
            (cgroup / "cgroup.subtree_control").write_text(enable)
            return
        except OSError as exc:
            if exc.errno != errno.EBUSY:
                raise
        leaf = cgroup / LEAF
        leaf.mkdir(exist_ok=True)
        for pid in _words(cgroup / "cgroup.procs"):
            try:
                (leaf / "cgroup.procs").write_text(pid)
            except ProcessLookupError:
                continue
    (cgroup / "cgroup.subtree_control").write_text(enable)


def _v2_owned(mount: Path) -> Path:
    """The v2 cgroup arena may manage the inside of: under systemd, a
    delegated scope it asks for (as root, if systemd gives none, the
    machine's root); elsewhere, as root, the root of what it sees (the
    machine's, or a container's with a cgroup namespace of its own), and
    as another user its own cgroup if someone delegated it."""
    if systemd.running():
        try:
            return mount / systemd.delegated_scope(_bots_weight(2)).lstrip("/")
        except systemd.NoDelegation as exc:
            if os.geteuid() != 0:
                raise CgroupsRefused(str(exc)) from None
            log.info("no delegated scope from systemd (%s): bots' cgroups below the root", exc)
            return mount
    try:
        own = mount / systemd.own_cgroup().lstrip("/")
    except systemd.NoDelegation as exc:
        raise CgroupsRefused(str(exc)) from None
    if os.geteuid() == 0 and own != mount and os.access(mount / "cgroup.subtree_control", os.W_OK):
        return mount  # root where no systemd runs: not another manager's cgroup, the root
    if not os.access(own / "cgroup.subtree_control", os.W_OK):
        raise CgroupsRefused(f"this user may not manage its cgroup ({own}), and no systemd can delegate one")
    return own


def _v2_place(mount: str) -> CgroupPlace:
    """The bots' cgroup folder in the unified hierarchy: below arena's own
    cgroup (a systemd scope, a container's root), or, where arena runs as
    root without either, below the machine's root."""
    root = Path(mount)
    if not any(c in _words(root / "cgroup.controllers") for c in CONTROLLERS):
        raise CgroupsRefused(f"the cgroup v2 hierarchy at {mount} has no controller (they are in v1's)")
    owned = _v2_owned(root)
    available = [c for c in CONTROLLERS if c in _words(owned / "cgroup.controllers")]
    if not available:
        raise CgroupsRefused(f"{owned} offers none of the controllers {', '.join(CONTROLLERS)}")
    _take_charge(owned, available)
    base = owned / CGROUP_FOLDER
    base.mkdir(exist_ok=True)
    _take_charge(base, available)  # it holds no process: the controllers pass on to each bot's cgroup
    _probe(base, {name: value for c in available for name, value in _PROBE_VALUES_V2[c].items()})
    if "cpu" in available:
        _weigh_bots(base, 2)
    if owned != root:  # bots of arenas killed outright, in their scopes beside this one
        for scope in owned.parent.glob(f"{systemd.SCOPE_PREFIX}*.scope"):
            if scope != owned:
                warden.remove_abandoned_cgroups(str(scope / CGROUP_FOLDER), 2)
    return CgroupPlace(2, {c: base for c in available})


def _v1_place() -> CgroupPlace | None:
    bases: dict[str, Path] = {}
    for mount, kind, options in _mounts():
        for controller in CONTROLLERS:
            if kind == "cgroup" and controller in options and controller not in bases:
                try:
                    base = Path(mount) / CGROUP_FOLDER
                    base.mkdir(exist_ok=True)
                    _probe(base, _PROBE_VALUES[controller])
                    if controller == "cpu":
                        _weigh_bots(base, 1)
                except OSError:
                    continue
                bases[controller] = base
    return CgroupPlace(1, bases) if bases else None


def cgroup_place() -> CgroupPlace | None:
    """Where bot cgroups go on this machine (v2 where it offers every
    controller, else the v1 hierarchies), or None if arena cannot make
    cgroups here (``cgroup_problem`` says why)."""
    return _cgroups()[0]


def cgroup_problem() -> str | None:
    """Why arena has no cgroup here, or None when it has."""
    return _cgroups()[1]


@functools.cache
def _cgroups() -> tuple[CgroupPlace | None, str | None]:
    """Found once per process (and inherited by its forks, which stay in
    the same cgroup); the cgroups of bots whose warden was killed outright
    are emptied and removed."""
    places: list[CgroupPlace] = []
    reasons: list[str] = []
    for mount, kind, _ in _mounts():
        if kind == "cgroup2":
            try:
                places.append(_v2_place(mount))
            except CgroupsRefused as exc:
                reasons.append(str(exc))
            except OSError as exc:
                reasons.append(f"{mount}: {exc.strerror or exc}")
    if not any(set(place.bases) == set(CONTROLLERS) for place in places):
        if v1 := _v1_place():
            places.append(v1)
        elif any(kind == "cgroup" for _, kind, _ in _mounts()):
            reasons.append("this user may not write the cgroup v1 hierarchies")
    if not places:
        return None, "; ".join(reasons) or "no cgroup hierarchy is mounted"
    chosen = max(places, key=lambda place: len(place.bases))
    for base in set(chosen.bases.values()):
        warden.remove_abandoned_cgroups(str(base), chosen.version)
    return chosen, None


def unenforced(place: CgroupPlace | None) -> list[str]:
    """What the cgroups here do not bound, in words, for the warning."""
    have = set(place.bases) if place else set()
    missing = []
    if "cpu" not in have:
        missing.append("the one-core CPU quota")
    if "memory" not in have:
        missing.append("memory (watched every few tens of ms instead of capped by the kernel)")
    if "pids" not in have:
        missing.append("processes (RLIMIT_NPROC per user instead)")
    return missing


# -- bubblewrap ----------------------------------------------------------------------------


@functools.cache
def bwrap_path() -> str:
    found = shutil.which("bwrap")
    if found is None:
        raise ArenaError("bubblewrap (bwrap) is not installed, and every bot runs in its box: install it "
                         "(apt-get install bubblewrap), or run without boxes with --isolation none (unsafe)")
    return found


@functools.cache
def box_problem() -> str | None:
    """Why bubblewrap cannot make a box here (user namespaces refused, say),
    or None. Asked once per process, of a box that runs ``true``."""
    try:
        command = [bwrap_path(), *_namespace_arguments(), "--ro-bind", "/", "/", "--proc", "/proc",
                   "--dev", "/dev", "true"]
    except ArenaError as exc:
        return str(exc)
    probe = subprocess.run(command, capture_output=True, text=True, timeout=30)
    if probe.returncode == 0:
        return None
    reason = probe.stderr.strip().splitlines()[-1] if probe.stderr.strip() else f"exit status {probe.returncode}"
    return (f"bubblewrap cannot make a box here ({reason}; are user namespaces allowed?): run without boxes "
            "with --isolation none (unsafe)")


def _namespace_arguments() -> list[str]:
    return ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL"]


def check(limits: Limits) -> None:
    """Refuse, with one line, what this machine cannot do; warn, with one
    line each, about what it does not enforce."""
    if limits.isolation not in ISOLATIONS:
        raise ArenaError(f"unknown isolation: {limits.isolation!r} (available: {', '.join(ISOLATIONS)})")
    if limits.isolation == "box" and (problem := box_problem()):
        raise ArenaError(problem)
    if limits.isolation == "box":
        seccomp.program()  # libseccomp is there and knows every call denied
    _warn_once(limits.isolation, tuple(unenforced(cgroup_place())), cgroup_problem())


@functools.cache
def _warn_once(isolation: str, missing: tuple[str, ...], why: str | None) -> None:
    if isolation == "none":
        print(NO_BOX_WARNING, file=sys.stderr, flush=True)
    if missing:
        print(f"warning: no usable cgroup here, so not enforced per bot: {', '.join(missing)}"
              f"{f' (why: {why})' if why else ''}", file=sys.stderr, flush=True)


def _prefix(executable: str) -> str:
    """The installation an executable belongs to: the folder above its
    ``bin`` (a venv, a pyenv version, /usr) or its ``shims`` (pyenv's, whose
    scripts run the version its files choose), or its own folder."""
    folder = os.path.dirname(executable)
    return os.path.dirname(folder) if os.path.basename(folder) in ("bin", "shims") else folder


def _covered(path: str, by: list[str]) -> bool:
    return any(path == top or path.startswith(top.rstrip("/") + "/") for top in by)


def read_only_paths(spec: BotSpec, executable: str) -> list[str]:
    """What the box shows read-only beside the system runtime, outermost
    first: the interpreter's prefix (as the command names it and resolved),
    arena's Python and its package folder, and the bot itself."""
    runtime = [path for path in RUNTIME if os.path.exists(path)]
    candidates = [_prefix(executable), _prefix(os.path.realpath(executable)), sys.prefix, sys.base_prefix,
                  os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix),
                  str(Path(arena.__file__).resolve().parent), os.path.realpath(spec.path), spec.path]
    chosen: list[str] = []
    for path in candidates:
        if path in ("", "/") or not os.path.exists(path) or _covered(path, runtime) or _covered(path, chosen):
            continue
        chosen = [kept for kept in chosen if not _covered(kept, [path])] + [path]
    return sorted(chosen, key=lambda path: (path.count("/"), path))


def box_command(spec: BotSpec, limits: Limits, seccomp_fd: int | None) -> list[str]:
    """The bwrap command line that runs the bot's command in its box, under
    the system-call filter that ``seccomp_fd`` holds (arena.bots.seccomp;
    bwrap reads it and loads it just before it runs the command)."""
    executable = spec.command[0]
    if os.sep not in executable:
        executable = shutil.which(executable) or executable
    size = str(limits.disk_bytes)
    arguments = [bwrap_path(), *_namespace_arguments(), "--clearenv"]
    for name, value in bot_environment(boxed=True).items():
        arguments += ["--setenv", name, value]
    for path in RUNTIME:
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            arguments += ["--ro-bind", path, path]
    for name in ETC:
        arguments += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    # /proc/sys read-only: as root, the box's root is the machine's root,
    # whom sysctl files obey (kernel.core_pattern runs a program as root).
    arguments += ["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", "--dev", "/dev"]
    for writable in ("/tmp", "/dev/shm", WORKDIR):
        arguments += ["--size", size, "--perms", "1777" if writable != WORKDIR else "0700", "--tmpfs", writable]
    for path in read_only_paths(spec, executable):
        arguments += ["--ro-bind", path, path]
    # The root and /dev are tmpfs that bwrap makes: read-only, or a bot
    # could fill memory through them without a cap.
    arguments += ["--remount-ro", "/dev", "--remount-ro", "/"]
    if seccomp_fd is not None:
        arguments += ["--seccomp", str(seccomp_fd)]
    return [*arguments, "--chdir", WORKDIR, "--", executable, *spec.command[1:]]


def bot_environment(boxed: bool) -> dict[str, str]:
    """A small environment: enough to find interpreters, nothing of ours.
    In a box, HOME and TMPDIR are the box's own folders; without one, the
    warden adds TMPDIR (the working folder, removed afterwards)."""
    keep = ("PATH", "LANG", "LC_ALL", "PYTHONPATH") + (() if boxed else ("HOME",))
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env["PYTHONUNBUFFERED"] = "1"
    if boxed:
        env.update(HOME=WORKDIR, TMPDIR="/tmp")
    return env


# -- one bot's box ---------------------------------------------------------------------------


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


def _clamped(which: int, value: int) -> int:
    """A limit no higher than the hard limit we run under (a process that is
    not root cannot raise it)."""
    hard = resource.getrlimit(which)[1]
    return value if hard == resource.RLIM_INFINITY else min(value, hard)


@dataclass
class Confinement:
    """How one bot process is confined; handed to its warden."""

    rlimits: dict[str, Any]
    workdir_root: str | None
    workdir_prefix: str
    cgroup_version: int = 0
    cgroup_settings: dict[str, dict[str, str]] = field(default_factory=dict)
    memory_watch: int = 0  # bytes: the cap the warden watches
    cgroups: list[str] = field(default_factory=list)  # made by the warden; known once it reports

    def warden_config(self, status_fd: int) -> dict[str, Any]:
        return {"parent": os.getpid(), "status_fd": status_fd, "rlimits": self.rlimits,
                "workdir_root": self.workdir_root, "workdir_prefix": self.workdir_prefix,
                "cgroup_settings": self.cgroup_settings, "cgroup_version": self.cgroup_version,
                "memory_watch": self.memory_watch}

    def sweep(self) -> None:
        """The referee's own sweep, after the warden: it finds nothing when
        the warden did its job, and everything when the warden was killed."""
        deadline = time.monotonic() + warden.SWEEP_SECONDS
        for path in self.cgroups:
            warden.kill_cgroup(path, self.cgroup_version, deadline)
            warden.remove_cgroup(path, time.monotonic() + 1.0)


def prepare(limits: Limits, workdir_root: str, workdir_prefix: str) -> Confinement:
    """The box for one new bot process; the warden makes its cgroups and,
    without a box, its working folder (in ``workdir_root``, named
    ``workdir_prefix`` and a random part)."""
    check(limits)
    place = cgroup_place()
    nproc = limits.processes
    if place is None or "pids" not in place.bases:
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
    box = Confinement(rlimits, None if limits.isolation == "box" else workdir_root, workdir_prefix)
    box.memory_watch = limits.memory_bytes
    if place is not None:
        box.cgroup_version, box.cgroup_settings = place.version, place.settings(limits)
    return box


# -- a bot's processes, read through /proc ----------------------------------------------------


class ProcessFiles:
    """The /proc files of a bot's processes, each opened once and kept open
    (a read from the start of an open file costs a fraction of an open):
    their children, their stat and their scheduler statistics. Shared by
    the bot's Freezer and its turn clock (arena.bots.turn_clock)."""

    def __init__(self) -> None:
        self._files: dict[tuple[int, str], int] = {}

    def read(self, pid: int, name: str) -> bytes:
        """The start of /proc/PID/NAME; raises OSError once the process is
        gone (and forgets its files)."""
        fd = self._files.get((pid, name))
        try:
            if fd is None:
                fd = self._files[pid, name] = os.open(f"/proc/{pid}/{name}", os.O_RDONLY | os.O_CLOEXEC)
            return os.pread(fd, 65536, 0)
        except OSError:
            self.forget(pid)
            raise

    def stat(self, pid: int) -> list[bytes]:
        """The first 18 fields of /proc/PID/stat after the command (the
        state is [0], the CPU times [11:15], the threads [17])."""
        stat = self.read(pid, "stat")
        return stat[stat.rindex(b")") + 2:].split(None, 18)

    def children(self, pid: int, one_thread: bool = False) -> list[int]:
        """The children of every thread of the process (a thread that forks
        is the parent, not the process's main thread); ``one_thread`` for a
        process known to have only its main thread (ours); none once the
        process is gone."""
        try:
            if not one_thread and self.stat(pid)[17] != b"1":  # its threads
                return warden.children_of(pid)
            return [int(child) for child in self.read(pid, f"task/{pid}/children").split()]
        except (OSError, ValueError, IndexError):
            self.forget(pid)
            return []

    def below(self, top: int) -> list[int]:
        """Every process below ``top``, parents before children."""
        found: list[int] = []
        pending = self.children(top, one_thread=True)
        while pending:
            pid = pending.pop()
            found.append(pid)
            pending.extend(self.children(pid))
        return found

    def forget(self, pid: int) -> None:
        for key in [key for key in self._files if key[0] == pid]:
            os.close(self._files.pop(key))

    def keep_only(self, pids: set[int]) -> None:
        """Close the files of processes not in ``pids`` (gone ones)."""
        for pid in {pid for pid, _ in self._files} - pids:
            self.forget(pid)

    def close(self) -> None:
        for fd in self._files.values():
            os.close(fd)
        self._files.clear()


# -- freezing ------------------------------------------------------------------------------


class Freezer:
    """Stops every process of a bot between its decisions, and lets them go
    again: SIGSTOP to each process below ``top`` (the init of the bot's PID
    namespace, which only reaps; without a box, the warden), found through
    /proc, parents before children.

    A parent is stopped before its children are listed, and a process with
    a stop pending cannot fork (the kernel restarts the fork after the
    stop), so a walk misses no child; walks repeat until one finds the same
    processes as the walk before it (the last freeze's, at first), which
    catches a child re-parented to ``top`` while a walk ran. Each process's
    /proc files stay open between walks (``ProcessFiles``). Chosen over the
    cgroup freezer because it is several times cheaper here (cgroup v1: some
    170 us to freeze and thaw; this: some tens of us per process), works
    without cgroups, and a SIGKILL ends a stopped process (a v1-frozen one
    only once thawed)."""

    def __init__(self, top: int, files: ProcessFiles) -> None:
        self.top = top
        self.files = files
        self.stopped: list[int] = []
        self._known: list[int] = []

    def freeze(self) -> None:
        previous = self._known
        while True:
            found = self._walk()
            if sorted(found) == sorted(previous):
                break
            previous = found
        self._known = found
        self.files.keep_only({self.top, *found})

    def _walk(self) -> list[int]:
        found: list[int] = []
        pending = self.files.children(self.top, one_thread=True)
        stopped = set(self.stopped)
        while pending:
            pid = pending.pop()
            if pid not in stopped:
                try:
                    os.kill(pid, signal.SIGSTOP)
                except OSError:
                    continue
                stopped.add(pid)
                self.stopped.append(pid)
            found.append(pid)
            pending.extend(self.files.children(pid))
        return found

    def thaw(self) -> None:
        for pid in self.stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
        self.stopped = []
