"""Timing for the benchmark scripts: the best of several runs (the least disturbed)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_seconds(run: Callable[[], object], runs: int) -> float:
    """Wall seconds of the fastest of ``runs`` calls of ``run``."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def best_per_call(action: Callable[[], object], count: int, runs: int) -> float:
    """Seconds per call of ``action``, in the fastest of ``runs`` runs of ``count`` calls."""

    def calls() -> None:
        for _ in range(count):
            action()

    return best_seconds(calls, runs) / count
