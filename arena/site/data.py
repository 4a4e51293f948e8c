"""What the pages show, gathered from the store in one pass over its games.

Nothing is added up here that the statistics modules add up: each game goes
to :class:`arena.stats.elo.Ladder` (standings and rating history, the same
sums ``arena standings`` prints) and to :class:`arena.stats.joint.JointTables`
(the maximum-likelihood fit and head-to-head), and to
:class:`arena.stats.pentanomial.SeatSwappedPairs` (pair statistics), and whether a seat won, drew
or lost comes from :mod:`arena.results`. What stays here is the site's own
bookkeeping: the games list's rows, forfeits, solo games and stderr logs.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime
import gc
import hashlib
import multiprocessing
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import results
from arena.model import StoredGame, bot_name
from arena.site import schema
from arena.site.paths import BotInfo, replay_address, version_of
from arena.stats.elo import Ladder
from arena.stats.joint import Fitted, JointTables
from arena.stats.luck import LuckTables
from arena.stats.pairs import Record
from arena.stats.pentanomial import SeatSwappedPairs
from arena.stats.standings import SeatShares, add_seat_shares
from arena.stats.tables import OVERALL
from arena.store import Store

SEPARATE_ELO_FROM = 20_000  # stored games from which Elo is rated in a process of its own

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

    def add_use(self, log_id: str, game: StoredGame, seat: int) -> None:
        self.uses.setdefault(log_id, []).append({"key": game.key, "game": game.game, "seat": seat,
                                                 "bot_id": game.seats[seat], "page": None,
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
class SiteData:
    """Everything the pages show."""

    infos: dict[str, BotInfo]
    logs: StderrLogs
    names: dict[str, str] = field(default_factory=dict)
    ladder: Ladder = field(init=False)
    joint: JointTables = field(default_factory=JointTables)
    ml: dict[str, Fitted] = field(default_factory=dict)
    pairs: SeatSwappedPairs = field(default_factory=SeatSwappedPairs)  # seat-swapped pairs, per table
    forfeits: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    hello_names: dict[str, str] = field(default_factory=dict)  # the name each bot's hello gave, by bot id
    seats: dict[str, SeatShares] = field(default_factory=dict)  # first places by seat, per table
    luck: LuckTables = field(default_factory=LuckTables)  # the luck each bot received, per table
    solo_games: dict[str, int] = field(default_factory=dict)
    rows: list[list[Any]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # each row's game: game number n is keys[n - 1]
    game_names: list[str] = field(default_factory=list)
    bot_order: list[str] = field(default_factory=list)
    total: int = 0

    def __post_init__(self) -> None:
        self.names.update((bot_id, info.name) for bot_id, info in self.infos.items())
        self.ladder = Ladder(self.names)

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


def bot_infos(store: Store) -> dict[str, BotInfo]:
    """The stored bots as the site names them."""
    return {bot_id: BotInfo(bot_id, row["name"], (row["content_hash"] or "")[:12] or version_of(bot_id))
            for bot_id, row in store.bots().items()}


def collect(store: Store, visit: Callable[[StoredGame, list[dict[str, Any] | None]], None] = lambda game, logs: None
            ) -> SiteData:
    """One pass over the stored games, in rating order; ``visit`` sees each
    game and its seats' logs (StderrLogs.seat_logs) on the way (the builder decides
    there which replay chunks to write, without a second pass)."""
    model = SiteData(bot_infos(store), StderrLogs(store.path.parent))
    model.hello_names = {bot_id: row["hello_name"] for bot_id, row in store.bots().items() if row.get("hello_name")}
    if store.count_games() < SEPARATE_ELO_FROM or (os.cpu_count() or 1) < 2:
        with _no_cycle_collection():
            _add_games(model, store, visit, rate=True)
    else:
        # Elo is the largest part and needs only the games, in order: rated
        # in a process of its own on another core, from its own read of the store.
        context = multiprocessing.get_context("fork")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
            ladder = pool.submit(_rated, store.path)
            with _no_cycle_collection():
                _add_games(model, store, visit, rate=False)
            model.ladder = ladder.result()
            model.ladder.names = model.names
    model.ml = model.joint.fit()
    return model


def _rated(path: Path) -> Ladder:
    """Every stored game rated (the Elo standings and history), as
    ``_add_games`` rates them."""
    with Store(path, checked=True) as store, _no_cycle_collection():
        model = SiteData(bot_infos(store), StderrLogs(store.path.parent))
        for game in store.games():
            for bot_id in game.seats:
                model.info(bot_id)
            model.ladder.add(game)
        return model.ladder


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Collect builds a few long-lived objects per game (rows, rating
    history) and none in cycles; the cycle collector would walk all of them
    again and again as they pile up (a third of the time for 100,000 games)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _add_games(model: SiteData, store: Store, visit: Callable[[StoredGame, list[dict[str, Any] | None]], None],
               rate: bool) -> None:
    game_numbers: dict[str, int] = {}
    bot_numbers: dict[str, int] = {}
    rows: list[tuple[float, str, list[Any]]] = []
    for game in store.games():
        model.total += 1
        for bot_id in game.seats:
            model.info(bot_id)
        if rate:
            model.ladder.add(game)
        model.joint.add(game)
        model.pairs.add(game)
        add_seat_shares(model.seats, game)
        model.luck.add(game)
        if game.players == 1:
            model.solo_games[game.seats[0]] = model.solo_games.get(game.seats[0], 0) + 1
        logs = model.logs.seat_logs(game)
        for seat, log in enumerate(logs):
            if log is not None:
                model.logs.add_use(log["id"], game, seat)
        visit(game, logs)
        _add_forfeit(model, game, logs)
        rows.append((game.finished_at or 0.0, game.key, schema.record(
            schema.GAME_ROW, game=game_numbers.setdefault(game.game, len(game_numbers)),
            seats=[bot_numbers.setdefault(b, len(bot_numbers)) for b in game.seats],
            results=result_letters(game), places=list(game.placements),
            ending=game.termination.value, forfeit=-1 if game.forfeit_seat is None else game.forfeit_seat,
            decisions=game.decisions, finished=int(game.finished_at or 0.0),
            scores=list(game.scores) if game.players == 1 and game.scores is not None else None,
            log=_forfeit_log(game, logs))))
    # Games are numbered in the order they finished (rating order is the
    # plan's, and several plans share a store), so new games come last.
    rows.sort(key=lambda item: item[0])
    model.rows = [row for _, _, row in rows]
    model.keys = [key for _, key, _ in rows]
    _link_games(model)
    model.game_names = list(game_numbers)
    model.bot_order = list(bot_numbers)


def _link_games(model: SiteData) -> None:
    """Point the logs' and forfeits' game links at the games' numbers, known
    once every game is in."""
    numbers = {key: n for n, key in enumerate(model.keys, 1)}
    for uses in model.logs.uses.values():
        for use in uses:
            use["page"] = replay_address(numbers[use["key"]])
    for forfeits in model.forfeits.values():
        for forfeit in forfeits:
            forfeit["page"] = replay_address(numbers[forfeit["key"]])


def result_letters(game: StoredGame) -> str:
    """Each seat's result as a letter: won, drew (a shared first place) or lost."""
    return "".join(LETTERS[results.verdict(game.placements, seat)] for seat in range(game.players))


