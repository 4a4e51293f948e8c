"""Charts drawn in Python as inline SVG or plain numbers, so the pages need
no charting library and the arithmetic sits where it can be tested: the
Elo history line chart and the interval bars of the standings tables."""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from arena.stats.elo import INITIAL
from arena.stats.joint import JointRating

CHART_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                 "#17becf", "#7f7f7f", "#bcbd22"]


def chart_colour(n: int) -> str:
    """Ten distinct colours, then hues a golden angle apart."""
    if n < len(CHART_COLOURS):
        return CHART_COLOURS[n]
    return f"hsl({(n * 137.508) % 360:.0f}, 65%, 42%)"


def interval_bars(ratings: list[JointRating | None]) -> list[dict[str, str] | None]:
    """Where each rating's 95% interval bar and its dot go on a shared scale
    from the lowest low to the highest high, in percent of the cell (as CSS
    wants them: one decimal). None where a bot has no joint rating."""
    fitted = [r for r in ratings if r is not None]
    lo = min((r.low for r in fitted), default=0.0)
    hi = max((r.high for r in fitted), default=1.0)
    span = hi - lo if hi > lo else 1.0
    return [None if r is None else
            {"left": f"{100 * (r.low - lo) / span:.1f}", "width": f"{100 * (r.high - r.low) / span:.1f}",
             "dot": f"{100 * (r.rating - lo) / span:.1f}"}
            for r in ratings]


# A marker shape per line, as an SVG path centred on 0,0 (radius about 1):
# with the colour, it tells lines apart where colours are close or a line
# hides another. Line n has colour n and shape n (shapes repeat every
# eight lines, colours never).
MARKERS = ["M1,0A1,1 0 1,1 -1,0A1,1 0 1,1 1,0Z",  # circle
           "M-0.85,-0.85H0.85V0.85H-0.85Z",  # square
           "M0,-1.1L1,0.75H-1Z",  # triangle up
           "M0,-1.15L1.15,0L0,1.15L-1.15,0Z",  # diamond
           "M0,1.1L1,-0.75H-1Z",  # triangle down
           "M-1,-0.35H-0.35V-1H0.35V-0.35H1V0.35H0.35V1H-0.35V0.35H-1Z",  # plus
           "M-1,-0.5L-0.5,-1L0,-0.5L0.5,-1L1,-0.5L0.5,0L1,0.5L0.5,1L0,0.5L-0.5,1L-1,0.5L-0.5,0Z",  # cross
           "M0,-1.1L0.3,-0.35L1.05,-0.35L0.45,0.15L0.65,0.95L0,0.45L-0.65,0.95L-0.45,0.15L-1.05,-0.35L-0.3,-0.35Z"]
MARKERS_PER_LINE = 8  # markers along each line, spread out, at staggered places for each line


def marker(n: int) -> str:
    return MARKERS[n % len(MARKERS)]


def _marker_points(thin: list[tuple[int, float]], n: int) -> list[tuple[int, float]]:
    """Where line ``n`` shows its markers: a few points spread along it,
    shifted a little for each line so that lines that run together show
    both their shapes."""
    if len(thin) <= MARKERS_PER_LINE:
        return thin
    step = len(thin) / MARKERS_PER_LINE
    offset = (n * 0.37) % 1.0
    return [thin[min(len(thin) - 1, int((k + offset) * step))] for k in range(MARKERS_PER_LINE)]


def legend_swatch(n: int) -> Markup:
    """A line's colour and marker as a small inline SVG, for legends."""
    return Markup(f'<svg class="legend-mark" viewBox="-8 -4 16 8" width="24" height="12" aria-hidden="true">'
                  f'<line x1="-8" x2="8" y1="0" y2="0" stroke="{chart_colour(n)}" stroke-width="2"/>'
                  f'<path d="{marker(n)}" transform="scale(3.2)" fill="{chart_colour(n)}"/></svg>')


def history_legend(labels: list[str]) -> Markup:
    """The legend of a history chart: each line's colour, marker and name.
    Hovering or focusing an entry lifts its line (static/site.js)."""
    keys = "".join(f'<li class="key" tabindex="0" data-series="{n}">{legend_swatch(n)}<span>{escape(label)}</span></li>'
                   for n, label in enumerate(labels))
    return Markup(f'<ul class="legend chart-legend">{keys}</ul>')


def history_svg(series: list[tuple[str, list[tuple[int, float]]]],
                band: tuple[float, float] | None = None, x_label: str = "games",
                width: int = 640, height: int = 220) -> Markup:
    """An inline SVG line chart of Elo over games (each line's points as
    sampled: arena.stats.elo.HistorySample), line n in colour and
    marker n (``chart_colour``, ``marker``), each line a group that
    hovering or focusing lifts (static/site.js); ``band`` shades an interval (the joint
    rating's) across the chart."""
    left, right, top, bottom = 48, 12, 10, 30
    values = [v for _, points in series for _, v in points] + [INITIAL]
    if band:
        values += list(band)
    xs = [x for _, points in series for x, _ in points] or [1]
    low, high = min(values), max(values)
    pad = max(10.0, (high - low) * 0.08)
    low, high = low - pad, high + pad
    x_min = min(xs)
    x_max = max(max(xs), x_min + 1)

    def px(x: float) -> float:
        return left + (x - x_min) / (x_max - x_min) * (width - left - right)

    def py(y: float) -> float:
        return top + (high - y) / (high - low) * (height - top - bottom)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg">']
    if band:
        y0, y1 = py(band[1]), py(band[0])
        parts.append(f'<rect class="band" x="{left}" y="{y0:.1f}" width="{width - left - right}" '
                     f'height="{max(0.5, y1 - y0):.1f}"><title>rating, 95% interval '
                     f'{band[0]:.0f} to {band[1]:.0f}</title></rect>')
    for tick in _ticks(low, high, 5):
        y = py(tick)
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text class="tick" x="{left - 4}" y="{y + 3:.1f}" text-anchor="end">{tick:.0f}</text>')
    for tick in _ticks(x_min, x_max, 6):
        if tick < x_min:
            continue
        x = px(tick)
        parts.append(f'<text class="tick" x="{x:.1f}" y="{height - bottom + 14}" '
                     f'text-anchor="middle">{tick:.0f}</text>')
    parts.append(f'<text class="tick" x="{width - right}" y="{height - 2}" text-anchor="end">'
                 f'{escape(x_label)}</text>')
    for n, (label, points) in enumerate(series):
        if not points:
            continue
        colour, name = chart_colour(n), f"{escape(label)}: {points[-1][1]:.0f}"
        coords = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in points)
        marks = "".join(f'<path class="marker" d="{marker(n)}" transform="translate({px(x):.1f},{py(v):.1f}) '
                        f'scale(3.5)" fill="{colour}"/>' for x, v in _marker_points(points, n))
        parts.append(f'<g class="series" data-series="{n}" tabindex="0" aria-label="{name}"><title>{name}</title>'
                     f'<polyline class="hit" points="{coords}"/>'
                     f'<polyline class="line" fill="none" stroke="{colour}" points="{coords}"/>{marks}</g>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _ticks(low: float, high: float, count: int) -> list[float]:
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]
