"""The circle's season as PDF: the ranked table and each player's charts, in six languages."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.web.paper import pdf
from tests.web.circles.test_api import make_circle, play_game

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "pdf"
ARABIC_NAMES = ["رنا", "Sami", "عمر الحداد", "Lina"]


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    text = " ".join(page.extract_text() or "" for page in reader.pages)
    return unicodedata.normalize("NFKC", re.sub(r"\s+", " ", text))


def save(name: str, data: bytes) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / name).write_bytes(data)


def circle_with_games(client: FlaskClient, names: list[str], games: int = 5) -> str:
    circle_id, token = make_circle(client)
    for _ in range(games):
        play_game(client, circle_id, token, names)
    return circle_id


def test_the_season_pdf_ranks_the_members_with_their_numbers_and_charts(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    circle_id = circle_with_games(client, ["Rana", "Sami", "Omar", "Lina"])
    seen: list[str] = []
    real = pdf.html_to_pdf
    monkeypatch.setattr(
        pdf, "html_to_pdf", lambda html, paper: seen.append(html) or real(html, paper)
    )
    response = client.get(f"/circles/{circle_id}/table.pdf?lang=en")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    save("circle-en.pdf", response.data)
    text = text_of(response.data)
    assert "Thursday" in text and "All time" in text
    # Rana wins every game of the short deals (250 each): first, 5 games, 5 won, 100 %.
    assert re.search(r"1 Rana 5 5 100 % \+?250 about 1,\d{3}, \w+", text), text[:400]
    assert "Running total" in text and "Points per deal, by contract" in text
    assert seen[0].count("<svg") == 8  # two charts for each of the four players
    assert parse_ok(seen[0])


def parse_ok(html: str) -> bool:
    """The XML parser reads the document (the fast path of the render process)."""
    from scorekeeper.web.paper.engine import parse_xhtml

    return parse_xhtml(html) is not None


def test_the_arabic_season_pdf_is_right_to_left_in_an_arabic_font(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    circle_id = circle_with_games(client, ARABIC_NAMES, games=2)
    seen: list[str] = []
    real = pdf.html_to_pdf
    monkeypatch.setattr(
        pdf, "html_to_pdf", lambda html, paper: seen.append(html) or real(html, paper)
    )
    response = client.get(f"/circles/{circle_id}/table.pdf?lang=ar&period=year")
    assert response.status_code == 200
    save("circle-ar.pdf", response.data)
    assert '<html lang="ar" dir="rtl">' in seen[0]
    text = text_of(response.data)
    for name in ARABIC_NAMES:
        assert unicodedata.normalize("NFKC", name) in text
    fonts = set()
    for page in PdfReader(io.BytesIO(response.data)).pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            fonts.add(str(ref.get_object()["/BaseFont"]).split("+", 1)[-1])
    assert "Noto-Sans-Arabic" in fonts


@pytest.mark.parametrize("lang", ["es", "it", "pt", "ru"])
def test_the_season_pdf_is_in_the_readers_language(client: FlaskClient, lang: str) -> None:
    circle_id = circle_with_games(client, ["Rana", "Sami", "Omar", "Lina"], games=1)
    english = text_of(client.get(f"/circles/{circle_id}/table.pdf?lang=en").data)
    response = client.get(f"/circles/{circle_id}/table.pdf?lang={lang}")
    assert response.status_code == 200
    translated = text_of(response.data)
    assert "Rana" in translated and "Running total" in english
    assert "Running total" not in translated  # the words are the language's


def test_an_unchanged_circle_gets_304_and_a_change_a_new_pdf(client: FlaskClient) -> None:
    circle_id, token = make_circle(client)
    play_game(client, circle_id, token)
    first = client.get(f"/circles/{circle_id}/table.pdf")
    etag = first.headers["ETag"]
    again = client.get(f"/circles/{circle_id}/table.pdf", headers={"If-None-Match": etag})
    assert again.status_code == 304
    play_game(client, circle_id, token)
    changed = client.get(f"/circles/{circle_id}/table.pdf", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_a_bad_paper_is_400_and_an_unknown_circle_404(client: FlaskClient) -> None:
    circle_id, _token = make_circle(client)
    bad = client.get(f"/circles/{circle_id}/table.pdf?paper=a0")
    assert bad.status_code == 400 and "paper=a4 or paper=letter" in bad.get_data(as_text=True)
    assert client.get("/circles/AAAAAAAAAAAAAAAAAAAAAAAA/table.pdf").status_code == 404
    assert client.get(f"/circles/{circle_id}/table.pdf?paper=letter").status_code == 200


def test_the_circle_page_links_its_season_pdf(client: FlaskClient) -> None:
    circle_id, _token = make_circle(client)
    page = client.get(f"/circles/{circle_id}?period=year").get_data(as_text=True)
    assert f"/circles/{circle_id}/table.pdf?period=year" in page
