"""The score-progression chart: each player's running total, as a small inline SVG.

Drawn on the server from numbers only (no names: the legend is HTML, so that
names in any script are shaped and isolated by the page's text layout). Each
line has its own colour *and* dash pattern, so the chart still reads when
printed in black and white. The SVG is one ``<path>`` per line and a handful
of ticks: cheap for WeasyPrint to draw.

>>> svg = progression_svg([(0, 0, 0, 0), (-75, 0, 0, 0), (-75, 200, 150, 100)])
>>> svg.startswith("<svg") and svg.count("<path") == 3 + 4
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from scorekeeper.text.locale import format_number
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.paper.charts import nice_step

WIDTH, HEIGHT = 640.0, 300.0
LEFT, RIGHT, TOP, BOTTOM = 46.0, 10.0, 10.0, 26.0
"""Plot margins in SVG units: room for the y labels (left) and the x labels (bottom)."""
# Presentation attributes rather than an SVG <style>: simpler for the renderer.
GRID = 'stroke="#bbb" stroke-width="0.6"'
ZERO = 'stroke="#000" stroke-width="1.2"'
AXIS = 'stroke="#000" stroke-width="0.8"'
TEXT = 'font-family="DejaVu Sans, Noto Sans Arabic" font-size="10" fill="#333"'


@dataclass(frozen=True)
class LineStyle:
    """How one player's line is drawn."""

    colour: str
    dash: str
    """An SVG ``stroke-dasharray`` ("none" for a solid line)."""
    width: float


# Okabe–Ito colours (safe for colour-blind readers), each with a distinct dash.
STYLES: tuple[LineStyle, ...] = (
    LineStyle("#0072B2", "none", 2.0),
    LineStyle("#D55E00", "9 4", 2.0),
    LineStyle("#009E73", "2 3", 2.4),
    LineStyle("#CC79A7", "10 3 2 3", 2.0),
)


def y_range(series: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """(low, high, step): round limits that include 0 and every total.

    >>> y_range([(0, 0, 0, 0), (-75, 200, 150, -275)])
    (-300, 200, 100)
    """
    values = [v for point in series for v in point] or [0]
    low, high = min(0, *values), max(0, *values)
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if low == high:
        high = low + step
    return low, high, step


def _scale(low: int, high: int, points: int) -> tuple[float, float, float]:
    """(x per deal, y per point, the y of zero) in SVG units."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    dx = plot_w / max(1, points - 1)
    dy = plot_h / (high - low)
    return dx, dy, TOP + high * dy


def _label(value: int) -> str:
    return format_number(value)


def _axes(low: int, high: int, step: int, deals: int, dx: float, dy: float) -> list[str]:
    """Grid and labels: y ticks, a tick every 5 deals (kingdoms), a bold zero line and axis.

    The grid is one path (one element for the renderer, not one per line).
    """
    grid: list[str] = []
    labels: list[str] = []
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    for value in range(low, high + 1, step):
        y = TOP + (high - value) * dy
        grid.append(f"M{LEFT} {y:.1f}H{right}")
        label = _label(value)
        labels.append(
            f'<text {TEXT} x="{LEFT - 5}" y="{y + 3.5:.1f}" text-anchor="end">{label}</text>'
        )
    for n in range(0, deals + 1, 5 if deals > 10 else 1):
        x = LEFT + n * dx
        grid.append(f"M{x:.1f} {TOP}V{bottom}")
        labels.append(
            f'<text {TEXT} x="{x:.1f}" y="{bottom + 14}" text-anchor="middle">{_label(n)}</text>'
        )
    zero = TOP + high * dy
    return [
        f'<path {GRID} fill="none" d="{"".join(grid)}"/>',
        f'<path {ZERO} fill="none" d="M{LEFT} {zero:.1f}H{right}"/>',
        f'<path {AXIS} fill="none" d="M{LEFT} {TOP}V{bottom}"/>',
        *labels,
    ]


def _line(seat: int, series: Sequence[Sequence[int]], dx: float, dy: float, zero: float) -> str:
    style = STYLES[seat]
    path = " ".join(
        f"{'M' if n == 0 else 'L'}{LEFT + n * dx:.1f} {zero - point[seat] * dy:.1f}"
        for n, point in enumerate(series)
    )
    return (
        f'<path d="{path}" fill="none" stroke="{style.colour}" stroke-width="{style.width}" '
        f'stroke-dasharray="{style.dash}" stroke-linejoin="round"/>'
    )


def progression_svg(series: Sequence[Sequence[int]]) -> str:
    """The chart of ``series`` (running totals per seat, from ``(0, 0, 0, 0)``) as SVG text.

    The x axis counts deals (0 = the start), the y axis points; ``series``
    must have at least one point.
    """
    deals = len(series) - 1
    low, high, step = y_range(series)
    dx, dy, zero = _scale(low, high, max(len(series), 2))
    title = quoteattr(_("Running totals after each deal"))
    # Translators: the label of the score chart's horizontal axis (the deals, numbered).
    axis = escape(_("deals"))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" '
        f'class="chart" role="img" aria-label={title} direction="ltr">',
        *_axes(low, high, step, max(deals, 1), dx, dy),
        *(_line(seat, series, dx, dy, zero) for seat in range(4)),
        f'<text {TEXT} x="{WIDTH - RIGHT}" y="{HEIGHT - 1}" text-anchor="end">{axis}</text>',
        "</svg>",
    ]
    return "".join(parts)


def legend_sample(seat: int) -> str:
    """A short sample of seat ``seat``'s line, for the HTML legend."""
    style = STYLES[seat]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 8" class="sample">'
        f'<path d="M1 4 L35 4" stroke="{style.colour}" stroke-width="{style.width}" '
        f'stroke-dasharray="{style.dash}"/></svg>'
    )
