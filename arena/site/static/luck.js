// The luck of a game's dice (issue 28), drawn from the page's luck data
// (arena.luck: {"totals": [per seat], "rolls": [[event number, [per seat]], ...]},
// in points): a bar per chance event and seat, and a line per seat adding
// them up, ending at the seat's total. Self-contained: reads #luck-data,
// draws into #luck .luck-chart; each bar carries its stored figure
// (data-luck) and says it on hover.
(function () {
  "use strict";
  const source = document.getElementById("luck-data");
  const box = document.querySelector("#luck .luck-chart");
  if (!source || !box) return;
  const luck = JSON.parse(source.textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const seats = luck.totals.length;
  const rolls = luck.rolls;
  const width = 640, height = 180, left = 44, right = 12, top = 10, bottom = 22;

  function make(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    parent.appendChild(node);
    return node;
  }
  function signed(value) {
    return (value >= 0 ? "+" : "") + value.toFixed(3);
  }
  function colour(seat) {
    const row = document.querySelector(`.seat[data-seat="${seat}"]`);
    const value = row ? getComputedStyle(row).getPropertyValue("--seat").trim() : "";
    return value || ["#d62728", "#1f77b4", "#2ca02c", "#ff9f1c"][seat % 4];
  }

  // The running totals, to scale the chart to bars and lines alike.
  const running = [];
  const sums = new Array(seats).fill(0);
  for (const [, values] of rolls) {
    values.forEach((value, seat) => { sums[seat] += value; });
    running.push(sums.slice());
  }
  let reach = 0.05;
  for (const [, values] of rolls) for (const value of values) reach = Math.max(reach, Math.abs(value));
  for (const point of running) for (const value of point) reach = Math.max(reach, Math.abs(value));
  for (const total of luck.totals) reach = Math.max(reach, Math.abs(total));

  const svg = make("svg", {viewBox: `0 0 ${width} ${height}`, class: "luck-svg", role: "img",
                           "aria-label": "the luck of every chance event per seat, and its running total"}, box);
  const plotWidth = width - left - right, plotHeight = height - top - bottom;
  const y = (value) => top + plotHeight / 2 - (value / reach) * (plotHeight / 2);
  const slot = plotWidth / Math.max(1, rolls.length);
  const x = (index) => left + slot * (index + 0.5);

  make("line", {x1: left, x2: width - right, y1: y(0), y2: y(0), class: "luck-zero", stroke: "#888"}, svg);
  for (const mark of [reach, -reach]) {
    make("text", {x: left - 4, y: y(mark) + 4, "text-anchor": "end", "font-size": 10, fill: "#666"}, svg)
      .textContent = signed(mark);
  }
  make("text", {x: left, y: height - 6, "font-size": 10, fill: "#666"}, svg).textContent =
    `${rolls.length} chance events`;

  const barWidth = Math.max(1, (slot * 0.8) / seats);
  rolls.forEach(([event, values], index) => {
    values.forEach((value, seat) => {
      const bar = make("rect", {
        class: "luck-roll", x: x(index) - (slot * 0.4) + seat * barWidth, width: barWidth,
        y: Math.min(y(0), y(value)), height: Math.max(0.5, Math.abs(y(value) - y(0))),
        fill: colour(seat), opacity: 0.45, "data-seat": seat, "data-event": event, "data-luck": value,
      }, svg);
      make("title", {}, bar).textContent = `event ${event}, seat ${seat}: ${signed(value)}`;
    });
  });
  for (let seat = 0; seat < seats; seat++) {
    const points = running.map((sums, index) => `${x(index)},${y(sums[seat])}`).join(" ");
    make("polyline", {class: "luck-total", points, fill: "none", stroke: colour(seat), "stroke-width": 2,
                      "data-seat": seat}, svg);
  }

  const legend = document.createElement("ul");
  legend.className = "luck-totals";
  luck.totals.forEach((total, seat) => {
    const item = document.createElement("li");
    item.dataset.seat = seat;
    item.dataset.total = total;
    item.style.setProperty("--seat", colour(seat));
    item.innerHTML = '<span class="swatch"></span> ';
    item.append(`seat ${seat}: luck ${signed(total)} over the game`);
    legend.appendChild(item);
  });
  box.appendChild(legend);
})();
