"""Attack: rewrite the results. At its second decision it searches the
machine for SQLite databases and, in each that has a games table, marks
every game a normal one won by seat 0, then forfeits."""

import sqlite3

from _zoo import FORFEIT, files, report, run


def rewrite(message):
    rewritten = []
    for path in files(lambda path: path.endswith(".db")):
        try:
            with sqlite3.connect(path, timeout=1) as db:
                changed = db.execute("UPDATE games SET termination = 'normal', winners = '[0]'").rowcount
            rewritten.append(f"{path}: {changed} games")
        except sqlite3.Error:
            pass
    report("rewrite_db", rewritten)
    return FORFEIT


run("rewrite_db", rewrite)
