"""The kernel holds each bot to its limits: the files of a running bot's
cgroups, read back, say one core, ``--memory`` and the process cap, and
every process of the bot is in them. Under systemd (cgroup v2) the bots'
cgroups lie in a delegated scope of arena's own, with the referee in a
leaf beside them, never in systemd's own units or at the root.

``ARENA_TEST_CGROUPS=2`` (.ci/vm/cgroup-tests sets it) makes a machine
without every cgroup v2 controller a failure instead of a skip, so the
test cannot pass on the fallback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support import RANDOM_BOT

from arena.bots import isolation, systemd, warden
from arena.bots.discovery import discover
from arena.bots.process import BotProcess
from arena.bots.protocol import handshake
from arena.model import Limits

LIMITS = Limits(memory_bytes=300 << 20, processes=40)
V1_FILES = {"cpu.cfs_period_us": str(isolation.CPU_PERIOD_US), "cpu.cfs_quota_us": str(isolation.CPU_PERIOD_US),
            "memory.limit_in_bytes": str(LIMITS.memory_bytes), "pids.max": str(LIMITS.processes)}
V2_FILES = {"cpu.max": f"{isolation.CPU_PERIOD_US} {isolation.CPU_PERIOD_US}",
            "memory.max": str(LIMITS.memory_bytes), "memory.swap.max": "0", "pids.max": str(LIMITS.processes)}


@pytest.fixture
def place() -> isolation.CgroupPlace:
    found = isolation.cgroup_place()
    wanted = os.environ.get("ARENA_TEST_CGROUPS")
    if wanted:
        assert found is not None, f"no cgroups for this user: {isolation.cgroup_problem()}"
        assert (found.version, set(found.bases)) == (int(wanted), set(isolation.CONTROLLERS)), found
    elif found is None or set(found.bases) != set(isolation.CONTROLLERS):
        pytest.skip(f"not every cgroup controller here ({isolation.cgroup_problem()})")
    return found


def test_a_running_bot_is_in_cgroups_holding_it_to_its_limits(place):
    [spec] = [spec for spec in discover([RANDOM_BOT.parent]) if spec.name == "random_bot"]
    process = BotProcess(spec, LIMITS)
    try:
        handshake(process, 10)
        folders = [Path(path) for path in process.box.cgroups]
        assert sorted(folder.parent for folder in folders) == sorted(set(place.bases.values()))
        read = {name: (folder / name).read_text().strip() for folder in folders
                for name in (V1_FILES if place.version == 1 else V2_FILES) if (folder / name).exists()}
        assert read == (V1_FILES if place.version == 1 else V2_FILES)
        for folder in folders:
            members = (folder / "cgroup.procs").read_text().split()
            assert members, f"{folder} holds no process of the bot"
            below_warden = {str(pid) for pid in warden.descendants(process.proc.pid)}
            assert set(members) <= below_warden, "only the bot's own processes"
            assert below_warden <= set(members) | _exited(below_warden), "every process of the bot"
    finally:
        process.close()


def _exited(pids: set[str]) -> set[str]:
    return {pid for pid in pids if not Path(f"/proc/{pid}").exists()}


def test_under_systemd_the_bots_are_in_a_delegated_scope_of_arenas_own(place):
    if place.version != 2 or not systemd.running():
        pytest.skip("cgroup v2 under systemd only")
    own = systemd.own_cgroup()
    scope, leaf = own.rsplit("/", 2)[-2:]
    assert scope.startswith(systemd.SCOPE_PREFIX) and scope.endswith(".scope") and leaf == isolation.LEAF, own
    [base] = set(place.bases.values())
    assert base.parent.name == scope and base.name == isolation.CGROUP_FOLDER, base
    assert (base.parent / "cgroup.procs").read_text() == "", "the scope itself holds no process"
