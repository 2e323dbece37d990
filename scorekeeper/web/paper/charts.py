"""What the charts share, on a page and on paper: round steps for their scales."""

from __future__ import annotations

import math


def nice_step(span: float, ticks: int = 6) -> int:
    """A round tick step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` ticks.

    >>> nice_step(600), nice_step(45), nice_step(0)
    (100, 10, 1)
    """
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return int(10 * power)  # pragma: no cover  (the loop always returns)
