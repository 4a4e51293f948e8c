/* Shared drawing helpers for the board modules (static/boards/<game>.js).

   A board module registers ArenaBoards[game] = function (svg, board, meta)
   that draws the board from its data (GAME.board, in ArenaBoardData[game])
   and returns a view:
     render(state)             place every piece at rest for this state
     transition(prev, state)   {phases, tracks}: how to animate the step
                               into state (state.last says what happened)
     describe(state)           one line about the position (optional)
     legend                    [[selector, words]]: the kinds of space,
                               each shown by a copy of the first element
                               the selector finds on the board (legend());
                               or [draw, words, viewBox] for a mark not
                               always on the board: draw(g) draws a
                               sample into the swatch, in board units
     spots(action, state)      where an offered action shows on the board:
                               [{x, y, r, label}] (none for an action
                               that names nothing on the board); what
                               static/boards/offers.js highlights
     preview(action, state)    shows on the board what an offered action
                               would do, until preview(null) (optional)
   Moves, actions and effects are never worded here: the game's text view
   (arena/games/<game>/text_view.py) words them, and the replay data and
   the play server carry its words.
   A track moves one element during [t0, t1] (in phases): along points
   (a polyline), or by rotate {from, to, cx, cy}, or calls apply(f).
   Pieces carry data-piece (a stable id) and data-at (the space they stand
   on); spaces carry data-space. */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff9f1c"];

  function el(parent, name, attributes, text) {
    const node = document.createElementNS(NS, name);
    for (const key in attributes || {}) {
      if (attributes[key] !== undefined && attributes[key] !== null) node.setAttribute(key, attributes[key]);
    }
    if (text !== undefined) node.textContent = String(text);
    if (parent) parent.appendChild(node);
    return node;
  }

  function place(node, x, y, extra) {
    node.setAttribute("transform", "translate(" + x.toFixed(3) + " " + y.toFixed(3) + ")" + (extra || ""));
  }

  /* The point a fraction f of the way along a polyline, by length. */
  function along(points, f) {
    if (points.length === 1 || f <= 0) return points[0];
    if (f >= 1) return points[points.length - 1];
    const lengths = [];
    let total = 0;
    for (let i = 1; i < points.length; i++) {
      const d = Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
      lengths.push(d);
      total += d;
    }
    if (total === 0) return points[points.length - 1];
    let left = f * total;
    for (let i = 0; i < lengths.length; i++) {
      if (left <= lengths[i] || i === lengths.length - 1) {
        const t = lengths[i] === 0 ? 1 : Math.min(1, left / lengths[i]);
        return [points[i][0] + (points[i + 1][0] - points[i][0]) * t,
                points[i][1] + (points[i + 1][1] - points[i][1]) * t];
      }
      left -= lengths[i];
    }
    return points[points.length - 1];
  }

  /* A pawn: a disc in the seat's colour with the seat number on it. */
  function pawn(parent, seat, radius, label, extraClass) {
    const g = el(parent, "g", {class: "piece seat-" + seat + (extraClass ? " " + extraClass : ""),
                                "data-seat": seat});
    el(g, "circle", {class: "piece-shadow", r: radius, cx: radius * 0.12, cy: radius * 0.18});
    el(g, "circle", {class: "piece-body", r: radius, fill: SEAT_COLOURS[seat % 4]});
    el(g, "circle", {class: "piece-shine", r: radius * 0.45, cx: -radius * 0.3, cy: -radius * 0.3});
    el(g, "text", {class: "piece-label", "font-size": radius * 1.15, y: radius * 0.4, "text-anchor": "middle"},
       label === undefined ? String(seat) : label);
    el(g, "title", {}, "seat " + seat);
    return g;
  }

  function seatName(meta, seat) {
    const info = meta.seats[seat];
    return info ? info.name : "seat " + seat;
  }

  function seatLabel(meta, seat) {
    const info = meta.seats[seat];
    return info && info.name ? info.name + " (seat " + seat + ")" : "seat " + seat;
  }

  function streamLabel(meta, stream) {
    const match = /^seat:(\d+)$/.exec(stream || "");
    return match ? seatLabel(meta, parseInt(match[1], 10)) : stream;
  }

  /* A die as a small SVG: pips for a six-sided die, else its number. */
  function dieFace(value, sides) {
    const face = el(null, "svg", {class: "die", viewBox: "0 0 24 24", width: 30, height: 30,
                                  role: "img", "aria-label": "die showing " + value});
    el(face, "rect", {x: 1, y: 1, width: 22, height: 22, rx: 4, class: "die-face"});
    const pips = {1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[7, 7], [12, 12], [17, 17]],
                  4: [[7, 7], [17, 7], [7, 17], [17, 17]], 5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]],
                  6: [[7, 6], [17, 6], [7, 12], [17, 12], [7, 18], [17, 18]]};
    if (sides === 6 && pips[value]) {
      for (const p of pips[value]) el(face, "circle", {cx: p[0], cy: p[1], r: 2.2, class: "pip"});
    } else {
      el(face, "text", {x: 12, y: 16.5, "text-anchor": "middle", class: "die-number"}, value);
    }
    return face;
  }

  /* The legend of a drawn board: per entry, a small copy of the first
     element on the board that the selector finds, and the words. */
  function legend(svg, entries) {
    const list = document.createElement("ul");
    list.className = "board-legend";
    const boardClass = (svg.getAttribute("class") || "").split(/\s+/).filter(function (c) {
      return c.indexOf("board-") === 0;
    }).join(" ");
    for (const entry of entries || []) {
      if (typeof entry[0] === "function") {
        const drawn = el(null, "svg", {class: "legend-swatch " + boardClass, width: 22, height: 22, "aria-hidden": "true",
                                       viewBox: entry[2]});
        entry[0](el(drawn, "g", {}));
        list.appendChild(legendItem(drawn, entry[1]));
        continue;
      }
      const source = svg.querySelector(entry[0]);
      if (!source) continue;
      const box = source.getBBox();
      const pad = Math.max(box.width, box.height) * 0.08;
      const swatch = el(null, "svg", {class: "legend-swatch " + boardClass, width: 22, height: 22, "aria-hidden": "true",
                                      viewBox: [box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad].join(" ")});
      const copy = source.cloneNode(true);
      copy.removeAttribute("transform");  // getBBox is in the element's own coordinates
      for (const node of [copy].concat(Array.from(copy.querySelectorAll("*")))) {
        for (const name of ["data-space", "data-piece", "data-wheel", "data-block", "id"]) node.removeAttribute(name);
        if (node.tagName === "title") node.remove();
      }
      swatch.appendChild(copy);
      list.appendChild(legendItem(swatch, entry[1]));
    }
    return list;
  }

  function legendItem(swatch, words) {
    const item = document.createElement("li");
    item.appendChild(swatch);
    item.appendChild(document.createTextNode(words));
    return item;
  }

  const PHASE_MS = 520;       // one phase of an animation at 1x

  function ease(t) {
    const whole = Math.floor(t), part = t - whole;
    return whole + (part < 0.5 ? 2 * part * part : 1 - Math.pow(-2 * part + 2, 2) / 2);
  }

  function applyTrack(track, f) {
    if (track.points) {
      const p = along(track.points, f);
      place(track.el, p[0], p[1], track.suffix);
    }
    if (track.rotate) {
      const r = track.rotate;
      track.el.setAttribute("transform", "rotate(" + (r.from + (r.to - r.from) * f).toFixed(2) + " " + r.cx + " " + r.cy + ")");
    }
    if (track.apply) track.apply(f);
  }

  /* Play a view's plan for the step from prev to state at speed factor,
     then call done. Returns {duration, finish()}, or null (and has drawn
     state) when the step has nothing to move. The replay and the play
     page both animate through here. */
  function animate(view, plan, prev, state, factor, done) {
    if (!plan || !plan.tracks.length) {
      view.render(state);
      done();
      return null;
    }
    view.render(prev);
    if (view.prepare) view.prepare(prev, state);
    const phases = Math.max(1, plan.phases || 1);
    const duration = phases * PHASE_MS / factor;
    const tracks = plan.tracks.slice().sort(function (a, b) { return a.t0 - b.t0; });
    const started = performance.now();
    const handle = {duration: duration, frame: 0, over: false, finish: function () {
      if (handle.over) return;
      handle.over = true;
      cancelAnimationFrame(handle.frame);
      view.render(state);
    }};
    function frame(now) {
      if (handle.over) return;
      const t = Math.min(1, (now - started) / duration) * phases;
      const eased = ease(t >= phases ? phases : t);
      for (const track of tracks) {
        if (eased < track.t0) continue;
        const span = Math.max(1e-6, track.t1 - track.t0);
        applyTrack(track, Math.min(1, (eased - track.t0) / span));
      }
      if (t >= phases) {
        handle.finish();
        done();
        return;
      }
      handle.frame = requestAnimationFrame(frame);
    }
    handle.frame = requestAnimationFrame(frame);
    return handle;
  }

  window.ArenaBoards = window.ArenaBoards || {};
  window.ArenaBoards.util = {NS: NS, SEAT_COLOURS: SEAT_COLOURS, el: el, place: place, along: along,
                             pawn: pawn, seatName: seatName, seatLabel: seatLabel,
                             streamLabel: streamLabel, dieFace: dieFace,
                             animate: animate, legend: legend};
})();
