/* Slyyde: the square spiral, drawn from GAME.board (squares with x, y and
   kind; triangles with their straight paths; black squares with their
   diagonals; Back-6 squares). One pawn per seat; state.positions holds the
   track number of each. A move slides the pawn square by square along its
   path; a slyyde carries the pawn down the triangle's line and sweeps the
   pawns on it along as it passes them. */
(function () {
  "use strict";
  const U = ArenaBoards.util;

  ArenaBoards.slyyde = function (svg, board, meta) {
    const cell = board.cell;
    const box = board.box;
    const pad = 2;
    svg.setAttribute("viewBox", [box[0] - pad, box[1] - pad, box[2] - box[0] + 2 * pad, box[3] - box[1] + 2 * pad].join(" "));
    const at = {};
    for (const square of board.squares) at[square.n] = square;
    const triangleOf = {};
    for (const t of board.triangles) triangleOf[t.square] = t;
    const diagonalOf = {};
    for (const b of board.black) diagonalOf[b.square] = b.diagonal;

    const defs = U.el(svg, "defs");
    const marker = U.el(defs, "marker", {id: "sl-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5,
                                         markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse"});
    U.el(marker, "path", {d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head"});

    const layerSquares = U.el(svg, "g", {class: "squares"});
    const layerMarks = U.el(svg, "g", {class: "marks"});
    const layerTrail = U.el(svg, "g", {class: "trail"});
    const layerPieces = U.el(svg, "g", {class: "pieces"});

    for (const square of board.squares) {
      const g = U.el(layerSquares, "g", {class: "space sq-" + square.kind, "data-space": square.n});
      U.el(g, "rect", {x: square.x - cell / 2 + 0.25, y: square.y - cell / 2 + 0.25, width: cell - 0.5,
                       height: cell - 0.5, rx: 1.2, class: "sq"});
      U.el(g, "text", {x: square.x - cell / 2 + 1, y: square.y - cell / 2 + 2.6, class: "sq-number"}, square.n);
      U.el(g, "title", {}, "square " + square.n + " (" + square.kind + ")");
    }
    // The direction of travel: a faint line through the squares in order.
    U.el(layerMarks, "polyline", {class: "track-line",
      points: board.squares.map(function (s) { return s.x + "," + s.y; }).join(" ")});
    for (const t of board.triangles) {
      const from = at[t.square], to = at[t.safe];
      U.el(layerMarks, "line", {x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "slyyde-line",
                                "marker-end": "url(#sl-arrow)"});
      const angle = Math.atan2(to.y - from.y, to.x - from.x) * 180 / Math.PI;
      U.el(layerMarks, "path", {d: "M 3 0 L -2 -2.6 L -2 2.6 z", class: "triangle-glyph",
        transform: "translate(" + from.x + " " + from.y + ") rotate(" + angle + ")"});
    }
    for (const b of board.black) {
      const from = at[b.square], to = at[b.diagonal];
      U.el(layerMarks, "line", {x1: from.x, y1: from.y, x2: from.x + (to.x - from.x) * 0.62,
        y2: from.y + (to.y - from.y) * 0.62, class: "diagonal-line", "marker-end": "url(#sl-arrow)"});
    }
    for (const n of board.back6) {
      const s = at[n];
      U.el(layerMarks, "text", {x: s.x, y: s.y + 1.6, class: "back6-label", "text-anchor": "middle"}, "−6");
    }
    for (const n of board.safe) {
      const s = at[n];
      U.el(layerMarks, "path", {class: "safe-glyph", transform: "translate(" + (s.x + 3.2) + " " + (s.y - 3.4) + ")",
                                d: "M 0 -1.5 L 1.3 -1 L 1.1 0.6 L 0 1.6 L -1.1 0.6 L -1.3 -1 z"});
    }
    U.el(layerMarks, "text", {x: at[board.start].x, y: at[board.start].y + 3.4, class: "big-label",
                              "text-anchor": "middle"}, "START");
    U.el(layerMarks, "text", {x: at[board.centre].x, y: at[board.centre].y + 3.4, class: "big-label",
                              "text-anchor": "middle"}, "CENTRE");

    const radius = meta.players > 2 ? 1.9 : 2.3;
    const offsets = meta.players === 1 ? [[0, 0.8]]
      : meta.players === 2 ? [[-2.3, 0.9], [2.3, 0.9]]
      : [[-2.2, -0.3], [2.2, -0.3], [-2.2, 3.0], [2.2, 3.0]];
    const pawns = [];
    for (let seat = 0; seat < meta.players; seat++) {
      const p = U.pawn(layerPieces, seat, radius);
      p.setAttribute("data-piece", "p" + seat);
      pawns.push(p);
    }

    function pos(square, seat) {
      const s = at[square];
      return [s.x + offsets[seat][0], s.y + offsets[seat][1]];
    }

    function drawTrail(state) {
      layerTrail.textContent = "";
      for (const effect of state.last || []) {
        if (!effect.path || effect.path.length < 2) continue;
        U.el(layerTrail, "polyline", {class: "trail-line seat-" + effect.seat,
          points: effect.path.map(function (n) { return at[n].x + "," + at[n].y; }).join(" ")});
      }
    }

    function render(state) {
      state.positions.forEach(function (square, seat) {
        const p = pos(square, seat);
        U.place(pawns[seat], p[0], p[1]);
        pawns[seat].setAttribute("data-at", square);
        pawns[seat].classList.toggle("to-move", state.turn === seat && state.phase !== "over");
        pawns[seat].classList.toggle("winner", state.winner === seat);
      });
      drawTrail(state);
    }

    function transition(prev, state) {
      const effects = state.last || [];
      const tracks = [];
      let phase = 0;
      for (let i = 0; i < effects.length; i++) {
        const e = effects[i];
        if (!e.path || e.path.length < 2 || e.cause === "sweep") continue;
        tracks.push({el: pawns[e.seat], t0: phase, t1: phase + 1,
                     points: e.path.map(function (n) { return pos(n, e.seat); })});
        if (e.cause === "slyyde") {
          // The swept pawns leave their squares as the slyyder reaches them.
          const segments = e.path.length - 1;
          for (let j = i + 1; j < effects.length && effects[j].cause === "sweep"; j++) {
            const s = effects[j];
            const index = e.path.indexOf(s.from);
            tracks.push({el: pawns[s.seat], t0: phase + Math.max(0, index) / segments, t1: phase + 1,
                         points: s.path.map(function (n) { return pos(n, s.seat); })});
          }
        }
        phase++;
      }
      return {phases: phase, tracks: tracks};
    }

    function name(seat) { return U.seatName(meta, seat); }

    function describe(state) {
      const rolls = state.rolls.map(function (r, seat) { return name(seat) + ": " + r; }).join(" · ");
      let what;
      if (state.phase === "over") what = state.winner === null ? "game over" : "won by " + name(state.winner);
      else if (state.phase === "rolloff") what = "roll-off to decide who starts";
      else if (state.phase === "roll") what = name(state.turn) + " to roll";
      else if (state.phase === "move") what = name(state.turn) + " to move or take the diagonal (rolled " + state.die + " on a black square)";
      else if (state.phase === "back6") what = name(state.turn) + " to pick an opponent to send back six";
      else what = state.phase;
      return what + " — rolls " + rolls;
    }

    // A move names the square it reaches; a Back-6 names the seat whose pawn goes back.
    function spots(action, state) {
      if (action.to !== undefined && at[action.to]) {
        return [{x: at[action.to].x, y: at[action.to].y, r: cell * 0.5, label: "square " + action.to}];
      }
      if (action.back6 !== undefined) {
        const p = pos(state.positions[action.back6], action.back6);
        return [{x: p[0], y: p[1], r: radius * 1.4, label: name(action.back6) + "'s pawn"}];
      }
      return [];
    }

    const legend = [[".sq-start", "START"], [".sq-plain", "plain square"], [".sq-safe", "safe square"],
                    [".sq-triangle", "triangle: slyyde down its line"], [".sq-black", "black square: its diagonal"],
                    [".sq-back6", "Back-6: send an opponent back six"], [".sq-centre", "CENTRE: the goal"]];

    return {render: render, transition: transition, describe: describe, spots: spots, legend: legend,
            prepare: function (prev, state) { drawTrail(state); }};
  };
})();
