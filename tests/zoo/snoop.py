"""Attack: read what is not the bot's. At its second decision it searches the
machine for results databases, bots' stderr logs and other bots' sources,
and reads what it finds, then forfeits."""

from _zoo import FORFEIT, files, other_bots, report, run


def snoop(message):
    read = []
    for path in files(lambda path: path.endswith((".db", ".stderr.log")) or other_bots(path)):
        try:
            with open(path, "rb") as handle:
                handle.read(64)
            read.append(path)
        except OSError:
            pass
    report("snoop", read)
    return FORFEIT


run("snoop", snoop)
