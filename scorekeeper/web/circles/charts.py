"""Small charts of a player's numbers, drawn on the server as SVG (as the score sheet's).

Numbers only, no names (the page says what each chart is). Presentation
attributes, no ``<style>``: the pages' Content-Security-Policy allows no
inline style, and WeasyPrint draws them the same in the circle's PDF.

>>> svg = line_svg([0, 120, 80])
>>> svg.startswith("<svg") and svg.count('fill="none" stroke="#0072B2"') == 1
True
>>> bars_svg([("K", -20.5), ("Q", 10.0)]).count("<rect")
2
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from scorekeeper.text.locale import format_number
from scorekeeper.web.paper.charts import nice_step

WIDTH, HEIGHT = 320.0, 150.0
LEFT, RIGHT, TOP, BOTTOM = 40.0, 8.0, 8.0, 18.0
TEXT = 'font-family="DejaVu Sans, Noto Sans Arabic" font-size="9" fill="currentColor"'
LINE = "#0072B2"
BAND = "#0072B2"
UP, DOWN = "#009E73", "#D55E00"


def _open(label: str) -> str:
    return (
        # Left to right on Arabic pages too: the axes are drawn so, and "−50" must not turn.
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" '
        'direction="ltr" '
        f'role="img" aria-label="{escape(label, {chr(34): "&quot;"})}" class="chart">'
    )


def _scale(low: float, high: float) -> tuple[float, float, int]:
    """A rounded range around [low, high] with 0 inside, and its tick step."""
    low, high = min(low, 0.0), max(high, 0.0)
    step = nice_step(high - low or 1.0, 4)
    return math.floor(low / step) * step, math.ceil(high / step) * step or step, step


def _y(value: float, low: float, high: float) -> float:
    return TOP + (high - value) / (high - low) * (HEIGHT - TOP - BOTTOM)


def _grid(low: float, high: float, step: int) -> list[str]:
    parts = []
    tick = low
    while tick <= high + 1e-9:
        y = _y(tick, low, high)
        colour = "#888" if tick == 0 else "#ccc"
        parts.append(
            f'<path d="M{LEFT:g} {y:.1f}H{WIDTH - RIGHT:g}" stroke="{colour}" stroke-width="0.6"/>'
            f'<text x="{LEFT - 3:g}" y="{y + 3:.1f}" text-anchor="end" {TEXT}>'
            f"{escape(format_number(int(tick)))}</text>"
        )
        tick += step
    return parts


def line_svg(values: Sequence[float], band: Sequence[float] | None = None, label: str = "") -> str:
    """One line through ``values`` (one point per game); ``band`` draws ± around it."""
    if not values:
        return ""
    lows = [v - (band[i] if band else 0) for i, v in enumerate(values)]
    highs = [v + (band[i] if band else 0) for i, v in enumerate(values)]
    low, high, step = _scale(min(lows), max(highs))
    if band:  # a rating's uncertainty: no zero line needed, the band starts near the values
        low, high = math.floor(min(lows) / step) * step, math.ceil(max(highs) / step) * step
        high = high if high > low else low + step
    count = max(len(values) - 1, 1)

    def x(i: int) -> float:
        return LEFT + i / count * (WIDTH - LEFT - RIGHT)

    parts = [_open(label), *_grid(low, high, step)]
    if band:
        top = " ".join(f"{x(i):.1f},{_y(v, low, high):.1f}" for i, v in enumerate(highs))
        bottom = " ".join(
            f"{x(i):.1f},{_y(v, low, high):.1f}" for i, v in reversed(list(enumerate(lows)))
        )
        parts.append(f'<polygon points="{top} {bottom}" fill="{BAND}" fill-opacity="0.15"/>')
    path = "M" + " L".join(f"{x(i):.1f} {_y(v, low, high):.1f}" for i, v in enumerate(values))
    parts.append(f'<path d="{path}" fill="none" stroke="{LINE}" stroke-width="2"/>')
    parts.append("</svg>")
    return "".join(parts)


def bars_svg(bars: Sequence[tuple[str, float | None]], label: str = "") -> str:
    """One bar per (short label, value): above the zero line for gains, below for losses."""
    values = [v or 0.0 for _l, v in bars]
    low, high, step = _scale(min(values, default=0.0), max(values, default=0.0))
    width = (WIDTH - LEFT - RIGHT) / max(len(bars), 1)
    parts = [_open(label), *_grid(low, high, step)]
    zero = _y(0, low, high)
    for i, (name, value) in enumerate(bars):
        v = value or 0.0
        y = _y(v, low, high)
        left = LEFT + i * width + width * 0.2
        colour = UP if v >= 0 else DOWN
        parts.append(
            f'<rect x="{left:.1f}" y="{min(y, zero):.1f}" width="{width * 0.6:.1f}" '
            f'height="{abs(zero - y):.1f}" fill="{colour}"/>'
            f'<text x="{left + width * 0.3:.1f}" y="{HEIGHT - 5:g}" text-anchor="middle" {TEXT}>'
            f"{escape(name)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
