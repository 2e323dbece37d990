"""A circle's season ladder of its club nights: one ladder point for every player finished
above, half for every player sharing one's place; ranked by ladder points, nights won, best
place; as a page and as a PDF rendered once per version of the data."""

from __future__ import annotations

import io
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.web.paper import pdf
from tests.web.events.test_api import API, EIGHT, Event, deal, kingdom


def circle(client: FlaskClient) -> tuple[str, str]:
    made = client.post(f"{API}/circles", json={"name": "Club", "members": EIGHT})
    assert made.status_code == 201 and made.json is not None
    return made.json["id"], made.json["edit_token"]


def played_night(client: FlaskClient, circle_id: str, token: str, seed: int) -> dict[str, Any]:
    """A one-round night of the circle's eight members, both tables' kingdoms played."""
    night = Event(client, token, players=[], circle=circle_id, round="kingdom", rounds=1, seed=seed)
    tables = night.draw()["tables"]
    for table in tables:
        for body in kingdom():
            assert deal(client, table, body).status_code == 201
    return night.get()


def expected_ladder(nights: list[dict[str, Any]]) -> dict[str, float]:
    """Counted here independently: for each night, the players ranked below, plus half of
    those sharing the rank."""
    out: dict[str, float] = {}
    for night in nights:
        lines = [s for s in night["standings"] if s["tables"] > 0]
        for line in lines:
            below = sum(1 for o in lines if o["rank"] > line["rank"])
            level = sum(1 for o in lines if o["rank"] == line["rank"]) - 1
            out[line["player"]] = out.get(line["player"], 0) + below + level / 2
    return out


def ladder_rows(page: str) -> dict[str, tuple[str, str]]:
    plain = page.translate({0x2068: None, 0x2069: None})
    rows = re.findall(
        r'<bdi>([^<]+)</bdi></a></td>\s*<td data-testid="ladder-points">([^<]+)</td>'
        r'<td data-testid="ladder-nights">([^<]+)</td>',
        plain,
    )
    return {name: (points, nights) for name, points, nights in rows}


def test_the_ladder_adds_up_the_circles_nights_by_the_rule_it_states(client: FlaskClient) -> None:
    circle_id, token = circle(client)
    nights = [played_night(client, circle_id, token, seed) for seed in (1, 2)]
    response = client.get(f"/circles/{circle_id}/ladder")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "one ladder point for every player who finished below" in page
    expected = expected_ladder(nights)
    rows = ladder_rows(page)
    assert set(rows) == set(EIGHT)
    for name, (points, count) in rows.items():
        assert float(points) == expected[name] and count == "2"
    assert f'href="/circles/{circle_id}/ladder.pdf"' in page
    assert page.count('data-testid="ladder-line"') == 8
    circle_page = client.get(f"/circles/{circle_id}").get_data(as_text=True)
    assert f'href="/circles/{circle_id}/ladder"' in circle_page


def test_a_circle_without_nights_says_so(client: FlaskClient) -> None:
    circle_id, _token = circle(client)
    page = client.get(f"/circles/{circle_id}/ladder").get_data(as_text=True)
    assert 'data-testid="ladder-empty"' in page
    assert client.get("/circles/nosuchcircle0000/ladder").status_code == 404


def test_the_ladder_pdf_is_rendered_once_per_version_of_its_nights(
    app: Flask, client: FlaskClient, monkeypatch: Any
) -> None:
    renders: list[str] = []
    real = pdf.html_to_pdf

    def counting(html: str, paper: str) -> bytes:
        renders.append(paper)
        return real(html, paper)

    monkeypatch.setattr(pdf, "html_to_pdf", counting)
    circle_id, token = circle(client)
    night = played_night(client, circle_id, token, 1)
    url = f"/circles/{circle_id}/ladder.pdf"
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    text = " ".join(
        "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(first.data)).pages).split()
    ).translate({0x2068: None, 0x2069: None})
    assert "Season ladder · Club" in text and "Thursday club" in text
    winner = next(s["player"] for s in night["standings"] if s["rank"] == 1)
    assert f"1 {winner}" in text
    for query in ("?lang=zz", "?digits=roman", "?x=1"):
        assert client.get(url + query).status_code == 200
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert client.get(url + "?paper=a0").status_code == 400
    assert renders == ["a4"]
    played_night(client, circle_id, token, 2)  # a new night: a new version of the data
    again = client.get(url)
    assert again.headers["ETag"] != first.headers["ETag"] and renders == ["a4", "a4"]


def test_the_ladder_in_arabic_with_arabic_digits(client: FlaskClient) -> None:
    circle_id, token = circle(client)
    played_night(client, circle_id, token, 1)
    page = client.get(f"/circles/{circle_id}/ladder?lang=ar&digits=arab").get_data(as_text=True)
    assert 'dir="rtl"' in page and "٢" in page
