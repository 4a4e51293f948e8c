/* replay.html: the one page of every game's replay. The address names the
   game by its number (#game=N, and #step=K for a step): this script loads
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

  async function start() {
    const number = gameInAddress();
    if (number === null || number < 1) { fail("No game in the address (replay.html#game=N)."); return; }
    const chunk = Math.floor((number - 1) / perChunk);
    try {
      await load("script", {src: "data/replays/" + chunk + ".js"});
    } catch (error) {
      fail("There is no game " + number + " on this site.");
      return;
    }
    const entry = chunks[chunk] && chunks[chunk][String(number)];
    if (!entry) { fail("There is no game " + number + " on this site."); return; }
    let shown;
    try {
      shown = await decode(entry.payload);
    } catch (error) {
      fail("The game's data could not be read: " + error);
      return;
    }
    const head = document.getElementById("game-head");
    head.innerHTML = shown.head;  // rendered by arena, everything a bot chose escaped
    document.title = head.querySelector("h1").textContent.replace(/\s+/g, " ").trim() + " · arena leaderboard";
    root.setAttribute("data-game", entry.game);
    root.setAttribute("data-players", entry.players);
    root.setAttribute("data-number", number);
    const board = document.getElementById("board");
    board.classList.add("board-" + entry.game);
    board.setAttribute("aria-label", "the " + entry.game + " board");
    if (shown.problem) note(shown.problem);
    document.getElementById("replay-data").textContent = JSON.stringify(shown.replay);
    const scripts = ["data/board-" + entry.game + ".js", "static/boards/common.js", "static/boards/generic.js",
                     "data/drawing-" + entry.game + ".js", "static/boards/offers.js", "data/text-view.js",
                     "data/engine-" + entry.game + ".js", "static/replay.js"];
    if (shown.luck) {
      document.getElementById("luck-data").textContent = JSON.stringify(shown.luck);
      document.getElementById("luck").hidden = false;
      scripts.push("static/luck.js");
    }
    try {
      await load("link", {rel: "stylesheet", href: "data/drawing-" + entry.game + ".css"});
      for (const src of scripts) {
        await load("script", {src: src});
      }
    } catch (error) {
      fail("The replay could not start: " + error.message);
    }
  }

  window.addEventListener("hashchange", function () {
    const number = gameInAddress();
    if (number !== null && String(number) !== root.getAttribute("data-number")) location.reload();
  });
  start();
})();
