/* Shared drawing helpers for the board modules (static/boards/<game>.js).

   A board module registers ArenaBoards[game] = function (svg, board, meta)
   that draws the board from its data (GAME.board, in ArenaBoardData[game])
   and returns a view:
     render(state)             place every piece at rest for this state
     transition(prev, state)   {phases, tracks}: how to animate the step
                               into state (state.last says what happened)
     describe(state)           one line about the position (optional)
     effectText(effect)        one line per entry of state.last (optional)
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
    return g;
  }

  function seatName(meta, seat) {
    const info = meta.seats[seat];
    return info ? info.name : "seat " + seat;
  }

  window.ArenaBoards = window.ArenaBoards || {};
  window.ArenaBoards.util = {NS: NS, SEAT_COLOURS: SEAT_COLOURS, el: el, place: place, along: along,
                             pawn: pawn, seatName: seatName};
})();
