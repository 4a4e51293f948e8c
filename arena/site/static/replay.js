/* The replay player of replay.html.

   static/replay-page.js puts the game's replay on the page (#replay-data,
   JSON): the record, from
   which the game's replay engine makes every step (fromRecord), or, for a
   game that brings none, the record (events) with, for every step, the
   fields of the engine's state JSON that changed and its words. Step 0 is the initial state; step k is the state after
   event k - 1, and words[k - 1] says event k - 1 in the game's own words
   (its text view, the words of the terminal and the play page: this page
   words no move itself). The board module of the game (static/boards/<game>.js) draws
   the board and the pieces and says how to animate a step. The player's
   state is mirrored on #replay as data attributes (data-step,
   data-animating, data-anim-speed, data-anim-duration) for tests and CSS. */
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const PAUSE_MS = 420;       // between steps when playing at 1x
  const $ = function (id) { return document.getElementById(id); };
  const game = root.getAttribute("data-game");
  const svg = $("board");

  // The controls are the same on every game page, so they live here rather
  // than in 100,000 copies of the page (constant markup, no data in it).
  const icon = function (d) { return '<svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="' + d + '"/></svg>'; };
  root.querySelector(".side").innerHTML =
    '<div class="controls" role="toolbar" aria-label="replay controls">' +
    '<button type="button" id="r-first" title="to the start (Home)" aria-label="to the start">' + icon("M3 2h2v12H3z M14 2v12L6 8z") + '</button>' +
    '<button type="button" id="r-back" title="step back (\u2190)" aria-label="step back">' + icon("M12 2v12L4 8z") + '</button>' +
    '<button type="button" id="r-play" title="play / pause (space)">\u25b6 play</button>' +
    '<button type="button" id="r-forward" title="step forward (\u2192)" aria-label="step forward">' + icon("M4 2v12l8-6z") + '</button>' +
    '<button type="button" id="r-last" title="to the end (End)" aria-label="to the end">' + icon("M2 2v12l8-6z M11 2h2v12h-2z") + '</button>' +
    '</div>' +
    '<div class="scrub"><input type="range" id="r-slider" min="0" max="0" value="0" aria-label="jump to a step">' +
    '<label class="jump">step <input type="number" id="r-jump" min="0" max="0" value="0"> / <span id="r-total">0</span></label></div>' +
    '<div class="controls"><button type="button" id="r-half" class="wide">\u21ba replay last move at half speed</button>' +
    '<label class="speed">speed <select id="r-speed"><option value="0.5">\u00bd\u00d7</option>' +
    '<option value="1" selected>1\u00d7</option><option value="2">2\u00d7</option><option value="4">4\u00d7</option></select></label></div>' +
    '<div id="r-event" class="event-panel" aria-live="polite"></div>' +
    '<details id="r-message" class="bot-message" hidden><summary></summary><pre></pre></details>' +
    '<div id="r-status" class="status"></div>' +
    '<ol id="r-events" class="event-list" start="1"></ol>';

  const meta = {
    game: game,
    players: parseInt(root.getAttribute("data-players"), 10),
    seats: Array.from(document.querySelectorAll(".seats .seat")).map(function (li) {
      const name = li.querySelector(".name");
      return {seat: parseInt(li.getAttribute("data-seat"), 10), name: name ? name.textContent : ""};
    }),
  };

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


  /* Patches as arena/site/schema.json ($defs/patch) describes them and
     arena/site/replays.py's state_patch writes them: {$v} a dict whole,
     {$d, $x} a dict by key, {$l} a list by index, anything else itself.
     Unchanged parts are shared between states, and nothing mutates a state. */
  function applyPatch(old, patch) {
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
    if ("$v" in patch) return patch.$v;
    if ("$d" in patch) {
      const result = Object.assign({}, old);
      for (const key of patch.$x || []) delete result[key];
      for (const key in patch.$d) result[key] = applyPatch(old ? old[key] : undefined, patch.$d[key]);
      return result;
    }
    const list = old.slice();
    for (const change of patch.$l) list[change[0]] = applyPatch(old[change[0]], change[1]);
    return list;
  }

  function buildStates(patches) {
    const states = [];
    let current = null;
    for (const patch of patches) {
      current = current === null ? patch : applyPatch(current, patch);
      states.push(current);
    }
    return states;
  }

  /* A record replay (arena/site/schema.json, $defs/recordReplay): the
     game's engine for the browser (data/engine-<game>.js, the contract in
     data/text-view.js) makes every state, the actions offered at each
     decision and each step's words from the record, as the referee's
     engine and text view did. Where the record stops replaying, or the
     engine offers other actions than the referee did (a record made under
     other rules), the steps that replayed are shown and the problem said. */
  function fromRecord(data, board) {
    const engine = window.ArenaEngines && window.ArenaEngines[game];
    const made = {states: [], events: [], words: [], problem: null};
    if (!engine || !engine.apply) {
      made.problem = "This site has no replay engine for " + game + ".";
      return made;
    }
    const util = ArenaEngines.util;
    const view = new engine.View(board, meta.seats.map(function (seat) { return seat.name; }), null);
    const offered = [];
    try {
      let state = engine.initial(meta.players, data.options, board);
      made.states.push(state);
      for (const stored of data.record) {
        let event = stored;
        if (stored.kind === "decision") {
          const offers = engine.legalActions(state, board);
          if (!(stored.chosen >= 0 && stored.chosen < offers.length)) {
            throw new Error("the engine does not offer the recorded action: the record was made under other rules");
          }
          offered.push(offers);
          event = {kind: "decision", seat: stored.seat, offered: offers, chosen: stored.chosen};
        }
        const next = engine.apply(state, event, board);
        made.words.push(view.step(state, event, next));
        made.events.push(event);
        made.states.push(next);
        state = next;
      }
      if (data.offered !== null && util.offeredDigest(offered) !== data.offered) {
        made.problem = "The engine offers other actions than the referee did: the record was made under other rules.";
      }
    } catch (error) {
      made.problem = "The record does not replay on this engine after step " + made.events.length + ": " + error.message;
      made.states.length = Math.min(made.states.length, made.events.length + 1);
    }
    return made;
  }

  // ------------------------------------------------------------ text

  function seatLabel(seat) { return ArenaBoards.util.seatLabel(meta, seat); }
  function streamLabel(stream) { return ArenaBoards.util.streamLabel(meta, stream); }

  const dieFace = ArenaBoards.util.dieFace;

  // ------------------------------------------------------------ the player

  let states = [], events = [], words = [], view = null, offers = null;
  let answerMs = [], timeoutMs = null, decisionNumber = [];  // decisionNumber[k]: how many decisions before event k
  let step = 0, playing = false, speed = 1, animation = null, timer = null, addressTimer = null;
  const motionCache = {};

  function setAttr(name, value) { root.setAttribute(name, String(value)); }

  function finishAnimation() {
    if (!animation) return;
    const done = animation;
    animation = null;
    done.finish();
    setAttr("data-animating", 0);
  }

  function transitionInto(k) {
    if (k <= 0) return null;
    const plan = view.transition(states[k - 1], states[k], events[k - 1]);
    motionCache[k] = !!(plan && plan.tracks && plan.tracks.length);
    return plan;
  }

  function hasMotion(k) {
    if (!(k in motionCache)) transitionInto(k);
    return motionCache[k];
  }

  /* Animate the step into state k, drawn from state k - 1. */
  function animateInto(k, factor, then) {
    const plan = transitionInto(k);
    const handle = ArenaBoards.util.animate(view, plan, states[k - 1], states[k], factor, function () {
      animation = null;
      setAttr("data-animating", 0);
      if (then) then();
    });
    if (!handle) return;
    animation = handle;
    setAttr("data-animating", 1);
    setAttr("data-anim-speed", factor);
    setAttr("data-anim-duration", Math.round(handle.duration));
    setAttr("data-anim-step", k);
  }

  function show(k, animate, factor, then) {
    finishAnimation();
    k = Math.max(0, Math.min(states.length - 1, k));
    step = k;
    updatePanels();
    if (animate && k > 0) animateInto(k, factor || speed, then);
    else {
      view.render(states[k]);
      if (then) then();
    }
  }

  function updatePanels() {
    setAttr("data-step", step);
    $("r-slider").value = step;
    $("r-jump").value = step;
    $("r-back").disabled = $("r-first").disabled = step === 0;
    $("r-forward").disabled = $("r-last").disabled = step === states.length - 1;
    const panel = $("r-event");
    panel.textContent = "";
    const heading = document.createElement("div");
    heading.className = "event-heading";
    panel.appendChild(heading);
    if (step === 0) {
      heading.textContent = "The start: " + (states.length - 1) + " steps recorded.";
    } else {
      const event = events[step - 1];
      if (event.kind === "chance") {
        heading.textContent = "Step " + step + ": " + (event.purpose || "chance") + " for " + streamLabel(event.stream);
        const dice = document.createElement("div");
        dice.className = "dice";
        const pips = event.purpose === "roll" || event.purpose === "rolloff";
        for (const value of event.values) dice.appendChild(dieFace(value, pips ? 6 : 0));
        panel.appendChild(dice);
      } else if (event.kind === "retire") {
        heading.textContent = "Step " + step + ": " + stepLine(step - 1);
      } else {
        heading.textContent = "Step " + step + ": " + seatLabel(event.seat) + " decides";
        const list = document.createElement("ol");
        list.className = "offered";
        list.start = 0;
        panel.appendChild(list);
        // On the board as it was when the bot was asked.
        offers.show(states[step - 1], event.offered, words[step - 1].offered, {chosen: event.chosen, list: list});
      }
      if (words[step - 1].forced) {
        const badge = document.createElement("span");
        badge.className = "forced";
        badge.textContent = event.kind === "decision" ? "forced: the only move" : "forced: the engine moved";
        badge.title = event.kind === "decision" ? "one action was offered" : "the engine made the only move there was";
        heading.appendChild(document.createTextNode(" "));
        heading.appendChild(badge);
      }
    }
    showBotMessage(step > 0 && events[step - 1].kind === "decision" ? step - 1 : null);
    if (step === 0 || events[step - 1].kind !== "decision") offers.clear();
    const link = document.createElement("a");
    link.className = "step-link";
    link.href = stepAddress(step);
    link.textContent = "link to this step";
    heading.appendChild(document.createTextNode(" "));
    heading.appendChild(link);
    // The address follows once the steps stop flying by: browsers throttle
    // replaceState called on every step of a fast run through a game.
    clearTimeout(addressTimer);
    addressTimer = setTimeout(function () {
      if (location.hash !== stepAddress(step)) history.replaceState(null, "", stepAddress(step));
    }, 150);
    const effects = step > 0 ? words[step - 1].effects : [];
    if (effects.length) {
      const ul = document.createElement("ul");
      ul.className = "effects";
      for (const line of effects) {
        const li = document.createElement("li");
        li.textContent = line;
        ul.appendChild(li);
      }
      panel.appendChild(ul);
    }
    $("r-status").textContent = view.describe ? view.describe(states[step]) : "";
    const list = $("r-events");
    const previous = list.querySelector("li.current");
    if (previous) previous.classList.remove("current");
    if (step > 0 && list.children[step - 1]) {
      const li = list.children[step - 1];
      li.classList.add("current");
      const top = li.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - li.offsetHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
    const banner = $("r-banner");
    if (step === states.length - 1) {
      banner.hidden = false;
      banner.textContent = document.getElementById("result").textContent.replace(/\s+/g, " ").trim();
    } else {
      banner.hidden = true;
    }
  }

  /* The decide message the bot received at event k (BotSeat.decide sends
     the state before it, the offered actions and the move timeout), and
     how long it took to answer: one box, kept open or closed from step to
     step, its message written only while open (a whole state
     pretty-printed at every step of a quick run costs). */
  function showBotMessage(k) {
    const box = $("r-message");
    box.hidden = k === null;
    box.setAttribute("data-event", k === null ? "" : k);
    if (k === null) return;
    const event = events[k];
    const ms = answerMs[decisionNumber[k]];
    box.querySelector("summary").textContent = "the message " + seatLabel(event.seat) + " received" +
      (ms === undefined ? "" : " · answered in " + (ms < 10 ? ms.toFixed(1) : Math.round(ms)) + " ms" +
       (timeoutMs === null ? "" : " of " + timeoutMs));
    writeBotMessage();
  }

  function writeBotMessage() {
    const box = $("r-message"), pre = box.querySelector("pre");
    const k = box.getAttribute("data-event");
    if (!box.open || k === "" || pre.getAttribute("data-event") === k) return;
    const event = events[+k];
    const message = {type: "decide", state: states[+k], actions: event.offered};
    if (timeoutMs !== null) message.timeout_ms = timeoutMs;
    pre.textContent = JSON.stringify(message, null, 2) +
      (timeoutMs === null ? "\n(timeout_ms not recorded for this game)" : "");
    pre.setAttribute("data-event", k);
  }

  function stop() {
    playing = false;
    clearTimeout(timer);
    $("r-play").textContent = "▶ play";
    setAttr("data-playing", 0);
  }

  function play() {
    if (step >= states.length - 1) show(0, false);
    playing = true;
    $("r-play").textContent = "⏸ pause";
    setAttr("data-playing", 1);
    tick();
  }

  function tick() {
    if (!playing) return;
    if (step >= states.length - 1) { stop(); return; }
    show(step + 1, true, speed, function () {
      if (playing) timer = setTimeout(tick, PAUSE_MS / speed);
    });
  }

  function replayLastMove() {
    stop();
    let k = step;
    while (k > 0 && !hasMotion(k)) k--;
    if (k === 0) k = Math.min(step, states.length - 1);
    if (k === 0) return;
    show(k, true, speed * 0.5);
  }

  function wire() {
    $("r-first").addEventListener("click", function () { stop(); show(0, false); });
    $("r-last").addEventListener("click", function () { stop(); show(states.length - 1, false); });
    $("r-back").addEventListener("click", function () { stop(); show(step - 1, false); });
    $("r-forward").addEventListener("click", function () { stop(); show(step + 1, true); });
    $("r-play").addEventListener("click", function () { if (playing) stop(); else play(); });
    $("r-half").addEventListener("click", replayLastMove);
    $("r-speed").addEventListener("change", function () { speed = parseFloat(this.value) || 1; });
    $("r-slider").addEventListener("input", function () { stop(); show(parseInt(this.value, 10), false); });
    $("r-jump").addEventListener("change", function () {
      const k = parseInt(this.value, 10);
      if (!isNaN(k) && k !== step) { stop(); show(k, false); }
    });
    $("r-message").addEventListener("toggle", writeBotMessage);
    $("r-events").addEventListener("click", function (event) {
      const li = event.target.closest("li");
      if (li && li.parentNode === this) { stop(); show(Array.prototype.indexOf.call(this.children, li) + 1, true); }
    });
    document.addEventListener("keydown", function (event) {
      if (event.target && /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
      if (event.key === "ArrowRight") { stop(); show(step + 1, true); }
      else if (event.key === "ArrowLeft") { stop(); show(step - 1, false); }
      else if (event.key === "Home") { stop(); show(0, false); }
      else if (event.key === "End") { stop(); show(states.length - 1, false); }
      else if (event.key === " ") { event.preventDefault(); if (playing) stop(); else play(); }
      else return;
    });
  }

  // A step's line, which a replay leaves out where it is the step's
  // effects joined (arena/games/text_view.py effects_line says how).
  function stepLine(index) {
    const said = words[index];
    if (said.line !== undefined) return said.line;
    const joined = said.effects.join("; ");
    if (events[index].kind === "decision") return (said.forced ? "forced (the only move): " : "") + joined;
    return joined + (said.forced ? " (forced: the only move)" : "");
  }

  function fillEventList(from) {
    const list = $("r-events");
    const fragment = document.createDocumentFragment();
    events.forEach(function (event, index) {
      if (index < from) return;
      const li = document.createElement("li");
      li.className = event.kind + (words[index].forced ? " forced" : "");
      li.textContent = stepLine(index);
      li.title = "go to step " + (index + 1);
      fragment.appendChild(li);
    });
    list.appendChild(fragment);
  }

  /* #game=7&step=22 in the address opens game 7's replay at step 22. */
  function stepInAddress() {
    const match = /(?:^#|&)step=(\d+)(?:&|$)/.exec(location.hash);
    return match ? parseInt(match[1], 10) : null;
  }

  function stepAddress(k) {
    const live = root.getAttribute("data-live-key");
    return (live === null ? "#game=" + root.getAttribute("data-number") : "#live=" + encodeURIComponent(live)) +
      "&step=" + k;
  }

  /* The steps of the replay data: made from the record by the game's
     engine, or the states patched in Python. False if there is none. */
  function take(data, board) {
    if (data.record) {
      const made = fromRecord(data, board);
      states = made.states;
      events = made.events;
      words = made.words;
      if (made.problem) note(made.problem);
    } else {
      states = buildStates(data.patches);
      events = data.events.slice(0, states.length - 1);
      words = data.words;
    }
    if (!states.length) return false;
    for (const id of ["r-slider", "r-jump"]) $(id).max = states.length - 1;
    $("r-total").textContent = states.length - 1;
    // A replay made from the record holds the seconds as stored, one made in Python milliseconds.
    answerMs = data.answer_ms || (data.answer_s || []).map(function (seconds) { return seconds * 1000; });
    timeoutMs = data.timeout_ms === undefined ? null : data.timeout_ms;
    let decisions = 0;
    decisionNumber = events.map(function (event) { return event.kind === "decision" ? decisions++ : decisions; });
    return true;
  }

  /* A game in progress (replay.html#live=KEY) has more steps: the same
     game's replay data so far. A viewer at the last step follows the
     game, the new step animated; one elsewhere stays where it is. */
  function grow(data) {
    const shown = states.length, following = step === states.length - 1 && !playing;
    if (!take(data, window.ArenaBoardData[game]) || states.length <= shown) return;
    fillEventList(shown - 1);
    if (following) show(states.length - 1, states.length === shown + 1);
    else updatePanels();
  }

  async function start() {
    const factory = window.ArenaBoards && window.ArenaBoards[game];
    const board = window.ArenaBoardData && window.ArenaBoardData[game];
    if (!factory || !board) { fail("This site has no board drawing for " + game + "."); return; }
    let data;
    try {
      data = JSON.parse($("replay-data").textContent);
    } catch (error) {
      fail("The replay data could not be read: " + error);
      return;
    }
    if (!take(data, board)) { fail("The record holds no state to show."); return; }
    view = factory(svg, board, meta);
    offers = ArenaBoards.offers(svg, view);
    const box = (svg.getAttribute("viewBox") || "0 0 1 1").split(/\s+/).map(Number);
    if (box[2] / box[3] > 1.6) root.classList.add("wide-board");
    fillEventList(0);
    wire();
    setAttr("data-animating", 0);
    // A game in progress opens at its latest step, to follow it.
    const asked = stepInAddress();
    show(asked !== null ? asked : root.hasAttribute("data-live-key") ? states.length - 1 : 0, false);
    root.querySelector(".board-wrap").appendChild(ArenaBoards.util.legend(svg, view.legend));
    window.addEventListener("hashchange", function () {
      const k = stepInAddress();
      if (k !== null && k !== step) { stop(); show(k, false); }
    });
    root.setAttribute("data-ready", "1");
    window.ArenaReplay = {grow: grow};
  }

  start();
})();
