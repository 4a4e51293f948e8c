"""Attack: leave its cgroup. At its second decision it raises its own
pids.max and moves itself to the root of every cgroup hierarchy in sight,
then forfeits."""

import os

from _zoo import FORFEIT, report, run


def escape(message):
    done = []
    try:
        with open("/proc/self/cgroup") as handle:
            mine = [line.strip().split(":", 2) for line in handle if line.strip()]
    except OSError:
        mine = []
    for _, controllers, path in mine:
        for mount in (f"/sys/fs/cgroup/{controllers.replace('name=', '')}", "/sys/fs/cgroup"):
            for name, value in ((f"{mount}{path}/pids.max", "max"), (f"{mount}/cgroup.procs", str(os.getpid()))):
                try:
                    with open(name, "w") as handle:
                        handle.write(value)
                    done.append(name)
                except OSError:
                    pass
    report("escape_cgroup", done)
    return FORFEIT


run("escape_cgroup", escape)
