"""A club night's paper and a circle's ladder through the app as served (gunicorn), on
SQLite and PostgreSQL: the round sheet, the results PDF with the director's correction,
the results CSV and standalone page, and the season ladder of a circle's nights."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
from pypdf import PdfReader

from tests.server.serving import Server
from tests.server.test_served_app import get
from tests.server.test_served_events import create_event, draw, play_tables
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.served

Serve = Callable[..., Server]
MEMBERS = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad", "Dana"]


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return " ".join(unicodedata.normalize("NFKC", text).split()).translate(
        {0x2068: None, 0x2069: None}
    )


def circle_night(server: Server) -> tuple[str, str, str, dict[str, Any]]:
    """A circle of nine and a one-round night held for it, its tables played, the first
    table's first deal then corrected by the director: (circle, night, director, round)."""
    client = server.client()
    status, _, made = client.call("POST", "/api/v1/circles", {"name": "Club", "members": MEMBERS})
    assert status == 201, made
    body = {"name": "Served night", "players": [], "circle": made["id"], "rounds": 1}
    body |= {"round": "kingdom", "seed": 3}
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    status, _, night = client.call("POST", "/api/v1/events", body, auth)
    assert status == 201, night
    drawn = draw(client, night["id"], night["director_token"])
    assert play_tables(server, drawn["tables"]) == []
    table = drawn["tables"][0]
    status, headers, _state = client.call("GET", f"/api/v1/games/{table['game']}")
    corrected = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}}
    head = {"Authorization": f"Bearer {night['director_token']}", "If-Match": headers["etag"]}
    path = f"/api/v1/events/{night['id']}/games/{table['game']}/deals/1"
    status, _, answer = client.call("PUT", path, corrected, head)
    assert status == 200, answer
    client.close()
    return made["id"], night["id"], night["director_token"], drawn


def csv_rows(server: Server, night_id: str) -> list[list[str]]:
    status, headers, data = get(server, f"/events/{night_id}/results.csv")
    assert status == 200 and headers["content-type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(data.decode())))


def check_csv_in_progress(server: Server) -> None:
    """A night whose first table has played one deal: the CSV's last columns say, as the
    API's standings do, what each table still playing adds so far and which table it is."""
    client = server.client()
    night_id, token = create_event(client, players=MEMBERS[:8], rounds=1)
    table = draw(client, night_id, token)["tables"][0]
    auth = {"Authorization": f"Bearer {table['edit_token']}"}
    path = f"/api/v1/games/{table['game']}/deals"
    assert client.call("POST", path, kingdom()[0], auth)[0] == 201
    status, _, night = client.call("GET", f"/api/v1/events/{night_id}")
    client.close()
    assert status == 200
    _header, *rows = csv_rows(server, night_id)
    by_name = {r[1]: r[-4:] for r in rows}
    for line in night["standings"]:
        at = line["playing"]
        assert at is not None and at["round"] == 1
        expected = [str(line["provisional"]), *(str(at[k]) for k in ("round", "table", "deals"))]
        assert by_name[line["player"]] == expected
    assert any(line["provisional"] for line in night["standings"])


def test_a_served_nights_paper_and_its_circles_ladder(serve: Serve, database_url: str) -> None:
    server = serve(database_url, workers=2)
    circle_id, night_id, _token, drawn = circle_night(server)
    status, headers, data = get(server, f"/events/{night_id}/round-sheet.pdf")
    assert status == 200 and headers["content-type"] == "application/pdf"
    sheet = text_of(data)
    assert "Find your seat" in sheet and f"Sitting out: {drawn['sitting_out'][0]}" in sheet
    status, _, data = get(server, f"/events/{night_id}/results.pdf")
    results = text_of(data)
    assert status == 200 and "Round 1, table 1, deal 1 corrected." in results
    header, *rows = csv_rows(server, night_id)
    assert header[:2] == ["rank", "player"] and sorted(r[1] for r in rows) == sorted(MEMBERS)
    assert {r[8] for r in rows if r[1] == drawn["sitting_out"][0]} == {"bye"}
    # Every table finished: nothing provisional, nobody at a table still playing.
    assert header[-4:] == ["provisional", "playing_round", "playing_table", "playing_deals"]
    assert {tuple(r[-4:]) for r in rows} == {("0", "", "", "")}
    check_csv_in_progress(server)
    status, headers, data = get(server, f"/events/{night_id}/results.html?lang=ar")
    page = data.decode()
    assert status == 200 and '<html lang="ar" dir="rtl">' in page and "<script" not in page
    assert "default-src 'none'" in headers["content-security-policy"]
    status, _, data = get(server, f"/circles/{circle_id}/ladder")
    ladder = data.decode()
    # The one who sat out the only round played no table: the night gives him no ladder line.
    assert status == 200 and ladder.count('data-testid="ladder-line"') == len(MEMBERS) - 1
    status, headers, data = get(server, f"/circles/{circle_id}/ladder.pdf")
    assert status == 200 and "Season ladder" in text_of(data)
