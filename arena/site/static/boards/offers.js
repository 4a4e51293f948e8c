/* The offered actions of a decision, on the board and in a list at once:
   the replay (what a bot was offered, what it chose) and the play page
   (what the person may choose, by clicking) both show them through here.

   ArenaBoards.offers(svg, view) adds a layer on top of the board and
   returns {show(state, actions, words, options), clear()}. show draws a
   ring on every spot the board view's spots(action, state) names (actions
   naming the same spot share a ring; its title lists the spot and the
   actions) and fills options.list with one item per action, each in its
   words (words[i], the game's own words for actions[i]: the replay data
   and the play server carry them). Hovering a ring lights its items, and
   hovering or focusing an item lights its rings and shows the board
   view's preview(action, state) if it has one. options:
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
      if (view.preview) view.preview(null);
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

    function drawRings(state, actions, words, options) {
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
          return i + ". " + words[i];
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

    function fillList(state, actions, words, options) {
      actions.forEach(function (action, index) {
        const item = document.createElement("li");
        item.setAttribute("data-index", index);
        const text = words[index];
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
        const on = function () {
          light([index], true);
          if (view.preview) view.preview(action, state);
        };
        const off = function () {
          light([index], false);
          if (view.preview) view.preview(null);
        };
        item.addEventListener("mouseenter", on);
        item.addEventListener("mouseleave", off);
        item.addEventListener("focusin", on);
        item.addEventListener("focusout", off);
        list.appendChild(item);
      });
    }

    function show(state, actions, words, options) {
      options = options || {};
      clear();
      list = options.list || null;
      drawRings(state, actions, words, options);
      if (list) fillList(state, actions, words, options);
    }

    return {show: show, clear: clear};
  };
})();
