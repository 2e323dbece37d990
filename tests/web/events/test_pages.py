"""Club night pages: create, direct, draw, lock, close, the board and its live content,
table cards and results as PDF; only the director sees and does the director's part."""

from __future__ import annotations

import re
from io import BytesIO

from flask.testing import FlaskClient
from pypdf import PdfReader

EIGHT = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad"]
YES = {"confirm": "yes"}
"""The director's second step: every action that ends or throws away something asks first."""


def create(client: FlaskClient, **fields: str) -> str:
    form = {
        "name": "Thursday club",
        "players": "\n".join(EIGHT),
        "rounds": "2",
        "round_kind": "kingdom",
        "scoring": "places",
        "places": "3 2 1 0",
        "seed": "11",
        **fields,
    }
    response = client.post("/events/new", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    assert response.headers["Location"].endswith("#director-link")
    return response.headers["Location"].split("#")[0].rsplit("/", 1)[1]


def test_creating_a_club_night_makes_this_browser_its_director(client: FlaskClient) -> None:
    event_id = create(client)
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'data-testid="director-controls"' in page and "Thursday club" in page
    assert page.count('data-testid="standing"') == 8


def test_a_bad_form_is_shown_again_with_the_reason_and_nothing_saved(client: FlaskClient) -> None:
    response = client.post(
        "/events/new",
        data={
            "name": "X",
            "players": "A\nB\na",
            "rounds": "2",
            "places": "1 2 3 4",
            "round_kind": "game",
            "scoring": "places",
        },
    )
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Two players are called" in text and "Nothing was saved" in text


def test_the_director_draws_rounds_with_edit_links_and_qr_codes(client: FlaskClient) -> None:
    event_id = create(client)
    assert client.post(f"/events/{event_id}/draw", data=YES).status_code == 302
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'data-testid="round-1"' in page and "seed 11-1" in page
    links = re.findall(r'href="(http://localhost/games/[^"/]+/join/[^"]+)"', page)
    assert len(links) == 2
    qr = re.search(r'src="(/events/[^"]+/qr\.svg)"', page)
    assert qr and client.get(qr.group(1)).mimetype == "image/svg+xml"


def test_others_follow_but_cannot_direct(app, client: FlaskClient) -> None:  # type: ignore[no-untyped-def]
    event_id = create(client)
    client.post(f"/events/{event_id}/draw", data=YES)
    other = app.test_client()
    page = other.get(f"/events/{event_id}").get_data(as_text=True)
    assert "director-controls" not in page and "/join/" not in page
    assert other.post(f"/events/{event_id}/draw").status_code == 403
    assert other.post(f"/events/{event_id}/close").status_code == 403
    assert other.get(f"/events/{event_id}/cards.pdf").status_code == 403
    link = re.search(
        r'data-testid="director-link-url" dir="ltr">([^<]+)<',
        client.get(f"/events/{event_id}").get_data(as_text=True),
    )
    assert link
    path = link.group(1).replace("http://localhost", "")
    assert other.get(path).status_code == 200
    assert other.post(path).status_code == 302
    assert "director-controls" in other.get(f"/events/{event_id}").get_data(as_text=True)
    wrong = path.rsplit("/", 1)[0] + "/not-the-token"
    assert app.test_client().get(wrong).status_code == 403


def test_lock_and_close_from_the_page(client: FlaskClient) -> None:
    event_id = create(client)
    client.post(f"/events/{event_id}/draw", data=YES)
    client.post(f"/events/{event_id}/rounds/1/lock", data={"locked": "yes"})
    assert 'data-testid="round-locked"' in client.get(f"/events/{event_id}").get_data(as_text=True)
    client.post(f"/events/{event_id}/close", data=YES)
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'data-testid="event-closed"' in page and 'data-testid="draw-round"' not in page


def test_the_board_shows_standings_and_tables_and_its_content_answers_304_until_a_change(
    client: FlaskClient,
) -> None:
    event_id = create(client)
    client.post(f"/events/{event_id}/draw", data=YES)
    board = client.get(f"/events/{event_id}/board").get_data(as_text=True)
    assert (
        'data-testid="board-standings"' in board and board.count('data-testid="board-table"') == 2
    )
    assert "<button" not in board and "<script>" not in board
    live = client.get(f"/events/{event_id}/board/live")
    etag = live.headers["ETag"]
    assert (
        client.get(f"/events/{event_id}/board/live", headers={"If-None-Match": etag}).status_code
        == 304
    )


def test_table_cards_and_results_are_pdfs(client: FlaskClient) -> None:
    event_id = create(client)
    client.post(f"/events/{event_id}/draw", data=YES)
    cards = client.get(f"/events/{event_id}/cards.pdf")
    assert cards.mimetype == "application/pdf"
    reader = PdfReader(BytesIO(cards.data))
    assert len(reader.pages) == 2
    text = " ".join(reader.pages[0].extract_text().split())
    # R2: the 7♥ holder is not known before the first deal; the card names no one.
    assert "Table 1" in text and "First king: whoever is dealt the 7" in text
    assert "in the seat order above" in text
    results = client.get(f"/events/{event_id}/results.pdf")
    assert results.mimetype == "application/pdf"
    assert "Standings" in PdfReader(BytesIO(results.data)).pages[0].extract_text()  # not final


def test_an_unknown_event_page_is_404(client: FlaskClient) -> None:
    response = client.get("/events/nosuchevent000000")
    assert response.status_code == 404
    assert "no club night at this address" in response.get_data(as_text=True)


def test_r2_a_table_card_names_the_first_king_only_when_the_kingdom_order_fixes_him(
    app,  # type: ignore[no-untyped-def]
) -> None:
    from scorekeeper.rules.ruleset import RuleSet
    from scorekeeper.web.events.routes import first_king_text

    names = ("Rana", "Sami", "Omar", "Lina")
    with app.test_request_context("/?lang=en"):
        right = first_king_text(RuleSet(), names)
        seven = first_king_text(RuleSet.from_dict({"kingdom_order": "seven_of_hearts"}), names)
        custom = first_king_text(
            RuleSet.from_dict({"kingdom_order": "custom", "king_order": [2, 3, 0, 1]}), names
        )
    assert "whoever is dealt the 7♥ on the first deal" in right and "Rana" not in right
    assert "each later kingdom goes to whoever is dealt the 7♥" in seven
    plain = custom.translate({0x2068: None, 0x2069: None})
    assert (
        plain
        == "Kings in the agreed order (R2): Omar → Lina → Rana → Sami. Omar is the first king."
    )
