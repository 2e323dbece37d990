"""The score sheet in Arabic: right to left, in an Arabic font, cached per language.

``test_the_arabic_sheet_names_the_contracts_as_players_say_them`` waits for the
Arabic catalogue to be filled in; the others hold with an empty catalogue
(English words, Arabic layout).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.web.paper import pdf

Play = Callable[..., services.LoadedGame]
ARABIC = ["رنا", "Sami", "عمر الحداد", "Lina"]
CONTRACTS_AS_PLAYERS_SAY = ["شيخ الكبة", "بنات", "ديناري", "لطوش", "تركس"]


def base_fonts(reader: Any) -> set[str]:
    names: set[str] = set()
    for page in reader.pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+", 1)[-1])
    return names


def sheet(client: FlaskClient, game_id: str, lang: str = "ar", digits: str = "latn") -> bytes:
    client.set_cookie("lang", lang)
    client.set_cookie("digits", digits)
    try:
        response = client.get(f"/games/{game_id}/sheet.pdf")
        assert response.status_code == 200
        return response.data
    finally:
        client.delete_cookie("lang")
        client.delete_cookie("digits")


def test_the_arabic_sheet_is_right_to_left_with_the_names_in_an_arabic_font(
    client: FlaskClient, play: Play, pdfs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = play(names=ARABIC)
    seen: list[str] = []
    real = pdf.html_to_pdf
    monkeypatch.setattr(
        pdf, "html_to_pdf", lambda html, paper: seen.append(html) or real(html, paper)
    )
    data = sheet(client, loaded.id)
    pdfs.save("sheet-ar.pdf", data)
    assert re.search(r'<html lang="ar" dir="rtl">', seen[0])
    text = pdfs.text(data)
    for name in ARABIC:
        assert pdfs.nfkc(name) in text  # shaped glyphs back to letters (NFKC)
    assert "Noto-Sans-Arabic" in base_fonts(pdfs.reader(data))


def test_the_sheet_is_cached_per_language_and_digits(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    loaded = play(deals=5)
    english, arabic = sheet(client, loaded.id, "en"), sheet(client, loaded.id, "ar")
    assert english != arabic
    assert sheet(client, loaded.id, "en") == english  # the cache gives back the same file
    indic = pdfs.text(sheet(client, loaded.id, "ar", "arab"))
    assert "١" in indic and "٧٥" in indic  # deal numbers, scores: Arabic-Indic digits
    tags = {
        lang: client.get(f"/games/{loaded.id}/sheet.pdf?lang={lang}").headers["ETag"]
        for lang in ("en", "ar", "ru")
    }
    assert len(set(tags.values())) == 3  # a 304 only for the same language


def test_the_blank_sheet_follows_the_language(client: FlaskClient, pdfs: Any) -> None:
    english = client.get("/sheets/blank.pdf?lang=en").data
    arabic = client.get("/sheets/blank.pdf?lang=ar&players=رنا,سامي").data
    assert english != arabic
    assert pdfs.nfkc("سامي") in pdfs.text(arabic)


def test_the_arabic_sheet_names_the_contracts_as_players_say_them(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    """Waits for the Arabic translation: شيخ الكبة, بنات, ديناري, لطوش, تركس on the sheet."""
    loaded = play(names=ARABIC, deals=5)
    text = pdfs.text(sheet(client, loaded.id))
    missing = [name for name in CONTRACTS_AS_PLAYERS_SAY if pdfs.nfkc(name) not in text]
    assert not missing, f"not on the Arabic sheet: {missing}"


CARD_REVERSED = re.compile(r"[♠♥♦♣](?:10|[2-9TJQKA])(?![0-9A-Za-z])")
SIGN_AFTER = re.compile(r"[0-9٠-٩][−+](?![0-9٠-٩])")


def text_runs(data: bytes) -> list[str]:
    """The PDF's text as its runs, in the order they are drawn (pypdf's visitor): a run is
    a piece of one line, so a card or a number reordered by the bidi algorithm shows."""
    runs: list[str] = []
    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text(visitor_text=lambda text, *_: runs.append(text))
    return runs


@pytest.mark.parametrize("digits", ["latn", "arab"])
def test_r3_r4_cards_and_signed_numbers_keep_their_order_in_the_arabic_sheet(
    client: FlaskClient, app: Flask, digits: str
) -> None:
    """Rank then suit, the minus before the number, in right-to-left text too: a card that
    follows an Arabic letter ("لا دبل لـK♥", no doubling of the K♥) is isolated like any."""
    loaded, _token = services.create_game(ARABIC, 0, RuleSet(doubling=False))
    king = Captures(king_of_hearts=Capture(1))
    queens = Captures(queens=(Capture(0), Capture(0), Capture(2), Capture(3)))
    services.record_deal(loaded.id, DealEntry((Contract.KING,), king))
    services.record_deal(loaded.id, DealEntry((Contract.QUEENS,), queens))
    runs = text_runs(sheet(client, loaded.id, digits=digits))
    text = "".join(runs)
    assert "K♥" in text and all(f"Q{suit}" in text for suit in "♠♥♦♣")
    assert [run for run in runs if CARD_REVERSED.search(run)] == []
    assert [run for run in runs if SIGN_AFTER.search(run)] == []
    assert "−75" in text or "−٧٥" in text
