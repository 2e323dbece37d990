"""A round in play on the API, the night's page, the board and the results PDF: a table
with no deal yet scores nothing (a draw moves nobody), a table still playing is marked with
how many of its players' points are "so far", and a finished table counts as settled."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from tests.web.events.test_api import EIGHT, Event, deal, kingdom
from tests.web.events.test_board import html, play_round
from tests.web.events.test_paper import flat, pdf_text

FIFTEEN = [*EIGHT, "Joud", "Salma", "Rami", "Tala", "Karim", "Dana", "Fadi"]
SETTLED = ("player", "rank", "points", "tables", "byes", "score", "trix_firsts")


def night(client: FlaskClient) -> Event:
    """15 players by places, one kingdom a table, round 1 played through."""
    event = Event(client, players=FIFTEEN, round="kingdom", rounds=3, scoring="places")
    play_round(client, event.draw())
    return event


def settled(event: Event) -> list[tuple[object, ...]]:
    return [tuple(line[k] for k in SETTLED) for line in event.get()["standings"]]


def marks(page: str) -> list[str]:
    return re.findall(r'data-testid="playing" data-deals="\d+">([^<]*)<', page)


def test_a_round_drawn_with_no_deal_moves_nobody_in_the_standings(client: FlaskClient) -> None:
    event = night(client)
    before = settled(event)
    event.draw()
    assert settled(event) == before  # nobody falls from 7th to 14th before a card is played
    standings = event.get()["standings"]
    seated = [line for line in standings if line["playing"]]
    assert len(seated) == 12 and all(line["playing"]["deals"] == 0 for line in seated)
    assert all(line["provisional"] == 0 for line in standings)
    page = html(client.get(f"/events/{event.id}"))
    assert sorted(set(marks(page))) == [f"at table {n}, no deal yet" for n in (1, 2, 3)]
    assert 'data-testid="provisional"' not in page and 'data-testid="in-play-rule"' in page
    assert "at table 1, no deal yet" in flat(
        pdf_text(client.get(f"/events/{event.id}/results.pdf").data)
    )


def test_a_table_still_playing_is_marked_with_its_points_so_far(client: FlaskClient) -> None:
    event = night(client)
    before = {line["player"]: line for line in event.get()["standings"]}
    table = event.draw()["tables"][0]
    assert deal(client, table, kingdom()[0]).status_code == 201  # Trix: a first place so far
    lines = {line["player"]: line for line in event.get()["standings"]}
    for name in table["players"]:
        line = lines[name]
        assert line["playing"] == {"round": 2, "table": 1, "deals": 1}
        assert line["tables"] == before[name]["tables"] + 1
        # What his finished tables and byes give is unchanged: the rest is "so far".
        assert line["points"] - line["provisional"] == before[name]["points"]
    assert any(lines[name]["provisional"] for name in table["players"])
    page = html(client.get(f"/events/{event.id}"))
    assert marks(page).count("playing at table 1") == 4
    assert "at table 2, no deal yet" in marks(page)
    so_far = re.findall(r'data-testid="provisional">([^<]*) so far<', page)
    assert len(so_far) == 4
    assert "the rest are from finished tables and byes" in flat(page).lower()
    board = html(client.get(f"/events/{event.id}/board/live"))
    assert len(re.findall(r'data-testid="provisional">[^<]* so far<', board)) == 4
    assert 'data-testid="in-play-rule"' not in board  # the board's marks stay short
    results = flat(pdf_text(client.get(f"/events/{event.id}/results.pdf").data))
    assert results.count("playing at table 1") == 4 and len(re.findall(r"\d so far", results)) == 4


def test_a_finished_table_counts_as_before_with_nothing_provisional(client: FlaskClient) -> None:
    event = night(client)
    standings: list[dict[str, Any]] = event.get()["standings"]
    assert all(line["playing"] is None and line["provisional"] == 0 for line in standings)
    assert sorted(line["tables"] for line in standings) == [0] * 3 + [1] * 12
    # Places 3/2/1/0 at each of three tables: 18 points, all of them settled.
    assert sum(line["points"] for line in standings) == 18
    page = html(client.get(f"/events/{event.id}"))
    assert not marks(page) and 'data-testid="in-play-rule"' not in page
