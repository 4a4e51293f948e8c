"""Writing the site: the summary pages computed on every build from the
standings (the ratings cache's tally) and the site's own tally
(arena.site.data.SiteTally), saved in the manifest and gone on from with
the games stored since where it can be trusted (``Site.why_not_go_on``),
else counted from every game, which is the reference; only what changed
written.

Pages are compared with what is on disk. The replays, the bulk of the site,
are in chunk files of a thousand games each (data/replays/<chunk>.js, read
by the one replay page, replay.html), numbered in the order the games
were stored (that is, finished), so new games land in the last chunk or a new one. A chunk is
written once and then left alone while its games, their logs and the replay
format stay the same. A manifest (manifest.json) remembers what each chunk
and log page was made from, so pages of games and logs no longer stored are
removed too, and what the whole site was made from, so a build that finds
nothing new writes nothing. Every write is atomic: a reader sees the old
page or the new one, never half. A site of an older arena, a page per game
(games/<xx>/<id>.html), keeps those addresses working: at its first build
each page of a game still stored becomes a redirect to its replay (a few
hundred bytes; new games get none), and pages of games no longer stored go.

A chunk holds the replay stored with each game (made by the worker that
played it); for games stored without one the chunk's writer makes it from
the events, and beside it the luck of the game's dice where it is stored
(arena.luck.stored; a chunk written before is written again once it is).
Many chunks are written by worker processes; a tournament makes each
game's chunk entry as the game's luck is stored (``Site.add_game``).
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import functools
import gc
import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from arena import ratings_cache
from arena.games import GAMES, get_spec, replays
from arena.lifetime import fork_context
from arena.model import StoredGame
from arena.resources import package_path
from arena.site import data, pages, paths
from arena.site.paths import BotInfo, replay_chunk_path
from arena.stats.standings import Tally
from arena.store import Store

MANIFEST = "manifest.json"  # what the replay chunks and log pages were made from
CHUNK_LAYOUT = 3  # changes whenever what a replay chunk holds of a game (pages.chunked_game) does
STATIC = package_path("arena.site", "static")
TEMPLATES = package_path("arena.site", "templates")
RATE_ELSEWHERE_FROM = 20_000  # stored games from which a build counting every game rates them in another process
PARALLEL_FROM = 2  # replay chunks to write before it pays to start worker processes
_LOG = logging.getLogger(__name__)
OLD_GAME_PAGE = re.compile(r"[0-9a-f]{16}\.html")  # games/<xx>/<id>.html, a page per game before chunks


def public_folder(folder: Path) -> None:
    """Make ``folder`` and any missing parent 0755 whatever the umask (arena
    runs with a private one): the site is published. Folders that exist are
    left as their owner made them."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(exist_ok=True)
        made.chmod(0o755)


def write_atomically(path: Path, text: str) -> None:
    """Write a file so that a reader sees the old page or the new one, never
    half; readable by all, as a published site is."""
    public_folder(path.parent)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):  # interrupted after the replace, nothing to clean
            os.unlink(temporary)
        raise


