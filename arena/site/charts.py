"""Charts drawn in Python as inline SVG or plain numbers, so the pages need
no charting library and the arithmetic sits where it can be tested: the
Elo history line chart and the interval bars of the standings tables."""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from arena.stats.elo import INITIAL
from arena.stats.joint import MLRating

CHART_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                 "#17becf", "#7f7f7f", "#bcbd22"]
MAX_CHART_POINTS = 300


def chart_colour(n: int) -> str:
    """Ten distinct colours, then hues a golden angle apart."""
    if n < len(CHART_COLOURS):
        return CHART_COLOURS[n]
    return f"hsl({(n * 137.508) % 360:.0f}, 65%, 42%)"


def interval_bars(ratings: list[MLRating | None]) -> list[dict[str, str] | None]:
    """Where each rating's 95% interval bar and its dot go on a shared scale
    from the lowest low to the highest high, in percent of the cell (as CSS
    wants them: one decimal). None where a bot has no finite rating."""
    ratings = [r if r is not None and r.defined else None for r in ratings]
    fitted = [r for r in ratings if r is not None]
    lo = min((r.low for r in fitted), default=0.0)
    hi = max((r.high for r in fitted), default=1.0)
    span = hi - lo if hi > lo else 1.0
    return [None if r is None else
            {"left": f"{100 * (r.low - lo) / span:.1f}", "width": f"{100 * (r.high - r.low) / span:.1f}",
             "dot": f"{100 * (r.rating - lo) / span:.1f}"}
            for r in ratings]


def _thin(points: list[tuple[int, float]], limit: int = MAX_CHART_POINTS) -> list[tuple[int, float]]:
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(k * step)] for k in range(limit)]


def history_svg(series: list[tuple[str, list[tuple[int, float]], str]],
                band: tuple[float, float] | None = None, x_label: str = "games",
                width: int = 640, height: int = 220) -> Markup:
    """An inline SVG line chart of Elo over games; ``band`` shades an
    interval (the maximum-likelihood rating's) across the chart."""
    left, right, top, bottom = 48, 12, 10, 30
    values = [v for _, points, _ in series for _, v in points] + [INITIAL]
    if band:
        values += list(band)
    xs = [x for _, points, _ in series for x, _ in points] or [1]
    low, high = min(values), max(values)
    pad = max(10.0, (high - low) * 0.08)
    low, high = low - pad, high + pad
    x_max = max(max(xs), 2)

    def px(x: float) -> float:
        return left + (x - 1) / (x_max - 1) * (width - left - right)

    def py(y: float) -> float:
        return top + (high - y) / (high - low) * (height - top - bottom)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg">']
    if band:
        y0, y1 = py(band[1]), py(band[0])
        parts.append(f'<rect class="band" x="{left}" y="{y0:.1f}" width="{width - left - right}" '
                     f'height="{max(0.5, y1 - y0):.1f}"><title>maximum-likelihood rating, 95% interval '
                     f'{band[0]:.0f} to {band[1]:.0f}</title></rect>')
    for tick in _ticks(low, high, 5):
        y = py(tick)
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text class="tick" x="{left - 4}" y="{y + 3:.1f}" text-anchor="end">{tick:.0f}</text>')
    for tick in _ticks(1, x_max, 6):
        if tick < 1:
            continue
        x = px(tick)
        parts.append(f'<text class="tick" x="{x:.1f}" y="{height - bottom + 14}" '
                     f'text-anchor="middle">{tick:.0f}</text>')
    parts.append(f'<text class="tick" x="{width - right}" y="{height - 2}" text-anchor="end">'
                 f'{escape(x_label)}</text>')
    for label, points, colour in series:
        thin = _thin(points)
        if not thin:
            continue
        coords = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in thin)
        parts.append(f'<polyline class="line" fill="none" stroke="{colour}" points="{coords}">'
                     f'<title>{escape(label)}: {points[-1][1]:.0f}</title></polyline>')
        if len(thin) == 1:
            x, v = thin[0]
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(v):.1f}" r="3" fill="{colour}"/>')
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
