/* Detour: drawn from GAME.board (spaces with x, y, kind and ports; the four
   wheels with hub, radius and rim points; the segments of path). A wheel is
   a disc drawn at orientation 0 (hub track from rim 0 to rim 1, bare arc
   from rim 2 to rim 3) and turned a quarter per orientation step, so a
   wheel turn in the replay is the disc rotating, carrying any piece in its
   hub. Pieces are arrows pointing where they will step next (state
   pieces[].heading); they slide along the spaces of their path. */
(function () {
  "use strict";
  const U = ArenaBoards.util;
  const COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff9f1c"];
  const TURN_DEGREES = {cw: 90, ccw: -90, half: 180};   // a wheel effect's "turn"

  ArenaBoards.detour = function (svg, board, meta) {
    const box = board.box;
    svg.setAttribute("viewBox", [box[0] - 1, box[1] - 7, box[2] - box[0] + 2, box[3] - box[1] + 8].join(" "));
    const space = board.spaces;
    const wheelOfRim = {};           // rim space id -> [wheel, rim]
    board.wheels.forEach(function (w) { w.rims.forEach(function (r, k) { wheelOfRim[r.space] = [w.id, k]; }); });
    const hubWheel = {};
    board.wheels.forEach(function (w) { hubWheel[w.hub] = w; });

    U.el(svg, "rect", {x: box[0], y: box[1], width: box[2] - box[0], height: box[3] - box[1], rx: 3, class: "dt-table"});
    const layerPaths = U.el(svg, "g", {class: "dt-paths"});
    const layerSpaces = U.el(svg, "g", {class: "dt-spaces"});
    const layerWheels = U.el(svg, "g", {class: "dt-wheels"});
    const layerIds = U.el(svg, "g", {class: "dt-ids"});
    const layerPreview = U.el(svg, "g", {class: "dt-preview"});
    const layerTrail = U.el(svg, "g", {class: "trail"});
    const layerPieces = U.el(svg, "g", {class: "pieces"});
    const layerStacks = U.el(svg, "g", {class: "stacks"});
    U.el(layerSpaces, "text", {x: box[0] + 1, y: -3, class: "dt-label dt-tray-label"}, "OFF");

    // The paths: each segment's spaces in order, joined to the rim points
    // and to the centre at their ends.
    for (const segment of board.segments) {
      const points = segment.spaces.map(function (id) { return [space[id].x, space[id].y]; });
      for (const end of [segment.spaces[0], segment.spaces[segment.spaces.length - 1]]) {
        space[end].ports.forEach(function (link) {
          let target = null;
          if (link && link.wheel !== undefined && link.rim !== undefined) {
            const rim = board.wheels[link.wheel].rims[link.rim];
            target = [rim.x, rim.y];
          } else if (link && link.space === board.centre) {
            target = [space[board.centre].x, space[board.centre].y];
          }
          if (target) {
            U.el(layerPaths, "line", {x1: space[end].x, y1: space[end].y, x2: target[0], y2: target[1], class: "dt-path"});
          }
        });
      }
      U.el(layerPaths, "polyline", {class: "dt-path", points: points.map(function (p) { return p.join(","); }).join(" ")});
    }

    function star(parent, x, y, r, cls) {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
        pts.push((x + rr * Math.cos(a)).toFixed(2) + "," + (y + rr * Math.sin(a)).toFixed(2));
      }
      return U.el(parent, "polygon", {points: pts.join(" "), class: cls});
    }

    const startArrow = {}, startIndex = {};
    board.starts.forEach(function (s, index) { startArrow[s.space] = s.toward; startIndex[s.space] = index; });
    for (const s of space) {
      if (s.kind === "hub") continue;
      const g = U.el(layerSpaces, "g", {class: "space dt-" + s.kind, "data-space": s.id});
      if (s.kind === "centre") {
        U.el(g, "circle", {cx: s.x, cy: s.y, r: 3.2, class: "dt-centre-disc"});
        star(g, s.x, s.y, 2.8, "dt-star");
      } else {
        U.el(g, "circle", {cx: s.x, cy: s.y, r: 1.55, class: "dt-space"});
        if (s.kind === "star") star(g, s.x, s.y, 1.4, "dt-star");
        if (s.kind === "finish") U.el(g, "text", {x: s.x, y: s.y - 2.4, "text-anchor": "middle", class: "dt-label"}, "FINISH");
        if (s.kind === "start") {
          const to = space[startArrow[s.id]];
          const a = Math.atan2(to.y - s.y, to.x - s.x) * 180 / Math.PI;
          U.el(g, "path", {d: "M 2.4 0 L 1.2 -0.9 L 1.2 0.9 z", class: "dt-start-arrow",
                           transform: "translate(" + s.x + " " + s.y + ") rotate(" + a + ")"});
          U.el(g, "text", {x: s.x, y: s.y + 3.6, "text-anchor": "middle", class: "dt-label"}, "START " + startIndex[s.id]);
        }
      }
      // The space's number, small, beside it: the words of a move name spaces by it.
      U.el(layerIds, "text", {x: s.x + (s.kind === "centre" ? 3.3 : 1.2), y: s.y - (s.kind === "centre" ? 2.4 : 1.3),
                              class: "dt-id", "data-id": s.id}, s.id);
      U.el(g, "title", {}, "space " + s.id + " (" + s.kind + ")");
    }

    // The wheels, each in a group rotated by its orientation.
    const wheelGroups = board.wheels.map(function (w) {
      U.el(layerWheels, "circle", {cx: w.x, cy: w.y, r: w.radius + 0.9, class: "dt-holder"});
      U.el(layerWheels, "text", {x: w.x + (w.x < 50 ? -w.radius - 2.2 : w.radius + 2.2), y: w.y + 1.2,
                                 "text-anchor": "middle", class: "dt-wheel-name"}, w.name);
      const g = U.el(layerWheels, "g", {class: "dt-wheel", "data-wheel": w.id});
      U.el(g, "circle", {cx: w.x, cy: w.y, r: w.radius, class: "dt-disc"});
      const r0 = w.rims[0], r1 = w.rims[1], r2 = w.rims[2], r3 = w.rims[3];
      U.el(g, "path", {class: "dt-track", d: "M " + r0.x + " " + r0.y + " L " + w.x + " " + w.y + " L " + r1.x + " " + r1.y});
      const mx = (r2.x + r3.x) / 2, my = (r2.y + r3.y) / 2;
      U.el(g, "path", {class: "dt-track dt-arc", d: "M " + r2.x + " " + r2.y + " Q " + (mx + (w.x - mx) * 0.4) +
                       " " + (my + (w.y - my) * 0.4) + " " + r3.x + " " + r3.y});
      const hub = U.el(g, "g", {class: "space dt-hub", "data-space": w.hub});
      U.el(hub, "circle", {cx: w.x, cy: w.y, r: 1.9, class: "dt-hub-disc"});
      star(hub, w.x, w.y, 1.6, "dt-star");
      // a notch so the turning shows even on a symmetric disc
      U.el(g, "circle", {cx: w.x, cy: w.y - w.radius + 1.1, r: 0.5, class: "dt-notch"});
      return g;
    });

    function setWheel(w, degrees) {
      const wheel = board.wheels[w];
      wheelGroups[w].setAttribute("transform", "rotate(" + degrees.toFixed(2) + " " + wheel.x + " " + wheel.y + ")");
    }

    // Pieces.
    const pieces = {};
    function ensurePieces(state) {
      for (const p of state.pieces) {
        if (pieces[p.id]) continue;
        const g = U.el(layerPieces, "g", {class: "piece dt-piece seat-" + p.seat, "data-piece": "p" + p.id, "data-seat": p.seat});
        U.el(g, "path", {class: "piece-shadow", d: "M 2.5 0.35 L -1.6 -1.5 L -0.7 0.35 L -1.6 1.9 z"});
        U.el(g, "path", {class: "piece-body", d: "M 2.4 0 L -1.7 -1.85 L -0.8 0 L -1.7 1.85 z", fill: COLOURS[p.colour % 4]});
        U.el(g, "text", {class: "piece-label", "font-size": 1.5, x: -0.2, y: 0.5, "text-anchor": "middle"}, p.seat);
        U.el(g, "title", {}, U.seatName(meta, p.seat) + "'s piece");
        pieces[p.id] = g;
      }
    }

    function slot(state, piece) {
      // Several pieces share only START spaces (and the tray off the board).
      const here = state.pieces.filter(function (p) { return p.space === piece.space; });
      const index = here.indexOf(piece);
      if (here.length < 2) return [0, 0];
      const spread = 2.3;
      return [(index - (here.length - 1) / 2) * spread, index % 2 ? -1.2 : 1.2];
    }

    function trayPoint(piece, state) {
      const done = state.pieces.filter(function (p) { return p.space === null; });
      const index = done.indexOf(piece);
      return [8 + index * 4.2, -3.6];
    }

    function angleOf(piece) {
      if (piece.space === null || piece.heading === null || piece.heading === undefined) return 0;
      const from = space[piece.space], to = space[piece.heading];
      return Math.atan2(to.y - from.y, to.x - from.x) * 180 / Math.PI;
    }

    function pointOf(piece, state) {
      if (piece.space === null) return trayPoint(piece, state);
      const s = space[piece.space], o = slot(state, piece);
      return [s.x + o[0], s.y + o[1]];
    }

    function render(state) {
      ensurePieces(state);
      state.wheels.forEach(function (k, w) { setWheel(w, 90 * k); });
      for (const p of state.pieces) {
        const at = pointOf(p, state);
        U.place(pieces[p.id], at[0], at[1], " rotate(" + angleOf(p).toFixed(1) + ")");
        pieces[p.id].setAttribute("data-at", p.space === null ? "off" : p.space);
        pieces[p.id].classList.toggle("to-move", state.phase !== "over" && p.colour === state.colour && p.space !== null);
      }
      drawTrail(state);
      drawStacks(state);
    }

    // Pieces sharing a space stand side by side round it; a badge says how
    // many there are, since arrows side by side can overlap.
    function drawStacks(state) {
      layerStacks.textContent = "";
      const count = {};
      for (const p of state.pieces) if (p.space !== null) count[p.space] = (count[p.space] || 0) + 1;
      for (const id in count) {
        if (count[id] < 2) continue;
        const s = space[id];
        const g = U.el(layerStacks, "g", {class: "stack-badge", "data-stack": id,
                                          transform: "translate(" + (s.x + 2.6) + " " + (s.y - 2.6) + ")"});
        U.el(g, "circle", {r: 1.25});
        U.el(g, "text", {y: 0.5, "text-anchor": "middle"}, count[id]);
        U.el(g, "title", {}, count[id] + " pieces on space " + id);
      }
    }

    function drawTrail(state) {
      layerTrail.textContent = "";
      for (const e of state.last || []) {
        if (e.cause !== "move" || !e.path || e.path.length < 2) continue;
        const seat = state.pieces[e.piece].seat;
        U.el(layerTrail, "polyline", {class: "trail-line seat-" + seat,
          points: routePoints(e.path).map(function (p) { return p.join(","); }).join(" ")});
      }
    }

    // The points a piece passes through along a path of spaces: through
    // the rim points when it crosses a wheel's bare arc.
    function routePoints(path) {
      const points = [[space[path[0]].x, space[path[0]].y]];
      for (let i = 1; i < path.length; i++) {
        const a = wheelOfRim[path[i - 1]], b = wheelOfRim[path[i]];
        if (a && b && a[0] === b[0]) {
          const w = board.wheels[a[0]];
          const ra = w.rims[a[1]], rb = w.rims[b[1]];
          const mx = (ra.x + rb.x) / 2, my = (ra.y + rb.y) / 2;
          points.push([ra.x, ra.y], [mx + (w.x - mx) * 0.2, my + (w.y - my) * 0.2], [rb.x, rb.y]);
        }
        points.push([space[path[i]].x, space[path[i]].y]);
      }
      return points;
    }

    function moveTrack(el, points, t0, t1, endAngle) {
      return {el: el, t0: t0, t1: t1, apply: function (f) {
        const p = U.along(points, f);
        const q = U.along(points, Math.min(1, f + 0.02)), r = U.along(points, Math.max(0, f - 0.02));
        const angle = f >= 1 ? endAngle : Math.atan2(q[1] - r[1], q[0] - r[0]) * 180 / Math.PI;
        U.place(el, p[0], p[1], " rotate(" + angle.toFixed(1) + ")");
      }};
    }

    function transition(prev, state) {
      const tracks = [];
      let phase = 0;
      for (const e of state.last || []) {
        if (e.cause === "move" && e.path && e.path.length > 1) {
          const piece = state.pieces[e.piece];
          const points = routePoints(e.path);
          points[0] = pointOf(prev.pieces[e.piece], prev);
          tracks.push(moveTrack(pieces[e.piece], points, phase, phase + 1, angleOf(piece)));
          phase++;
        } else if (e.cause === "sent_back") {
          const from = space[e.from];
          const to = pointOf(state.pieces[e.piece], state);
          tracks.push(moveTrack(pieces[e.piece], [[from.x, from.y], to], phase, phase + 1,
                                angleOf(state.pieces[e.piece])));
          phase++;
        } else if (e.cause === "finish") {
          const from = space[e.space];
          const to = pointOf(state.pieces[e.piece], state);
          tracks.push(moveTrack(pieces[e.piece], [[from.x, from.y], to], phase, phase + 1, 0));
          phase++;
        } else if (e.cause === "wheel") {
          const before = prev.wheels[e.wheel];
          const from = 90 * before, to = from + TURN_DEGREES[e.turn];
          const w = board.wheels[e.wheel];
          tracks.push({el: wheelGroups[e.wheel], t0: phase, t1: phase + 1,
                       apply: function (f) { setWheel(e.wheel, from + (to - from) * f); }});
          for (const id of e.carried || []) {
            const piece = prev.pieces[id];
            const start = angleOf(piece);
            const turn = TURN_DEGREES[e.turn];
            tracks.push({el: pieces[id], t0: phase, t1: phase + 1, apply: function (f) {
              U.place(pieces[id], w.x, w.y, " rotate(" + (start + turn * f).toFixed(1) + ")");
            }});
          }
          phase++;
        }
      }
      return {phases: phase, tracks: tracks};
    }

    function describe(state) {
      const who = U.seatName(meta, state.seat);
      const left = meta.seats.map(function (s) {
        return s.name + ": " + state.pieces.filter(function (p) { return p.seat === s.seat && p.space !== null; }).length + " on board";
      }).join(" · ");
      const phases = {roll: who + " to roll", choose: who + " to choose which piece moves first",
                      direction: who + " to choose the way out of the centre", wheel: who + " to turn a wheel",
                      popoff: "pop-off", popoff_start: "the loser of the pop-off to pick a START",
                      own_start: who + " to pick the START", over: state.winner === null ? "game over" : "won by " + U.seatName(meta, state.winner)};
      return (phases[state.phase] || state.phase) + " — " + left;
    }

    // A space as the words name it: its number, or its wheel's hub.
    function placeName(id) {
      return hubWheel[id] ? "the hub of wheel " + hubWheel[id].name : String(id);
    }

    // Pieces, wheels and spaces (a START by its index in board.starts) as
    // the actions name them.
    function spots(action, state) {
      if (action.piece !== undefined) {
        const at = pointOf(state.pieces[action.piece], state);
        return [{x: at[0], y: at[1], r: 2.6, label: "the piece on " + placeName(state.pieces[action.piece].space)}];
      }
      if (action.wheel !== undefined) {
        const w = board.wheels[action.wheel];
        return [{x: w.x, y: w.y, r: w.radius + 1.2, label: "wheel " + w.name}];
      }
      const id = action.toward !== undefined ? action.toward
        : action.start !== undefined ? board.starts[action.start].space : undefined;
      if (id === undefined) return [];
      return [{x: space[id].x, y: space[id].y, r: 2.2, label: (space[id].kind === "start" ? "START " + startIndex[id] + ", " : "") + "space " + id}];
    }

    // An offered wheel turn, before it is chosen: the wheel's tracks drawn
    // where the turn would leave them, over the wheel as it stands.
    function preview(action, state) {
      layerPreview.textContent = "";
      if (!action || action.wheel === undefined) return;
      const w = board.wheels[action.wheel];
      const degrees = 90 * state.wheels[action.wheel] + TURN_DEGREES[action.turn];
      const g = U.el(layerPreview, "g", {class: "dt-preview-wheel", "data-wheel": action.wheel, "data-turn": action.turn,
                                         transform: "rotate(" + degrees + " " + w.x + " " + w.y + ")"});
      for (const track of wheelGroups[action.wheel].querySelectorAll(".dt-track")) g.appendChild(track.cloneNode(true));
    }

    const legend = [[".space.dt-path", "path space"], [".space.dt-start", "START"], [".space.dt-finish", "FINISH"],
                    [".space.dt-star", "star space"], [".dt-centre", "centre"], [".dt-wheel", "wheel (its hub a star)"]];

    return {render: render, transition: transition, describe: describe, spots: spots, legend: legend, preview: preview,
            prepare: function (prev, state) { drawTrail(state); }};
  };
})();