def write_if_changed(path: Path, text: str) -> bool:
    """Write atomically unless the file already holds exactly this text."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_atomically(path, text)
    return True


def build(store: Store, out_dir: Path, rated: ratings_cache.Rated | None = None, rewrite_ratings: bool = False) -> Path:
    """Write the whole site under ``out_dir`` (``rated``, ``rewrite_ratings``:
    see Site.build); returns the index page."""
    return Site(store, Path(out_dir)).build(rated, rewrite_ratings)


class Site:
    """The site of one store. A tournament tells it of each game as it is
    stored, once its luck is (``add_game``), so the game's chunk entry is
    made while the others play, and ``build`` at the end of the run has only
    to gather it into its chunk and write the summary pages."""

    def __init__(self, store: Store, out: Path) -> None:
        self.store = store
        self.out = out
        self.old = self._load_manifest()
        self.added: dict[str, tuple[int, dict[str, Any]]] = {}  # entries made by add_game: key -> (digest, entry)
        self.logs = data.StderrLogs(store.path.parent)  # the logs of the games counted or added
        self._bots: dict[str, list[Any]] | None = None
        self.written: set[str] = set()  # the pages this build made, written or found as they were

    def write(self, relative: str, text: str) -> None:
        write_if_changed(self.out / relative, text)
        self.written.add(relative)

    def add_game(self, key: str) -> None:
        """Make the chunk entry of a game just stored."""
        if self._bots is None:
            self._bots = _page_bots(data.bot_infos(self.store))
        game = self.store.game(key)
        logs = self.logs.seat_logs(game)
        self.added[key] = (_digest(game, logs, self._bots), _chunked_game(self.store, game, logs, self._bots))

    def build(self, rated: ratings_cache.Rated | None = None, rewrite_ratings: bool = False) -> Path:
        """Write the site: from the tally saved with it and the games stored
        since where it can be trusted (:meth:`why_not_go_on`), else from
        every game; then only what changed. ``rated``: the standings of
        every stored game where the caller has them (a tournament, which
        has just written the ratings cache), else they are rated here, and
        with ``rewrite_ratings`` (the store is the writer's) the ratings
        cache is written as they are (:func:`arena.ratings_cache.rewrite`)."""
        inputs = _inputs(self.store)
        saved = data.SiteTally.from_json(self.old.get("tally"))
        late = self.store.luck_stored(saved.unmeasured) if saved is not None else []
        old_pages = self.old.get("pages", {})
        if (self.old.get("inputs") == inputs and not late and (self.out / "index.html").is_file()
                and not self.chunks_missing(saved)):
            return self.out / "index.html"  # nothing stored, no game changed, no code changed, no chunk gone
        changes = self.store.game_changes()
        public_folder(self.out)
        infos = data.bot_infos(self.store)
        new: list[tuple[int, StoredGame]] = []
        reason = self.why_not_go_on(saved, late, infos)
        if saved is not None and reason is None:
            new = list(self.store.stored_games(saved.games_rowid))
            reason = self.why_not_go_on_with(saved, new, old_pages)
        old_game_pages = _old_game_pages(self.out) if reason is not None else []
        if reason is not None:
            self.logs = data.StderrLogs(self.store.path.parent)  # those of the games counted
        with _ReplayChunks(self.store, self.out, _page_bots(infos), self.logs, self.added) as chunks:
            counting = _Counting(self, infos, chunks, old_pages, go_on=reason is None,
                                 old_games={Path(page).stem for page in old_game_pages})
            tally = self._count(counting, saved, new, reason, _rating(self.store, rated, rewrite_ratings,
                                                                      elsewhere=reason is not None))
            self.redirect_game_pages(old_game_pages, counting.old_game_numbers, old_pages, counting.done)
        if reason is not None:  # a full count knows every chunk: others are of games no longer stored
            _remove_others(self.out / "data" / "replays", {Path(page).name for page in counting.done
                                                            if page.startswith("data/replays/")})
            _remove_others(self.out / "data" / "list", counting.lists)
            _remove_unwritten(self.out, ("bots", "tables"), self.written)  # of bots renamed, tables gone
        tally.changes = changes
        self.save_manifest(old_pages, counting.done, inputs, tally)
        return self.out / "index.html"

    def _count(self, counting: _Counting, saved: data.SiteTally | None, new: list[tuple[int, StoredGame]],
               reason: str | None, rating: contextlib.AbstractContextManager[Callable[[], Tally]]) -> data.SiteTally:
        """Count the games into the tally (the new ones onto the saved
        tally, or, for ``reason``, every game into a new one) while their
        replay chunks are written and the games are rated (``rating``:
        :func:`_rating`), then write the summary pages and the logs' pages;
        returns the tally."""
        games: Iterable[tuple[int, StoredGame]] = new
        if reason is None:
            assert saved is not None
            tally = saved
            _LOG.info("site: %d new games counted onto the saved tally", len(new))
        else:
            _LOG.info("site: every game counted: %s", reason)
            tally, games = data.SiteTally(), self.store.stored_games()
        with rating as standings, _no_cycle_collection():
            for rowid, game in games:
                counting.add(tally, rowid, game)
        counting.close(tally)
        tally.unmeasured = self.store.unmeasured_luck()
        model = data.SiteData.of(self.store, standings(), tally)
        solo = model.solo()
        self.copy_static()
        for relative, text in pages.board_data():
            self.write(relative, text)
        self.write("data/games.js", pages.games_shared(model))
        self.write("index.html", pages.index_page(model, solo))
        for relative, text in pages.table_pages(model, solo):
            self.write(relative, text)
        self.write("games.html", pages.render("games.html", "", total=model.total))
        self.write("replay.html", pages.render("replay.html", "", per_chunk=paths.REPLAYS_PER_CHUNK))
        for relative, text in pages.bot_pages(model, solo):
            self.write(relative, text)
        self.write_logs(model, self.old.get("pages", {}), counting.done)
        return tally

    def why_not_go_on(self, saved: data.SiteTally | None, late: list[str], infos: dict[str, BotInfo]) -> str | None:
        """Why the saved tally cannot be gone on from, if it cannot, before
        looking at the games stored since."""
        if saved is None:
            return "no saved tally (a first build, or a site of an older arena)"
        if self.old.get("code") != _tally_code(self.store):
            return "the code or the database's schema changed"
        if saved.changes != self.store.game_changes():
            return "a stored game was deleted or changed, or a game was stored among the others"
        if self.store.key_at(saved.games_rowid) != saved.last_key:
            return "the last game counted is no longer stored"
        if late:
            return f"the luck of {len(late)} games counted was stored since"
        if [data.name_of(bot_id, infos) for bot_id in saved.bot_order] != saved.bot_names:
            return "a bot's name changed"
        if self.chunks_missing(saved):
            return "a chunk of the site is missing"
        return None

    def chunks_missing(self, saved: data.SiteTally | None) -> bool:
        """Whether a replay chunk or a games-list chunk the site was built
        with is missing (a file per 1,000 games to look for)."""
        replays = [page for page in self.old.get("pages", {}) if page.startswith("data/replays/")]
        lists = [paths.list_chunk_path(chunk) for chunk in range(_chunks(saved.total if saved else 0,
                                                                          paths.ROWS_PER_CHUNK))]
        return not all((self.out / page).is_file() for page in replays + lists)

    def why_not_go_on_with(self, saved: data.SiteTally, new: list[tuple[int, StoredGame]],
                           old_pages: dict[str, Any]) -> str | None:
        """Why the games stored since cannot be counted onto the saved tally, if they cannot."""
        for _, game in new:
            for log in self.logs.seat_logs(game):
                if log is not None and f"logs/{log['id']}.html" in old_pages:
                    return "a stderr log of a game counted before is named by a new one"
        return None

    def write_logs(self, model: data.SiteData, old: dict[str, Any], done: dict[str, Any]) -> None:
        """A page per stderr log counted in this build (every log when every
        game was counted, else those of the new games: a game's logs are
        final once it is stored), rewritten only when the log has grown or
        changed."""
        for log_id, path in sorted(self.logs.files.items()):
            uses = self.logs.uses.get(log_id, [])
            page = f"logs/{log_id}.html"
            stamp = done[page] = f"{_stamp(path)}-{_uses_digest(uses)}"
            if old.get(page) == stamp and (self.out / page).is_file():
                continue
            try:
                text = path.read_bytes().decode("utf-8", errors="replace")
            except OSError as exc:
                text = f"[arena: the log could not be read: {exc}]"
            self.write(page, pages.log_page(uses, model.infos, text))

    def copy_static(self) -> None:
        for source in sorted(STATIC.rglob("*")):
            if source.is_file() and not source.name.startswith("."):
                self.write(f"static/{source.relative_to(STATIC).as_posix()}", source.read_text(encoding="utf-8"))

    def redirect_game_pages(self, found: list[str], numbers: dict[str, int], old: dict[str, Any],
                            done: dict[str, Any]) -> None:
        """Each page an older arena wrote per game (``found``:
        games/<xx>/<id>.html) becomes, while its game is stored, a redirect
        to the game's replay (``numbers``: by page id, the game's number):
        links to it keep working. Pages of games no longer stored go, and
        their folders once empty."""
        for page in found:
            number = numbers.get(Path(page).stem)
            if number is None:
                (self.out / page).unlink()
                continue
            stamp = done[page] = f"redirect-{number}"
            if old.get(page) != stamp:
                write_atomically(self.out / page, pages.redirect_page(number))
        for folder in {self.out / Path(page).parent for page in found}:
            with contextlib.suppress(OSError):  # not empty: not only arena's
                folder.rmdir()

    def _load_manifest(self) -> dict[str, Any]:
        """What the pages on disk were made from: the game and log pages
        (``pages``), the whole site (``inputs``) and the site's tally."""
        try:
            manifest = json.loads((self.out / MANIFEST).read_text())
        except (OSError, ValueError):
            return {}
        return manifest if manifest.get("format") == _replay_format() else {}

    def save_manifest(self, old: dict[str, Any], done: dict[str, Any], inputs: str, tally: data.SiteTally) -> None:
        """Remember what was written and the tally it was counted into;
        remove pages of logs no longer in the store."""
        for page in set(old) - set(done):
            try:
                (self.out / page).unlink()
            except OSError:
                pass
        write_if_changed(self.out / MANIFEST, json.dumps({
            "format": _replay_format(), "code": _tally_code(self.store), "inputs": inputs, "pages": done,
            "tally": tally.to_json()}, sort_keys=True, separators=(",", ":")))


