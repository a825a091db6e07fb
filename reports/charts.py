"""The rating chart: an inline SVG, no script, no external file.

:func:`rating_chart` draws one player's rating history in one pool: the mean ``mu``
as a line, the band ``mu ± sigma`` (the model's uncertainty) shaded around it, and
the displayed rating ``mu - 3 sigma`` (the leaderboard's number) dashed. The x axis
counts rated matches (0 is the start, before the first match).

The SVG carries ``role="img"`` with a ``<title>`` and ``<desc>``; pages put a table
of the same numbers beside it as the text alternative. Only numbers and strings the
caller passes (already translated) go into it, and every string is escaped here.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 14, 12, 30
MAX_DOTS = 60  # dots on the mu line up to this many matches


def nice_step(span: float, ticks: int = 5) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about ``ticks`` ticks."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power  # pragma: no cover


def _ticks(low: float, high: float, ticks: int = 5) -> list[float]:
    step = nice_step(high - low, ticks)
    first = math.ceil(low / step) * step
    out = []
    value = first
    while value <= high + step * 1e-9:
        out.append(round(value, 10))
        value += step
    return out


def series(points: Sequence) -> list[tuple[float, float]]:
    """(mu, sigma) at the start and after each rated match."""
    if not points:
        return []
    out = [(points[0].mu_before, points[0].sigma_before)]
    out.extend((p.mu_after, p.sigma_after) for p in points)
    return out


def rating_chart(points: Sequence, *, chart_id: str, title: str, desc: str,
                 number: Callable[[float], str] = lambda v: f"{v:g}") -> Markup:
    """The SVG of a rating history (``HistoryPoint`` rows in rating order)."""
    data = series(points)
    if not data:
        return Markup("")
    mus = [m for m, _ in data]
    uppers = [m + s for m, s in data]
    lowers = [m - s for m, s in data]
    ordinals = [m - 3 * s for m, s in data]
    low = min(min(lowers), min(ordinals))
    high = max(uppers)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad
    n = len(data) - 1
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / n if n else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    def path(values: Sequence[float]) -> str:
        return " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(v):.1f}"
                        for i, v in enumerate(values))

    parts = [
        (f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
         f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">'),
        f'<title id="{chart_id}-t">{escape(title)}</title>',
        f'<desc id="{chart_id}-d">{escape(desc)}</desc>',
    ]
    for tick in _ticks(low, high):
        ty = y(tick)
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                     f'y1="{ty:.1f}" y2="{ty:.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{ty + 4:.1f}" '
                     f'text-anchor="end">{escape(number(tick))}</text>')
    x_step = max(1, int(nice_step(max(n, 1), 6)))
    for i in range(0, n + 1, x_step):
        parts.append(f'<text class="tick" x="{x(i):.1f}" y="{HEIGHT - 10}" '
                     f'text-anchor="middle">{i}</text>')
    parts.append(f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                 f'y1="{TOP + plot_h}" y2="{TOP + plot_h}"/>')
    if n:
        band = path(uppers) + " " + " ".join(
            f"L{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lowers)))) + " Z"
        parts.append(f'<path class="band" d="{band}"/>')
        parts.append(f'<path class="ordinal" d="{path(ordinals)}"/>')
        parts.append(f'<path class="mu" d="{path(mus)}"/>')
    else:  # a single point: draw the band as a bar
        parts.append(f'<line class="band-bar" x1="{x(0):.1f}" x2="{x(0):.1f}" '
                     f'y1="{y(uppers[0]):.1f}" y2="{y(lowers[0]):.1f}"/>')
    if n <= MAX_DOTS:
        for i, mu in enumerate(mus):
            parts.append(f'<circle class="dot" cx="{x(i):.1f}" cy="{y(mu):.1f}" r="2.5"/>')
    parts.append("</svg>")
    return Markup("".join(parts))
