"""Shared by the zoo's bots: an honest bot's loop with one misdeed.

Not a bot itself (the leading underscore hides it from discovery). A
one-file bot sees nothing beside its own file in its box, so the tests run
each bot as ``self_contained`` makes it: this module pasted in place of its
``from _zoo import ...``. Each bot in this folder is a real program that plays honestly (the first offered action)
until its misdeed is due, then misbehaves in one particular way. The first line
each process writes to stderr names it and its pid, so a test can count the
processes a match needed.
"""

import json
import os
import sys
from pathlib import Path

GAMES = ["ciclovia", "detour", "roundabout", "slyyde"]
FORFEIT = "forfeit"
# What an attacker leaves alone when it searches the machine: the system and
# the interpreter (where nothing of a tournament lives) and its own file.
SKIP = {"/proc", "/sys", "/dev", "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin", "/etc", "/run",
        "/var/lib", "/var/cache", "/snap", sys.prefix, sys.base_prefix, os.path.realpath(sys.prefix),
        os.path.realpath(sys.base_prefix), os.path.expanduser("~/.pyenv"), os.path.expanduser("~/.cache")}


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def run(name, misdeed, nth=2, think=None):
    """Play honestly (calling ``think()`` before each answer, if given); at
    the ``nth`` decide message of this process's life, call
    ``misdeed(message)``. If it returns, the bot answers honestly; if it
    returns ``FORFEIT``, with an action that was not offered (an attack
    done, the game need not go on)."""
    sys.stderr.write(f"zoo {name} pid {os.getpid()} run {os.urandom(4).hex()} started\n")
    sys.stderr.flush()
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            say({"type": "hello", "name": name, "games": GAMES})
        elif kind == "decide":
            decisions += 1
            if decisions == nth and misdeed(message) == FORFEIT:
                say({"type": "action", "action": {"attack": "over"}})
                continue
            if think:
                think()
            say({"type": "action", "action": message["actions"][0]})
        elif kind == "bye":
            return


def report(attack, succeeded):
    """One line on stderr that the tests read: what the attack achieved."""
    outcome = "SUCCEEDED: " + "; ".join(map(str, succeeded))[:2000] if succeeded else "blocked"
    sys.stderr.write(f"attack {attack}: {outcome}\n")
    sys.stderr.flush()


def own_processes():
    """This process, its ancestors and its descendants: not targets."""
    mine = {os.getpid()}
    pid = os.getpid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                pid = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        mine.add(pid)
    return mine | {1}


def processes(words):
    """(pid, command line) of every process in sight, not ours, whose
    command line holds one of ``words``."""
    mine, found = own_processes(), []
    me = os.path.abspath(sys.argv[0])
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in mine:
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    command = handle.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if any(word in command for word in words) and me not in command:
                found.append((int(entry), command))
    return found


def files(wanted, limit=200000):
    """Paths of the files in sight whose path ``wanted(path)`` likes, from /
    down, past SKIP."""
    found, seen = [], 0
    me = os.path.abspath(sys.argv[0])
    for folder, folders, names in os.walk("/"):
        folders[:] = [f for f in folders if os.path.join(folder, f) not in SKIP]
        for name in names:
            path = os.path.join(folder, name)
            seen += 1
            if path != me and wanted(path):
                found.append(path)
        if seen > limit:
            break
    return found


def other_bots(path):
    """Whether a path looks like another bot's file (in a bots folder)."""
    return ("/bots/" in path and path.endswith((".py", ".js")) and "/site-packages/" not in path
            and "/arena/bots/" not in path)


def self_contained(bot):
    """The source of the zoo bot at ``bot`` with this module in place of its
    import of it."""
    text = Path(bot).read_text()
    start = text.find("from _zoo import ")
    if start < 0:
        return text
    end = text.index("\n", start) + 1
    return text[:start] + Path(__file__).read_text() + text[end:]
