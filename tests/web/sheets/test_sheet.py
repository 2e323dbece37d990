"""GET /games/<id>/sheet.pdf: the printed score sheet of a game, read back with pypdf."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.ruleset import RuleSet, Values
from scorekeeper.store import games as services
from scorekeeper.store.game_store import replays
from scorekeeper.web.paper import engine as pdf_engine
from scorekeeper.web.paper import pdf
from scorekeeper.web.sheets.content import number
from tests.sql import sql_statements

Play = Callable[..., services.LoadedGame]
A4 = (595, 842)
LETTER = (612, 792)


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def get_sheet(client: FlaskClient, game_id: str, query: str = "") -> Any:
    return client.get(f"/games/{game_id}/sheet.pdf{query}")


def test_finished_game_sheet_has_every_name_score_total_and_the_winner(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    loaded = play()
    game = loaded.game
    assert game.finished and game.deals_played == 20
    response = get_sheet(client, loaded.id)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    pdfs.save("sheet-finished-a4.pdf", response.data)
    text = squeeze(pdfs.text(response.data))
    for seat, name in enumerate(loaded.players):
        assert f"Seat {seat + 1}: {name}" in text  # seats 1–4 for people
    assert "counter-clockwise" in text
    assert loaded.id in text and "Standard rules." in text
    for deal in game.deals:  # every deal's four scores, then its four running totals
        running = [sum(d.scores[s] for d in game.deals[: deal.n]) for s in range(4)]
        row = " ".join(number(v) for v in (*deal.scores, *running))
        assert row in text, f"deal {deal.n}"
    for k, kingdom in enumerate(game.kingdoms, start=1):
        assert f"Kingdom {k} total {' '.join(number(v) for v in kingdom.totals)} ✓ 0" in text
    for standing in game.standings:
        assert f"{standing.rank} {loaded.players[standing.seat]} {number(standing.total)}" in text
    assert "Winner: Omar with 175" in text


def test_sheet_lists_captures_in_short_words_and_redeals_where_they_happened(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    loaded = play()
    text = squeeze(pdfs.text(get_sheet(client, loaded.id).data))
    assert "K♥ Sami, doubled by Omar" in text
    assert "Q♠ Rana; Q♥ Sami (own double); Q♦ Omar; Q♣ Lina" in text
    assert "♦ 3·4·6·0" in text and "Tricks 2·5·6·0" in text
    assert "Trix: Omar, Rana, Lina, Sami" in text
    # The redeal of kingdom 2 comes before its first deal (6); the misdeal before deal 15.
    assert text.index("Kingdom 2: king Sami") < text.index("Redeal claimed by Omar")
    assert text.index("Redeal claimed by Omar") < text.index("6 King of Hearts")
    assert text.index("14 Collections") < text.index("Misdeal") < text.index("15 Trix")


def test_a4_sheet_of_a_finished_game_is_two_pages_with_numbered_footers(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    loaded = play()
    reader = pdfs.reader(get_sheet(client, loaded.id).data)
    assert len(reader.pages) == 2  # deals and result on page 1, the chart on page 2
    for index, page in enumerate(reader.pages, start=1):
        assert (round(page.mediabox.width), round(page.mediabox.height)) == A4
        text = page.extract_text()
        assert f"Page {index} of 2" in text
        assert f"/games/{loaded.id}" in text  # the QR code's address, small (PUBLIC_URL unset)


def test_the_sheets_are_well_formed_xhtml_for_the_fast_parser(
    client: FlaskClient, play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The C XML parser reads the sheets (pdf_engine.parse_xhtml), not the slow HTML5 one."""
    seen: list[str] = []
    real = pdf.html_to_pdf
    monkeypatch.setattr(
        pdf, "html_to_pdf", lambda html, paper: seen.append(html) or real(html, paper)
    )
    loaded = play(names=["رنا", "Sami", "عمر الحداد", "Lina"], deals=7)
    for query in ("?lang=en", "?lang=ar&digits=arab"):
        assert get_sheet(client, loaded.id, query).status_code == 200
    assert client.get("/sheets/blank.pdf?players=Rana,Sami").status_code == 200
    assert len(seen) == 3
    for html in seen:
        assert pdf_engine.parse_xhtml(html) is not None