class _Counting:
    """What a build writes as it counts games into the tally: each games-list
    chunk as it fills, and each replay chunk whose games' digests changed
    (handed to ``chunks`` as it fills); ``done`` is the manifest's pages
    (gone on from the old ones where the tally is), ``lists`` the
    games-list chunks of the site."""

    def __init__(self, site: Site, infos: dict[str, BotInfo], chunks: _ReplayChunks, old: dict[str, Any],
                 go_on: bool, old_games: set[str]) -> None:
        self.site = site
        self.infos = infos
        self.chunks = chunks
        self.bots = chunks.bots
        self.old = old
        self.done: dict[str, Any] = dict(old) if go_on else {}
        self.lists: set[str] = set()
        self.old_games = old_games  # the ids of an older arena's game pages on the site
        self.old_game_numbers: dict[str, int] = {}  # of those whose game is stored: id -> the game's number

    def add(self, tally: data.SiteTally, rowid: int, game: StoredGame) -> None:
        logs = self.site.logs.seat_logs(game)
        store = self.site.store
        number = tally.add(rowid, game, logs, self.infos, _digest(game, logs, self.bots),
                           lambda: store.games_of_unit(game.game, game.seed, game.seats, rowid))
        for seat, log in enumerate(logs):
            if log is not None:
                self.site.logs.add_use(log["id"], game, seat, number)
        if self.old_games and (page := paths.old_game_id(game.key)) in self.old_games:
            self.old_game_numbers[page] = number
        if len(tally.open_rows) == paths.ROWS_PER_CHUNK:
            self.write_list(tally, number)
        if len(tally.open_keys) == paths.REPLAYS_PER_CHUNK:
            self.replay_chunk(tally, number)

    def close(self, tally: data.SiteTally) -> None:
        """The open chunks, once every game is counted."""
        if tally.open_rows and len(tally.open_rows) < paths.ROWS_PER_CHUNK:
            self.write_list(tally, tally.total)
        if tally.open_keys and len(tally.open_keys) < paths.REPLAYS_PER_CHUNK:
            self.replay_chunk(tally, tally.total)

    def write_list(self, tally: data.SiteTally, number: int) -> None:
        chunk = (number - 1) // paths.ROWS_PER_CHUNK
        self.site.write(paths.list_chunk_path(chunk), pages.games_chunk(chunk, tally.open_rows))
        self.lists.add(Path(paths.list_chunk_path(chunk)).name)

    def replay_chunk(self, tally: data.SiteTally, number: int) -> None:
        chunk = paths.replay_chunk(number)
        page = replay_chunk_path(chunk)
        self.done[page] = hashlib.sha1(repr(tally.open_digests).encode()).hexdigest()[:16]
        if self.old.get(page) != self.done[page] or not (self.site.out / page).is_file():
            self.chunks.add(chunk, list(tally.open_keys))


