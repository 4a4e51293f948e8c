/* replay.html: the one page of every game's replay. The address names the
   game by its number (#game=N, and #step=K for a step), or a game in
   progress by its key (#live=KEY, on the site served by arena league
   --serve: followed step by step until it is stored): this script loads
   the replay chunk holding it (data/replays/<chunk>.js, by <script> so that
   the site works from file://), inflates the game's payload, shows the
   game's header as arena rendered it, then loads the game's board drawing, its replay engine (which makes
   the game's steps from its record, where the game brings one) and
   static/replay.js, which plays the replay, and, where the luck of its dice is stored,
   static/luck.js, which draws it. Another game in the address loads the page afresh. */
(function () {
  "use strict";
  const root = document.getElementById("replay");
  const perChunk = parseInt(root.getAttribute("data-per-chunk"), 10);  // arena/site/paths.py REPLAYS_PER_CHUNK

  function liveInAddress() {
    const match = /(?:^#|&)live=([^&]*)(?:&|$)/.exec(location.hash);
    return match ? decodeURIComponent(match[1]) : null;
  }

  function gameInAddress() {
    const match = /(?:^#|&)game=(\d+)(?:&|$)/.exec(location.hash);
    return match ? parseInt(match[1], 10) : null;
  }

  function note(message) {
    const p = document.createElement("p");
    p.className = "problem";
    p.textContent = message;
    root.appendChild(p);
  }

  function fail(message) {
    note(message);
    root.setAttribute("data-ready", "error");
  }

  function load(tag, attributes) {
    return new Promise(function (resolve, reject) {
      const element = document.createElement(tag);
      Object.keys(attributes).forEach(function (name) { element.setAttribute(name, attributes[name]); });
      element.onload = resolve;
      element.onerror = function () { reject(new Error("could not load " + (attributes.src || attributes.href))); };
      document.head.appendChild(element);
    });
  }

  /* A game's payload (arena/site/schema.json, $defs/gamePayload): JSON,
     zlib-compressed and base64-encoded, inflated by the browser. */
  async function decode(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return JSON.parse(await new Response(stream).text());
  }

  const chunks = {};
  window.ArenaReplays = {add: function (chunk, games) { chunks[chunk] = games; }};

  /* A stored game: its entry in its replay chunk, inflated. */
  async function stored(number) {
    if (number === null || number < 1) throw new Error("No game in the address (replay.html#game=N).");
    const chunk = Math.floor((number - 1) / perChunk);
    try {
      await load("script", {src: "data/replays/" + chunk + ".js"});
    } catch (error) {
      throw new Error("There is no game " + number + " on this site.");
    }
    const entry = chunks[chunk] && chunks[chunk][String(number)];
    if (!entry) throw new Error("There is no game " + number + " on this site.");
    let shown;
    try {
      shown = await decode(entry.payload);
    } catch (error) {
      throw new Error("The game's data could not be read: " + error);
    }
    root.setAttribute("data-number", number);
    return {game: entry.game, players: entry.players, shown: shown};
  }

  /* A game in progress, from the server that serves the site
     (arena/web/live.py: live/game?key=KEY): its steps so far, followed as
     static/live.js hears of more; once it is stored, its replay. */
  async function inProgress(key) {
    const address = "live/game?key=" + encodeURIComponent(key);
    const answer = await fetch(address, {cache: "no-store"}).catch(function () { return null; });
    if (!answer || !answer.ok) {
      throw new Error(location.protocol === "file:" ? "A game in progress is shown only on the site served by " +
        "arena league --serve." : "The game " + key + " is not in progress here.");
    }
    const found = await answer.json();
    let stored = false;
    function toStored(number) {  // once: the address changing reloads the page (below)
      if (!stored) { stored = true; location.replace("replay.html#game=" + number); }
    }
    if (found.ended) { toStored(found.ended); throw new Error("It has ended."); }
    root.setAttribute("data-live-key", key);
    let steps = found.steps, asking = false, again = false;
    async function more() {
      if (asking) { again = true; return; }
      asking = true;
      try {
        const next = await (await fetch(address, {cache: "no-store"})).json();
        if (next.ended) { toStored(next.ended); return; }
        if (next.steps > steps && window.ArenaReplay) { steps = next.steps; window.ArenaReplay.grow(next.replay); }
      } catch (error) {
        // the server went away: the page shows what it had
      } finally {
        asking = false;
        if (again) { again = false; more(); }
      }
    }
    document.addEventListener("arena:status", function (event) {
      const playing = event.detail.playing.find(function (game) { return game.key === key; });
      if (!playing || playing.steps > steps) more();
    });
    document.addEventListener("arena:ended", function (event) {
      if (event.detail.key === key) toStored(event.detail.number);
    });
    return {game: found.game, players: found.players, shown: {head: found.head, problem: null, replay: found.replay}};
  }

  async function start() {
    const key = liveInAddress();
    let found;
    try {
      found = await (key !== null ? inProgress(key) : stored(gameInAddress()));
    } catch (error) {
      fail(error.message);
      return;
    }
    const shown = found.shown;
    const head = document.getElementById("game-head");
    head.innerHTML = shown.head;  // rendered by arena, everything a bot chose escaped
    document.title = head.querySelector("h1").textContent.replace(/\s+/g, " ").trim() + " · arena leaderboard";
    root.setAttribute("data-game", found.game);
    root.setAttribute("data-players", found.players);
    const board = document.getElementById("board");
    board.classList.add("board-" + found.game);
    board.setAttribute("aria-label", "the " + found.game + " board");
    if (shown.problem) note(shown.problem);
    document.getElementById("replay-data").textContent = JSON.stringify(shown.replay);
    const scripts = ["data/board-" + found.game + ".js", "static/boards/common.js", "static/boards/generic.js",
                     "data/drawing-" + found.game + ".js", "static/boards/offers.js", "data/text-view.js",
                     "data/engine-" + found.game + ".js", "static/replay.js"];
    if (shown.luck) {
      document.getElementById("luck-data").textContent = JSON.stringify(shown.luck);
      document.getElementById("luck").hidden = false;
      scripts.push("static/luck.js");
    }
    try {
      await load("link", {rel: "stylesheet", href: "data/drawing-" + found.game + ".css"});
      for (const src of scripts) {
        await load("script", {src: src});
      }
    } catch (error) {
      fail("The replay could not start: " + error.message);
    }
  }

  window.addEventListener("hashchange", function () {
    const number = gameInAddress();
    const key = liveInAddress();
    if ((number !== null && String(number) !== root.getAttribute("data-number")) ||
        (key !== null && key !== root.getAttribute("data-live-key"))) location.reload();
  });
  start();
})();
