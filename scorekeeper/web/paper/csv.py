"""What the CSV exports share: a cell that a spreadsheet never runs as a formula."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula.

    >>> cell("=1+1"), cell("Rana")
    ("'=1+1", 'Rana')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text
