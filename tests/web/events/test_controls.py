"""The director's safe controls on the pages: every action that ends or throws away something
asks first, in place, naming what happens; a closed night reopens; a round's draw is undone
before any deal; the co-director's link; the director's link with Copy and QR; this
browser's club nights on the home page and at /events; tie-break notes."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from html import unescape
from io import BytesIO

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.store import games
from scorekeeper.store.events import services as events
from tests.web.events.test_director_pages import NINE, TRIX, html, table_phone
from tests.web.events.test_pages import YES, create
from tests.web.pages import post_deal


def question(client: FlaskClient, path: str, **form: str) -> str:
    """Post a control without confirming: the page comes back with the question."""
    response = client.post(path, data=form)
    assert response.status_code == 200, response.status_code
    page = html(response)
    assert 'data-testid="confirm-box"' in page
    return page


def confirm_message(page: str) -> str:
    found = re.search(r'data-testid="confirm-message">([^<]*)<', page)
    assert found, page
    return " ".join(unescape(found.group(1)).split())


def confirm_form(page: str) -> dict[str, str]:
    """The hidden fields of the "Yes" form (what its button posts)."""
    form = re.search(r'data-testid="confirm-box".*?</form>', page, re.S)
    assert form
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)))


def test_closing_asks_first_then_the_director_reopens(client: FlaskClient) -> None:
    event_id = create(client)
    page = question(client, f"/events/{event_id}/close")
    assert confirm_message(page).startswith("Close the club night? No more rounds can be drawn")
    assert "Yes, close the night" in page and 'data-testid="confirm-no"' in page
    assert not events.load_event(event_id).closed
    assert confirm_form(page)["confirm"] == "yes"
    assert client.post(f"/events/{event_id}/close", data=YES).status_code == 302
    page = html(client.get(f"/events/{event_id}"))
    assert events.load_event(event_id).closed and 'data-testid="reopen-event"' in page
    assert client.post(f"/events/{event_id}/reopen").status_code == 302
    assert not events.load_event(event_id).closed
    assert client.post(f"/events/{event_id}/draw", data=YES).status_code == 302
    assert len(events.load_event(event_id).drawn) == 1


def test_drawing_while_tables_play_names_them_and_asks(client: FlaskClient) -> None:
    event_id = create(client)
    page = question(client, f"/events/{event_id}/draw")
    assert confirm_message(page) == (
        "Draw round 1 now? The seats of its tables are drawn among the 8 players present, "
        "and each table gets a new game."
    )
    assert events.load_event(event_id).drawn == ()
    client.post(f"/events/{event_id}/draw", data=YES)
    page = question(client, f"/events/{event_id}/draw")
    assert "Round 1 is still playing at tables 1, 2: their games go on" in confirm_message(page)
    assert "Yes, draw round 2" in page
    assert len(events.load_event(event_id).drawn) == 1


def test_the_leaving_controls_ask_first_and_change_nothing_until_confirmed(
    client: FlaskClient,
) -> None:
    event_id = create(client, players="\n".join(NINE))
    client.post(f"/events/{event_id}/draw", data=YES)
    before = events.load_event(event_id)
    table, out = before.drawn[0].tables[0], before.drawn[0].sitting_out[0]
    seated = table.players[3]
    page = question(client, f"/events/{event_id}/rounds/1/replace", player=seated, substitute=out)
    assert confirm_message(page) == (
        f"{seated} leaves: {out} takes over the seat and the table's result, and {seated} scores "
        "nothing for round 1 and is drawn no more."
    )
    assert confirm_form(page) == {"player": seated, "substitute": out, "confirm": "yes"}
    page = question(client, f"/events/{event_id}/rounds/1/redraw", player=seated)
    assert confirm_message(page).startswith(
        f"Draw round 1 again without {seated}? The tables not started (1, 2) get new seats"
    )
    page = question(client, f"/events/{event_id}/players/leave", name=seated)
    assert confirm_message(page).startswith(
        f"{seated} leaves the club night: drawn no more from round 2 on"
    )
    assert events.load_event(event_id) == before
    action = re.search(
        r'data-testid="confirm-box".*?<form method="post" action="([^"]+)"', page, re.S
    )
    assert action and action.group(1) == f"/events/{event_id}/players/leave"
    assert client.post(action.group(1), data=confirm_form(page)).status_code == 302
    assert events.load_event(event_id).players[NINE.index(seated)].left_round == 2


def test_a_draw_is_undone_before_any_deal_and_drawn_again(app: Flask, client: FlaskClient) -> None:
    event_id = create(client)
    client.post(f"/events/{event_id}/draw", data=YES)
    first = events.load_event(event_id).drawn[0]
    page = html(client.get(f"/events/{event_id}"))
    assert 'data-testid="undo-draw-1"' in page
    page = question(client, f"/events/{event_id}/rounds/1/undo")
    assert confirm_message(page) == (
        "Undo the draw of round 1? Its tables (1, 2) and their games are deleted: their cards "
        "and links stop working. Round 1 can then be drawn again."
    )
    assert events.load_event(event_id).drawn == (first,)
    client.post(f"/events/{event_id}/players", data={"name": "Late"})
    assert client.post(f"/events/{event_id}/rounds/1/undo", data=YES).status_code == 302
    assert events.load_event(event_id).drawn == ()
    assert client.get(f"/games/{first.tables[0].game_id}").status_code == 404
    assert "Late" in events.load_event(event_id).present(1)  # the next round is round 1 again
    client.post(f"/events/{event_id}/draw", data=YES)
    again = events.load_event(event_id).drawn[0]
    assert again.number == 1 and "Late" in [*again.sitting_out, *again.tables[0].players] + [
        n for t in again.tables for n in t.players
    ]
    # Once a table has a deal, the draw stays and the refusal names the table.
    phone = table_phone(app, client, event_id)
    game_id = again.tables[0].game_id
    assert post_deal(phone, game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    assert 'data-testid="undo-draw-1"' not in html(client.get(f"/events/{event_id}"))
    response = client.post(f"/events/{event_id}/rounds/1/undo", data=YES)
    page = html(client.get(response.headers["Location"]))
    assert "Round 1&#39;s draw cannot be undone: a deal has been recorded at table 1." in page
    assert games.load_game(game_id).game.deals_played == 1


def test_the_director_link_is_shown_big_with_copy_and_qr_and_restores_the_role(
    app: Flask, client: FlaskClient
) -> None:
    event_id = create(client)
    page = html(client.get(f"/events/{event_id}"))
    assert 'id="director-link"' in page and 'data-copy="director-url"' in page
    link = re.search(r'data-testid="director-link-url" dir="ltr">([^<]+)<', page)
    assert link
    qr = client.get(f"/events/{event_id}/qr/direct.svg")
    assert qr.mimetype == "image/svg+xml" and qr.headers["Cache-Control"] == "no-store"
    other = app.test_client()
    assert other.get(f"/events/{event_id}/qr/direct.svg").status_code == 403
    path = link.group(1).replace("http://localhost", "")
    assert other.post(path).status_code == 302
    assert 'data-testid="director-controls"' in html(other.get(f"/events/{event_id}"))


def test_the_directors_cookie_lasts_a_year(app: Flask) -> None:
    client = app.test_client()
    form = {"name": "Night", "players": "\n".join(NINE[:8]), "rounds": "1"}
    response = client.post("/events/new", data={**form, "round_kind": "game", "scoring": "totals"})
    cookie = next(v for k, v in response.headers.items() if k == "Set-Cookie")
    expires = re.search(r"Expires=([^;]+)", cookie)
    assert expires, cookie
    assert parsedate_to_datetime(expires.group(1)) > datetime.now(UTC) + timedelta(days=360)


def test_a_co_director_has_the_directors_rights_until_revoked(
    app: Flask, client: FlaskClient
) -> None:
    event_id = create(client)
    assert client.post(f"/events/{event_id}/co-director").status_code == 302
    page = html(client.get(f"/events/{event_id}"))
    link = re.search(r'data-testid="co-director-link-url" dir="ltr">([^<]+)<', page)
    assert link and f"/events/{event_id}/qr/co_director.svg" in page
    helper = app.test_client()
    assert helper.post(link.group(1).replace("http://localhost", "")).status_code == 302
    assert helper.post(f"/events/{event_id}/draw", data=YES).status_code == 302
    # The helper's pages print the same tables' links as the director's.
    mine = re.findall(r"/join/[^\"]+", client.get(f"/events/{event_id}").get_data(as_text=True))
    theirs = re.findall(r"/join/[^\"]+", helper.get(f"/events/{event_id}").get_data(as_text=True))
    assert mine and mine == theirs
    assert helper.post(f"/events/{event_id}/co-director").status_code == 403
    assert 'data-testid="give-co-director"' not in html(helper.get(f"/events/{event_id}"))
    page = question(client, f"/events/{event_id}/co-director/revoke")
    assert confirm_message(page).startswith("Revoke the co-director's link?")
    assert client.post(f"/events/{event_id}/co-director/revoke", data=YES).status_code == 302
    assert helper.post(f"/events/{event_id}/close", data=YES).status_code == 403
    assert 'data-testid="director-controls"' not in html(helper.get(f"/events/{event_id}"))
    assert not events.load_event(event_id).closed


def test_this_browsers_club_nights_are_listed_at_home_and_at_events(
    app: Flask, client: FlaskClient
) -> None:
    assert 'data-testid="no-nights"' in html(client.get("/events"))
    event_id = create(client)
    for page in (html(client.get("/")), html(client.get("/events"))):
        assert f'data-testid="night-{event_id}"' in page and "Thursday club" in page
        assert "You direct it" in page
    assert "My club nights" in html(client.get("/")) and "My games" in html(client.get("/"))
    follower = app.test_client()
    assert f"night-{event_id}" not in html(follower.get("/events"))
    follower.get(f"/events/{event_id}")
    page = html(follower.get("/events"))
    assert f"night-{event_id}" in page and "You direct it" not in page


def test_players_tied_on_points_are_explained_on_the_page_board_and_results(
    app: Flask, client: FlaskClient
) -> None:
    event_id = create(client)
    client.post(f"/events/{event_id}/draw", data=YES)
    # Nothing played yet: every table scores nothing, and there is no tie to explain.
    page = html(client.get(f"/events/{event_id}"))
    assert 'data-testid="tie-note"' not in page
    assert {s.points for s in events.load_event(event_id).standings()} == {0}
    # Table 1 plays a Trix deal (3/2/1/0 by place); table 2 has none, so its four still
    # have 0 points, level with table 1's last: his Trix score is above their 0, so he
    # leads the group on total score, and the four share the next place.
    phone = table_phone(app, client, event_id)
    first, second = events.load_event(event_id).drawn[0].tables
    assert post_deal(phone, first.game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    last = next(s.player for s in events.load_event(event_id).standings() if s.rank == 4)
    note = f"Tied on 0 points: {last}, {', '.join(sorted(second.players))}."
    rules = "Separated by: total score; nothing: level on every tie-break, they share the place."
    for page in (
        html(client.get(f"/events/{event_id}")),
        html(client.get(f"/events/{event_id}/board/live")),
    ):
        assert note in page and rules in " ".join(page.split())
    results = PdfReader(BytesIO(client.get(f"/events/{event_id}/results.pdf").data))
    text = " ".join(" ".join(p.extract_text() for p in results.pages).split())
    assert (
        note in text.translate({0x2068: None, 0x2069: None}) and "Separated by: total score" in text
    )


def test_tables_played_show_on_the_page_board_and_results(app: Flask, client: FlaskClient) -> None:
    event_id = create(client)
    client.post(f"/events/{event_id}/draw", data=YES)
    phone = table_phone(app, client, event_id)
    first = events.load_event(event_id).drawn[0].tables[0]
    assert post_deal(phone, first.game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    rows = {s.player: s.tables for s in events.load_event(event_id).standings()}
    assert rows == {name: int(name in first.players) for name in rows}  # only a table with a deal
    for path in (f"/events/{event_id}", f"/events/{event_id}/board/live"):
        page = html(client.get(path))
        assert "Tables played" in page
        cells = re.findall(r'data-testid="tables-played">([^<]*)<', page)
        assert sorted(cells) == ["0"] * 4 + ["1"] * 4
    results = PdfReader(BytesIO(client.get(f"/events/{event_id}/results.pdf").data))
    assert "Tables played" in results.pages[0].extract_text()
    # Both tables are still playing: every player is marked with his table.
    page = html(client.get(f"/events/{event_id}"))
    assert page.count('data-testid="playing"') == 8
    assert f"{first.players[0]} <small" in page and "playing at table 1" in page
    standing = client.get(f"/api/v1/events/{event_id}").json["standings"][0]  # type: ignore[index]
    assert standing["playing"]["round"] == 1
