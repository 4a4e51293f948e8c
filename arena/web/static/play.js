/* The play page: the person's seat in a game refereed by the server.

   The server speaks over one WebSocket (arena/web/server.py lists the
   messages). Its messages are handled one at a time, in order: an event
   is animated on the board (as in the replays, through the same board
   module) before the next message is looked at, so a decision is offered
   only once the bots' moves before it have been shown. Events and offered
   actions come with their words from the server (the game's text view,
   as the terminal prints them): the page words no move itself. The offered
   actions are drawn and made clickable by static/boards/offers.js, the
   code the replays use to show what a bot was offered.

   #play mirrors the page's state for tests and CSS: data-phase
   (connecting, playing, decide, over, closed), data-animating, data-games
   (games started on this page). ?speed=0
   in the address turns the animations off. */
(function () {
  "use strict";
  const root = document.getElementById("play");
  const $ = function (id) { return document.getElementById(id); };
  const U = ArenaBoards.util;
  const game = root.getAttribute("data-game");
  const svg = $("board");
  const speedParam = new URLSearchParams(location.search).get("speed");
  if (speedParam !== null && $("p-speed").querySelector('option[value="' + speedParam + '"]')) {
    $("p-speed").value = speedParam;
  }

  let socket = null, meta = null, view = null, offers = null, state = null;
  let inbox = [], busy = false, animation = null;

  function setPhase(phase) { root.setAttribute("data-phase", phase); }
  function send(message) { socket.send(JSON.stringify(message)); }
  function name(seat) { return U.seatLabel(meta, seat); }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const token = new URLSearchParams(location.search).get("token") || "";
    socket = new WebSocket(scheme + location.host + "/ws?token=" + encodeURIComponent(token));
    socket.addEventListener("open", function () { send({type: "start"}); });
    socket.addEventListener("message", function (message) {
      inbox.push(JSON.parse(message.data));
      pump();
    });
    socket.addEventListener("close", function () {
      if (animation) animation.finish();
      setPhase("closed");
      $("p-turn").textContent = "The server has stopped: run arena play again to play on.";
      if (offers) offers.clear();
      $("p-again").disabled = true;
    });
  }

  function pump() {
    while (!busy && inbox.length) handle(inbox.shift());
  }

  function handle(message) {
    if (message.type === "start") begin(message);
    else if (message.type === "event") showEvent(message);
    else if (message.type === "decide") offer(message);
    else if (message.type === "end") finish(message);
    else if (message.type === "out") {
      offers.clear();
      $("p-turn").textContent = message.message;
      setPhase("playing");
    }
    else if (message.type === "error") {
      $("p-turn").textContent = message.message;
      setPhase("over");
    }
  }

  function begin(message) {
    meta = {game: game, players: message.names.length,
            seats: message.names.map(function (n, seat) { return {seat: seat, name: n}; })};
    svg.textContent = "";
    svg.removeAttribute("viewBox");
    view = ArenaBoards[game](svg, ArenaBoardData[game], meta);
    offers = ArenaBoards.offers(svg, view);
    state = message.state;
    view.render(state);
    const wrap = root.querySelector(".board-wrap"), old = wrap.querySelector(".board-legend");
    if (old) old.remove();
    wrap.appendChild(U.legend(svg, view.legend));
    $("p-events").textContent = "";
    $("p-dice").textContent = "";
    $("p-result").hidden = true;
    $("p-banner").hidden = true;
    describe();
    $("p-turn").textContent = "You are " + name(message.seat) + ".";
    root.setAttribute("data-games", parseInt(root.getAttribute("data-games") || "0", 10) + 1);
    setPhase("playing");
  }

  function describe() {
    $("p-status").textContent = view.describe ? view.describe(state) : "";
  }

  function logEvent(event, words) {
    const item = document.createElement("li");
    item.className = event.kind + (words.forced ? " forced" : "");
    item.textContent = words.line;
    const list = $("p-events");
    list.appendChild(item);
    list.scrollTop = list.scrollHeight;
  }

  function showDice(event) {
    const dice = $("p-dice");
    dice.textContent = "";
    const label = document.createElement("span");
    label.className = "dice-label";
    label.textContent = (event.purpose || "chance") + " for " + U.streamLabel(meta, event.stream) + ":";
    dice.appendChild(label);
    const pips = event.purpose === "roll" || event.purpose === "rolloff";
    for (const value of event.values) dice.appendChild(U.dieFace(value, pips ? 6 : 0));
  }

  function showEvent(message) {
    const prev = state;
    state = message.state;
    logEvent(message.event, message.words);
    if (message.event.kind === "chance") showDice(message.event);
    else if (message.event.kind === "decision") $("p-turn").textContent = message.words.line;
    describe();
    const speed = parseFloat($("p-speed").value);
    if (!(speed > 0)) {
      view.render(state);
      return;
    }
    busy = true;
    animation = U.animate(view, view.transition(prev, state, message.event), prev, state, speed, function () {
      animation = null;
      root.setAttribute("data-animating", 0);
      busy = false;
      pump();
    });
    if (animation) root.setAttribute("data-animating", 1);
  }

  function offer(message) {
    state = message.state;
    view.render(state);
    describe();
    $("p-turn").textContent = "Your move: click a ringed spot on the board or an action below" +
      (message.timeout_ms === null ? "." : " (" + message.timeout_ms / 1000 + " s).");
    setPhase("decide");
    offers.show(state, message.actions, message.words, {list: $("p-actions"), onChoose: function (index) {
      if (root.getAttribute("data-phase") !== "decide") return;
      offers.clear();
      setPhase("playing");
      $("p-turn").textContent = "You chose: " + message.words[index] + ".";
      send({type: "choose", index: index});
    }});
  }

  function ordinal(n) { return n + (n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"); }

  function finish(message) {
    state = message.state;
    view.render(state);
    describe();
    offers.clear();
    const places = $("p-places");
    places.textContent = "";
    message.placements.map(function (place, seat) { return [place, seat]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .forEach(function (pair) {
        const item = document.createElement("li");
        item.setAttribute("data-seat", pair[1]);
        item.textContent = ordinal(pair[0]) + ": " + name(pair[1]) +
          (message.scores ? " · score " + message.scores[pair[1]] : "");
        places.appendChild(item);
      });
    $("p-forfeits").textContent = message.forfeits.map(function (f) {
      return name(f.seat) + " forfeited (" + f.termination.replace("_", " ") + (f.detail ? ": " + f.detail : "") + ")";
    }).join(" · ");
    const you = parseInt(root.getAttribute("data-seat"), 10);
    const words = message.winners.length === 1
      ? (message.winners[0] === you ? "You won!" : message.names[message.winners[0]] + " won.")
      : "Shared first place: " + message.winners.map(function (s) { return message.names[s]; }).join(", ") + ".";
    $("p-turn").textContent = "Game over. " + words;
    $("p-banner").textContent = words;
    $("p-banner").hidden = false;
    $("p-result").hidden = false;
    setPhase("over");
  }

  $("p-again").addEventListener("click", function () {
    if (root.getAttribute("data-phase") !== "over") return;
    setPhase("connecting");
    send({type: "start"});
  });

  root.setAttribute("data-animating", 0);
  connect();
})();
