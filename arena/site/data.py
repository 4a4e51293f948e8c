"""What the pages show: the standings of the ratings cache and the site's
own tally, which goes on from the one saved with the site.

Nothing is added up here that the statistics modules add up: the standings,
rating history samples, joint fit, head-to-head, pairs and first places by
seat are :func:`arena.ratings_cache.rate`'s (the same sums ``arena
standings`` prints, gone on from the tally saved with the ratings cache),
the luck tables :class:`arena.stats.luck.LuckTables`', and whether a seat
won, drew or lost comes from :mod:`arena.results`. What stays here is the
site's own bookkeeping, :class:`SiteTally`: the games' numbers (in the
order they were stored, which is the order they finished), the games list's rows, forfeits, solo games, each bot
name's latest games, and what every replay chunk is made from. It is small
(per bot and table, never per game but the open chunks' games) and saved
exactly with the site, so a build adds only the games stored since.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import results
from arena.model import StoredGame, bot_name
from arena.site import paths, schema
from arena.site.paths import BotInfo, replay_address, version_of
from arena.stats.elo import Ladder
from arena.stats.joint import Fitted, JointTables
from arena.stats.luck import LuckTables
from arena.stats.pairs import Record
from arena.stats.pentanomial import SeatSwappedPairs
from arena.stats.sprt import Sprt, version_label, version_test_words
from arena.stats.standings import SeatShares, Tally
from arena.stats.tables import OVERALL
from arena.store import Store

TALLY_FORMAT = 2  # changes whenever what SiteTally saves does
FORFEITS_KEPT = 100  # each bot's latest forfeits, as a version page shows them
LATEST_GAMES = 20  # each bot name's latest games, as its page shows them

# A seat's result in the games list (schema.json, gameRow results).
LETTERS = {results.Verdict.WIN: "w", results.Verdict.DRAW: "d", results.Verdict.LOSS: "l"}


TAIL_LINES = 12  # of a forfeiting bot's stderr, shown where the forfeit is
_TAIL_BYTES = 4096


class StderrLogs:
    """Stored stderr log paths, the site's names for the files found, and
    which bot, game and seat wrote each (a log per game and seat; logs of
    older databases were per match, so one file may serve several games).

    Paths are stored as the tournament was given them (maybe relative to its
    working folder), so a relative path is looked for from here and from the
    database's folder. Pages never show the paths, which are the server's."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Path] = {}  # site name -> file
        self.uses: dict[str, list[dict[str, Any]]] = {}  # site name -> the games and seats it holds
        self._ids: dict[str, str | None] = {}
        self._tails: dict[str, str] = {}

    def log_id(self, stored: str | None) -> str | None:
        """The site's name for a stored log path, if the file can be found."""
        if not stored:
            return None
        if stored not in self._ids:
            self._ids[stored] = self._find(stored)
        return self._ids[stored]

    def seat_logs(self, game: StoredGame) -> list[dict[str, Any] | None]:
        """Each seat's log of a game (its site name, and for a seat that
        forfeited the last lines), None where there is no file."""
        forfeited = {forfeit.seat for forfeit in game.forfeits}
        logs: list[dict[str, Any] | None] = []
        for seat in range(game.players):
            log_id = self.log_id(game.logs[seat] if seat < len(game.logs) else None)
            logs.append(None if log_id is None else
                        {"id": log_id, "tail": self.tail(log_id) if seat in forfeited else None})
        return logs

    def add_use(self, log_id: str, game: StoredGame, seat: int, number: int) -> None:
        """Seat ``seat`` of game ``number`` wrote this log."""
        self.uses.setdefault(log_id, []).append({"key": game.key, "game": game.game, "seat": seat,
                                                 "bot_id": game.seats[seat], "page": replay_address(number),
                                                 "finished": format_time(game.finished_at)})

    def tail(self, log_id: str) -> str:
        """The last lines of a log: what a bot said just before it failed."""
        if log_id not in self._tails:
            self._tails[log_id] = self._read_tail(log_id)
        return self._tails[log_id]

    def _read_tail(self, log_id: str) -> str:
        try:
            with open(self.files[log_id], "rb") as handle:
                handle.seek(0, 2)
                size = handle.tell()
                handle.seek(max(0, size - _TAIL_BYTES))
                data = handle.read()
        except OSError:
            return ""
        lines = data.decode("utf-8", errors="replace").splitlines()
        if size > _TAIL_BYTES:
            lines = lines[1:]  # the first may be cut
        return "\n".join(lines[-TAIL_LINES:])

    def _find(self, stored: str) -> str | None:
        path = Path(stored)
        for candidate in [path] if path.is_absolute() else [Path.cwd() / path, self.root / path]:
            if candidate.is_file():
                resolved = candidate.resolve()
                log_id = hashlib.sha1(str(resolved).encode()).hexdigest()[:16]
                self.files[log_id] = resolved
                return log_id
        return None


