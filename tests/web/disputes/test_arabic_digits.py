"""The dispute desk in Arabic with the Arabic-Indic digits setting: no Latin digit is left
in the visible text, boxes and labels of the claim and revoke-check pages (their <main>),
blank, refused or answered: default names ("اللاعب ١"), places, the time limit, scores."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.disputes import pool
from tests.web.disputes.test_claim_exact import judged
from tests.web.disputes.test_claim_progress import CLAIM, with_tables
from tests.web.disputes.test_pages import record_form, revoke_deal
from tests.web.pages import new_game

LATIN_DIGIT = re.compile(r"[0-9]")
SHOWN_ATTRIBUTES = ("value", "placeholder", "aria-label", "title", "alt")
"""Attributes a reader sees or hears (a hidden input's value is for the server)."""
KEPT = re.compile(r"[A-Za-z_%#][A-Za-z0-9_.]*[A-Za-z0-9_]|[0-9]+(?=[A-Za-z♠♥♦♣])")
"""What keeps its digits in every language (text/locale.localize_sentence): a word that
holds digits (a rule number, R9.4) and a card's rank (10♦, 10D)."""


class LatinDigits(HTMLParser):
    """The visible text and shown attributes of a page that hold a Latin digit, cards aside
    (a card's rank, 10♦ or 10D, is its name in every language, R1)."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden = 0
        self.main = False
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self.hidden += 1
        self.main = self.main or tag == "main"
        if not self.main:
            return  # the header's digits menu offers 0123 beside ٠١٢٣ on purpose
        shown = dict(attrs)
        if tag == "input" and shown.get("type") == "hidden" or tag in ("option", "button"):
            return  # a value sent, not shown
        for name in SHOWN_ATTRIBUTES:
            self.check(f"<{tag} {name}>", shown.get(name) or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self.hidden -= 1
        self.main = self.main and tag != "main"

    def handle_data(self, data: str) -> None:
        if self.main and not self.hidden:
            self.check("text", data)

    def check(self, where: str, text: str) -> None:
        if LATIN_DIGIT.search(KEPT.sub("", text)):
            self.found.append(f"{where}: {text.strip()[:100]!r}")


def arabic(client: FlaskClient) -> FlaskClient:
    client.set_cookie("lang", "ar")
    client.set_cookie("digits", "arab")
    return client


def latin_digits_in(response: Any, status: int = 200) -> list[str]:
    assert response.status_code == status, response.get_data(as_text=True)
    return latin_digits_of(response.get_data(as_text=True))


def latin_digits_of(html: str) -> list[str]:
    parser = LatinDigits()
    parser.feed(html)
    return parser.found


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    """The real solver (a claim of two cards a hand is judged at once)."""
    yield with_tables(make_app(CLAIM_FOLDER=str(tmp_path / "claims")))
    pool.SOLVERS.close()


@pytest.mark.parametrize("page", ["claim", "check"])
def test_the_blank_claim_and_check_pages_show_no_latin_digit(app: Flask, page: str) -> None:
    client = arabic(app.test_client())
    game = new_game(client)
    desk = {"claim": "/disputes/claim", "check": "/disputes/play"}[page]
    assert latin_digits_in(client.get(desk)) == []  # default names: اللاعب ١ … ٤
    assert latin_digits_in(client.get(f"/games/{game}/{page}")) == []


def test_r10_a_revoke_checked_shows_no_latin_digit(app: Flask) -> None:
    client = arabic(app.test_client())
    hands, tricks, _ = revoke_deal()
    form = record_form("collections", hands, tricks, king="0")
    response = client.get("/disputes/play", query_string=form)
    assert 'data-testid="verdict-headline"' in response.get_data(as_text=True)
    assert latin_digits_in(response) == []


def test_a_refused_claim_shows_no_latin_digit(app: Flask) -> None:
    client = arabic(app.test_client())
    response = client.post("/disputes/claim", data={**CLAIM, "time_limit": "٩٩"})
    assert "٢٥" in response.get_data(as_text=True)  # the limit's message: at most ٢٥ s
    assert latin_digits_in(response, 422) == []


def test_a_claim_judged_shows_no_latin_digit(app: Flask) -> None:
    client = arabic(app.test_client())
    response = client.post("/disputes/claim", data={**CLAIM, "time_limit": "٥"})
    assert latin_digits_of(judged(client, response)) == []