def _replay_format() -> str:
    """Changes whenever what a replay chunk holds may change."""
    template = (TEMPLATES / "game.html").read_bytes()
    return f"{replays.REPLAY_FORMAT}-{CHUNK_LAYOUT}-{hashlib.sha1(template).hexdigest()[:12]}"


def _uses_digest(uses: list[dict[str, Any]]) -> str:
    """Changes when a log page's header (whose log, which games) would."""
    return hashlib.sha1(json.dumps(uses, sort_keys=True).encode()).hexdigest()[:12]


def _digest(game: StoredGame, logs: list[dict[str, Any] | None], bots: dict[str, list[Any]]) -> int:
    """What a game's chunk entry is made from (its result, logs, luck, and
    how its header names its bots: ``bots``, :func:`_page_bots`), summed up
    in 64 bits."""
    identity = (game.key, game.finished_at, game.decisions, game.termination.value, game.seats, game.placements,
                game.forfeits, game.scores, tuple(logs), game.luck, [bots.get(bot_id) for bot_id in game.seats])
    return int.from_bytes(hashlib.sha1(repr(identity).encode()).digest()[:8], "big")


def _old_game_pages(out: Path) -> list[str]:
    """The pages an older arena wrote per game (games/<xx>/<id>.html), or
    redirects made of them, relative to the site; anything else there is
    not arena's and is left alone."""
    games = out / "games"
    if not games.is_dir():
        return []
    return [f"games/{folder.name}/{entry.name}" for folder in os.scandir(games)
            if folder.is_dir() and len(folder.name) == 2
            for entry in os.scandir(folder.path)
            if OLD_GAME_PAGE.fullmatch(entry.name) and entry.name.startswith(folder.name)]


