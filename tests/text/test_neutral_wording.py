"""Sentences about a player assume no gender, in English and in the Arabic catalogue.

A player is "the king", "the holder", "that player" or "they"; a seat is "to the king's
right", a kingdom "the kingdom". English msgids and the pages as served are checked for
he/him/his/she/her/himself/herself; the Arabic msgstrs for the pronoun suffixes that most
often slipped in about a player (his kingdom, his right, himself, his leaving).
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from tests.text.test_catalogues import po, template

GENDERED = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
ARABIC_GENDERED = re.compile(r"مملكته|يمينه|يساره|بنفسه|لنفسه|مغادرته")
PAGES = [
    "/help",
    "/disputes",
    "/disputes/play",
    "/disputes/redeal",
    "/disputes/claim",
    "/games/new",
]


def texts(language: str | None) -> list[tuple[str, str]]:
    """(msgid, text) for every message: the msgid itself, or the language's msgstr(s)."""
    catalogue = template() if language is None else po(language)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        source = message.id if language is None else message.string
        for text in (source,) if isinstance(source, str) else source:
            found.append((key, text))
    return found


def test_no_english_msgid_gives_a_player_a_gender() -> None:
    offending = [key for key, text in texts(None) if GENDERED.search(text)]
    assert offending == []


def test_no_arabic_msgstr_uses_the_gendered_forms_about_a_player() -> None:
    offending = [(key, text) for key, text in texts("ar") if ARABIC_GENDERED.search(text)]
    assert offending == []


@pytest.mark.parametrize("path", PAGES)
def test_no_page_gives_a_player_a_gender(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    words = unescape(re.sub(r"<[^>]+>", " ", page))
    assert [m.group(0) for m in GENDERED.finditer(words)] == []
