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
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arena.model import StoredGame
from arena.resources import package_path
from arena.stats.standings import Standings, Tally, json_rows
from arena.store import RatingState, Store

_LOG = logging.getLogger(__name__)


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


def rate(store: Store, full: bool = False, history: bool = True) -> Rated:
    """Standings of every stored game: from the saved tally and the games
    stored since where it can be trusted, else (or with ``full``) from every
    game. ``history`` False records no rating history (the standings'
    ``history_rows`` are then empty), only its samples for charts
    (:class:`arena.stats.elo.HistorySample`): what the site needs."""
    names = {bot_id: row["name"] for bot_id, row in store.bots().items()}
    games_rowid, last_key = store.last_stored()
    saved = None if full else store.rating_state(rating_code())
    if saved is not None:
        new = list(store.games_since(saved.games_rowid))
        if not new or saved.last_order is None or rating_order(new[0]) > saved.last_order:
            rowid = saved.games_rowid
            tally = Tally.from_json(json.loads(saved.tally), names,
                                    lambda game: store.games_on_seed(game.game, game.seed, rowid), history)
            last = _add(tally, new, saved.last_order)
            _LOG.info("ratings: %d new games rated onto the saved tally", len(new))
            return Rated(tally.standings(), tally, games_rowid, last_key, last, added=True)
        _LOG.info("ratings: a game stored since the last rating comes before it in rating order: "
                  "every game rated again")
    elif not full:
        _LOG.info("ratings: no saved tally to go on from (none yet, or the rating code, the schema or a "
                  "rated game changed): every game rated")
    tally = Tally.empty(names, history)
    last = _add(tally, store.games(solo=False), None)
    return Rated(tally.standings(), tally, games_rowid, last_key, last, added=False)


def rewrite(store: Store) -> Rated:
    """Rate (:func:`rate`) and write the ratings cache and its tally."""
    rated = rate(store)
    store.write_ratings(json_rows(rated.standings.rows), rated.standings.history_rows, rated.state(),
                        added=rated.added)
    return rated


def rating_order(game: StoredGame) -> tuple[int, int, str]:
    """Where a game comes in rating order (arena.store.RATING_ORDER)."""
    return game.plan, game.job_order, game.key


def _add(tally: Tally, games: Iterable[StoredGame], last: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    for game in games:
        tally.add(game)
        last = rating_order(game)
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
