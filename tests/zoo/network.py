"""Attack: the network. At its second decision it tries to connect to every
service listening on this machine (as /proc/net/tcp lists them) and to
hosts outside, then forfeits. A refused connection reached nothing."""

import socket

from _zoo import FORFEIT, report, run

OUTSIDE = [("1.1.1.1", 53), ("8.8.8.8", 53), ("151.101.0.223", 443)]


def listening():
    """(address, port) of every listening TCP socket in sight."""
    found = []
    for table, family in (("/proc/net/tcp", 4), ("/proc/net/tcp6", 6)):
        try:
            with open(table) as handle:
                rows = handle.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            if state == "0A":
                port = int(local.rsplit(":", 1)[1], 16)
                found.append(("127.0.0.1" if family == 4 else "::1", port))
    return found


def connect(message):
    reached = []
    for host, port in listening() + OUTSIDE:
        try:
            socket.create_connection((host, port), timeout=2).close()
            reached.append(f"{host}:{port}")
        except OSError:
            pass
    report("network", reached)
    return FORFEIT


run("network", connect)
