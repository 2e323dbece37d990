"""Every engine module's docstring examples run (STYLE.md §9)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import scorekeeper.rules

MODULES = sorted(m.name for m in pkgutil.iter_modules(scorekeeper.rules.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"scorekeeper.rules.{name}")
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_readme_examples_run() -> None:
    """The README's engine example stays true."""
    readme = Path(__file__).resolve().parents[2] / "README.md"
    failures, tried = doctest.testfile(str(readme), module_relative=False)
    assert tried > 0
    assert failures == 0