@dataclass
class SiteTally:
    """The site's own sums of the games stored up to ``games_rowid`` (whose
    key is ``last_key``), each numbered (from 1) in the order they were
    stored, which is the order they finished (a game's ``finished_at`` is
    when it was stored), so a game stored since is numbered on from them.
    ``changes`` is the store's count of changes to stored games when saved
    (:meth:`arena.store.Store.game_changes`) and ``unmeasured`` the
    counted games whose luck was not stored then: counted again once it is.
    The open chunks (the last games-list chunk and the last replay chunk,
    not yet full) keep their games' rows, keys and chunk-entry digests."""

    games_rowid: int = 0
    last_key: str | None = None
    changes: int = 0
    total: int = 0
    game_names: list[str] = field(default_factory=list)
    bot_order: list[str] = field(default_factory=list)
    bot_names: list[str] = field(default_factory=list)  # each one's name when counted
    luck: LuckTables = field(default_factory=LuckTables)
    solo: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # (game, bot) -> [games, total, best]
    solo_games: dict[str, int] = field(default_factory=dict)  # per bot, scored or not
    forfeits: dict[str, list[Any]] = field(default_factory=dict)  # bot -> [count, latest (newest first)]
    latest: dict[str, list[Any]] = field(default_factory=dict)  # bot name -> [count, [[number, seat, row]...]]
    open_rows: list[list[Any]] = field(default_factory=list)  # the last games-list chunk's
    open_keys: list[str] = field(default_factory=list)  # the last replay chunk's games
    open_digests: list[int] = field(default_factory=list)  # and what each one's chunk entry is made from
    unmeasured: list[str] = field(default_factory=list)

    def add(self, rowid: int, game: StoredGame, logs: list[dict[str, Any] | None], infos: dict[str, BotInfo],
            digest: int, earlier: Callable[[], Iterable[StoredGame]]) -> int:
        """Count one game, the next stored (``logs``: its seats' logs,
        :meth:`StderrLogs.seat_logs`; ``digest``: what its replay chunk
        entry is made from; ``earlier``: the games stored before it on its
        seed, :class:`arena.stats.luck.LuckTables`); returns its number."""
        self.total += 1
        number = self.total
        self.games_rowid, self.last_key = rowid, game.key  # games come in the order they were stored
        if len(self.open_rows) == paths.ROWS_PER_CHUNK:
            self.open_rows = []
        if len(self.open_keys) == paths.REPLAYS_PER_CHUNK:
            self.open_keys, self.open_digests = [], []
        self.open_keys.append(game.key)
        self.open_digests.append(digest)
        self.luck.add(game, earlier)
        if game.players == 1:
            self.solo_games[game.seats[0]] = self.solo_games.get(game.seats[0], 0) + 1
        if game.players == 1 and game.scores is not None:
            sums = self.solo.setdefault((game.game, game.seats[0]), [0, 0.0, game.scores[0]])
            sums[0] += 1
            sums[1] += game.scores[0]
            sums[2] = min(sums[2], game.scores[0])
        for forfeit in game.forfeits:
            seat = forfeit.seat
            kept = self.forfeits.setdefault(game.seats[seat], [0, []])
            kept[0] += 1
            kept[1] = [{
                "key": game.key, "page": replay_address(number), "game": game.game,
                "reason": forfeit.termination.value, "detail": forfeit.detail or "",
                "opponents": [b for s, b in enumerate(game.seats) if s != seat],
                "log": logs[seat] if seat < len(logs) else None,
                "finished": format_time(game.finished_at)}, *kept[1]][:FORFEITS_KEPT]  # newest first
        row = schema.record(
            schema.GAME_ROW, game=_number(self.game_names, game.game),
            seats=[self._bot_number(b, infos) for b in game.seats],
            results=result_letters(game), places=list(game.placements),
            ending=game.termination.value, forfeit=-1 if game.forfeit_seat is None else game.forfeit_seat,
            decisions=game.decisions, finished=int(game.finished_at or 0.0),
            scores=list(game.scores) if game.players == 1 and game.scores is not None else None,
            log=_forfeit_log(game, logs))
        self.open_rows.append(row)
        for seat, bot_id in reversed(list(enumerate(game.seats))):
            name = self.bot_names[self.bot_order.index(bot_id)]
            entry = self.latest.setdefault(name, [0, []])
            entry[0] += 1
            entry[1].insert(0, [number, seat, row])
            del entry[1][LATEST_GAMES:]
        return number

    def _bot_number(self, bot_id: str, infos: dict[str, BotInfo]) -> int:
        number = _number(self.bot_order, bot_id)
        if number == len(self.bot_names):
            self.bot_names.append(name_of(bot_id, infos))
        return number

    def to_json(self) -> dict[str, Any]:
        return {"format": TALLY_FORMAT, "games_rowid": self.games_rowid, "last_key": self.last_key,
                "changes": self.changes, "total": self.total,
                "game_names": self.game_names, "bot_order": self.bot_order,
                "bot_names": self.bot_names, "luck": self.luck.to_json(),
                "solo": [[game, bot, sums] for (game, bot), sums in self.solo.items()], "solo_games": self.solo_games,
                "forfeits": self.forfeits, "latest": self.latest, "open_rows": self.open_rows,
                "open_keys": self.open_keys, "open_digests": self.open_digests, "unmeasured": self.unmeasured}

    @classmethod
    def from_json(cls, data: Any) -> SiteTally | None:
        """A saved tally, or None where there is none of this format (or
        what there is cannot be read: a manifest edited by hand)."""
        if not isinstance(data, dict) or data.get("format") != TALLY_FORMAT:
            return None
        try:
            fields = {key: value for key, value in data.items() if key != "format"}
            fields["luck"] = LuckTables.from_json(data["luck"])
            fields["solo"] = {(game, bot): sums for game, bot, sums in data["solo"]}
            return cls(**fields)
        except (KeyError, TypeError, ValueError):
            return None


