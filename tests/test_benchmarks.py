"""Every benchmark script still imports what it measures (they run by hand, not in CI,
so a moved module would otherwise break them silently)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))
HELPERS = {"timing", "http_async", "cpu"}
"""Modules the benchmarks import (a timer, an HTTP client, CPU accounting): no ``main``."""


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_the_benchmark_imports(path: Path) -> None:
    spec = importlib.util.spec_from_file_location(f"benchmark_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)  # each runs only under __main__
    finally:
        del sys.modules[spec.name]
    assert callable(getattr(module, "main", None)) or path.stem in HELPERS
