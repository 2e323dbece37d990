"""GET /sheets/blank.pdf: a sheet to fill in with a pen, for tables with no phone."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

CONTRACTS = ["King of Hearts", "Queens", "Diamonds", "Collections", "Trix"]
VALUES = [
    "−75",
    "−25",
    "−10",
    "−15",
    "+200, +150, +100, +50",
    "−150, holder +75",
    "−50, holder +25",
]


def blank(client: FlaskClient, query: str = "") -> Any:
    return client.get(f"/sheets/blank.pdf{query}")


def test_blank_sheet_with_players(client: FlaskClient, pdfs: Any) -> None:
    response = blank(client, "?players=Rana,Sami,Omar,Lina")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        'inline; filename="trix-blank-rana-sami-omar-lina.pdf"'
    )
    pdfs.save("blank-players-a4.pdf", response.data)
    reader = pdfs.reader(response.data)
    assert len(reader.pages) == 1
    text = re.sub(r"\s+", " ", pdfs.text(response.data))
    assert "Seat 1: Rana · Seat 2: Sami · Seat 3: Omar · Seat 4: Lina" in text
    for k in range(1, 5):
        assert f"Kingdom {k}" in text
    for contract in CONTRACTS:
        assert text.count(contract) >= 4
    for value in VALUES:
        assert value in text
    assert "Page 1 of 1" in text


def test_blank_sheet_without_players_has_empty_name_lines(client: FlaskClient, pdfs: Any) -> None:
    response = blank(client)
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'inline; filename="trix-blank.pdf"'
    pdfs.save("blank-empty-a4.pdf", response.data)
    text = re.sub(r"\s+", " ", pdfs.text(response.data))
    assert "Seat 1: · Seat 2: · Seat 3: · Seat 4:" in text
    assert len(pdfs.reader(response.data).pages) == 1


def test_blank_sheet_on_letter_paper_is_one_page(client: FlaskClient, pdfs: Any) -> None:
    response = blank(client, "?paper=letter&players=" + quote("رنا,Sami"))
    assert response.status_code == 200
    pdfs.save("blank-letter.pdf", response.data)
    reader = pdfs.reader(response.data)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert (round(page.mediabox.width), round(page.mediabox.height)) == (612, 792)
    text = pdfs.text(response.data)
    assert "Seat 1: رنا" in text and "Seat 2: Sami" in text


def test_a_second_blank_download_is_cached_but_never_one_with_names(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names are endless: a sheet kept for each set of them would push the games' sheets
    out of the cache, so only the blank sheet without names is kept."""
    from scorekeeper.web.paper import pdf

    calls: list[str] = []
    real = pdf.html_to_pdf
    monkeypatch.setattr(pdf, "html_to_pdf", lambda h, p: calls.append(p) or real(h, p))
    assert blank(client, "").data == blank(client, "?lang=zz&digits=xx&other=1").data
    assert calls == ["a4"]
    assert blank(client, "?players=A,B").data == blank(client, "?players=A,B").data
    assert calls == ["a4"] * 3
    assert len(client.application.extensions["pdf_cache"]) == 1


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?players=A,B,C,D,E", "A sheet has four players; 5 names were given."),
        ("?players=" + "x" * 41, "a name has at most 40 characters"),
        ("?players=A%00B", "Names cannot contain control characters."),
        ("?paper=tabloid", "“tabloid” is not a paper size; use paper=a4 or paper=letter."),
    ],
)
def test_bad_parameters_are_a_400_with_a_clear_sentence(
    client: FlaskClient, query: str, message: str
) -> None:
    response = blank(client, query)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_forty_characters_is_fine(client: FlaskClient) -> None:
    assert blank(client, "?players=" + "x" * 40).status_code == 200


def test_the_blank_sheet_is_linked_from_the_home_page_and_the_help(client: FlaskClient) -> None:
    for page in ("/", "/help"):
        html = client.get(page).get_data(as_text=True)
        assert 'data-testid="blank-sheet"' in html and 'href="/sheets/blank.pdf"' in html
