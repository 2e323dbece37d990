"""Names in Arabic script: shaped, right to left, in an installed Arabic font."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from scorekeeper.store import games as services
from scorekeeper.web.paper import pdf

Play = Callable[..., services.LoadedGame]
ARABIC = ["رنا", "Sami", "عمر الحداد", "Lina"]


def base_fonts(reader: Any) -> set[str]:
    """The /BaseFont names of every font the pages use (subset prefix removed)."""
    names: set[str] = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+", 1)[-1])
    return names


def test_arabic_names_are_in_the_text_and_in_an_arabic_font(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    loaded = play(names=ARABIC)
    response = client.get(f"/games/{loaded.id}/sheet.pdf")
    assert response.status_code == 200
    pdfs.save("sheet-arabic.pdf", response.data)
    text = pdfs.text(response.data)
    for name in ARABIC:
        assert pdfs.nfkc(name) in text
    assert "Seat 1: " + pdfs.nfkc("رنا") in text
    fonts = base_fonts(pdfs.reader(response.data))
    assert "Noto-Sans-Arabic" in fonts  # installed (fonts-noto-core), picked by family name
    assert "DejaVu-Sans" in fonts  # the Latin text keeps its own font


def test_latin_only_sheet_does_not_embed_the_arabic_font(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    loaded = play(deals=3)
    fonts = base_fonts(pdfs.reader(client.get(f"/games/{loaded.id}/sheet.pdf").data))
    assert not any("Arabic" in name for name in fonts)


def test_arabic_names_get_a_utf8_file_name_beside_the_ascii_one(
    client: FlaskClient, play: Play
) -> None:
    loaded = play(names=ARABIC, deals=1)
    disposition = client.get(f"/games/{loaded.id}/sheet.pdf").headers["Content-Disposition"]
    date = loaded.created_at.strftime("%Y-%m-%d")
    assert disposition.startswith(f'inline; filename="trix-p1-sami-p3-lina-{date}.pdf"')
    assert f"filename*=UTF-8''{quote(f'trix-رنا-sami-عمر-الحداد-lina-{date}.pdf')}" in disposition


def test_names_are_isolated_for_right_to_left_text(
    client: FlaskClient, play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names that could reorder are isolated (<bdi dir="auto">); plain Latin ones need not be."""
    loaded = play(names=ARABIC, deals=2)
    seen: list[str] = []
    real = pdf.html_to_pdf
    monkeypatch.setattr(
        pdf, "html_to_pdf", lambda html, paper: seen.append(html) or real(html, paper)
    )
    client.get(f"/games/{loaded.id}/sheet.pdf")
    (html,) = seen
    assert '<bdi dir="auto" class="ar">عمر الحداد</bdi>' in html
    assert '<bdi dir="auto" class="ar">رنا</bdi>' in html
    assert "<bdi" not in html.replace('<bdi dir="auto" class="ar">', "")  # Sami, Lina: plain


def glyph_runs(data: bytes, pdfs: Any) -> tuple[list[list[str]], dict[str, str]]:
    """The Arabic font's glyph runs in drawing order (left to right), and its glyph → text map."""
    page = pdfs.reader(data).pages[0]
    fonts = page["/Resources"]["/Font"]
    key = next(k for k, f in fonts.items() if "Arabic" in str(f.get_object()["/BaseFont"]))
    cmap = fonts[key].get_object()["/ToUnicode"].get_object().get_data().decode()
    to_text = {g: chr(int(u, 16)) for g, u in re.findall(r"<([0-9a-f]{4})> <([0-9a-f]{4})>", cmap)}
    runs, current = [], None
    stream = page.get_contents().get_data().decode("latin-1")
    for font, array in re.findall(r"/(\w+) [\d.]+ Tf|\[(.*?)\] TJ", stream):
        current = font or current
        if array and current == key.lstrip("/"):
            runs.append(re.findall(r"<([0-9a-f]{4})>", array))
    return runs, to_text


def test_arabic_is_shaped_and_right_to_left(pdfs: Any, app: Any) -> None:
    # Three behs joined: initial, medial and final forms, three different glyphs (shaping).
    # Beh then teh: drawn right to left, so the teh is the first glyph from the left.
    data = pdf.html_to_pdf('<p>x <bdi class="ar">ببب</bdi> <bdi class="ar">بت</bdi></p>', "a4")
    runs, to_text = glyph_runs(data, pdfs)
    behs, beh_teh = runs
    assert [to_text[g] for g in behs] == ["ب", "ب", "ب"] and len(set(behs)) == 3
    assert [to_text[g] for g in beh_teh] == ["ت", "ب"]
