"""The new-night page under gunicorn, on SQLite and PostgreSQL: a night held for a circle
needs the circle's edit rights in this browser (or its pasted edit link), as the API needs
the circle's token; refused, nothing is written, counted in the server's database from
outside. The night's house rules come from the same switches as a new game's (R9), and the
director sets the round clock from the night's page."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.serving import Server
from tests.server.test_served_circle_writes import counts
from tests.server.test_served_circles import call
from tests.server.test_served_forms import TOKEN, Browser

pytestmark = pytest.mark.served

Serve = Callable[..., Server]
MEMBERS = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya"]
NIGHT = {
    "name": "Circle night",
    "rounds": "2",
    "round_kind": "kingdom",
    "scoring": "places",
    "places": "3 2 1 0",
    "seed": "5",
}


def count_rows(database_url: str, *browsers: Browser) -> dict[str, int]:
    """Every table's rows, counted from outside the server; the browsers' idle keep-alive
    connections, which the server may close meanwhile, are opened again at their next
    request."""
    found = counts(database_url)
    for browser in browsers:
        browser.conn.close()
    return found


def form_token(browser: Browser, path: str = "/events/new") -> str:
    status, _headers, page = browser.request("GET", path)
    assert status == 200, page
    tokens: list[str] = TOKEN.findall(page)
    return tokens[0]


def send(browser: Browser, form: dict[str, Any]) -> tuple[int, dict[str, str], str]:
    fields = {**NIGHT, **form, "csrf_token": form_token(browser)}
    return browser.request("POST", "/events/new", fields)


def circle(server: Server) -> tuple[str, str]:
    status, made = call(server, "POST", "/api/v1/circles", {"name": "Club", "members": MEMBERS})
    assert status == 201, made
    return made["id"], made["edit_token"]


def night_of(browser: Browser, location: str) -> dict[str, Any]:
    event_id = location.split("#")[0].rsplit("/", 1)[1]
    status, _headers, _page = browser.request("GET", f"/events/{event_id}")
    assert status == 200
    status, answer = call_json(browser, f"/api/v1/events/{event_id}")
    assert status == 200
    return answer


def call_json(browser: Browser, path: str) -> tuple[int, dict[str, Any]]:
    status, _headers, text = browser.request("GET", path)
    answer: dict[str, Any] = json.loads(text)
    return status, answer


def test_a_circles_night_from_the_page_needs_the_circles_rights_and_writes_nothing_without(
    database_url: str, serve: Serve
) -> None:
    server = serve(database_url)
    circle_id, token = circle(server)
    stranger = Browser(server)
    before = count_rows(database_url, stranger)
    status, _headers, page = send(stranger, {"circle": circle_id, "members": ["Rana", "Sami"]})
    assert status == 403 and "cannot hold a night for this circle" in page
    assert "Nothing was saved" in page
    wrong = f"{server.url}/circles/{circle_id}/join/not-the-token"
    status, _headers, page = send(stranger, {"circle_link": wrong})
    assert status == 403 and "this phone cannot change it" in page
    status, _headers, page = send(stranger, {"circle_link": "https://example.com/nothing"})
    assert status == 422 and "not a circle&#39;s edit link" in page
    assert count_rows(database_url, stranger) == before
    # The edit link pasted: the circle's members are listed to tick at the door.
    director = Browser(server)
    link = f"{server.url}/circles/{circle_id}/join/{token}"
    status, _headers, page = send(director, {"circle_link": link, "step": "members"})
    assert status == 200 and 'data-testid="event-members"' in page
    assert all(f"<bdi>{name}</bdi>" in page for name in MEMBERS)
    assert count_rows(database_url, director) == before  # showing the members creates nothing
    ticked = {"circle": circle_id, "members": ["Rana", "Sami", "Omar", "Lina", "Hadi"]}
    status, headers, page = send(director, {**ticked, "players": "Zein\nDana\nNour"})
    assert status == 302, page
    night = night_of(director, headers["location"])
    assert night["circle"] == circle_id
    assert night["players"] == ["Rana", "Sami", "Omar", "Lina", "Hadi", "Zein", "Dana", "Nour"]
    assert "Traceback" not in server.log_text()


def test_a_nights_house_rules_come_from_the_new_game_switches(
    database_url: str, serve: Serve
) -> None:
    server = serve(database_url)
    director = Browser(server)
    players = "\n".join(MEMBERS[:4] + ["Zein", "Dana", "Nour", "Ziad"])
    rules = {"preset": "standard", "doubling": "off", "trix_tail": "minus", "value_king": "50"}
    status, headers, page = send(director, {"players": players, **rules})
    assert status == 302, page
    night = night_of(director, headers["location"])
    assert night["rules"]["doubling"] is False  # R9: doubling off
    assert night["rules"]["values"]["king"] == 50 and night["rules"]["values"]["trix"][3] < 0
    assert night["rules"]["kingdoms"] == 1  # a round of one kingdom
    before = count_rows(database_url, director)
    status, _headers, page = send(director, {"players": players, "doubling": "sometimes"})
    assert status == 422 and "Choose one of the listed options." in page
    assert count_rows(database_url, director) == before


def test_the_director_sets_the_round_clock_from_the_nights_page(
    database_url: str, serve: Serve
) -> None:
    server = serve(database_url)
    director = Browser(server)
    players = "\n".join(MEMBERS + ["Zein", "Dana"])
    status, headers, _page = send(director, {"players": players})
    assert status == 302
    path = headers["location"].split("#")[0].replace(server.url, "")
    token = form_token(director, path)
    status, headers, _page = director.request(
        "POST", f"{path}/clock", {"round_minutes": "40", "csrf_token": token}
    )
    assert status == 302
    assert night_of(director, path)["round_minutes"] == 40
    before = count_rows(database_url, director)
    status, _headers, _page = director.request(
        "POST", f"{path}/clock", {"round_minutes": "9999", "csrf_token": token}
    )
    assert status == 302 and count_rows(database_url, director) == before
    _status, _headers, page = director.request("GET", path)
    assert "“round_minutes” must be a whole number from 1 to 600." in page
    stranger = Browser(server)
    status, _headers, _page = stranger.request(
        "POST", f"{path}/clock", {"round_minutes": "5", "csrf_token": form_token(stranger)}
    )
    assert status == 403 and night_of(director, path)["round_minutes"] == 40
