/* The board view of a game that brings no drawing of its own (its
   GameSpec has no board_js): the state as text, one line per field, the
   value as compact JSON (a long value is cut, its title holds it whole);
   a field that holds one entry per seat gets a line per seat, in the
   seat's colour. It has nothing to animate and names no spot for an offered action: the
   offers are shown in the list beside the board. */
(function () {
  "use strict";
  const U = ArenaBoards.util;
  const LINE = 5, WIDTH = 160, CHARS = 88;

  ArenaBoards.generic = function (svg, board, meta) {
    const layer = U.el(svg, "g", {class: "generic-state"});

    function cut(text) { return text.length > CHARS ? text.slice(0, CHARS - 1) + "…" : text; }

    function lines(state) {
      const out = [];
      for (const key of Object.keys(state)) {
        if (key === "last") continue;
        const value = state[key];
        if (Array.isArray(value) && value.length === meta.players && meta.players > 1) {
          out.push({text: key + ":"});
          value.forEach(function (entry, seat) {
            out.push({text: "  " + U.seatName(meta, seat) + ": " + JSON.stringify(entry), seat: seat});
          });
        } else {
          out.push({text: key + ": " + JSON.stringify(value)});
        }
      }
      return out;
    }

    function render(state) {
      layer.textContent = "";
      const all = lines(state);
      all.forEach(function (line, index) {
        const attributes = {x: 2, y: LINE * (index + 1), class: "generic-line"};
        if (line.seat !== undefined) attributes.style = "fill: " + U.SEAT_COLOURS[line.seat % U.SEAT_COLOURS.length];
        const text = U.el(layer, "text", attributes, cut(line.text));
        U.el(text, "title", {}, line.text);
      });
      svg.setAttribute("viewBox", [0, 0, WIDTH, LINE * (all.length + 1)].join(" "));
    }

    function describe(state) {
      const parts = [];
      for (const key of ["phase", "turn", "seat", "winner"]) {
        if (state[key] !== undefined && state[key] !== null) parts.push(key + " " + JSON.stringify(state[key]));
      }
      return parts.join(" · ");
    }

    return {render: render, describe: describe, legend: [],
            transition: function () { return {phases: 0, tracks: []}; }};
  };
})();
