"""Writing the site: every page computed on every build, only what changed
written.

Pages are compared with what is on disk, and a game's replay page (the bulk
of the site: one per game) is written once and then left alone while the
game, its logs and the replay format stay the same. A manifest
(manifest.json) remembers what each replay and log page was made from, so
pages of games no longer stored are removed too. Every write is atomic: a
reader sees the old page or the new one, never half. Many replay pages are
rendered in worker processes.
"""

from __future__ import annotations

import collections
import concurrent.futures
import hashlib
import json
import multiprocessing
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arena.model import StoredGame
from arena.site import data, pages, replays
from arena.site.paths import game_path
from arena.store import Store

MANIFEST = "manifest.json"  # what the replay and log pages were made from
HERE = Path(__file__).parent
STATIC = HERE / "static"
PARALLEL_FROM = 200  # replay pages to write before it pays to start worker processes


def write_atomically(path: Path, text: str) -> None:
    """Write a file so that a reader sees the old page or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
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


def build(store: Store, out_dir: Path) -> Path:
    """Write the whole site under ``out_dir``; returns the index page."""
    return _Site(store, Path(out_dir)).build()


class _Site:
    def __init__(self, store: Store, out: Path) -> None:
        self.store = store
        self.out = out
        self.written = 0

    def write(self, relative: str, text: str) -> None:
        if write_if_changed(self.out / relative, text):
            self.written += 1

    def build(self) -> Path:
        self.out.mkdir(parents=True, exist_ok=True)
        model = data.collect(self.store)
        solo = data.solo_table(self.store)
        for row in solo:
            row["info"] = model.info(row["bot_id"])
        self.copy_static()
        for relative, text in pages.board_data():
            self.write(relative, text)
        self.write("data/games.js", pages.games_data(model))
        self.write("index.html", pages.index_page(model, solo))
        for relative, text in pages.table_pages(model, solo):
            self.write(relative, text)
        self.write("games.html", pages.render("games.html", "", total=model.total))
        for relative, text in pages.bot_pages(model, solo):
            self.write(relative, text)
        old = self.load_manifest()
        done: dict[str, Any] = {}
        self.write_logs(model, old, done)
        self.write_replays(model, old, done)
        self.save_manifest(old, done)
        return self.out / "index.html"

    def copy_static(self) -> None:
        for source in sorted(STATIC.rglob("*")):
            if source.is_file() and not source.name.startswith("."):
                self.write(f"static/{source.relative_to(STATIC).as_posix()}", source.read_text(encoding="utf-8"))

    def write_logs(self, model: data.Model, old: dict[str, Any], done: dict[str, Any]) -> None:
        """A page per stderr log, rewritten only when the log has grown or changed."""
        for log_id, path in sorted(model.logs.files.items()):
            page = f"logs/{log_id}.html"
            try:
                stat = path.stat()
                stamp = f"{stat.st_size}-{stat.st_mtime_ns}-{_uses_digest(model.logs.uses.get(log_id, []))}"
            except OSError:
                stamp = "missing"
            done[page] = stamp
            if old.get(page) == stamp and (self.out / page).is_file():
                continue
            try:
                text = path.read_bytes().decode("utf-8", errors="replace")
            except OSError as exc:
                text = f"[arena: the log could not be read: {exc}]"
            self.write(page, pages.log_page(model.logs.uses.get(log_id, []), model.infos, text))

    def write_replays(self, model: data.Model, old: dict[str, Any], done: dict[str, Any]) -> None:
        todo: list[tuple[StoredGame, list[dict[str, Any] | None]]] = []
        bots = {b: [info.name, info.version, info.page] for b, info in model.infos.items()}
        for game in self.store.games():
            log_ids = model.logs.seat_logs(game)
            digest = _digest(game, log_ids)
            page = game_path(game.key)
            done[page] = digest
            if old.get(page) == digest and (self.out / page).is_file():
                continue
            todo.append((game, log_ids))
        for game, text in _render_replays(self.store, todo, bots):
            write_atomically(self.out / game_path(game.key), text)
            self.written += 1

    def load_manifest(self) -> dict[str, Any]:
        """What the replay and log pages on disk were made from."""
        try:
            manifest = json.loads((self.out / MANIFEST).read_text())
        except (OSError, ValueError):
            return {}
        return manifest.get("pages", {}) if manifest.get("format") == _replay_format() else {}

    def save_manifest(self, old: dict[str, Any], done: dict[str, Any]) -> None:
        """Remember what was written; remove pages of games and logs no
        longer in the store."""
        for page in set(old) - set(done):
            try:
                (self.out / page).unlink()
            except OSError:
                pass
        write_if_changed(self.out / MANIFEST, json.dumps({"format": _replay_format(), "pages": done},
                                                         sort_keys=True, separators=(",", ":")))


def _replay_format() -> str:
    """Changes whenever what a replay page holds may change."""
    template = (HERE / "templates" / "game.html").read_bytes()
    base = (HERE / "templates" / "base.html").read_bytes()
    return f"{replays.REPLAY_FORMAT}-{hashlib.sha1(template + base).hexdigest()[:12]}"


def _uses_digest(uses: list[dict[str, Any]]) -> str:
    """Changes when a log page's header (whose log, which games) would."""
    return hashlib.sha1(json.dumps(uses, sort_keys=True).encode()).hexdigest()[:12]


def _digest(game: StoredGame, log_ids: list[dict[str, Any] | None]) -> str:
    identity = [game.key, game.finished_at, game.decisions, game.termination.value, log_ids]
    return hashlib.sha1(json.dumps(identity).encode()).hexdigest()[:16]


# ------------------------------------------------------------------ replays in worker processes

_WORKER_STORE: Store | None = None


def _open_worker_store(path: str) -> None:
    global _WORKER_STORE
    _WORKER_STORE = Store(path)


def _render_chunk(games: list[tuple[StoredGame, list[dict[str, Any] | None]]], bots: dict[str, list[Any]]) -> list[str]:
    assert _WORKER_STORE is not None
    return [pages.game_page(game, log_ids, _WORKER_STORE.events(game.key), _WORKER_STORE.decision_times(game.key),
                            bots) for game, log_ids in games]


def _render_replays(store: Store, games: list[tuple[StoredGame, list[dict[str, Any] | None]]],
                    bots: dict[str, list[Any]]) -> Iterable[tuple[StoredGame, str]]:
    """Render replay pages, in worker processes when there are many. A few
    chunks at a time are in flight, so memory stays flat however many games
    there are."""
    workers = min(os.cpu_count() or 1, 8)
    if len(games) < PARALLEL_FROM or workers < 2:
        for game, log_ids in games:
            yield game, pages.game_page(game, log_ids, store.events(game.key), store.decision_times(game.key), bots)
        return
    size = 50
    chunks = [games[k:k + size] for k in range(0, len(games), size)]
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_open_worker_store,
                                                initargs=(str(store.path),)) as pool:
        pending: collections.deque = collections.deque()
        for chunk in chunks:
            pending.append((chunk, pool.submit(_render_chunk, chunk, bots)))
            if len(pending) >= 3 * workers:
                done, future = pending.popleft()
                yield from zip((game for game, _ in done), future.result())
        while pending:
            done, future = pending.popleft()
            yield from zip((game for game, _ in done), future.result())
