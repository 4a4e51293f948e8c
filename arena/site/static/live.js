/* The live site: on a page served by arena league --serve or arena serve
   (arena/web/live.py), what changes is pushed by Server-Sent Events
   (live/events) and shown without a reload:
   - "built" (the site on disk was brought up to date): the standings,
     table, bot and version pages take the new page's <main> (the
     details a reader opened stay open), the games list reloads its data;
   - "status" (what is being played, how fast, what the league waits
     for): the live panel (#live, every page but the replays) lists the
     games in progress, each with a link to watch it (replay.html#live=KEY);
   - "ended" (a game in progress is stored).
   Each is also dispatched on the document as "arena:built",
   "arena:status" and "arena:ended" (the replay page of a game in
   progress follows it so). From file://, or a server without live/,
   nothing happens: the site is the static site. Names are inserted as
   text, never HTML. */
(function () {
  "use strict";
  if (!/^https?:$/.test(location.protocol)) return;
  const root = document.currentScript.getAttribute("data-root") || "";
  const panel = document.getElementById("live");
  let status = null;

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function plural(count, word) { return count + " " + word + (count === 1 ? "" : "s"); }

  function showStatus() {
    if (!panel || !status) return;
    panel.textContent = "";
    panel.hidden = false;
    panel.appendChild(element("h2", "", status.league ? "Live: the league" : "Live"));
    const facts = [plural(status.games || 0, "game") + " stored"];
    if (status.per_minute !== undefined) facts.push(status.per_minute.toFixed(1) + " a minute");
    if (status.active) facts.push(plural(status.active.length, "active version"));
    panel.appendChild(element("p", "live-facts", facts.join(" · ")));
    if (status.waiting) panel.appendChild(element("p", "live-waiting", "Waiting for " + status.waiting + "."));
    if (status.tests && status.tests.length) {
      const tests = element("ul", "live-tests");
      status.tests.forEach(function (line) { tests.appendChild(element("li", "", line)); });
      panel.appendChild(tests);
    }
    const playing = status.playing || [];
    if (!playing.length) {
      panel.appendChild(element("p", "live-idle", status.league ? "No game in progress." :
        "Nothing is being played: the page follows the site as it is rebuilt."));
      return;
    }
    const table = element("table", "live-games");
    const head = table.createTHead().insertRow();
    ["game", "seats", "steps", "for", "why", ""].forEach(function (name) { head.appendChild(element("th", "", name)); });
    const body = table.createTBody();
    playing.forEach(function (game) {
      const row = body.insertRow();
      row.setAttribute("data-key", game.key);
      row.insertCell().textContent = game.game;
      row.insertCell().textContent = game.seats.join(" vs ");
      row.insertCell().textContent = game.steps;
      row.insertCell().textContent = Math.round(game.seconds) + " s";
      row.insertCell().textContent = game.reason || "";
      const watch = element("a", "watch", "watch");
      watch.href = root + "replay.html#live=" + encodeURIComponent(game.key);
      row.insertCell().appendChild(watch);
    });
    panel.appendChild(element("h3", "", plural(playing.length, "game") + " in progress"));
    panel.appendChild(table);
  }

  /* A page made from the store: its <main> again, from the page as the
     build wrote it. */
  let swapping = null;
  async function swapMain() {
    if (swapping) { swapping.again = true; return; }
    swapping = {again: false};
    try {
      const answer = await fetch(location.href, {cache: "no-store"});
      if (!answer.ok) return;
      const fresh = new DOMParser().parseFromString(await answer.text(), "text/html").querySelector("main");
      const main = document.querySelector("main");
      if (!fresh || !main) return;
      const open = Array.from(main.querySelectorAll("details[open][id]")).map(function (d) { return d.id; });
      main.replaceChildren.apply(main, Array.from(fresh.childNodes).map(function (node) {
        return document.importNode(node, true);
      }));
      open.forEach(function (id) { const d = document.getElementById(id); if (d) d.open = true; });
      if (window.ArenaSite) window.ArenaSite.enhance(main);
      document.body.setAttribute("data-live-built", String(Date.now()));
    } catch (error) {
      // the server went away: the page stays as it was
    } finally {
      const again = swapping.again;
      swapping = null;
      if (again) swapMain();
    }
  }

  function built(message) {
    if (window.ArenaGamesList && window.ArenaGamesList.reload) window.ArenaGamesList.reload(message.generation);
    else if (document.body.getAttribute("data-live") === "page") swapMain();
  }

  function tell(kind, detail) { document.dispatchEvent(new CustomEvent("arena:" + kind, {detail: detail})); }

  function listen() {
    const source = new EventSource(root + "live/events");
    source.addEventListener("status", function (event) {
      status = JSON.parse(event.data);
      showStatus();
      tell("status", status);
    });
    source.addEventListener("built", function (event) {
      const message = JSON.parse(event.data);
      built(message);
      tell("built", message);
    });
    source.addEventListener("ended", function (event) { tell("ended", JSON.parse(event.data)); });
  }

  fetch(root + "live/status.json", {cache: "no-store"}).then(function (answer) {
    if (!answer.ok) return;  // served, but not by arena: the static site
    document.documentElement.setAttribute("data-served", "live");
    listen();
  }).catch(function () {});
})();
