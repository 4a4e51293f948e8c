"""Attack: arena's own code. At its second decision it writes a script into
the site's templates and rewrites arena/bots/warden.py (with the bytes it
already holds: an attack that works must still leave arena working), then
forfeits."""

import os

from _zoo import FORFEIT, report, run

import arena


def tamper(message):
    package = os.path.dirname(arena.__file__)
    done = []
    for folder, _, _ in os.walk(package):
        if os.path.basename(folder) == "templates":
            target = os.path.join(folder, "zoo-tamper.html")
            try:
                with open(target, "w") as handle:
                    handle.write("<script>alert('owned')</script>\n")
                done.append(target)
            except OSError:
                pass
    warden = os.path.join(package, "bots", "warden.py")
    try:
        with open(warden, "r+b") as handle:
            first = handle.read(1)
            handle.seek(0)
            handle.write(first)
        done.append(warden)
    except OSError:
        pass
    report("tamper_arena", done)
    return FORFEIT


run("tamper_arena", tamper)
