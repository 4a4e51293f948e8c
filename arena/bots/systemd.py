"""A cgroup subtree of arena's own, asked of systemd (delegation).

On a machine that systemd runs, the cgroup tree is systemd's: a program
that needs cgroups of its own asks the service manager for a unit with
``Delegate=yes`` and then manages only what lies below that unit (systemd's
"Control Group APIs and Delegation"; what Podman and other container
managers do). arena asks for a transient scope holding its own process:
of the system manager when it runs as root, of the user's manager
(``user@UID.service``, which delegates cpu, memory and pids to its units)
otherwise. It asks through ``busctl``, systemd's own D-Bus client, so that
no D-Bus binding is needed.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import time

SCOPE_PREFIX = "arena-"
MOVE_SECONDS = 5.0  # for systemd to move arena into the scope once asked


class NoDelegation(Exception):
    """systemd gave no scope: the message says why, in a few words."""


def running() -> bool:
    """Whether systemd manages this machine (the test sd_booted() makes)."""
    return os.path.isdir("/run/systemd/system")


def own_cgroup() -> str:
    """This process's cgroup, as a path in the unified (v2) hierarchy."""
    with open("/proc/self/cgroup") as handle:
        for line in handle:
            number, _, rest = line.rstrip("\n").partition(":")
            controllers, _, path = rest.partition(":")
            if number == "0" and controllers == "":
                return path
    raise NoDelegation("this process has no cgroup v2 path")


def _bus_environment() -> dict[str, str]:
    """The environment for busctl: an ordinary user's manager listens in the
    user's runtime folder, which a shell without a login session may not name."""
    environment = dict(os.environ)
    if os.geteuid() != 0 and "DBUS_SESSION_BUS_ADDRESS" not in environment:
        runtime = environment.get("XDG_RUNTIME_DIR") or f"/run/user/{os.geteuid()}"
        if not os.path.exists(os.path.join(runtime, "bus")):
            raise NoDelegation(f"no systemd user manager listens for this user ({runtime}/bus is missing; "
                               "`loginctl enable-linger` or a login session starts one)")
        environment["XDG_RUNTIME_DIR"] = runtime
    return environment


def delegated_scope(cpu_weight: int) -> str:
    """Move this process into a new transient scope with ``Delegate=yes``
    and the given CPU weight, and return the scope's cgroup path; raise
    NoDelegation saying why not."""
    busctl = shutil.which("busctl")
    if busctl is None:
        raise NoDelegation("systemd's busctl is not installed")
    environment = _bus_environment()
    name = f"{SCOPE_PREFIX}{os.getpid()}-{secrets.token_hex(3)}.scope"
    command = [busctl, "--system" if os.geteuid() == 0 else "--user", "call", "org.freedesktop.systemd1",
               "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "StartTransientUnit",
               "ssa(sv)a(sa(sv))", name, "fail", "5",
               "PIDs", "au", "1", str(os.getpid()),
               "Delegate", "b", "true",
               "CPUWeight", "t", str(cpu_weight),
               "CollectMode", "s", "inactive-or-failed",
               "Description", "s", f"arena (process {os.getpid()}) and its bots",
               "0"]
    try:
        asked = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=MOVE_SECONDS)
    except subprocess.TimeoutExpired:
        raise NoDelegation(f"systemd did not answer within {MOVE_SECONDS:g} s") from None
    if asked.returncode != 0:
        reason = asked.stderr.strip().splitlines()[-1] if asked.stderr.strip() else f"exit {asked.returncode}"
        raise NoDelegation(f"systemd refused a delegated scope ({reason})")
    deadline = time.monotonic() + MOVE_SECONDS
    while not (path := own_cgroup()).endswith("/" + name):
        if time.monotonic() > deadline:
            raise NoDelegation(f"systemd did not move arena into {name} within {MOVE_SECONDS:g} s")
        time.sleep(0.01)
    return path
