"""The standings of every stored game at the cost of the games that are new.

After every run the ratings cache (the ``ratings`` and ``rating_history``
tables) is written with the tally it was computed from
(:class:`arena.stats.standings.Tally`: per table and pair of bots, never per
game). The next run, and ``arena standings``, go on from that tally with
the games stored since: Elo continues from the stored ratings in rating
order, the sums and pair counts add up, and the joint fit is made again
from the sums (it costs what the bots cost, not the games: milliseconds).

Rating every game from the start is the reference, and is what happens
whenever the saved tally cannot be trusted: there is none (a database from
before, or a first run), the rating code changed (:func:`rating_code`), the
schema changed (a migration), a game it counts was deleted or changed or a
game was inserted among them (the store's triggers drop it), or a game
stored since comes before the last one rated in rating order, where Elo
cannot go on (a database filled by hand or by an older arena).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from arena.model import StoredGame
from arena.resources import package_path
from arena.stats.elo import HistoryRow
from arena.stats.standings import Standings, Tally, json_rows
from arena.store import RatingState, Store

_LOG = logging.getLogger(__name__)
HISTORY_BATCH = 20_000  # rating history rows handed to the store at a time (a few MB)


class HistorySink(Protocol):
    """Where the rating history goes as games are rated
    (:class:`arena.store.RatingsWriter`)."""

    def clear_history(self) -> None:
        """Every game is rated again: the history written before goes."""

    def add_history(self, history: list[HistoryRow]) -> None:
        """The next points of the history, in the order games were rated."""


@dataclass
class Rated:
    """Standings of every stored game, the tally they come from, what it
    counts, and whether it went on from the saved one (``added``: the
    standings' history then holds only the games rated since)."""

    standings: Standings
    tally: Tally
    games_rowid: int
    last_key: str | None
    last_order: tuple[Any, ...] | None
    added: bool

    def state(self) -> RatingState:
        return RatingState(rating_code(), self.games_rowid, self.last_key, self.last_order,
                           json.dumps(self.tally.to_json(), separators=(",", ":")))


def rate(store: Store, full: bool = False, history: HistorySink | None = None) -> Rated:
    """Standings of every stored game: from the saved tally and the games
    stored since where it can be trusted, else (or with ``full``) from every
    game. With ``history``, the rating history of the games rated goes
    there a batch at a time (``HISTORY_BATCH`` rows), cleared first where
    every game is rated; without, only its samples for charts are kept
    (:class:`arena.stats.elo.HistorySample`): what the site needs."""
    names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
    games_rowid, last_key = store.last_stored()
    saved = None if full else store.rating_state(rating_code())

    def earlier_pairs(game: StoredGame) -> Iterator[StoredGame]:
        return store.games_on_seed_before(game.game, game.seed, game.seats, games_rowid, rating_order(game))

    if saved is not None:
        new = list(store.games_since(saved.games_rowid))
        if not new or saved.last_order is None or rating_order(new[0]) > saved.last_order:
            tally = Tally.from_json(json.loads(saved.tally), names, earlier_pairs, history is not None)
            last = _add(tally, new, saved.last_order, history)
            _LOG.info("ratings: %d new games rated onto the saved tally", len(new))
            return Rated(tally.standings(), tally, games_rowid, last_key, last, added=True)
        _LOG.info("ratings: a game stored since the last rating comes before it in rating order: "
                  "every game rated again")
    elif not full:
        _LOG.info("ratings: no saved tally to go on from (none yet, or the rating code, the schema or a "
                  "rated game changed): every game rated")
    tally = Tally.empty(names, history is not None, earlier_pairs)
    if history is not None:
        history.clear_history()
    last = _add(tally, store.games(solo=False), None, history)
    return Rated(tally.standings(), tally, games_rowid, last_key, last, added=False)


def rewrite(store: Store) -> Rated:
    """Rate (:func:`rate`) and write the ratings cache, its rating history
    and its tally, in one transaction."""
    with store.rewriting_ratings() as writer:
        rated = rate(store, history=writer)
        writer.write(json_rows(rated.standings.rows), rated.state())
    return rated


def rating_order(game: StoredGame) -> tuple[int, int, str]:
    """Where a game comes in rating order (arena.store.RATING_ORDER)."""
    return game.plan, game.job_order, game.key


def _add(tally: Tally, games: Iterable[StoredGame], last: tuple[Any, ...] | None,
         history: HistorySink | None) -> tuple[Any, ...] | None:
    for game in games:
        tally.add(game)
        last = rating_order(game)
        if history is not None and len(tally.ladder.history) >= HISTORY_BATCH:
            history.add_history(tally.ladder.take_history())
    if history is not None:
        history.add_history(tally.ladder.take_history())
    return last


@functools.cache
def rating_code() -> str:
    """A digest of the code a tally depends on: the statistics, the scoring
    rule, the model, and the Elo package's version. A tally saved by other
    code is not gone on from."""
    digest = hashlib.sha1(importlib.metadata.version("elo").encode())
    for path in [*sorted(package_path("arena.stats").glob("*.py")), package_path("arena", "results.py"),
                 package_path("arena", "model.py"), package_path("arena", "ratings_cache.py")]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
