"""``arena check BOT``: what a bot author runs before submitting a bot.

It shakes hands, plays one game of every game the bot declares at every
player count the game seats (two to four, the other seats held by the
bundled random bot), and reads what happened: forfeits, the time each
decision took against the limit, how much the bot wrote to stderr, and
whether the same seed gives the same play. Every finding is one line; a
problem names the section of ``protocol/PROTOCOL.md`` to read (one of
``SECTIONS``, each a heading of that document). The bot's stderr of each
game, and the ``decide`` message of a move it got wrong, are kept in a
folder of the check's own, which the lines name. A bot is fit
for a tournament when nothing would make it forfeit: slowness close to the
limit, a chatty stderr and play that differs on the same seed are said, but
do not fail it (a bot that thinks by the clock is allowed to).
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import time
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from arena.bots.discovery import discover, named_bots
from arena.bots.greeting import greet
from arena.bots.process import FLUSH_SECTION, encode_line
from arena.bots.protocol import BotSeat
from arena.games import GAMES, get_game
from arena.games.events import replay
from arena.model import BotSpec, Forfeit, GameRecord, Job, Limits, Termination
from arena.play.referee import play_game
from arena.plurals import plural
from arena.resources import bundled_bots

PROTOCOL = "protocol/PROTOCOL.md"
HELLO = "hello (referee → bot), and your answer"
DECIDE = "decide (referee → bot), and your answer"
GAME_START = "game_start (referee → bot)"
FORFEITS = "What loses a game by forfeit"
LIMITS = "Limits"
# Every section a finding may name (tests/test_check.py holds each to a heading of PROTOCOL.md).
SECTIONS = (HELLO, GAME_START, DECIDE, FORFEITS, LIMITS, FLUSH_SECTION)
# A forfeit's detail that names its own section, as a timeout that looks unflushed does.
_NAMED_SECTION = re.compile(r'\s*\(PROTOCOL\.md, "([^"]+)"\)')
SHOWN_ACTIONS = 3  # offered actions an illegal-move finding shows before "and N more"
FILLER = "random_bot"
CHECK_SEED = 20240601
CLOSE_TO_LIMIT = 0.8  # a decision slower than this share of the limit is worth a note


class Level(Enum):
    """How much a finding weighs: ``NOTE`` is said and does not fail the
    bot; a ``PROBLEM`` makes it unfit for a tournament."""

    OK = "ok"
    NOTE = "note"
    PROBLEM = "problem"


@dataclass(frozen=True)
class Finding:
    """One line of the report, with the section of the protocol to read."""

    level: Level
    text: str
    section: str | None = None

    def __post_init__(self) -> None:
        if self.section is not None and self.section not in SECTIONS:
            raise ValueError(f"section {self.section!r} is not one of check.SECTIONS")

    def line(self) -> str:
        where = f' (read {PROTOCOL}, "{self.section}")' if self.section else ""
        return f"{self.level.value:8} {self.text}{where}"


@dataclass
class Report:
    bot: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def problems(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.level is Level.PROBLEM]

    @property
    def fit(self) -> bool:
        return not self.problems

    def add(self, level: Level, text: str, section: str | None = None) -> None:
        self.findings.append(Finding(level, text, section))


def find_bots(bot_dirs: list[Path], name: str) -> tuple[BotSpec, BotSpec]:
    """The bot to check and the random bot that fills the other seats (from
    the folders given, else the bundled one)."""
    found = {spec.name: spec for spec in discover(bot_dirs)}
    [checked] = named_bots(found.values(), [name])
    filler = found.get(FILLER) or next(s for s in discover([bundled_bots()]) if s.name == FILLER)
    return checked, filler


def check_bot(spec: BotSpec, filler: BotSpec, limits: Limits, folder: Path) -> Report:
    """Check the bot; its stderr of each game, and the ``decide`` message of
    a move it got wrong, go to ``folder`` (emptied first: one check's files)."""
    report = Report(spec.name)
    games = _handshake(spec, limits, report)
    if not games:
        return report
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    times: list[float] = []
    stderr_bytes = 0
    played = 0
    first: GameRecord | None = None
    for game in games:
        for count in range(max(2, get_game(game).min_players), get_game(game).max_players + 1):
            record, written = _play(spec, filler, game, count, limits, folder)
            times += record.decision_seconds(0)
            played += 1
            stderr_bytes += written
            _read_game(record, count, limits, report, folder)
            if first is None and count == 2:
                first = record
    if first is not None:
        again, written = _play(spec, filler, first.job.game, 2, limits, folder)
        stderr_bytes += written
        _same_play(first, again, report)
    _timing(times, limits, report)
    _stderr(stderr_bytes, played, limits, report, folder)
    return report


def _handshake(spec: BotSpec, limits: Limits, report: Report) -> list[str]:
    started = time.monotonic()
    greeting = greet(spec, limits)
    if greeting.hello is None:
        if greeting.started:
            report.add(Level.PROBLEM, f"handshake failed: {greeting.error}", HELLO)
        else:
            report.add(Level.PROBLEM, f"cannot start: {greeting.error}", FORFEITS)
        return []
    hello = greeting.hello
    took = time.monotonic() - started
    declared = [str(game) for game in hello["games"]]
    unknown = [game for game in declared if game not in GAMES]
    games = sorted(set(declared) & set(GAMES))
    if unknown:
        report.add(Level.NOTE, f"declares games arena does not have, ignored: {', '.join(unknown)}", HELLO)
    if not games:
        report.add(Level.PROBLEM, f"declares none of the games ({', '.join(sorted(GAMES))})", HELLO)
        return []
    level, section = (Level.OK, None) if took <= CLOSE_TO_LIMIT * limits.startup_timeout else (Level.NOTE, LIMITS)
    report.add(level, f"handshake in {took:.2f} s (limit {limits.startup_timeout:g} s); plays {', '.join(games)}",
               section)
    return games


def _play(spec: BotSpec, filler: BotSpec, game: str, count: int, limits: Limits,
          folder: Path) -> tuple[GameRecord, int]:
    """One game, the bot in seat 0, random bots in the others (each its own
    process); returns the record and the bytes the bot wrote to stderr."""
    fillers = [BotSpec(f"{FILLER}-{n}", filler.command, filler.path, filler.content_hash) for n in range(1, count)]
    ids = (spec.bot_id, *(f.bot_id for f in fillers))
    job = Job(f"check/{game}/{count}p", game, ids, CHECK_SEED)
    log = folder / f"{game}-{count}p-{len(list(folder.iterdir()))}.stderr.log"
    bot = BotSeat(spec, limits, log)
    others = [BotSeat(f, limits) for f in fillers]
    try:
        record = play_game(job, [bot, *others], limits.move_timeout)
    finally:
        for seat in (bot, *others):
            seat.close()
    return record, bot.stderr_received


def _read_game(record: GameRecord, count: int, limits: Limits, report: Report, folder: Path) -> None:
    where = f"{record.job.game} with {count} players"
    mine = [forfeit for forfeit in record.forfeits if forfeit.seat == 0]
    if mine:
        forfeit = mine[0]
        detail, section = _section_for(forfeit)
        if forfeit.termination is Termination.TIMEOUT:
            detail += f" (the move time limit is {limits.move_timeout:g} s, --move-timeout)"
        if forfeit.termination is Termination.ILLEGAL:
            detail += "; " + _offered(record, limits, folder / f"{record.job.game}-{count}p-decide.json")
        report.add(Level.PROBLEM, f"{where}: forfeited by {forfeit.termination.value}: {detail}", section)
        return
    decisions = sum(1 for event in record.events if event["kind"] == "decision" and event["seat"] == 0)
    report.add(Level.OK, f"{where}: finished ({record.termination.value}), placed {record.placements[0]} "
                     f"of {count}, {decisions} decision{'s' * (decisions != 1)}")


def _section_for(forfeit: Forfeit) -> tuple[str, str]:
    """The forfeit's detail and the one section of PROTOCOL.md that fits it:
    the one the detail names (taken out of it), else by how it was lost."""
    named = _NAMED_SECTION.search(forfeit.detail)
    if named:
        return forfeit.detail[:named.start()] + forfeit.detail[named.end():], named.group(1)
    termination, detail = forfeit.termination, forfeit.detail
    if termination is Termination.TIMEOUT or "memory limit" in detail or "exceeds the cap" in detail:
        return detail, LIMITS  # the table of limits: move time, memory, line cap
    if termination in (Termination.BAD_OUTPUT, Termination.ILLEGAL):
        return detail, DECIDE  # what an answer looks like
    return detail, FORFEITS


def _offered(record: GameRecord, limits: Limits, path: Path) -> str:
    """What the bot (seat 0) was offered where it answered an action that
    was not: the first few, and the whole ``decide`` message, as the
    referee sent it, written to ``path``."""
    job = record.job
    retired = next(n for n, event in enumerate(record.events) if event["kind"] == "retire" and event["seat"] == 0)
    *_, state = replay(get_game(job.game), len(job.seats), job.options, record.events[:retired])
    actions = state.legal_actions()
    path.write_bytes(encode_line({"type": "decide", "state": state.to_json(), "actions": actions,
                                  "timeout_ms": int(limits.move_timeout * 1000)}))
    shown = ", ".join(json.dumps(action, separators=(", ", ": ")) for action in actions[:SHOWN_ACTIONS])
    more = len(actions) - SHOWN_ACTIONS
    return (f"offered {shown}" + (f" and {more} more" if more > 0 else "")
            + f"; the decide message is in {path}")


def _same_play(first: GameRecord, again: GameRecord, report: Report) -> None:
    mine = [[e["chosen"] for e in record.events if e["kind"] == "decision" and e["seat"] == 0]
            for record in (first, again)]
    if mine[0] == mine[1]:
        report.add(Level.OK, f"the same seed gives the same play ({first.job.game}, played twice)")
        return
    at = next((n for n, (a, b) in enumerate(zip(*mine)) if a != b), min(map(len, mine)))
    report.add(Level.NOTE, f"the same seed gives different play ({first.job.game}, from decision {at + 1}): fine "
                       "for a tournament, but its games cannot be reproduced; seed your choices from "
                       "game_start's seed", GAME_START)


def _timing(times: list[float], limits: Limits, report: Report) -> None:
    if not times:
        return
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    limit = limits.move_timeout
    text = (f"time per decision over {plural(len(times), 'decision')}: median {statistics.median(ordered):.3f} s, "
            f"p99 {p99:.3f} s, max {ordered[-1]:.3f} s (limit {limit:g} s)")
    if ordered[-1] > limit:
        report.add(Level.PROBLEM, text + ": over the limit", LIMITS)
    elif p99 > CLOSE_TO_LIMIT * limit:
        report.add(Level.NOTE, text + f": over {CLOSE_TO_LIMIT:.0%} of the limit, so a busier machine may "
                                  "make it forfeit", LIMITS)
    else:
        report.add(Level.OK, text)


def _stderr(written: int, games: int, limits: Limits, report: Report, folder: Path) -> None:
    text = (f"stderr: {plural(written, 'byte')} over {plural(games + 1, 'game')}"
            + (f", kept in {folder}" if written else ""))
    if written > limits.stderr_bytes:
        report.add(Level.NOTE, text + f", over the {limits.stderr_bytes} bytes kept per match: the rest is dropped",
                   LIMITS)
    else:
        report.add(Level.OK, text)
