"""The dispute desk's number boxes (a claim's time limit, its score) read what an Arabic,
Persian or Urdu keyboard types, and refuse what is not a number, naming the field."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.web.disputes.input import Entered


def number(app: Flask, typed: str) -> tuple[float | None, dict[str, list[str]]]:
    with app.test_request_context():
        entered = Entered({"time_limit": typed})
        return entered.number("time_limit", -100, 100, "Enter a number."), entered.errors


@pytest.mark.parametrize(
    ("typed", "value"),
    [("12", 12), ("١٢", 12), ("۱۲", 12), ("٢٫٥", 2.5), ("2.5", 2.5), ("−٧", -7), ("-7", -7)],
)
def test_a_number_reads_the_same_in_every_digit_system(
    app: Flask, typed: str, value: float
) -> None:
    assert number(app, typed) == (value, {})


@pytest.mark.parametrize("typed", ["nan", "inf", "1e1", "1_0", "१२", "１２", "2,5,5", "x"])
def test_anything_else_is_the_fields_error(app: Flask, typed: str) -> None:
    """float() alone takes "nan", "1e1", "1_0" and other scripts' digits."""
    assert number(app, typed) == (None, {"time_limit": ["Enter a number."]})
