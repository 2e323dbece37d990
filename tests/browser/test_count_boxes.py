"""The count boxes of Collections and Diamonds (R4, R5: 13 in all), typed on a phone
(Chromium, 390×844): the cursor moves on once a count cannot grow another digit.

A count of 10 to 12 can be typed in the third box (the fourth then holds what is left),
and an Edit form, opened with every box set, lets each box be typed over in turn.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import join
from tests.common import NAMES

pytestmark = pytest.mark.browser

COLLECTIONS = {"contracts": ["collections"], "captures": {"tricks": [4, 3, 3, 3]}}


def game(app: Flask, deals: list[dict[str, object]]) -> tuple[str, str]:
    client = app.test_client()
    made = client.post("/api/v1/games", json={"players": NAMES, "first_king": 0}).get_json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    for deal in deals:
        assert (
            client.post(f"/api/v1/games/{made['id']}/deals", json=deal, headers=auth).status_code
            == 201
        )
    return made["id"], made["edit_token"]


def boxes(page: Page) -> list[str]:
    return [page.locator(f"#tricks-{seat}").input_value() for seat in range(4)]


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.id"))


def open_form(
    contexts: Callable[..., BrowserContext], live_server: str, game_id: str, token: str, path: str
) -> Page:
    page = contexts().new_page()
    join(page, live_server, game_id, token)
    page.goto(f"{live_server}/games/{game_id}/{path}")
    expect(page.get_by_test_id("tricks-sum")).to_be_visible()  # the script drives the boxes
    return page


def test_r4_a_count_of_11_is_typed_in_the_third_box(
    app: Flask, live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    game_id, token = game(app, [])
    page = open_form(contexts, live_server, game_id, token, "deals/new?contracts=collections")
    page.locator("#tricks-0").tap()
    page.keyboard.type("0")  # 0 cannot grow: on to the second box
    assert focused(page) == "tricks-1"
    page.keyboard.type("2")  # 20 is more than 13: on to the third
    assert focused(page) == "tricks-2"
    page.keyboard.type("1")  # 1 could still be 10 or 11: the cursor stays
    assert focused(page) == "tricks-2"
    page.keyboard.type("1")
    assert boxes(page) == ["0", "2", "11", "0"]
    expect(page.get_by_test_id("tricks-sum")).to_have_class("sum ok")


def test_r4_an_edit_form_takes_every_box_typed_over_in_turn(
    app: Flask, live_server: str, contexts: Callable[..., BrowserContext]
) -> None:
    game_id, token = game(app, [COLLECTIONS])
    page = open_form(contexts, live_server, game_id, token, "deals/1/edit")
    assert boxes(page) == ["4", "3", "3", "3"]
    page.locator("#tricks-0").tap()  # its text selected: typing replaces it
    page.keyboard.type("1")  # 1 could still be 10: the cursor stays
    assert focused(page) == "tricks-0"
    page.keyboard.type("0")
    assert focused(page) == "tricks-1"
    for seat in (1, 2):
        page.keyboard.type("1")
        assert focused(page) == f"tricks-{seat}"  # 1 could be 10 to 13 on an Edit form
        page.locator(f"#tricks-{seat + 1}").tap()
    page.keyboard.type("1")
    assert boxes(page) == ["10", "1", "1", "1"]
    expect(page.get_by_test_id("tricks-sum")).to_have_class("sum ok")
