/* The games list: every stored game, newest first, filtered by game, bot
   and result and shown a page at a time. data/games.js says what the
   chunks of rows share (the bots, the games, how many there are); the rows
   come in chunks, data/list/<chunk>.js, loaded here by <script> (the site
   works from file://) only when a page needs them: the unfiltered list
   loads the one or two chunks its page is in, a filtered one reads chunks
   newest first until its page is full, shows it, and reads on in the
   background to count the rest. The filters and the page live in the
   address (#game=...&bot=...&result=...&page=...) so a filtered list can be
   linked to. Names are inserted as text, never HTML. */
(function () {
  "use strict";
  let data = window.ARENA_GAMES;
  let chunks = [];  // chunk number -> its rows, once loaded
  let loading = [];  // chunk number -> the promise of its rows
  let generation = null;  // the site's build, on a served site that was rebuilt since the page loaded
  const PAGE_SIZE = 50;
  let lastChunk = Math.ceil(data.total / data.chunkSize) - 1;
  const $ = function (id) { return document.getElementById(id); };
  const gameSelect = $("f-game"), botSelect = $("f-bot"), resultSelect = $("f-result");
  const body = document.querySelector("#games tbody");
  // Rows and bots are positional; data.fields names their fields as
  // arena/site/schema.json defines them, and every field is read by name.
  function fieldsOf(names, wanted) {
    const index = {};
    for (const name of wanted) {
      index[name] = names.indexOf(name);
      if (index[name] < 0) throw new Error("data/games.js has no field " + name + " (see arena/site/schema.json)");
    }
    return index;
  }
  const R = fieldsOf(data.fields.rows,
    ["game", "seats", "results", "places", "ending", "forfeit", "decisions", "finished", "scores", "log"]);
  const B = fieldsOf(data.fields.bots, ["bot_id", "name", "version", "page"]);
  let page = 1;

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }

  function fillSelects() {
    for (const select of [gameSelect, botSelect]) {
      while (select.options.length > 1) select.remove(1);
    }
    data.games.slice().sort().forEach(function (name) { option(gameSelect, name, name); });
    const names = {};
    data.bots.forEach(function (bot) { (names[bot[B.name]] = names[bot[B.name]] || []).push(bot); });
    Object.keys(names).sort().forEach(function (name) {
      const versions = names[name];
      if (versions.length > 1) option(botSelect, "n:" + name, name + " (all versions)");
      versions.forEach(function (bot) { option(botSelect, "v:" + bot[B.bot_id], name + " @" + bot[B.version]); });
    });
  }
  fillSelects();

  /* The site was rebuilt (static/live.js, on a served site): the list
     again from the new data, at the same filters and page. */
  function reload(built) {
    const script = document.createElement("script");
    script.src = "data/games.js?g=" + built;
    script.onload = function () {
      script.remove();
      data = window.ARENA_GAMES;
      generation = built;
      chunks = [];
      loading = [];
      scan = null;
      lastChunk = Math.ceil(data.total / data.chunkSize) - 1;
      fillSelects();
      render();
    };
    document.head.appendChild(script);
  }
  // A chunk's script hands its rows here; its load event, which follows
  // its running at once, takes them (loadChunk).
  let added = null;
  window.ArenaGamesList = {add: function (chunk, rows) { added = {chunk: chunk, rows: rows}; }, reload: reload};

  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    gameSelect.value = params.get("game") || "";
    botSelect.value = params.get("bot") || "";
    if (botSelect.value !== (params.get("bot") || "")) botSelect.value = "";
    resultSelect.value = params.get("result") || "";
    page = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
  }

  function writeHash() {
    const params = new URLSearchParams();
    if (gameSelect.value) params.set("game", gameSelect.value);
    if (botSelect.value) params.set("bot", botSelect.value);
    if (resultSelect.value) params.set("result", resultSelect.value);
    if (page > 1) params.set("page", String(page));
    const hash = params.toString();
    if (location.hash.slice(1) !== hash) location.hash = hash;
    else render();
  }

  function botMatcher() {
    const value = botSelect.value;
    if (!value) return null;
    const wanted = new Set();
    data.bots.forEach(function (bot, index) {
      if ((value.startsWith("v:") && bot[B.bot_id] === value.slice(2)) ||
          (value.startsWith("n:") && bot[B.name] === value.slice(2))) wanted.add(index);
    });
    return wanted;
  }

  // A seat's result is arena.results' verdict: "w" won (first alone), "d"
  // drew (a shared first place is a draw), "l" lost. A game nobody won
  // alone is a draw; a solo game is neither won, lost nor drawn here.
  function seatResult(row, seat) { return row[R.results][seat]; }
  function solo(row) { return row[R.seats].length === 1; }
  function isDraw(row) { return !solo(row) && row[R.results].indexOf("w") < 0; }

  function matches(row, game, bots, wanted) {
    if (game >= 0 && row[R.game] !== game) return false;
    let seats = null;
    if (bots) {
      seats = [];
      row[R.seats].forEach(function (bot, seat) { if (bots.has(bot)) seats.push(seat); });
      if (!seats.length) return false;
    }
    const any = function (letter) {
      return seats ? seats.some(function (seat) { return seatResult(row, seat) === letter; })
                   : row[R.results].indexOf(letter) >= 0;
    };
    switch (wanted) {
      case "": return true;
      case "draw": return isDraw(row);
      case "forfeit": return row[R.forfeit] >= 0 && (!seats || seats.indexOf(row[R.forfeit]) >= 0);
      case "normal": return row[R.ending] === "normal";
      case "win": return !solo(row) && any("w");
      case "loss": return !solo(row) && !isDraw(row) && any("l");
      default: return true;
    }
  }

  function ordinal(place) {
    return place + (place === 1 ? "st" : place === 2 ? "nd" : place === 3 ? "rd" : "th");
  }

  function when(seconds) {
    if (!seconds) return "";
    return new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ");
  }

  function cell(tr, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    tr.appendChild(td);
    return td;
  }

  function link(parent, href, text, className) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (className) a.className = className;
    parent.appendChild(a);
    return a;
  }

  // A chunk of an older build that arrives after a reload is dropped: its
  // rows are not the rows the list now counts.
  function loadChunk(chunk) {
    if (!loading[chunk]) {
      const build = loading;
      loading[chunk] = new Promise(function (resolve, reject) {
        const script = document.createElement("script");
        script.src = "data/list/" + chunk + ".js" + (generation === null ? "" : "?g=" + generation);
        script.onload = function () {
          const found = added;
          added = null;
          if (!found || found.chunk !== chunk) { reject(new Error(script.src + " holds no rows")); return; }
          if (build === loading) chunks[chunk] = found.rows;
          resolve(found.rows);
        };
        script.onerror = function () { reject(new Error("could not load " + script.src)); };
        document.head.appendChild(script);
      });
    }
    return loading[chunk];
  }

  // Where the games matching the filters are (their indexes, newest first),
  // as far as the chunks read so far say: a scan goes on, chunk by chunk
  // from the newest, while anyone waits for more; "done" once all are read.
  let scan = null;

  function scanFor(game, bot, result) {
    const filters = JSON.stringify([game, bot, result]);
    if (scan && scan.filters === filters) return scan;
    const gameIndex = game ? data.games.indexOf(game) : -1;
    const bots = botMatcher();
    scan = {filters: filters, found: [], next: lastChunk, done: lastChunk < 0,
            accepts: function (row) { return matches(row, gameIndex, bots, result); }};
    return scan;
  }

  function readOn(current) {
    const chunk = current.next;
    return loadChunk(chunk).then(function (rows) {
      if (current.next !== chunk) return;  // another caller read it meanwhile
      for (let i = rows.length - 1; i >= 0; i--) {
        if (current.accepts(rows[i])) current.found.push(chunk * data.chunkSize + i);
      }
      current.next = chunk - 1;
      current.done = current.next < 0;
    });
  }

  function readUntil(current, wanted) {
    if (current.done || current.found.length >= wanted) return Promise.resolve();
    return readOn(current).then(function () { return readUntil(current, wanted); });
  }

  function rowAt(index) { return chunks[Math.floor(index / data.chunkSize)][index % data.chunkSize]; }

  let drawn = 0;  // renders asked for: a render that was overtaken draws nothing

  function render() {
    readHash();
    const mine = ++drawn;
    const filtered = gameSelect.value || botSelect.value || resultSelect.value;
    let shown;
    if (!filtered) {
      page = Math.min(page, Math.max(1, Math.ceil(data.total / PAGE_SIZE)));
      const indexes = [];
      for (let i = data.total - 1 - (page - 1) * PAGE_SIZE; i >= 0 && indexes.length < PAGE_SIZE; i--) indexes.push(i);
      const needed = Array.from(new Set(indexes.map(function (i) { return Math.floor(i / data.chunkSize); })));
      shown = Promise.all(needed.map(loadChunk)).then(function () {
        return {indexes: indexes, count: data.total, done: true};
      });
    } else {
      const current = scanFor(gameSelect.value, botSelect.value, resultSelect.value);
      shown = readUntil(current, page * PAGE_SIZE).then(function () {
        const pages = Math.max(1, Math.ceil(current.found.length / PAGE_SIZE));
        if (current.done && page > pages) page = pages;
        return {indexes: current.found.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
                count: current.found.length, done: current.done, scan: current};
      });
    }
    shown.then(function (view) {
      if (mine !== drawn) return;
      draw(view);
      if (!view.done) countOn(view.scan, mine);
    }, failed);
  }

  // Read the rest of a filtered list's chunks, one at a time, saying how
  // many games are found so far, then draw the pager with the full count.
  function countOn(current, mine) {
    if (mine !== drawn || current !== scan) return;
    if (current.done) { pager(current.found.length, true); return; }
    readOn(current).then(function () {
      if (mine !== drawn || current !== scan) return;
      pager(current.found.length, current.done);
      setTimeout(function () { countOn(current, mine); }, 0);
    }, failed);
  }

  function failed(error) { $("count").textContent = "The games list could not be loaded: " + error.message; }

  function pager(count, done) {
    const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
    $("count").textContent = done ? count + " of " + data.total + " games"
      : count + " of " + data.total + " games so far (reading on)";
    $("p-label").textContent = "page " + page + " of " + pages + (done ? "" : "+");
    $("p-first").disabled = $("p-prev").disabled = page <= 1;
    $("p-next").disabled = done && page >= pages;
    $("p-last").disabled = !done || page >= pages;
    $("p-first").onclick = function () { page = 1; writeHash(); };
    $("p-prev").onclick = function () { page -= 1; writeHash(); };
    $("p-next").onclick = function () { page += 1; writeHash(); };
    $("p-last").onclick = function () { page = pages; writeHash(); };
    if (done) document.body.setAttribute("data-games-shown", count);
    else document.body.removeAttribute("data-games-shown");
  }

  function draw(view) {
    body.textContent = "";
    const fragment = document.createDocumentFragment();
    for (const index of view.indexes) {
      const row = rowAt(index);
      const tr = document.createElement("tr");
      const seatBots = row[R.seats];
      const href = "replay.html#game=" + (index + 1);
      link(cell(tr, "num"), href, "#" + (index + 1), "game-link");
      cell(tr).textContent = data.games[row[R.game]] + (seatBots.length > 2 ? ", " + seatBots.length + " players" : "");
      const seats = cell(tr, "seats-cell");
      seatBots.forEach(function (botIndex, seat) {
        const bot = data.bots[botIndex];
        if (seat) {
          const sep = document.createElement("span");
          sep.className = "sep";
          sep.textContent = "vs";
          seats.appendChild(sep);
        }
        const a = link(seats, bot[B.page], bot[B.name], seatResult(row, seat) === "w" ? "won" : "");
        a.title = bot[B.name] + " @" + bot[B.version] + " (seat " + seat + ")";
      });
      const nameOf = function (seat) { return data.bots[seatBots[seat]][B.name]; };
      const seatsWith = function (letter) {
        return seatBots.map(function (_, seat) { return seat; })
          .filter(function (seat) { return seatResult(row, seat) === letter; });
      };
      let text;
      const scores = row[R.scores];
      if (solo(row)) text = "solo" + (scores ? " · " + scores[0] + " rolls" : "");
      else if (isDraw(row)) {
        const shared = seatsWith("d");
        text = shared.length < seatBots.length ? "draw: " + shared.map(nameOf).join(", ") + " share first" : "draw";
      } else text = seatsWith("w").map(nameOf).join(", ") + " won";
      if (seatBots.length > 2) {  // a pod: every seat's place after the first
        const places = row[R.places];
        const rest = seatBots.map(function (_, seat) { return seat; })
          .filter(function (seat) { return places[seat] > 1; })
          .sort(function (a, b) { return places[a] - places[b]; });
        if (rest.length) text += " · " + rest.map(function (seat) { return nameOf(seat) + " " + ordinal(places[seat]); }).join(", ");
      }
      link(cell(tr), href, text);
      const ending = cell(tr);
      const forfeit = row[R.forfeit];
      ending.textContent = row[R.ending].replace("_", " ") + (forfeit >= 0 ? " (" + nameOf(forfeit) + ")" : "");
      if (row[R.log]) {
        ending.appendChild(document.createTextNode(" "));
        link(ending, "logs/" + row[R.log] + ".html", "stderr", "log-link");
      }
      cell(tr, "num").textContent = row[R.decisions];
      cell(tr, "when").textContent = when(row[R.finished]);
      fragment.appendChild(tr);
    }
    body.appendChild(fragment);
    pager(view.count, view.done);
  }

  [gameSelect, botSelect, resultSelect].forEach(function (select) {
    select.addEventListener("change", function () { page = 1; writeHash(); });
  });
  window.addEventListener("hashchange", render);
  render();
})();