def _number(numbers: list[str], name: str) -> int:
    """A name's index in ``numbers``, added where it is new (a game's or a
    bot's number in the games list: in the order they first finished a game)."""
    try:
        return numbers.index(name)
    except ValueError:
        numbers.append(name)
        return len(numbers) - 1


def solo_rows(sums: dict[tuple[str, str], list[float]], names: dict[str, str]) -> list[dict[str, Any]]:
    """Each bot's average and best score in solo play, per game (lower is
    better), from [games, total, best] per (game, bot id)."""
    return [{"game": game, "bot": names.get(bot_id, bot_id), "bot_id": bot_id, "games": int(games),
             "average": total / games, "best": best}
            for (game, bot_id), (games, total, best) in sorted(sums.items())]


def solo_results(store: Store) -> list[dict[str, Any]]:
    """Each bot's average and best score in solo play, per game, from the store."""
    sums: dict[tuple[str, str], list[float]] = {}
    for game in store.games(solo=True):
        if game.scores is not None:
            entry = sums.setdefault((game.game, game.seats[0]), [0, 0.0, game.scores[0]])
            entry[0] += 1
            entry[1] += game.scores[0]
            entry[2] = min(entry[2], game.scores[0])
    return solo_rows(sums, {bot_id: row["name"] for bot_id, row in store.bots().items()})


