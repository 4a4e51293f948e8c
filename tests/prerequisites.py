"""Programs some tests need beyond Python packages: Debian's chromium for the
browser tests, node for the JavaScript bots, g++ for the C++ bot helper.

A missing one is installed with apt-get when that can work here (root, with
apt-get), once per test session, saying so on the terminal (one install at a time on
the machine: pytest-xdist's workers each ask, and apt-get takes one at a
time). Where it cannot
be had, its tests are skipped with the reason, shown in pytest's summary and
header; under CI (``CI`` set) they fail instead, so CI never passes without
running them. ``ARENA_TEST_NO_INSTALL=1`` forbids installing.
"""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Program:
    name: str
    debian_package: str
    needed_for: str

    def path(self) -> str | None:
        return shutil.which(self.name)


CHROMIUM = Program("chromium", "chromium", "the browser tests (Playwright drives Debian's chromium)")
NODE = Program("node", "nodejs", "the JavaScript bots")
GPP = Program("g++", "g++", "the C++ bot helper's tests")


def _can_install() -> str | None:
    """Why apt-get cannot install here, or None when it can."""
    if os.environ.get("ARENA_TEST_NO_INSTALL"):
        return "ARENA_TEST_NO_INSTALL is set"
    if os.geteuid() != 0:
        return "installing needs root"
    if shutil.which("apt-get") is None:
        return "there is no apt-get"
    return None


APT_LOCK = "/tmp/arena-tests-apt-get.lock"


@functools.cache
def _install(program: Program) -> str | None:
    """Install ``program`` with apt-get unless another test process has
    meanwhile; why it failed, or None."""
    with open(APT_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        return None if program.path() else _apt_get(program)


def _apt_get(program: Program) -> str | None:
    # Straight to the terminal: pytest captures what tests print.
    terminal = sys.__stderr__ or sys.stderr
    terminal.write(f"\n[arena tests] {program.name} is missing, needed for {program.needed_for}: "
                   f"installing Debian's {program.debian_package} with apt-get (a minute or two)...\n")
    terminal.flush()
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update", "-qq"],
                    ["apt-get", "install", "-y", "-qq", "--no-install-recommends", program.debian_package]):
        done = subprocess.run(command, env=environment, capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            return f"{' '.join(command[:2])} failed: {last}"
    return None if program.path() else f"apt-get installed {program.debian_package} but no {program.name} is on PATH"


def require(program: Program) -> str:
    """The program's path, installing it if it is missing and can be;
    otherwise skip the calling test (fail it under CI), saying why."""
    found = program.path()
    if found:
        return found
    problem = _can_install() or _install(program)
    found = program.path()
    if found:
        return found
    reason = f"{program.name} is missing ({problem}): skipped {program.needed_for}"
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run them")
    pytest.skip(reason)


def header_lines() -> list[str]:
    """One line per program for pytest's header: found, or what will happen."""
    lines = []
    for program in (CHROMIUM, NODE, GPP):
        found = program.path()
        if found:
            lines.append(f"{program.name}: {found}")
        else:
            why_not = _can_install()
            action = "will be installed with apt-get when first needed" if why_not is None else \
                f"cannot be installed ({why_not}): {program.needed_for} will be SKIPPED"
            lines.append(f"{program.name}: missing, {action}")
    return lines
