/* The offered actions of a decision, on the board and in a list at once:
   the replay (what a bot was offered, what it chose) and the play page
   (what the person may choose, by clicking) both show them through here.

   ArenaBoards.offers(svg, view) adds a layer on top of the board and
   returns {show(state, actions, options), clear()}. show draws a ring on
   every spot the board view's spots(action, state) names (actions naming
   the same spot share a ring; its title lists the spot's id and the
   actions) and fills options.list with one item per action. Hovering a
   ring lights its items and hovering an item lights its rings. options:
     chosen    the index chosen (marked on the ring and the item)
     onChoose  makes rings and items clickable: a ring of one action
               chooses it; a ring of several picks them out in the list */
(function () {
  "use strict";
  const U = ArenaBoards.util;

  ArenaBoards.offers = function (svg, view) {
    const layer = U.el(svg, "g", {class: "offers"});
    let list = null;

    function clear() {
      layer.textContent = "";
      if (list) list.textContent = "";
    }

    function light(indexes, on) {
      for (const ring of layer.children) {
        const mine = ring.getAttribute("data-offers").split(" ").map(Number);
        ring.classList.toggle("lit", on && mine.some(function (i) { return indexes.indexOf(i) >= 0; }));
      }
      if (!list) return;
      for (const item of list.children) {
        item.classList.toggle("lit", on && indexes.indexOf(Number(item.getAttribute("data-index"))) >= 0);
      }
    }

    function pick(indexes) {
      for (const item of list.children) {
        item.classList.toggle("picked", indexes.indexOf(Number(item.getAttribute("data-index"))) >= 0);
      }
      const first = list.querySelector("li.picked button");
      if (first) first.focus();
    }

    function drawRings(state, actions, options) {
      const rings = {};
      actions.forEach(function (action, index) {
        for (const spot of (view.spots ? view.spots(action, state) : [])) {
          const key = spot.x.toFixed(2) + "," + spot.y.toFixed(2);
          if (!rings[key]) rings[key] = {spot: spot, indexes: []};
          rings[key].indexes.push(index);
        }
      });
      for (const key in rings) {
        const ring = rings[key], indexes = ring.indexes;
        const g = U.el(layer, "g", {class: "offer-spot" + (options.onChoose ? " clickable" : ""),
                                    "data-offers": indexes.join(" "), "data-spot": ring.spot.label});
        if (options.chosen !== undefined && options.chosen !== null && indexes.indexOf(options.chosen) >= 0) {
          g.classList.add("chosen");
        }
        U.el(g, "circle", {cx: ring.spot.x, cy: ring.spot.y, r: ring.spot.r, class: "offer-ring"});
        U.el(g, "title", {}, ring.spot.label + ": " + indexes.map(function (i) {
          return i + ". " + U.actionText(actions[i]);
        }).join("; "));
        g.addEventListener("mouseenter", function () { light(indexes, true); });
        g.addEventListener("mouseleave", function () { light(indexes, false); });
        if (options.onChoose) {
          g.addEventListener("click", function () {
            if (indexes.length === 1) options.onChoose(indexes[0]);
            else pick(indexes);
          });
        }
      }
    }

    function fillList(state, actions, options) {
      actions.forEach(function (action, index) {
        const item = document.createElement("li");
        item.setAttribute("data-index", index);
        const where = (view.spots ? view.spots(action, state) : []).map(function (s) { return s.label; });
        const text = U.actionText(action) + (where.length ? "  (" + where.join(", ") + ")" : "");
        if (options.onChoose) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = text;
          button.addEventListener("click", function () { options.onChoose(index); });
          item.appendChild(button);
        } else {
          item.textContent = text;
        }
        if (index === options.chosen) {
          item.classList.add("chosen");
          item.setAttribute("aria-current", "true");
        }
        item.addEventListener("mouseenter", function () { light([index], true); });
        item.addEventListener("mouseleave", function () { light([index], false); });
        list.appendChild(item);
      });
    }

    function show(state, actions, options) {
      options = options || {};
      clear();
      list = options.list || null;
      drawRings(state, actions, options);
      if (list) fillList(state, actions, options);
    }

    return {show: show, clear: clear};
  };
})();
