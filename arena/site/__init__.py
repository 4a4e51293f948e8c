"""The leaderboard site, generated from the store as static files.

One module per job: :mod:`~arena.site.data` gathers what the pages show
(the standings, fit and head-to-head of :mod:`arena.ratings_cache`, and
the site's own tally of the games, saved with the site and gone on from,
results from :mod:`arena.results`);
:mod:`~arena.site.charts` draws; :mod:`arena.games.replays` (in the games
layer: workers make a game's replay where they play it) writes the replay
payload and its state patches; :mod:`~arena.site.pages` renders the
templates; :mod:`~arena.site.builder` writes the files. ``schema.json`` is
the one description of the data handed to the browser (the games list and
the replay), read by :mod:`~arena.site.schema` and by the tests.

The site works from file:// with no network: no CDN, no web fonts, no fetch
of local files. Data the browser needs is embedded in the pages or in .js
files loaded with <script src> (also those a page adds as it needs them). Everything a bot chose (its name, its
stderr, the detail of its forfeit) goes through Jinja's autoescape or, in
the browser, through textContent; bot names never become file names as they
are (see :func:`arena.site.paths.slug`).

Layout of the site::

    index.html                     standings, overall and per game
    tables/<table>.html            one table (a game at a player count, such
                                   as GAME or GAME-3p, or overall): standings,
                                   head-to-head, rating history
    games.html, data/games.js      the games list, filtered in the browser, its
    data/list/<n>.js               rows in chunks of 5,000 games
    replay.html#game=N&step=K      game N (numbered as they finished) and its
    data/replays/<n>.js            replay, from chunks of 1,000 games
    bots/<slug>/index.html         a bot (all its versions)
    bots/<slug>/<hash>.html        a bot version
    logs/<id>.html                 a bot's stderr log for a match
    static/                        CSS and JavaScript (boards/<game>.js)
"""

from __future__ import annotations

from arena.site.builder import MANIFEST, Site, build
from arena.site.data import solo_results

__all__ = ["MANIFEST", "Site", "build", "solo_results"]
