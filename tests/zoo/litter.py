"""Attack: leave files behind. At its second decision it writes a file in
its working folder, /tmp, /dev/shm and its home, then forfeits; the tests
look for them after the tournament."""

import os

from _zoo import FORFEIT, report, run


def litter(message):
    written = []
    for folder in (os.getcwd(), "/tmp", "/dev/shm", os.path.expanduser("~"), os.environ.get("TMPDIR", "/tmp")):
        path = os.path.join(folder, f"zoo-litter-{os.getpid()}-{os.urandom(3).hex()}")
        try:
            with open(path, "w") as handle:
                handle.write("left behind\n")
            written.append(path)
        except OSError:
            pass
    # Writing inside its own box is allowed: what counts is what is left after.
    report("litter", [])
    os.write(2, ("litter wrote " + " ".join(written) + "\n").encode())
    return FORFEIT


run("litter", litter)
