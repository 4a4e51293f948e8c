"""Starts child processes that outlive it and hold the pipes open, then exits.

At its second decision it starts one child in a session of its own
(``setsid``, so killing the bot's process group misses it) and one grandchild
by double fork (orphaned at once). Both inherit stdin, stdout and stderr and
sleep for an hour; then the bot exits with code 0.
"""

import os
import subprocess
import sys
import time

from _zoo import run


def child():
    try:
        os.setsid()
    except OSError:
        pass  # already leads a session of its own
    time.sleep(3600)


def leave_orphans(message):
    subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child"], start_new_session=True)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, os.path.abspath(__file__), "--child"])
        os._exit(0)
    time.sleep(0.2)  # both are running and holding the pipes
    sys.exit(0)


if sys.argv[1:] == ["--child"]:
    child()
else:
    run("orphans", leave_orphans)
