"""A circle's rating in words: one number with the language's thousands separator."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.text.circles import grouped_number, rating_words


@pytest.mark.parametrize(
    ("lang", "digits", "expected"),
    [
        ("en", "latn", "1,240"),
        ("it", "latn", "1.240"),
        ("ru", "latn", "1\xa0240"),
        ("ar", "latn", "1,240"),
        ("ar", "arab", "١٬٢٤٠"),
    ],
)
def test_the_rating_number_has_the_languages_thousands_separator(
    app: Flask, lang: str, digits: str, expected: str
) -> None:
    with app.test_request_context(f"/?lang={lang}&digits={digits}"):
        assert grouped_number(1240) == expected
        assert expected in rating_words(1240, "settling")


def test_the_rating_reads_about_a_number_and_how_settled_it_is(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        assert rating_words(1240, "settling") == "about 1,240, still settling"
        assert rating_words(980, "settled") == "about 980, settled"


def test_cards_per_deal_have_the_languages_decimal_mark(app: Flask) -> None:
    from scorekeeper.text.circles import decimal_number

    with app.test_request_context("/?lang=ru"):
        assert decimal_number(1.25) == "1,25"
    assert decimal_number(1.25, "en", "latn") == "1.25"
    assert decimal_number(4.0, "en", "latn") == "4"
