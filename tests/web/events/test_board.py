"""The standings board's content and the round clock: where the night stands (seating,
playing, a round over while the next is drawn, the night over), every player's seat,
seats labelled "Seat N" (never a ranked list), the clock the director sets; and a table's
game page names its night, round and table, with no rematch."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.events.test_api import Event, deal, kingdom

YES = {"confirm": "yes"}


def html(response: Any) -> str:
    text: str = response.get_data(as_text=True)
    assert response.status_code == 200, text
    return text


def stage(client: FlaskClient, event: Event) -> str:
    live = html(client.get(f"/events/{event.id}/board/live"))
    found = re.search(r'data-stage="(\w+)"', live)
    assert found
    return found.group(1)


def play_round(client: FlaskClient, drawn: dict[str, Any]) -> None:
    """Every table plays its kingdom through (R2: five contracts, each once)."""
    for table in drawn["tables"]:
        for body in kingdom():
            assert deal(client, table, body).status_code == 201


def directing(app: Flask, event: Event) -> FlaskClient:
    """A browser that took the director's role by the director's link."""
    browser = app.test_client()
    assert browser.post(f"/events/{event.id}/direct/{event.token}").status_code == 302
    return browser


def test_the_board_follows_the_night_from_seating_to_the_next_draw(client: FlaskClient) -> None:
    event = Event(client, round="kingdom", rounds=2)
    assert stage(client, event) == "waiting"
    drawn = event.draw()
    assert stage(client, event) == "seating"
    live = html(client.get(f"/events/{event.id}/board/live"))
    assert "find your seat" in live and live.count('data-testid="board-seat"') == 8
    for table in drawn["tables"]:
        for seat, name in enumerate(table["players"]):
            assert re.search(
                rf"<bdi>{name}</bdi> <span>table {table['table']}, seat {seat + 1}<", live
            )
    assert "<ol" not in live and "Seat 1" in live
    first, second = drawn["tables"]
    assert deal(client, first, kingdom()[0]).status_code == 201
    assert stage(client, event) == "playing"
    live = html(client.get(f"/events/{event.id}/board/live"))
    assert "2 tables still playing" in live and 'data-state="playing"' in live
    play_round(client, {"tables": [second]})
    for body in kingdom()[1:]:
        assert deal(client, first, body).status_code == 201
    assert stage(client, event) == "drawing"
    live = html(client.get(f"/events/{event.id}/board/live"))
    assert "Round 1 is over: the next round is being drawn." in live
    assert "Every table of this round has finished" not in live
    play_round(client, event.draw())
    assert stage(client, event) == "over"
    assert "final standings" in html(client.get(f"/events/{event.id}/board/live"))


def test_the_board_lists_every_one_of_sixty_players(client: FlaskClient) -> None:
    sixty = [f"P{i:02d}" for i in range(60)]
    event = Event(client, players=sixty, round="kingdom")
    event.draw()
    live = html(client.get(f"/events/{event.id}/board/live"))
    assert live.count('data-testid="standing"') == 60
    assert live.count('data-testid="board-seat"') == 60
    assert live.count('data-testid="board-table"') == 15


def test_the_board_page_has_no_site_menu_and_gives_the_server_time(client: FlaskClient) -> None:
    event = Event(client)
    board = html(client.get(f"/events/{event.id}/board"))
    assert 'class="site-header"' not in board and "nav-new-game" not in board
    assert re.search(r'data-server-now="\d{13}"', board)
    assert 'class="site-header"' in html(client.get(f"/events/{event.id}"))


def test_the_director_sets_the_round_clock_and_the_board_counts_from_the_draw(
    app: Flask, client: FlaskClient
) -> None:
    event = Event(client, round="kingdom")
    director = directing(app, event)
    page = html(director.get(f"/events/{event.id}"))
    assert 'data-testid="round-clock-form"' in page
    answer = director.post(f"/events/{event.id}/clock", data={"round_minutes": "45"})
    assert answer.status_code == 302
    assert event.get()["round_minutes"] == 45
    assert "data-board-clock" not in html(client.get(f"/events/{event.id}/board/live"))
    drawn_at = event.draw() and event.get()["rounds_drawn"][0]["drawn_at"]
    live = html(client.get(f"/events/{event.id}/board/live"))
    ends = int(re.findall(r'data-ends="(\d+)"', live)[0])
    from datetime import datetime

    start = datetime.fromisoformat(drawn_at).timestamp() * 1000
    assert ends - start == pytest.approx(45 * 60 * 1000, abs=1)
    assert 'data-warn="300"' in live
    director.post(f"/events/{event.id}/clock", data={"round_minutes": ""})
    assert event.get()["round_minutes"] is None
    assert "data-board-clock" not in html(client.get(f"/events/{event.id}/board/live"))


OUT_OF_RANGE = "“round_minutes” must be a whole number from 1 to 600."
NOT_A_NUMBER = "Minutes a round (empty: no round clock): “%s” is not a whole number."


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("0", OUT_OF_RANGE),
        ("601", OUT_OF_RANGE),
        ("٦٠١", OUT_OF_RANGE),
        ("-3", OUT_OF_RANGE),
        ("ten", NOT_A_NUMBER % "ten"),
        ("4.5", NOT_A_NUMBER % "4.5"),
        ("४५", NOT_A_NUMBER % "४५"),  # Devanagari digits are not read
    ],
)
def test_a_bad_round_length_is_refused_naming_the_field_and_nothing_changes(
    app: Flask, client: FlaskClient, typed: str, message: str
) -> None:
    event = Event(client)
    director = directing(app, event)
    director.post(f"/events/{event.id}/clock", data={"round_minutes": "30"})
    version = event.get()["version"]
    answer = director.post(f"/events/{event.id}/clock", data={"round_minutes": typed})
    assert answer.status_code == 302
    page = html(director.get(f"/events/{event.id}"))
    assert message in page
    assert event.get()["round_minutes"] == 30 and event.get()["version"] == version


@pytest.mark.parametrize("typed", ["٤٥", "۴۵"])
def test_a_round_length_in_arabic_indic_digits_is_read_right(
    app: Flask, client: FlaskClient, typed: str
) -> None:
    event = Event(client)
    director = directing(app, event)
    answer = director.post(f"/events/{event.id}/clock", data={"round_minutes": typed})
    assert answer.status_code == 302
    assert event.get()["round_minutes"] == 45
    box = re.search(r'<input name="round_minutes"[^>]*>', html(director.get(f"/events/{event.id}")))
    assert box and 'type="text"' in box.group(0) and 'inputmode="numeric"' in box.group(0)


def test_only_the_director_sets_the_clock(client: FlaskClient) -> None:
    event = Event(client)
    assert client.post(f"/events/{event.id}/clock", data={"round_minutes": "30"}).status_code == 403
    assert event.get()["round_minutes"] is None


def test_a_tables_game_page_names_its_night_round_and_table_and_offers_no_rematch(
    client: FlaskClient,
) -> None:
    event = Event(client, round="kingdom", rounds=1)
    drawn = event.draw()
    table = drawn["tables"][1]
    play_round(client, {"tables": [table]})
    page = html(client.get(f"/games/{table['game']}"))
    assert "Club night <bdi>Thursday club</bdi> · round 1 · table 2" in page
    assert f'href="/events/{event.id}/board"' in page and 'data-testid="back-to-board"' in page
    assert 'data-testid="rematch"' not in page
    # Even with the table's edit rights, a rematch is refused: the night draws the next round.
    assert client.post(f"/games/{table['game']}/join/{table['edit_token']}").status_code == 303
    refused = client.post(f"/games/{table['game']}/rematch")
    assert refused.status_code == 409 and "has no rematch" in refused.get_data(as_text=True)
