/* Roundabout: the wheel of five rings and sixteen bars, drawn from
   GAME.board (spaces with ring, bar, territory, x, y; territories with
   their colours and bars; the drawing's centre and ring radii). Darts are
   arrows pointing the way they travel round their ring; a move slides the
   dart along its ring (on the arc) or its bar, space by space. Darts that
   leave the board go to their owner's tray under the wheel. */
(function () {
  "use strict";
  const U = ArenaBoards.util;
  const TINTS = {red: "#f7d4d2", green: "#d5efd6", blue: "#d3e3f8", yellow: "#fbf0c2"};
  const STRONG = {red: "#d62728", green: "#2ca02c", blue: "#1f77b4", yellow: "#e0b000"};
  const NEUTRAL = "#e6e6e3";   // a territory no seat in play owns: only the seats in play are coloured

  ArenaBoards.roundabout = function (svg, board, meta) {
    const centre = board.drawing.centre;
    const radii = board.drawing.ring_radii;
    const bars = board.bars;
    const width = 360 / bars;
    const half = (radii[1] - radii[0]) / 2;
    svg.setAttribute("viewBox", "-6 -6 112 " + (112 + 6 * Math.max(1, meta.players)));
    const spaces = board.spaces;
    const territoryOf = {};
    board.territories.forEach(function (t) { t.bars.forEach(function (b) { territoryOf[b] = t; }); });

    function angleOfBar(bar) { return 90 + width * (bar + 0.5); }
    function polar(radius, degrees) {
      const a = degrees * Math.PI / 180;
      return [centre[0] + radius * Math.cos(a), centre[1] + radius * Math.sin(a)];
    }
    function sector(r0, r1, a0, a1) {
      const p0 = polar(r1, a0), p1 = polar(r1, a1), p2 = polar(r0, a1), p3 = polar(r0, a0);
      return "M " + p0.join(" ") + " A " + r1 + " " + r1 + " 0 0 1 " + p1.join(" ") +
             " L " + p2.join(" ") + " A " + r0 + " " + r0 + " 0 0 0 " + p3.join(" ") + " Z";
    }

    U.el(svg, "circle", {cx: centre[0], cy: centre[1], r: radii[radii.length - 1] + half + 1.6, class: "rb-rim"});
    const layerSpaces = U.el(svg, "g", {class: "rb-spaces"});
    const layerTrail = U.el(svg, "g", {class: "trail"});
    const layerPieces = U.el(svg, "g", {class: "pieces"});
    const homes = {};
    const seatTerritories = board.seat_territories[String(meta.players)] || [];
    seatTerritories.forEach(function (t, seat) { homes[t] = seat; });

    for (const s of spaces) {
      const a = angleOfBar(s.bar);
      const r = radii[s.ring];
      const t = board.territories[s.territory];
      const g = U.el(layerSpaces, "g", {class: "space rb-space", "data-space": s.id});
      U.el(g, "path", {d: sector(r - half + 0.25, r + half - 0.25, a - width / 2 + 0.5, a + width / 2 - 0.5),
                       fill: s.territory in homes ? TINTS[t.colour] || "#eee" : NEUTRAL,
                       class: "rb-cell" + (s.territory in homes ? " rb-home" : "")});
      U.el(g, "title", {}, "space " + s.id + ": ring " + s.ring + ", bar " + s.bar + ", " + t.colour + " territory");
    }
    for (const t of board.territories) {
      U.el(layerSpaces, "path", {d: sector(radii[radii.length - 1] + half - 0.1, radii[radii.length - 1] + half + 1.5,
                                           angleOfBar(t.bars[0]) - width / 2, angleOfBar(t.bars[t.bars.length - 1]) + width / 2),
                                 fill: t.id in homes ? STRONG[t.colour] || "#999" : "#9a9ea8", class: "rb-band"});
    }
    U.el(layerSpaces, "circle", {cx: centre[0], cy: centre[1], r: radii[0] - half - 0.6, class: "rb-hub"});
    // Bars numbered round the rim and rings along the line between bar 15
    // and bar 0: the words name a space by its ring and bar.
    for (let bar = 0; bar < bars; bar++) {
      const q = polar(radii[radii.length - 1] + half + 3.4, angleOfBar(bar));
      U.el(layerSpaces, "text", {x: q[0], y: q[1] + 0.7, "text-anchor": "middle", class: "rb-id rb-bar-id", "data-bar": bar},
           "bar " + bar);
    }
    radii.forEach(function (r, ring) {
      const q = polar(r, 90);
      U.el(layerSpaces, "text", {x: q[0], y: q[1] + 0.55, "text-anchor": "middle", class: "rb-id rb-ring-id", "data-ring": ring},
           "ring " + ring);
    });
    for (const t of board.territories) {
      if (!(t.id in homes)) continue;
      const q = polar(radii[0] - half - 4.6, angleOfBar((t.bars[0] + t.bars[t.bars.length - 1]) / 2));
      U.el(layerSpaces, "text", {x: q[0], y: q[1] + 0.8, "text-anchor": "middle", class: "rb-home-label",
                                 fill: U.SEAT_COLOURS[homes[t.id] % 4]}, "home " + homes[t.id]);
    }

    // Trays for darts off the board, one row per seat under the wheel.
    const trayTop = 107;
    for (let seat = 0; seat < meta.players; seat++) {
      U.el(layerSpaces, "text", {x: 0, y: trayTop + seat * 6 + 3, class: "rb-tray-label"}, U.seatName(meta, seat).slice(0, 18) + " off:");
    }

    const darts = {};
    function ensure(state) {
      for (const d of state.darts) {
        if (darts[d.id]) continue;
        const g = U.el(layerPieces, "g", {class: "piece rb-dart seat-" + d.owner, "data-piece": "d" + d.id, "data-seat": d.owner});
        U.el(g, "path", {class: "piece-shadow", d: "M 2.4 0.3 L -1.5 -1.4 L -0.6 0.3 L -1.5 1.8 z"});
        U.el(g, "path", {class: "piece-body", d: "M 2.3 0 L -1.6 -1.7 L -0.7 0 L -1.6 1.7 z", fill: U.SEAT_COLOURS[d.owner % 4]});
        U.el(g, "path", {class: "rb-capture-mark", d: "M -1.2 -1.2 L 1.2 1.2 M -1.2 1.2 L 1.2 -1.2"});
        U.el(g, "title", {}, U.seatName(meta, d.owner) + "'s dart");
        darts[d.id] = g;
      }
    }

    function tangent(point, dir) {
      const a = Math.atan2(point[1] - centre[1], point[0] - centre[0]) * 180 / Math.PI;
      return a + (dir === 1 ? 90 : -90);
    }

    function restPoint(d, state) {
      if (d.space === null) {
        const off = state.darts.filter(function (x) { return x.owner === d.owner && x.space === null; });
        return [30 + off.indexOf(d) * 4.4, trayTop + d.owner * 6 + 2];
      }
      const s = spaces[d.space];
      return [s.x, s.y];
    }

    function restAngle(d, state) {
      return d.space === null ? 0 : tangent(restPoint(d, state), d.dir);
    }

    function put(d, point, angle) {
      U.place(darts[d.id], point[0], point[1], " rotate(" + angle.toFixed(1) + ")");
    }

    function render(state) {
      ensure(state);
      const captured = new Set(state.captured || []);
      for (const d of state.darts) {
        put(d, restPoint(d, state), restAngle(d, state));
        darts[d.id].setAttribute("data-at", d.space === null ? "off" : d.space);
        darts[d.id].classList.toggle("captured", captured.has(d.id));
        darts[d.id].classList.toggle("to-move", state.mover === d.owner && d.space !== null && state.phase === "play");
      }
      drawTrail(state);
    }

    function drawTrail(state) {
      layerTrail.textContent = "";
      for (const e of state.last || []) {
        if (e.cause === "move" && e.path && e.path.length > 1) {
          U.el(layerTrail, "polyline", {class: "trail-line seat-" + e.seat,
            points: route(e.path).map(function (p) { return p.join(","); }).join(" ")});
        }
      }
    }

    // Points along a path of spaces, following the ring's arc between
    // neighbouring bars and the bar's line between rings.
    function route(path) {
      const points = [[spaces[path[0]].x, spaces[path[0]].y]];
      for (let i = 1; i < path.length; i++) {
        const a = spaces[path[i - 1]], b = spaces[path[i]];
        if (a.ring === b.ring && a.bar !== b.bar) {
          let from = angleOfBar(a.bar), to = angleOfBar(b.bar);
          if (to - from > 180) to -= 360;
          if (from - to > 180) to += 360;
          for (let k = 1; k <= 4; k++) points.push(polar(radii[a.ring], from + (to - from) * k / 4));
        } else {
          points.push([b.x, b.y]);
        }
      }
      return points;
    }

    function transition(prev, state) {
      const tracks = [];
      let phase = 0;
      const byId = {};
      state.darts.forEach(function (d) { byId[d.id] = d; });
      for (const e of state.last || []) {
        if (e.cause === "move" && e.path && e.path.length > 1) {
          const d = prev.darts.find(function (x) { return x.id === e.dart; });
          const points = route(e.path);
          const dir = d.dir;
          tracks.push({el: darts[e.dart], t0: phase, t1: phase + 1, apply: function (f) {
            const p = U.along(points, f);
            put(d, p, tangent(p, dir));
          }});
          phase++;
        } else if (e.cause === "bear_off" || e.cause === "ringer") {
          const ids = e.cause === "bear_off" ? [e.dart] : e.darts;
          for (const id of ids) {
            const d = byId[id];
            const from = spaces[e.cause === "bear_off" ? e.space : e.spaces[e.darts.indexOf(id)]];
            const to = restPoint(d, state);
            tracks.push({el: darts[id], t0: phase, t1: phase + 1, apply: function (f) {
              const p = U.along([[from.x, from.y], to], f);
              put(d, p, 0);
            }});
          }
          phase++;
        } else if (e.cause === "reverse") {
          const d = prev.darts.find(function (x) { return x.id === e.dart; });
          const point = restPoint(d, prev), start = restAngle(d, prev);
          tracks.push({el: darts[e.dart], t0: phase, t1: phase + 1, apply: function (f) { put(d, point, start + 180 * f); }});
          phase++;
        }
      }
      return {phases: phase, tracks: tracks};
    }

    function describe(state) {
      const who = state.mover !== null && state.mover !== undefined ? state.mover : state.turn_player;
      const counts = (state.on_board || []).map(function (n, seat) { return U.seatName(meta, seat) + ": " + n + " on board"; }).join(" · ");
      let what = state.phase;
      if (state.phase === "play") what = U.seatName(meta, who) + " to play " + (state.dice_left || []).join(", ");
      else if (state.phase === "roll") what = U.seatName(meta, state.turn_player) + " to roll";
      else if (state.phase === "offer") what = "the roll offered to " + U.seatName(meta, state.asking);
      else if (state.phase === "over") what = state.winner === null ? "game over (" + state.end_reason + ")" : "won by " + U.seatName(meta, state.winner);
      return what + " — " + counts;
    }

    // The darts an action names (a move names one, a reversal one or two);
    // offers, passes and answers name nothing on the board.
    function spots(action, state) {
      const ids = action.dart !== undefined ? [action.dart] : Array.isArray(action.reverse) ? action.reverse : [];
      return ids.map(function (id) {
        const d = state.darts.find(function (x) { return x.id === id; });
        const p = restPoint(d, state);
        return {x: p[0], y: p[1], r: 2.6, label: "ring " + spaces[d.space].ring + " bar " + spaces[d.space].bar};
      });
    }

    function sampleDart(g, captured) {
      const dart = U.el(g, "g", {class: "piece rb-dart seat-0" + (captured ? " captured" : "")});
      U.el(dart, "path", {class: "piece-body", d: "M 2.3 0 L -1.6 -1.7 L -0.7 0 L -1.6 1.7 z", fill: U.SEAT_COLOURS[0]});
      if (captured) U.el(dart, "path", {class: "rb-capture-mark", d: "M -1.2 -1.2 L 1.2 1.2 M -1.2 1.2 L 1.2 -1.2"});
    }
    const legend = [[".rb-home", "a seat's home territory"], [".rb-cell:not(.rb-home)", "territory of no seat"],
                    [".rb-dart", "dart: it travels the way it points"],
                    [function (g) { sampleDart(g, true); }, "✕ on a dart: captured (frozen)", "-2.6 -2.6 5.2 5.2"],
                    [function (g) {
                      const spot = U.el(g, "g", {class: "offer-spot"});
                      U.el(spot, "circle", {cx: 0, cy: 0, r: 2.6, class: "offer-ring"});
                      sampleDart(g, false);
                    }, "dashed circle: a dart the seat to move may move (solid when chosen)", "-3.2 -3.2 6.4 6.4"],
                    [function (g) {
                      U.el(g, "path", {class: "trail-line seat-0", d: "M -3 1.5 Q 0 -2.5 3 1.5"});
                    }, "dashed line: the last move's path", "-3.4 -3.4 6.8 6.8"]];

    return {render: render, transition: transition, describe: describe, spots: spots, legend: legend,
            prepare: function (prev, state) { drawTrail(state); }};
  };
})();