def test_footer_carries_a_qr_code_image_on_every_page(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    loaded = play(deals=3)
    reader = pdfs.reader(get_sheet(client, loaded.id).data)
    for page in reader.pages:
        images = list(page.images)
        assert len(images) == 1
        qr = images[0].image
        assert qr.width == qr.height and qr.width >= 21  # a QR code, one pixel per module


def test_letter_paper(client: FlaskClient, play: Play, pdfs: Any) -> None:
    loaded = play()
    response = get_sheet(client, loaded.id, "?paper=letter")
    assert response.status_code == 200
    pdfs.save("sheet-finished-letter.pdf", response.data)
    reader = pdfs.reader(response.data)
    sizes = {(round(p.mediabox.width), round(p.mediabox.height)) for p in reader.pages}
    assert sizes == {LETTER}


@pytest.mark.parametrize("paper", ["a5", "A3", "", "legal"])
def test_unknown_paper_is_a_400_that_says_what_to_use(
    client: FlaskClient, play: Play, paper: str
) -> None:
    loaded = play(deals=1)
    response = get_sheet(client, loaded.id, f"?paper={paper}")
    assert response.status_code == 400
    assert "paper=a4 or paper=letter" in response.get_data(as_text=True)


def test_paper_given_twice_is_a_400(client: FlaskClient, play: Play) -> None:
    loaded = play(deals=1)
    response = get_sheet(client, loaded.id, "?paper=a4&paper=letter")
    assert response.status_code == 400


def test_unknown_game_is_the_apps_404(client: FlaskClient) -> None:
    response = client.get("/games/no-such-game/sheet.pdf")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_headers_name_the_file_after_the_players_and_the_date(
    client: FlaskClient, play: Play
) -> None:
    loaded = play(deals=2)
    response = get_sheet(client, loaded.id)
    date = loaded.created_at.strftime("%Y-%m-%d")
    expected = f'inline; filename="trix-rana-sami-omar-lina-{date}.pdf"'
    assert response.headers["Content-Disposition"] == expected
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["ETag"] == f'"{loaded.version}-a4-en-latn-s2"'  # language, digits


def test_game_in_progress_says_how_far_it_is(client: FlaskClient, play: Play, pdfs: Any) -> None:
    loaded = play(deals=7)
    response = get_sheet(client, loaded.id)
    pdfs.save("sheet-in-progress.pdf", response.data)
    text = squeeze(pdfs.text(response.data))
    assert "Game in progress: 7 of 20 deals" in text
    assert "Kingdom 1 total" in text and "✓ 0" in text
    assert "in progress (2 of 5 contracts)" in text
    assert "Kingdom 3" not in text


def test_new_game_without_deals_renders(client: FlaskClient, play: Play, pdfs: Any) -> None:
    loaded = play(deals=0)
    text = squeeze(pdfs.text(get_sheet(client, loaded.id).data))
    assert "Game in progress: 0 of 20 deals" in text


def test_tie_on_total_broken_by_trix_first_places(
    client: FlaskClient, play: Play, pdfs: Any, tied_trix_orders: Any
) -> None:
    loaded = play(trix_orders=tied_trix_orders)
    assert loaded.game.outcome.decided_by == "trix_first_places"
    text = squeeze(pdfs.text(get_sheet(client, loaded.id).data))
    assert "Winner: Rana with 125" in text
    assert "Tied on total; decided by Trix first places (R12): Rana 2, Omar 1." in text


def test_tie_still_open_then_decided_by_an_extra_deal(
    client: FlaskClient, play: Play, pdfs: Any, even_trix_orders: Any
) -> None:
    from scorekeeper.rules.captures import Capture, Captures
    from scorekeeper.rules.contracts import Contract
    from scorekeeper.rules.game_log import DealEntry

    loaded = play(trix_orders=even_trix_orders)
    text = squeeze(pdfs.text(get_sheet(client, loaded.id).data))
    assert "Tied for first: Rana, Omar; an extra deal decides (R12)." in text
    extra = DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(2)))
    loaded, _n = services.record_deal(loaded.id, extra)
    response = get_sheet(client, loaded.id)
    pdfs.save("sheet-extra-deal.pdf", response.data)
    text = squeeze(pdfs.text(response.data))
    assert "Extra deal: king Rana (seat 1)" in text
    assert "21 King of Hearts K♥ Omar 0 0 −75 0" in text
    assert "Winner: Rana with 125" in text
    assert "Tied on total; decided by 1 extra deal (R12)." in text


def test_partnership_standings_are_teams(client: FlaskClient, play: Play, pdfs: Any) -> None:
    loaded = play(rules=RuleSet(partnership=True))
    text = squeeze(pdfs.text(get_sheet(client, loaded.id).data))
    assert "Partnership: seats 1+3 against 2+4 (R9.5)." in text
    assert "Rank Team Total" in text
    assert "Rana and Omar (seats 1+3) 300" in text
    assert "Winners: Rana and Omar (seats 1+3) with 300" in text


def test_non_zero_sum_rule_set_is_flagged_and_checked_against_its_own_totals(
    client: FlaskClient, play: Play, pdfs: Any
) -> None:
    rules = RuleSet(values=Values(trix=(200, 150, 100, -50)))
    loaded = play(rules=rules)
    response = get_sheet(client, loaded.id)
    pdfs.save("sheet-not-zero-sum.pdf", response.data)
    text = squeeze(pdfs.text(response.data))
    assert "Inverted Trix tail: the last player out scores −50 (R7)." in text
    assert "Not zero-sum (R11): The Trix awards total 400" in text
    assert text.count("✓ −100 (expected −100)") == 4


def test_sheet_loads_the_game_once_with_a_constant_number_of_queries(
    app: Flask, client: FlaskClient, play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real_load = services.load_game
    monkeypatch.setattr(services, "load_game", lambda gid: calls.append(gid) or real_load(gid))
    short, long = play(deals=2), play(deals=20)
    get_sheet(client, short.id, "?paper=letter")  # first connection set-up, not counted
    counts = []
    for loaded in (short, long):
        replays().clear()  # the cold path: the game's head, its row, then its log
        with sql_statements(app) as statements:
            assert get_sheet(client, loaded.id).status_code == 200
        # Queries only: the render gives the session's connection back, so the next
        # download begins a transaction of its own.
        counts.append(len([s for s in statements if s != "BEGIN"]))
    assert calls == [short.id, short.id, long.id]  # one load per download
    assert counts[0] == counts[1] == 3  # version and token, the game with its seats, its log
