"""A club night's paper: the round sheet (every table, an A–Z "find your seat" list, the
sit-outs), table cards with a seating diagram, the results PDF with its date and the
director's corrections, the results as CSV (never a formula) and as a standalone page."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from datetime import UTC, datetime

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.store import games
from scorekeeper.store.events import services as events
from tests.web.events.test_director_pages import NINE, TRIX, night, table_phone
from tests.web.events.test_pages import YES, create
from tests.web.pages import post_deal


def pdf_text(data: bytes) -> str:
    """The PDF's text, NFKC (Arabic letters as letters), without the isolating marks."""
    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return unicodedata.normalize("NFKC", text).translate({0x2068: None, 0x2069: None})


def flat(text: str) -> str:
    return " ".join(text.split())


def today() -> str:
    return datetime.now(UTC).date().isoformat()


# --- the round sheet ---------------------------------------------------------------------------


def test_the_round_sheet_has_every_table_an_a_to_z_seat_list_and_the_sit_out(
    client: FlaskClient,
) -> None:
    event_id, event = night(client)  # nine players: two tables, one sits out
    response = client.get(f"/events/{event_id}/round-sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pdf_text(response.data)
    drawn = event.drawn[0]
    assert "Thursday club · Round 1" in flat(text) and today() in text
    for table in drawn.tables:
        assert " ".join([str(table.number), *table.players]) in flat(text)
    finder = text.split("Find your seat", 1)[1]
    seated = sorted(
        ((name, t.number, seat + 1) for t in drawn.tables for seat, name in enumerate(t.players)),
        key=lambda line: line[0].casefold(),
    )
    lines = re.findall(r"^(\w+) (\d) (\d)$", finder, re.MULTILINE)
    assert [(n, int(t), int(s)) for n, t, s in lines] == seated
    (out,) = drawn.sitting_out
    assert f"Sitting out: {out}" in flat(text) and out not in [n for n, _t, _s in lines]


def test_the_round_sheet_of_an_earlier_round_and_of_no_such_round(client: FlaskClient) -> None:
    event_id, _event = night(client)
    assert client.get(f"/events/{event_id}/round-sheet.pdf?round=2").status_code == 404
    assert client.get(f"/events/{event_id}/round-sheet.pdf?round=1").status_code == 200
    fresh = create(client)
    assert client.get(f"/events/{fresh}/round-sheet.pdf").status_code == 404


def test_the_director_finds_the_round_sheet_and_the_results_links(client: FlaskClient) -> None:
    event_id, _event = night(client)
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    for href in ("round-sheet.pdf", "results.pdf", "results.csv", "results.html"):
        assert f'href="/events/{event_id}/{href}"' in page


# --- table cards ------------------------------------------------------------------------------


def test_a_table_card_shows_the_four_seats_around_the_table_each_apart(
    client: FlaskClient,
) -> None:
    """The seat line no longer runs together ("JoudSeat 2 RamiSeat 3"): each seat is a box of
    its own in the diagram, seat 1 at the foot, seat 3 facing it, 2 and 4 at its sides (R1:
    play passes to the right)."""
    event_id, event = night(client)
    table = event.drawn[0].tables[0]
    text = pdf_text(client.get(f"/events/{event_id}/cards.pdf").data)
    first = text.split("Scan to enter", 1)[0]
    one, two, three, four = table.players
    assert re.search(r"[^\s·]Seat \d", first) is None
    for seat, name in enumerate(table.players, start=1):
        assert re.search(rf"Seat {seat}\s+{name}\b", first), (seat, name, first)
    # Read top to bottom: seat 3 (facing), then seats 4 and 2 (left, right), then seat 1.
    at = [first.index(f"Seat {seat}\n{name}") for seat, name in ((3, three), (4, four))]
    at += [first.index(f"Seat {seat}\n{name}") for seat, name in ((2, two), (1, one))]
    assert at == sorted(at)
    assert "Thursday club · Round 1" in flat(first) and "Table 1" in first
    assert "Play passes to the right: seat 1, seat 2, seat 3, seat 4." in flat(first)
    assert "First king: whoever is dealt the 7" in flat(first)


def test_a_partnership_card_names_the_partners_opposite(client: FlaskClient) -> None:
    event_id = create(client, partnership="y")
    client.post(f"/events/{event_id}/draw", data=YES)
    event = events.load_event(event_id)
    assert event.rules.partnership  # R9.5: partners sit opposite, seats 1+3 and 2+4
    table = event.drawn[0].tables[0]
    text = flat(pdf_text(client.get(f"/events/{event_id}/cards.pdf").data))
    a, b, c, d = table.players
    assert f"Partners sit opposite: {a} & {c} and {b} & {d}." in text


# --- the results PDF ------------------------------------------------------------------------------


def corrected_night(app: Flask, client: FlaskClient) -> tuple[str, str]:
    """A night whose first table played a deal, which the director then corrected."""
    event_id, event = night(client)
    game_id = event.drawn[0].tables[0].game_id
    phone = table_phone(app, client, event_id)
    assert post_deal(phone, game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    version = games.load_game(game_id).version
    body = {"version": str(version), **TRIX, "trix-0": "0", "trix-1": "2", "king": "0"}
    response = client.post(f"/games/{game_id}/deals/1/edit?contracts=trix", data=body)
    assert response.status_code == 302, response.get_data(as_text=True)
    return event_id, game_id


def test_the_results_pdf_has_the_nights_date_and_the_directors_corrections(
    app: Flask, client: FlaskClient
) -> None:
    event_id, game_id = corrected_night(app, client)
    players = games.load_game(game_id).players
    text = flat(pdf_text(client.get(f"/events/{event_id}/results.pdf").data))
    assert f"Club night of {today()}" in text
    assert "The director's corrections" in text
    assert "Round 1, table 1, deal 1 corrected." in text
    # R7: the Trix order 2,0,3,1 became 0,2,3,1: seats 0 and 2 swap first and second place.
    assert f"Trix. Scores: {players[0]} 150 → 200 · {players[2]} 200 → 150." in text
    assert re.search(r"At \d{4}-\d\d-\d\d \d\d:\d\d UTC", text)
    # Still open, one table playing: not final yet, its players marked, their points so far.
    assert "Tables played" in text and "Final standings" not in text and "Standings" in text
    assert text.count("playing at table 1") == 4 and "at table 2, no deal yet" in text


def test_a_night_without_corrections_says_none(client: FlaskClient) -> None:
    event_id, _event = night(client)
    text = pdf_text(client.get(f"/events/{event_id}/results.pdf").data)
    assert "corrections" not in text and f"Club night of {today()}" in flat(text)


# --- the results as CSV ------------------------------------------------------------------------


def rows(client: FlaskClient, event_id: str) -> list[list[str]]:
    response = client.get(f"/events/{event_id}/results.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def test_the_results_csv_has_a_row_per_player_with_tables_byes_and_each_rounds_points(
    app: Flask, client: FlaskClient
) -> None:
    event_id, event = night(client)
    game_id = event.drawn[0].tables[0].game_id
    phone = table_phone(app, client, event_id)
    assert post_deal(phone, game_id, "trix", {**TRIX, "king": "0"}).status_code == 302
    header, *lines = rows(client, event_id)
    assert header == [
        "rank",
        "player",
        "points",
        "tables_played",
        "byes",
        "bye_points",
        "points_per_table",
        "tie_break",
        "round 1",
        "provisional",
        "playing_round",
        "playing_table",
        "playing_deals",
    ]
    by_name = {line[1]: line for line in lines}
    assert sorted(by_name) == sorted(NINE)
    table = event.drawn[0].tables[0]
    # 3/2/1/0 by place (R11 totals 150, 50, 200, 100 after the Trix deal above).
    expected = dict(zip(table.players, ["2", "0", "3", "1"], strict=True))
    for name, points in expected.items():
        assert by_name[name][2] == points and by_name[name][3] == "1" and by_name[name][8] == points
    (out,) = event.drawn[0].sitting_out
    assert by_name[out][8] == "bye" and by_name[out][4] == "1" and by_name[out][3] == "0"
    untouched = event.drawn[0].tables[1].players[0]
    assert by_name[untouched][8] == "" and by_name[untouched][3] == "0"  # no deal yet
    assert [line[0] for line in lines][:1] == ["1"]
    # Still playing: table 1's points are all "so far", table 2 (no deal yet) counts nothing.
    for name, points in expected.items():
        assert by_name[name][9:] == [points, "1", "1", "1"]
    assert by_name[untouched][9:] == ["0", "1", "2", "0"]
    assert by_name[out][9:] == ["0", "", "", ""]
    # The same as the API's standings say it, player by player.
    for line in client.get(f"/api/v1/events/{event_id}").get_json()["standings"]:
        at = line["playing"]
        table = ["", "", ""] if at is None else [str(at[k]) for k in ("round", "table", "deals")]
        assert by_name[line["player"]][9:] == [str(line["provisional"]), *table]


def test_a_name_in_the_results_csv_never_runs_as_a_formula(client: FlaskClient) -> None:
    names = ['=HYPERLINK("x")', "+Sami", "-Omar", "@Lina", "Hadi"]
    event_id = create(client, players="\n".join(names))
    players = {line[1] for line in rows(client, event_id)[1:]}
    assert players == {'\'=HYPERLINK("x")', "'+Sami", "'-Omar", "'@Lina", "Hadi"}


def test_the_results_csv_of_an_unknown_night_is_404(client: FlaskClient) -> None:
    assert client.get("/events/nosuchevent000000/results.csv").status_code == 404


# --- the standalone page ------------------------------------------------------------------------


def test_the_standalone_results_page_runs_nothing_and_loads_nothing(
    app: Flask, client: FlaskClient
) -> None:
    event_id, _game_id = corrected_night(app, client)
    response = client.get(f"/events/{event_id}/results.html")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "<script" not in page and "<link" not in page and "<nav" not in page
    assert not re.search(r'(src|href)="/(static|games)', page)
    assert "<style>" in page and 'data-testid="results-standings"' in page
    assert page.count('data-testid="results-line"') == len(NINE)
    assert f"Club night of {today()}" in page.translate({0x2068: None, 0x2069: None})
    assert 'data-testid="correction"' in page
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy
    again = client.get(
        f"/events/{event_id}/results.html", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304


def test_the_standalone_results_page_in_arabic_with_arabic_digits(client: FlaskClient) -> None:
    event_id, _event = night(client)
    english = client.get(f"/events/{event_id}/results.html").headers["ETag"]
    response = client.get(f"/events/{event_id}/results.html?lang=ar&digits=arab")
    page = response.get_data(as_text=True)
    assert '<html lang="ar" dir="rtl">' in page
    assert "٢٠" in page  # the date's year in Arabic-Indic digits
    assert response.headers["ETag"] != english


def test_the_round_sheet_in_arabic_digits_keeps_each_seat_and_the_date(
    client: FlaskClient,
) -> None:
    event_id, event = night(client)
    data = client.get(f"/events/{event_id}/round-sheet.pdf?lang=ar&digits=arab").data
    text = pdf_text(data)
    year = today()[:4].translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    assert year in text  # the date, in the chosen digits
    for table in event.drawn[0].tables:
        assert all(name in text for name in table.players)
