/* The games list: every stored game (data/games.js), newest first, filtered
   by game, bot and result and shown a page at a time. The filters and the
   page live in the address (#game=...&bot=...&result=...&page=...) so a
   filtered list can be linked to. Names are inserted as text, never HTML. */
(function () {
  "use strict";
  const data = window.ARENA_GAMES;
  const PAGE_SIZE = 50;
  const $ = function (id) { return document.getElementById(id); };
  const gameSelect = $("f-game"), botSelect = $("f-bot"), resultSelect = $("f-result");
  const body = document.querySelector("#games tbody");
  // data.bots: [bot_id, name, version, page]; rows: [id, game, seats, winners, termination,
  // forfeit seat (-1 if none), decisions, finished (unix seconds), scores or null],
  // in the order the games finished
  let page = 1;

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }

  data.games.slice().sort().forEach(function (name) { option(gameSelect, name, name); });
  const names = {};
  data.bots.forEach(function (bot) { (names[bot[1]] = names[bot[1]] || []).push(bot); });
  Object.keys(names).sort().forEach(function (name) {
    const versions = names[name];
    if (versions.length > 1) option(botSelect, "n:" + name, name + " (all versions)");
    versions.forEach(function (bot) { option(botSelect, "v:" + bot[0], name + " @" + bot[2]); });
  });

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
      if ((value.startsWith("v:") && bot[0] === value.slice(2)) ||
          (value.startsWith("n:") && bot[1] === value.slice(2))) wanted.add(index);
    });
    return wanted;
  }

  function isDraw(row) { return row[3].length === 0 || row[3].length === row[2].length; }

  function matches(row, game, bots, result) {
    if (game >= 0 && row[1] !== game) return false;
    let seats = null;
    if (bots) {
      seats = [];
      row[2].forEach(function (bot, seat) { if (bots.has(bot)) seats.push(seat); });
      if (!seats.length) return false;
    }
    switch (result) {
      case "": return true;
      case "draw": return row[2].length > 1 && isDraw(row);
      case "forfeit": return row[5] >= 0 && (!seats || seats.indexOf(row[5]) >= 0);
      case "normal": return row[4] === "normal";
      case "win":
        if (isDraw(row)) return false;
        return !seats || seats.some(function (seat) { return row[3].indexOf(seat) >= 0; });
      case "loss":
        if (isDraw(row)) return false;
        return !seats || seats.some(function (seat) { return row[3].indexOf(seat) < 0; });
      default: return true;
    }
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

  function render() {
    readHash();
    const game = gameSelect.value ? data.games.indexOf(gameSelect.value) : -1;
    const bots = botMatcher();
    const result = resultSelect.value;
    const found = [];
    for (let i = data.rows.length - 1; i >= 0; i--) {
      if (matches(data.rows[i], game, bots, result)) found.push(i);
    }
    const pages = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
    page = Math.min(page, pages);
    $("count").textContent = found.length + " of " + data.rows.length + " games";
    body.textContent = "";
    const fragment = document.createDocumentFragment();
    for (const index of found.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)) {
      const row = data.rows[index];
      const tr = document.createElement("tr");
      const href = "games/" + row[0].slice(0, 2) + "/" + row[0] + ".html";
      link(cell(tr, "num"), href, "#" + (index + 1), "game-link");
      cell(tr).textContent = data.games[row[1]];
      const seats = cell(tr, "seats-cell");
      row[2].forEach(function (botIndex, seat) {
        const bot = data.bots[botIndex];
        if (seat) {
          const sep = document.createElement("span");
          sep.className = "sep";
          sep.textContent = "vs";
          seats.appendChild(sep);
        }
        const a = link(seats, bot[3], bot[1], row[3].indexOf(seat) >= 0 ? "won" : "");
        a.title = bot[1] + " @" + bot[2] + " (seat " + seat + ")";
      });
      let text;
      if (row[2].length === 1) text = "solo" + (row[8] ? " · " + row[8][0] + " rolls" : "");
      else if (isDraw(row)) text = "draw";
      else text = row[3].map(function (seat) { return data.bots[row[2][seat]][1]; }).join(", ") + " won";
      link(cell(tr), href, text);
      const ending = cell(tr);
      ending.textContent = row[4].replace("_", " ") +
        (row[5] >= 0 ? " (" + data.bots[row[2][row[5]]][1] + ")" : "");
      cell(tr, "num").textContent = row[6];
      cell(tr).textContent = when(row[7]);
      fragment.appendChild(tr);
    }
    body.appendChild(fragment);
    $("p-label").textContent = "page " + page + " of " + pages;
    $("p-first").disabled = $("p-prev").disabled = page <= 1;
    $("p-last").disabled = $("p-next").disabled = page >= pages;
    $("p-first").onclick = function () { page = 1; writeHash(); };
    $("p-prev").onclick = function () { page -= 1; writeHash(); };
    $("p-next").onclick = function () { page += 1; writeHash(); };
    $("p-last").onclick = function () { page = pages; writeHash(); };
    document.body.setAttribute("data-games-shown", found.length);
  }

  [gameSelect, botSelect, resultSelect].forEach(function (select) {
    select.addEventListener("change", function () { page = 1; writeHash(); });
  });
  window.addEventListener("hashchange", render);
  render();
})();