def _forfeit_log(game: StoredGame, logs: list[dict[str, Any] | None]) -> str | None:
    """The site's name for the first forfeiting seat's log, for the games list."""
    seat = game.forfeit_seat
    log = logs[seat] if seat is not None and seat < len(logs) else None
    return log["id"] if log else None


def _add_forfeit(model: SiteData, game: StoredGame, logs: list[dict[str, Any] | None]) -> None:
    """Every seat that forfeited (in a pod the others play on after one
    does), with what the bot last wrote to stderr."""
    for forfeit in game.forfeits:
        seat = forfeit.seat
        model.forfeits.setdefault(game.seats[seat], []).append({
            "key": game.key, "page": None, "game": game.game,
            "reason": forfeit.termination.value, "detail": forfeit.detail or "",
            "opponents": [b for s, b in enumerate(game.seats) if s != seat],
            "log": logs[seat] if seat < len(logs) else None,
            "finished": format_time(game.finished_at), "finished_at": game.finished_at or 0.0})


def solo_results(store: Store) -> list[dict[str, Any]]:
    """Each bot's average and best score in solo play, per game (lower is better)."""
    rows: dict[tuple[str, str], list[float]] = {}
    for game in store.games(solo=True):
        if game.scores is not None:
            rows.setdefault((game.game, game.seats[0]), []).append(game.scores[0])
    names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
    return [{"game": game, "bot": names.get(bot_id, bot_id), "bot_id": bot_id, "games": len(scores),
             "average": sum(scores) / len(scores), "best": min(scores)}
            for (game, bot_id), scores in sorted(rows.items())]


def format_time(timestamp: float | None) -> str:
    """A time as the pages print it (UTC, to the minute)."""
    if not timestamp:
        return ""
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
