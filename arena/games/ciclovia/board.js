/* Ciclovia: the city drawn from GAME.board (street spaces with x, y, lane
   and the light street; blocks with their boxes and numbered doors; the
   garage and the arrival points). The dice on the blocks come from
   state.blocks; each rider's dice and score are in a tray under the city.
   A step slides the rider from space to space; a die that is taken flies
   from its block to the rider's tray; at the traffic light the dice left
   on the first stage are gathered (they fade out). */
(function () {
  "use strict";
  const U = ArenaBoards.util;
  const DIE = {blue: "#2563c9", red: "#d13a2f", green: "#2f9e44", orange: "#f08c00"};
  const PIPS = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
                5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]};

  ArenaBoards.ciclovia = function (svg, board, meta) {
    const cell = board.grid.cell;
    const trayTop = board.height + 2;
    const trayRow = 4.6;
    svg.setAttribute("viewBox", "0 -1 " + (board.width + 1) + " " + (trayTop + trayRow * meta.players + 2));
    const spaces = board.spaces;
    const blocks = board.blocks;

    U.el(svg, "rect", {x: cell * 1.5, y: cell * 0.5, width: board.width - cell * 2.5, height: board.height - cell * 0.5, rx: 1, class: "cv-city"});
    const layerStreets = U.el(svg, "g", {class: "cv-streets"});
    const layerBlocks = U.el(svg, "g", {class: "cv-blocks"});
    const layerDice = U.el(svg, "g", {class: "cv-dice"});
    const layerTrail = U.el(svg, "g", {class: "trail"});
    const layerPieces = U.el(svg, "g", {class: "pieces"});
    const layerTray = U.el(svg, "g", {class: "cv-tray"});

    for (const s of spaces) {
      const g = U.el(layerStreets, "g", {class: "space cv-" + s.kind + " cv-" + s.lane + (s.light ? " cv-light" : ""), "data-space": s.id});
      if (s.kind === "garage") {
        U.el(g, "rect", {x: s.x - cell * 0.9, y: spaces[board.entries[0]].y - cell * 0.5, width: cell * 1.4,
                         height: spaces[board.entries[board.entries.length - 1]].y - spaces[board.entries[0]].y + cell, rx: 1, class: "cv-garage-box"});
        U.el(g, "text", {x: s.x - cell * 0.2, y: s.y, class: "cv-garage-label", "text-anchor": "middle",
                         transform: "rotate(-90 " + (s.x - cell * 0.2) + " " + s.y + ")"}, "GARAGE");
      } else if (s.kind === "arrival") {
        U.el(g, "path", {d: "M " + (s.x - 1.2) + " " + (s.y + 1.5) + " L " + (s.x - 1.2) + " " + (s.y - 1.6) +
                         " L " + (s.x + 1.4) + " " + (s.y - 0.9) + " L " + (s.x - 1.2) + " " + (s.y - 0.2), class: "cv-flag"});
      } else {
        U.el(g, "rect", {x: s.x - cell / 2, y: s.y - cell / 2, width: cell, height: cell, class: "cv-cell"});
        // The space's number in its corner: the words of a step name it.
        U.el(g, "text", {x: s.x - cell / 2 + 0.2, y: s.y - cell / 2 + 0.95, class: "cv-id"}, s.id);
      }
      U.el(g, "title", {}, "space " + s.id + (s.kind === "garage" || s.kind === "arrival" ? " (" + s.kind + ")" : " (" + s.gx + ", " + s.gy + ", " + s.lane + ")"));
    }
    // The traffic light.
    const lamp = U.el(layerStreets, "g", {class: "cv-lamp", transform: "translate(" + board.light.x + " " + board.light.y + ")"});
    U.el(lamp, "rect", {x: -1.1, y: -1.3, width: 2.2, height: 2.6, rx: 0.6});
    U.el(lamp, "circle", {cx: 0, cy: -0.55, r: 0.45, class: "cv-lamp-red"});
    U.el(lamp, "circle", {cx: 0, cy: 0.55, r: 0.45, class: "cv-lamp-green"});

    for (const b of blocks) {
      const g = U.el(layerBlocks, "g", {class: "cv-block cv-stage-" + b.stage, "data-block": b.id});
      U.el(g, "rect", {x: b.box[0] + 0.25, y: b.box[1] + 0.25, width: b.box[2] - b.box[0] - 0.5, height: b.box[3] - b.box[1] - 0.5,
                       rx: 0.6, class: "cv-block-box"});
      U.el(g, "text", {x: b.box[0] + 0.8, y: b.box[1] + 1.7, class: "cv-block-id"}, "block " + b.id);
      for (const d of b.doors) {
        U.el(g, "rect", {x: d.x - 0.55, y: d.y - 0.55, width: 1.1, height: 1.1, rx: 0.2, class: "cv-door"});
        U.el(g, "text", {x: d.x, y: d.y + 0.38, "text-anchor": "middle", class: "cv-door-number"}, d.number);
      }
    }

    function drawDie(parent, x, y, size, colour, value, extra) {
      const g = U.el(parent, "g", {class: "cv-die", transform: "translate(" + x + " " + y + ")"});
      U.el(g, "rect", {x: -size / 2, y: -size / 2, width: size, height: size, rx: size * 0.18, fill: DIE[colour] || "#888",
                       class: "cv-die-face" + (extra ? " " + extra : "")});
      for (const p of PIPS[value] || []) U.el(g, "circle", {cx: p[0] * size * 0.27, cy: p[1] * size * 0.27, r: size * 0.09, class: "cv-pip"});
      return g;
    }

    const riders = [];
    for (let seat = 0; seat < meta.players; seat++) {
      const g = U.pawn(layerPieces, seat, 1.35);
      g.setAttribute("data-piece", "r" + seat);
      const nose = U.el(g, "path", {d: "M 1.3 -0.7 L 2.3 0 L 1.3 0.7 z", class: "cv-nose"});
      riders.push({g: g, nose: nose});
    }

    let blockDice = {};

    function garagePoint(seat) {
      const top = spaces[board.entries[0]].y, bottom = spaces[board.entries[board.entries.length - 1]].y;
      return [spaces[board.garage].x, top + 2 + seat * (bottom - top - 4) / Math.max(1, meta.players - 1)];
    }

    function spacePoint(id, seat) {
      return spaces[id].kind === "garage" ? garagePoint(seat) : [spaces[id].x, spaces[id].y];
    }

    function riderPoint(state, seat) { return spacePoint(state.riders[seat].space, seat); }

    // A rider faces N, E, S or W (the way its last step went): its nose turns to that side.
    const HEADING = {E: 0, S: 90, W: 180, N: 270};
    function face(seat, degrees) { riders[seat].nose.setAttribute("transform", "rotate(" + degrees.toFixed(1) + ")"); }

    function trayPoint(seat, index) { return [30 + index * 3.2, trayTop + seat * trayRow + 1.9]; }

    function render(state) {
      layerDice.textContent = "";
      blockDice = {};
      (state.blocks || []).forEach(function (die, id) {
        if (die) blockDice[id] = drawDie(layerDice, blocks[id].x, blocks[id].y, 3.6, die.colour, die.value);
      });
      state.riders.forEach(function (r, seat) {
        const p = riderPoint(state, seat);
        U.place(riders[seat].g, p[0], p[1]);
        face(seat, HEADING[r.facing] || 0);
        riders[seat].g.setAttribute("data-at", r.space);
        riders[seat].g.classList.toggle("to-move", state.to_move === seat);
        riders[seat].g.classList.toggle("cv-arrived", !!r.arrived);
      });
      layerTray.textContent = "";
      state.riders.forEach(function (r, seat) {
        const y = trayTop + seat * trayRow;
        U.el(layerTray, "rect", {x: 0.5, y: y, width: board.width, height: trayRow - 0.8, rx: 1, class: "cv-tray-row seat-" + seat});
        U.el(layerTray, "circle", {cx: 2.6, cy: y + 1.9, r: 1.0, fill: U.SEAT_COLOURS[seat % 4]});
        U.el(layerTray, "text", {x: 4.4, y: y + 2.45, class: "cv-tray-name"}, U.seatName(meta, seat).slice(0, 24));
        r.dice.forEach(function (die, index) {
          const p = trayPoint(seat, index);
          drawDie(layerTray, p[0], p[1], 2.6, die.colour, die.value, die.doubled ? "cv-doubled" : "");
        });
        const score = state.scores ? state.scores[seat] : r.score;
        U.el(layerTray, "text", {x: board.width - 1, y: y + 2.45, "text-anchor": "end", class: "cv-tray-score"},
             score + " pts" + (r.double_next ? " · next ×2" : "") + (r.missing && r.missing.length ? " · needs " + r.missing.join(", ") : " · all colours"));
      });
      drawTrail(state);
    }

    function drawTrail(state) {
      layerTrail.textContent = "";
      for (const e of state.last || []) {
        if (e.cause === "step" && e.path && e.path.length > 1) {
          const pts = e.path.map(function (id) { return spacePoint(id, e.rider); });
          U.el(layerTrail, "polyline", {class: "trail-line seat-" + e.rider, points: pts.map(function (p) { return p.join(","); }).join(" ")});
        }
      }
    }

    function transition(prev, state) {
      const tracks = [];
      let phase = 0;
      const taken = prev.riders.map(function (r) { return r.dice.length; });
      for (const e of state.last || []) {
        if (e.cause === "step" && e.path && e.path.length > 1) {
          const seat = e.rider;
          const points = e.path.map(function (id) { return spacePoint(id, seat); });
          tracks.push({el: riders[seat].g, t0: phase, t1: phase + 1, points: points});
          phase++;
        } else if (e.cause === "take") {
          const from = [blocks[e.block].x, blocks[e.block].y];
          const to = trayPoint(e.rider, taken[e.rider]++);
          tracks.push({t0: phase, t1: phase + 1, apply: function (f) {
            const die = blockDice[e.block];
            if (!die) return;
            const p = U.along([from, to], f);
            die.setAttribute("transform", "translate(" + p[0].toFixed(2) + " " + p[1].toFixed(2) + ") scale(" + (1 - 0.22 * f).toFixed(3) + ")");
          }});
          phase++;
        } else if (e.cause === "reverse") {
          const seat = e.rider;
          const start = HEADING[prev.riders[seat].facing] || 0;
          tracks.push({el: riders[seat].nose, t0: phase, t1: phase + 1, apply: function (f) {
            face(seat, start + 180 * f);
          }});
          phase++;
        } else if (e.cause === "light") {
          tracks.push({t0: phase, t1: phase + 1, apply: function (f) {
            for (const id in blockDice) {
              if (blocks[id].stage === 1) blockDice[id].style.opacity = String(1 - f);
            }
          }});
          phase++;
        }
      }
      return {phases: phase, tracks: tracks};
    }

    function describe(state) {
      const scores = (state.scores || []).map(function (s, seat) { return U.seatName(meta, seat) + " " + s; }).join(" · ");
      let what = "stage " + state.stage;
      if (state.phase === "turn" && state.to_move !== null) what += ", " + U.seatName(meta, state.to_move) + " to move";
      else if (state.phase === "over") what = "game over (" + state.ending + ")";
      else if (state.phase === "deal" || state.phase === "roll") what += ", dealing the dice";
      return what + " — " + scores;
    }

    // A step names the space it reaches, a take the block whose die it
    // takes; staying, stopping, turning round and leaving the dice name
    // nothing on the board.
    function spots(action, state) {
      if (action.to !== undefined) {
        const p = spacePoint(action.to, state.to_move);
        return [{x: p[0], y: p[1], r: cell * 0.62, label: "space " + action.to}];
      }
      if (action.take !== undefined) {
        const b = blocks[action.take];
        return [{x: b.x, y: b.y, r: 2.8, label: "block " + action.take}];
      }
      return [];
    }

    const legend = [[".cv-street.cv-grey:not(.cv-light)", "grey street"], [".cv-street.cv-brown:not(.cv-light)", "brown street"],
                    [".cv-light", "traffic-light street"], [".cv-arrival", "arrival"], [".cv-garage", "garage"],
                    [".cv-stage-1", "block of stage 1, doors numbered"], [".cv-stage-2", "block of stage 2"]];

    return {render: render, transition: transition, describe: describe, spots: spots, legend: legend,
            prepare: function (prev, state) { drawTrail(state); }};
  };
})();
