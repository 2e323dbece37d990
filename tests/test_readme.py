"""The README's examples run. (Every module's own examples run through pytest's
--doctest-modules, once each: pyproject.toml.)"""

from __future__ import annotations

import doctest
from pathlib import Path


def test_readme_examples_run() -> None:
    """The README's engine example stays true."""
    readme = Path(__file__).resolve().parents[1] / "README.md"
    failures, tried = doctest.testfile(str(readme), module_relative=False)
    assert tried > 0
    assert failures == 0
