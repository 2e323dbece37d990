"""The director's pages: a player who leaves mid-round is replaced or the tables not started
are drawn again; the director opens any table's game and corrects or undoes a deal with the
normal forms, logged as the director's. A table's edit link does none of it."""

from __future__ import annotations

import re
from io import BytesIO

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.store import games, models
from scorekeeper.store.events import services as events
from tests.web.events.test_pages import YES, create
from tests.web.pages import html as page_html
from tests.web.pages import post_deal

NINE = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad", "Dana"]
TRIX = {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"}
KING = {"kh_taker": "1", "kh_doubled_by": ""}


def html(response: object) -> str:
    """The page as read: no <bdi>, no isolating marks around names."""
    return page_html(response).translate({0x2068: None, 0x2069: None})  # type: ignore[arg-type]


def sources(game_id: str) -> list[str]:
    """Who made each write to the game, oldest first."""
    query = select(models.Revision.source).where(models.Revision.game_id == game_id)
    return list(db.session.scalars(query.order_by(models.Revision.version)))


def night(client: FlaskClient) -> tuple[str, events.EventView]:
    event_id = create(client, players="\n".join(NINE))
    assert client.post(f"/events/{event_id}/draw", data=YES).status_code == 302
    return event_id, events.load_event(event_id)


def table_phone(app: Flask, client: FlaskClient, event_id: str, table: int = 0) -> FlaskClient:
    """Another phone that opened a table's edit link (from the director's page)."""
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    links = re.findall(r'href="http://localhost(/games/[^"/]+/join/[^"]+)"', page)
    phone = app.test_client()
    assert phone.post(links[table]).status_code == 303
    return phone


def test_the_director_replaces_a_player_from_the_page(client: FlaskClient) -> None:
    event_id, event = night(client)
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'data-testid="leaving-1"' in page and 'data-testid="redraw-submit"' in page
    table, out = event.drawn[0].tables[0], event.drawn[0].sitting_out[0]
    form = {"player": table.players[3], "substitute": out}
    response = client.post(f"/events/{event_id}/rounds/1/replace", data={**form, **YES})
    assert response.status_code == 302
    page = html(client.get(response.headers["Location"]))
    assert f"{out} takes the seat of {table.players[3]}; the table plays on." in page
    assert f"Table 1: {out} took the seat of {table.players[3]} after 0 deals." in page
    game = html(client.get(f"/games/{table.game_id}"))
    assert f"{out} took the seat of {table.players[3]} after 0 deals." in game
    assert games.load_game(table.game_id).players[3] == out
    results = PdfReader(BytesIO(client.get(f"/events/{event_id}/results.pdf").data))
    text = " ".join(results.pages[0].extract_text().split())
    assert f"{out} took the seat of {table.players[3]} after 0 deals." in text


def test_the_director_draws_the_round_again_from_the_page(client: FlaskClient) -> None:
    event_id, event = night(client)
    leaving = event.drawn[0].tables[1].players[0]
    response = client.post(f"/events/{event_id}/rounds/1/redraw", data={"player": leaving, **YES})
    assert response.status_code == 302
    page = html(client.get(response.headers["Location"]))
    assert f"Round 1 is drawn again without {leaving} (seed 11-1-r1)" in page
    assert f"{leaving} left: the tables not started were drawn again (seed 11-1-r1)." in page
    after = events.load_event(event_id)
    assert all(leaving not in t.players for t in after.drawn[0].tables)


def test_a_refused_change_is_flashed_and_nothing_is_saved(client: FlaskClient) -> None:
    event_id, event = night(client)
    out = event.drawn[0].sitting_out[0]
    seated = event.drawn[0].tables[0].players[0]
    response = client.post(
        f"/events/{event_id}/rounds/1/replace",
        data={"player": out, "substitute": seated, **YES},
    )
    assert response.status_code == 302
    page = html(client.get(response.headers["Location"]))
    assert f"{out} has no seat in round 1." in page
    response = client.post(f"/events/{event_id}/rounds/1/replace", data={"player": seated, **YES})
    assert "“substitute” must be a player&#39;s name." in html(
        client.get(response.headers["Location"])
    )
    assert events.load_event(event_id).drawn == event.drawn


def test_a_table_phone_cannot_change_the_round(app: Flask, client: FlaskClient) -> None:
    event_id, event = night(client)
    phone = table_phone(app, client, event_id)
    form = {"player": event.drawn[0].tables[0].players[0], "substitute": "X"}
    assert phone.post(f"/events/{event_id}/rounds/1/replace", data=form).status_code == 403
    assert phone.post(f"/events/{event_id}/rounds/1/redraw", data=form).status_code == 403
    assert events.load_event(event_id).drawn == event.drawn


def test_the_director_corrects_and_undoes_a_deal_logged_as_the_directors(
    app: Flask, client: FlaskClient
) -> None:
    event_id, event = night(client)
    game_id = event.drawn[0].tables[0].game_id
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}" data-testid="table-correct-link"' in page
    phone = table_phone(app, client, event_id)
    assert post_deal(phone, game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    client.post(f"/events/{event_id}/rounds/1/lock", data={"locked": "yes"})
    # Locked: the table's phone is refused; the director corrects through the normal form.
    assert post_deal(phone, game_id, "king", KING).status_code == 409
    game = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-testid="directing"' in game
    version = games.load_game(game_id).version
    body = {"version": str(version), **TRIX, "trix-0": "0", "trix-1": "2", "king": "0"}
    response = client.post(f"/games/{game_id}/deals/1/edit?contracts=trix", data=body)
    assert response.status_code == 302, response.get_data(as_text=True)
    history = client.get(f"/games/{game_id}/deals/1").get_data(as_text=True)
    assert 'data-testid="by-director"' in history
    assert [r.source for r in games.deal_revisions(game_id, 1)] == ["page", "director"]
    version = games.load_game(game_id).version
    response = client.post(
        f"/games/{game_id}/undo", data={"version": str(version), "confirm": "yes"}
    )
    assert response.status_code == 302
    assert games.load_game(game_id).game.deals_played == 0
    assert sources(game_id) == ["page", "director", "director"]
    assert 'data-testid="directing"' not in phone.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_table_edit_link_gives_no_directors_rights(app: Flask, client: FlaskClient) -> None:
    event_id, event = night(client)
    phone = table_phone(app, client, event_id)
    own, other = (t.game_id for t in event.drawn[0].tables)
    # Its own game only, logged as the table's, never the director's.
    assert post_deal(phone, own, "trix", {**TRIX, "king": "0"}).status_code == 302
    assert [r.source for r in games.deal_revisions(own, 1)] == ["page"]
    assert post_deal(phone, other, "trix", TRIX).status_code == 403
    page = phone.get(f"/events/{event_id}").get_data(as_text=True)
    assert "table-correct-link" not in page and "leaving-1" not in page


def test_the_director_of_one_club_night_does_not_edit_anothers_tables(
    app: Flask, client: FlaskClient
) -> None:
    _mine, _event = night(client)
    other = app.test_client()
    _theirs, theirs = night(other)
    game_id = theirs.drawn[0].tables[0].game_id
    assert post_deal(client, game_id, "trix", {**TRIX, "king": "0"}).status_code == 403
    assert 'data-testid="directing"' not in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert post_deal(other, game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    assert sources(game_id) == ["director"]


def test_a_player_who_left_is_out_of_the_next_round_already_drawn_and_can_come_back(
    client: FlaskClient,
) -> None:
    event_id, event = night(client)
    assert client.post(f"/events/{event_id}/draw", data=YES).status_code == 302
    second = events.load_event(event_id).drawn[1]
    out1, out2 = event.drawn[0].sitting_out[0], second.sitting_out[0]
    leaving = next(n for t in second.tables for n in t.players if n not in (out1, out2))
    table = next(t for t in second.tables if leaving in t.players)
    form = {"player": leaving, "substitute": out1}
    assert (
        client.post(f"/events/{event_id}/rounds/1/replace", data={**form, **YES}).status_code == 302
    )
    page = html(client.get(f"/events/{event_id}"))
    assert (
        f"Table {table.number}: {leaving} left in round 1, so {out2}, who was sitting out, "
        "takes over the seat." in page
    )
    assert f"Not drawn, having left: {leaving}" in page
    assert 'data-testid="back-player"' in page
    response = client.post(f"/events/{event_id}/players", data={"name": leaving})
    assert response.status_code == 302
    page = html(client.get(response.headers["Location"]))
    assert f"{leaving} is back: drawn again from the next round on." in page
    assert 'data-testid="back-player"' not in page
    assert leaving in events.load_event(event_id).present(3)


def test_a_player_who_goes_home_between_rounds_is_not_drawn_until_he_is_back(
    client: FlaskClient,
) -> None:
    event_id, event = night(client)
    leaving = event.drawn[0].tables[0].players[0]
    response = client.post(f"/events/{event_id}/players/leave", data={"name": leaving, **YES})
    assert response.status_code == 302
    page = html(client.get(response.headers["Location"]))
    assert f"{leaving} is not drawn from the next round on." in page
    assert client.post(f"/events/{event_id}/draw", data=YES).status_code == 302
    second = events.load_event(event_id).drawn[1]
    assert leaving not in [n for t in second.tables for n in t.players]
    assert second.left_out == (leaving,)
    assert f"Not drawn, having left: {leaving}" in html(client.get(f"/events/{event_id}"))
    refused = client.post(f"/events/{event_id}/players/leave", data={"name": "Nobody", **YES})
    assert "Nobody is not among this club night&#39;s players." in html(
        client.get(refused.headers["Location"])
    )