def _remove_unwritten(out: Path, folders: tuple[str, ...], written: set[str]) -> None:
    """Remove the pages under these folders (one or two deep) that this
    build did not make, and folders left empty."""
    for name in folders:
        for path in sorted((out / name).rglob("*.html"), reverse=True):
            if path.relative_to(out).as_posix() not in written:
                path.unlink()
        for folder in (out / name).glob("*/"):
            with contextlib.suppress(OSError):  # not empty
                folder.rmdir()


def _remove_others(folder: Path, kept: set[str]) -> None:
    """Remove the files of ``folder`` not named in ``kept``."""
    for entry in os.scandir(folder) if folder.is_dir() else ():
        if entry.is_file() and entry.name not in kept:
            os.unlink(entry.path)


def _inputs(store: Store) -> str:
    """What the whole site is made from, summed up at the cost of a few
    rows: the last game stored, the count of changes to stored games, the
    bots, and the code and schema that make the pages. The same inputs make
    the same site, so a build finding them unchanged (and no luck stored
    since for a game counted without) has nothing to do. Stderr logs are
    not looked at: a game's logs are final once it is stored (a build
    reads those of the games it counts)."""
    identity = [_tally_code(store), store.last_stored(), store.game_changes(),
                sorted(tuple(row.values()) for row in store.bots().values())]
    return hashlib.sha1(json.dumps(identity).encode()).hexdigest()


@contextlib.contextmanager
def _rating(store: Store, rated: ratings_cache.Rated | None, rewrite: bool,
            elsewhere: bool) -> Iterator[Callable[[], Tally]]:
    """The standings' tally of every stored game (``rated``'s, else rated
    here: :func:`arena.ratings_cache.rate`, or with ``rewrite``
    :func:`arena.ratings_cache.rewrite`, which writes the ratings cache
    too), got by calling what this yields. ``elsewhere``, with many games to
    rate and a core to spare, they are rated in a process of their own (a
    writer's child: the writer's lock is held meanwhile), while this one
    counts the site's tally."""
    if rated is not None:
        yield lambda: rated.tally
        return
    if not elsewhere or store.count_games() < RATE_ELSEWHERE_FROM or (os.cpu_count() or 1) < 2:
        yield lambda: (ratings_cache.rewrite(store) if rewrite else ratings_cache.rate(store)).tally
        return
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=fork_context()) as pool:
        future = pool.submit(_rated_elsewhere, store.path, rewrite)
        names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
        yield lambda: Tally.from_json(future.result(), names, lambda game: ())


def _rated_elsewhere(path: Path, rewrite: bool) -> dict[str, Any]:
    """The standings' tally of every game in the store at ``path`` (the
    ratings cache written with ``rewrite``), as JSON (to send back)."""
    with Store(path, checked=True) as store:
        return (ratings_cache.rewrite(store) if rewrite else ratings_cache.rate(store)).tally.to_json()


def _tally_code(store: Store) -> str:
    """The code and schema the site's tally was counted by: another is not gone on from."""
    return hashlib.sha1(f"{_replay_format()}-{_code_version()}-{store.schema_version()}".encode()).hexdigest()


def _chunks(games: int, size: int) -> int:
    return (games + size - 1) // size


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Counting makes a few objects per game and none in cycles; the cycle
    collector would walk the long-lived ones again and again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@functools.cache
def _code_version() -> str:
    """A digest of arena's code and templates, and of every registered
    game's board data and drawing (a game installed from its own
    distribution lives outside arena): what computes the pages."""
    package = package_path("arena")
    digest = hashlib.sha1()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".html", ".js", ".css", ".json") and path.is_file():
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    for relative, text in pages.board_data():
        digest.update(relative.encode() + b"\0" + text.encode())
    return digest.hexdigest()


def _stamp(path: Path) -> str:
    try:
        stat = path.stat()
    except OSError:
        return "missing"
    return f"{stat.st_size}-{stat.st_mtime_ns}"


def _page_bots(infos: dict[str, BotInfo]) -> dict[str, list[Any]]:
    """What a game's header shows of each bot: name, version, page."""
    return {bot_id: [info.name, info.version, info.page] for bot_id, info in infos.items()}


