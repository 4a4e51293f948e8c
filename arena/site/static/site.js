/* What every page of the site does. Sortable tables: click (or Enter on) a
   heading with data-sort="num|text". Cells may carry data-value, the value
   to sort by; otherwise their text. */
(function () {
  "use strict";

  function valueOf(row, index, kind) {
    const cell = row.cells[index];
    if (!cell) return kind === "num" ? -Infinity : "";
    const raw = cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent;
    if (kind === "num") {
      const number = parseFloat(raw);
      return isNaN(number) ? -Infinity : number;
    }
    return raw.trim().toLowerCase();
  }

  function sortBy(table, th) {
    const heads = Array.from(th.parentNode.children);
    const index = heads.indexOf(th);
    const kind = th.getAttribute("data-sort");
    const current = th.getAttribute("aria-sort");
    let direction;
    if (current === "descending") direction = "ascending";
    else if (current === "ascending") direction = "descending";
    else direction = th.getAttribute("data-first") || (kind === "num" ? "descending" : "ascending");
    heads.forEach(function (other) { if (other !== th) other.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", direction);
    const body = table.tBodies[0];
    const rows = Array.from(body.rows).map(function (row, position) { return [row, position]; });
    const sign = direction === "ascending" ? 1 : -1;
    rows.sort(function (a, b) {
      const x = valueOf(a[0], index, kind), y = valueOf(b[0], index, kind);
      if (x < y) return -sign;
      if (x > y) return sign;
      return a[1] - b[1];
    });
    rows.forEach(function (pair) { body.appendChild(pair[0]); });
  }

  function sortable(root) {
    root.querySelectorAll("table.sortable").forEach(function (table) {
      table.querySelectorAll("thead th[data-sort]").forEach(function (th) {
        th.tabIndex = 0;
        th.classList.add("sort-head");
        th.addEventListener("click", function () { sortBy(table, th); });
        th.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, th); }
        });
      });
    });
  }

  /* Rating-history charts: hovering or focusing a line or its legend entry
     lifts that line (class "lifted") and fades the others (class "lifting"
     on the chart's box). Lines and entries share data-series numbers. */
  function charts(root) {
    root.querySelectorAll(".chart-box").forEach(function (box) {
      const parts = box.querySelectorAll("[data-series]");
      function lift(series) {
        box.classList.toggle("lifting", series !== null);
        parts.forEach(function (part) {
          const lifted = part.getAttribute("data-series") === series;
          part.classList.toggle("lifted", lifted);
          // drawn last, the lifted line is in front of every other (a
          // focused line stays where it is: moving it would take its focus)
          if (lifted && part.ownerSVGElement && part.nextElementSibling && part !== document.activeElement) {
            part.parentNode.appendChild(part);
          }
        });
      }
      parts.forEach(function (part) {
        const series = part.getAttribute("data-series");
        part.addEventListener("mouseenter", function () { lift(series); });
        part.addEventListener("focus", function () { lift(series); });
        part.addEventListener("mouseleave", function () { lift(null); });
        part.addEventListener("blur", function () { lift(null); });
      });
    });
  }

  /* What the markup under root needs to work: on load, and again for the
     markup a served site's page replaces (static/live.js). */
  window.ArenaSite = {enhance: function (root) { sortable(root); charts(root); }};
  window.ArenaSite.enhance(document);
})();
