"""Fair scores on the pages and the API: what a round sat out is worth (the night's rule),
ranking by points per table, and tables played."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store.events import services as events
from tests.web.events.test_director_pages import NINE, TRIX, html, table_phone
from tests.web.events.test_pages import YES, create
from tests.web.pages import post_deal


def test_a_fixed_bye_chosen_on_the_new_night_page_scores_once_its_round_has_a_deal(
    app: Flask, client: FlaskClient
) -> None:
    event_id = create(client, players="\n".join(NINE), byes="fixed", bye_points="2")
    client.post(f"/events/{event_id}/draw", data=YES)
    out = events.load_event(event_id).drawn[0].sitting_out[0]

    def line() -> tuple[object, ...]:
        found = next(s for s in events.load_event(event_id).standings() if s.player == out)
        return found.points, found.byes, found.tables

    assert line() == (0, 0, 0)  # a round just drawn moves nobody, a sit-out neither
    first = events.load_event(event_id).drawn[0].tables[0]
    phone = table_phone(app, client, event_id)
    assert post_deal(phone, first.game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    assert line() == (2, 1, 0)
    page = html(client.get(f"/events/{event_id}"))
    assert "A round sat out scores 2 points." in page
    assert 'data-testid="byes">1 bye, worth 2<' in page


def test_the_default_bye_is_the_players_own_average(client: FlaskClient) -> None:
    event_id = create(client, players="\n".join(NINE))
    assert "A round sat out scores the average of the player's own tables." in html(
        client.get(f"/events/{event_id}")
    )


def test_the_api_takes_and_shows_the_bye_rule_and_ranking(client: FlaskClient) -> None:
    body = {"name": "Night", "players": NINE, "seed": 3}
    created = client.post("/api/v1/events", json=body).json
    assert created is not None
    event = created["event"]
    assert (event["byes"], event["bye_points"], event["ranking"]) == ("average", 0, "points")
    body = {**body, "byes": "fixed", "bye_points": 1, "ranking": "average"}
    event = client.post("/api/v1/events", json=body).json["event"]  # type: ignore[index]
    assert (event["byes"], event["bye_points"], event["ranking"]) == ("fixed", 1, "average")
    assert {"byes", "bye_points", "average"} <= set(event["standings"][0])
    refused = client.post("/api/v1/events", json={**body, "byes": "sometimes"})
    assert refused.status_code in (400, 422)
    assert refused.json["errors"][0]["code"] == "event_choice"  # type: ignore[index]
