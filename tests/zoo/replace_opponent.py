"""Attack: swap the opponent's program. At its second decision it opens
every other bot's file in sight, and its own, for writing (writing back the
bytes they hold, so a success changes nothing but is seen), then forfeits."""

import os
import sys

from _zoo import FORFEIT, files, other_bots, report, run


def replace(message):
    replaced = []
    for path in files(other_bots) + [os.path.abspath(sys.argv[0])]:
        try:
            with open(path, "r+b") as handle:
                first = handle.read(1)
                handle.seek(0)
                handle.write(first)
            replaced.append(path)
        except OSError:
            pass
    report("replace_opponent", replaced)
    return FORFEIT


run("replace_opponent", replace)
