"""Attack: outlive the tournament. At its second decision it leaves a
grandchild in a session of its own that waits for the bot to be told
``bye``, kills every warden in sight and lives on; the bot plays on."""

import os
import signal
import time

from _zoo import processes, report, run


def grandchild(bot):
    while True:
        try:
            os.kill(bot, 0)
        except OSError:
            break
        time.sleep(0.05)
    killed = []
    for pid, command in processes(["warden.py"]):
        try:
            os.kill(pid, signal.SIGKILL)
            killed.append(command[:80])
        except OSError:
            pass
    report("kill_warden", killed)
    time.sleep(3600)


def leave_grandchild(message):
    bot = os.getpid()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            grandchild(bot)
        os._exit(0)
    os.wait()


run("kill_warden", leave_grandchild)