def _chunked_game(store: Store, game: StoredGame, logs: list[dict[str, Any] | None],
                  bots: dict[str, list[Any]]) -> dict[str, Any]:
    """A game's chunk entry: its record, where the game brings a replay
    engine for the page; else the replay stored with the game, or made here
    from its record where none was stored."""
    problem = None
    if game.game in GAMES and get_spec(game.game).engine_js is not None:
        replay = replays.record_replay(game.options, store.record_texts(game.key))
    else:
        stored = store.replay(game.key, replays.REPLAY_FORMAT)
        if stored is None:
            events, digest = store.record(game.key)
            stored, problem = replays.replay_payload(game.game, game.seats, game.options, events,
                                                     store.decision_times(game.key), digest)
        replay = replays.decoded_text(stored)  # JSON text, not parsed and written again
    return pages.chunked_game(game, logs, replay, problem, bots, store.replay_luck(game.key))


def _write_replay_chunk(store: Store, out: Path, chunk: int, keys: list[str], bots: dict[str, list[Any]],
                        logs: data.StderrLogs, made: dict[str, tuple[int, dict[str, Any]]]) -> None:
    """A replay chunk, taking the entries ``made`` as games were stored
    (Site.add_game) where they are still what the game would make."""
    games: dict[int, dict[str, Any]] = {}
    for number, key in enumerate(keys, chunk * paths.REPLAYS_PER_CHUNK + 1):
        game = store.game(key)
        seat_logs = logs.seat_logs(game)
        digest, entry = made.get(key, (None, None))
        games[number] = entry if entry is not None and digest == _digest(game, seat_logs, bots) else \
            _chunked_game(store, game, seat_logs, bots)
    write_atomically(out / replay_chunk_path(chunk), pages.replay_chunk(chunk, games))


# ------------------------------------------------------------------ replay chunks in worker processes

_WORKER_STORE: Store | None = None


def _open_worker_store(path: str) -> None:
    global _WORKER_STORE
    _WORKER_STORE = Store(path, checked=True)


def _write_in_worker(out: Path, chunk: int, keys: list[str], bots: dict[str, list[Any]]) -> None:
    assert _WORKER_STORE is not None
    _write_replay_chunk(_WORKER_STORE, out, chunk, keys, bots, data.StderrLogs(_WORKER_STORE.path.parent), {})


class _ReplayChunks:
    """Writes the replay chunks a build hands it as it counts, in worker
    processes once there are ``PARALLEL_FROM`` of them (each worker reads
    its games' replays and writes their chunk itself) while the count goes
    on, else in this process when the count is done (``close``), taking the
    entries ``made`` as games were stored (Site.add_game). The workers are
    started by the count's first chunks, while this process is small (a
    forked worker's resident size counts what it was forked from), and a
    few chunks at a time are in flight, so memory stays flat however many
    games there are."""

    def __init__(self, store: Store, out: Path, bots: dict[str, list[Any]], logs: data.StderrLogs,
                 made: dict[str, tuple[int, dict[str, Any]]]) -> None:
        self.store, self.out, self.bots, self.logs, self.made = store, out, bots, logs, made
        self.waiting: list[tuple[int, list[str]]] = []
        self.workers = min(os.cpu_count() or 1, 8)
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.pending: collections.deque[concurrent.futures.Future[None]] = collections.deque()

    def __enter__(self) -> _ReplayChunks:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        try:
            if kind is None:
                self.close()
        finally:
            if self.pool is not None:
                self.pool.shutdown(cancel_futures=True)

    def add(self, chunk: int, keys: list[str]) -> None:
        """A chunk to write: its number and its games' keys."""
        self.waiting.append((chunk, keys))
        if self.pool is None and len(self.waiting) >= PARALLEL_FROM and self.workers >= 2:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=fork_context(), initializer=_open_worker_store,
                initargs=(str(self.store.path),))
        if self.pool is not None:
            for chunk, keys in self.waiting:
                self.pending.append(self.pool.submit(_write_in_worker, self.out, chunk, keys, self.bots))
                if len(self.pending) >= 2 * self.workers:
                    self.pending.popleft().result()
            self.waiting = []

    def close(self) -> None:
        """Write what is left, and wait for the workers' chunks."""
        for chunk, keys in self.waiting:
            _write_replay_chunk(self.store, self.out, chunk, keys, self.bots, self.logs, self.made)
        self.waiting = []
        while self.pending:
            self.pending.popleft().result()