@dataclass
class SiteData:
    """Everything the summary pages show: the standings (the ratings
    cache's tally) and the site's tally."""

    infos: dict[str, BotInfo]
    tally: SiteTally
    ladder: Ladder
    joint: JointTables
    pairs: SeatSwappedPairs  # seat-swapped pairs, per table
    seats: dict[str, SeatShares]  # first places by seat, per table
    names: dict[str, str] = field(default_factory=dict)
    fitted: dict[str, Fitted] = field(default_factory=dict)  # the joint fit, per table
    hello_names: dict[str, str] = field(default_factory=dict)  # the name each bot's hello gave, by bot id
    league: dict[str, LeagueEntry] = field(default_factory=dict)  # the versions a league entered, by bot id

    @classmethod
    def of(cls, store: Store, standings: Tally, tally: SiteTally) -> SiteData:
        """``standings``: the standings' tally of every stored game
        (:func:`arena.ratings_cache.rate`'s)."""
        bots = store.bots()
        model = cls(bot_infos(store), tally, standings.ladder, standings.joint, standings.pairs, standings.seats)
        model.names.update((bot_id, info.name) for bot_id, info in model.infos.items())
        model.hello_names = {bot_id: row["hello_name"] for bot_id, row in bots.items() if row.get("hello_name")}
        for bot_id in tally.bot_order:
            model.info(bot_id)
        model.fitted = model.joint.fit()
        model.league = league_entries(store)
        return model

    @property
    def total(self) -> int:
        return self.tally.total

    def tables(self) -> list[str]:
        """Overall first, then each game by name."""
        tables = self.ladder.tables
        return ([OVERALL] if OVERALL in tables else []) + sorted(t for t in tables if t != OVERALL)

    def info(self, bot_id: str) -> BotInfo:
        """A bot seen in games but missing from the bots table still gets pages."""
        if bot_id not in self.infos:
            self.infos[bot_id] = BotInfo(bot_id, bot_name(bot_id), version_of(bot_id))
            self.names[bot_id] = self.infos[bot_id].name
        return self.infos[bot_id]

    def head_to_head(self, table: str, a: str, b: str) -> Record | None:
        pairs = self.joint.pairs.get(table)
        return pairs.head_to_head(a, b) if pairs else None

    def solo(self) -> list[dict[str, Any]]:
        rows = solo_rows(self.tally.solo, self.names)
        for row in rows:
            row["info"] = self.info(row["bot_id"])
        return rows


@dataclass(frozen=True)
class LeagueEntry:
    """A version as a league entered it (arena.play.league): its number
    among its bot's versions, when it entered and retired (and why), and
    its sequential test against its predecessor, in the log's words, with
    its verdict (None while it goes on, and for a bot's first version)."""

    number: int
    entered_at: float
    retired_at: float | None
    retired_why: str | None
    test: str | None
    verdict: str | None


def league_entries(store: Store) -> dict[str, LeagueEntry]:
    """Every version the store's league entered, by bot id (none where no league ran)."""
    versions = store.league_versions()
    labels = {row["version"]: version_label(row["name"], row["number"]) for row in versions}
    tests = {row["version"]: row for row in store.league_tests()}
    entries = {}
    for row in versions:
        test = tests.get(row["version"])
        words = None if test is None else version_test_words(
            labels[test["version"]], labels.get(test["predecessor"], test["predecessor"]),
            Sprt(test["elo0"], test["elo1"], test["alpha"], test["beta"]), json.loads(test["counts"]),
            test["llr"] or 0.0, test["verdict"])
        entries[row["version"]] = LeagueEntry(row["number"], row["entered_at"], row["retired_at"], row["retired_why"],
                                              words, test["verdict"] if test else None)
    return entries


def name_of(bot_id: str, infos: dict[str, BotInfo]) -> str:
    """A bot's name on the site (SiteData.info's for a bot the bots table lacks)."""
    return infos[bot_id].name if bot_id in infos else bot_name(bot_id)


def bot_infos(store: Store) -> dict[str, BotInfo]:
    """The stored bots as the site names them."""
    return {bot_id: BotInfo(bot_id, row["name"], (row["content_hash"] or "")[:12] or version_of(bot_id))
            for bot_id, row in store.bots().items()}


def result_letters(game: StoredGame) -> str:
    """Each seat's result as a letter: won, drew (a shared first place) or lost."""
    return "".join(LETTERS[results.verdict(game.placements, seat)] for seat in range(game.players))


def _forfeit_log(game: StoredGame, logs: list[dict[str, Any] | None]) -> str | None:
    """The site's name for the first forfeiting seat's log, for the games list."""
    seat = game.forfeit_seat
    log = logs[seat] if seat is not None and seat < len(logs) else None
    return log["id"] if log else None


def format_time(timestamp: float | None) -> str:
    """A time as the pages print it (UTC, to the minute)."""
    if not timestamp:
        return ""
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
