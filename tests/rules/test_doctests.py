"""Every engine module's docstring examples run (STYLE.md §9)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scorekeeper.rules

MODULES = sorted(m.name for m in pkgutil.iter_modules(scorekeeper.rules.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"scorekeeper.rules.{name}")
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
