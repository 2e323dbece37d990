"""The new-night page's circle and house rules: a circle this browser may edit is offered
by name, its members are ticked at the door, and the ones who did not come are offered for
a late arrival on the night's page; the tables' rules are the new-game page's switches."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper.extensions import db
from scorekeeper.store.events.models import Event

MEMBERS = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya"]
NIGHT = {"name": "Circle night", "rounds": "2", "round_kind": "kingdom", "seed": "3"}


def circle_held_here(client: FlaskClient) -> dict[str, Any]:
    """A circle made through the API, whose edit link this browser opened and took."""
    made = client.post("/api/v1/circles", json={"name": "Club", "members": MEMBERS}).json
    assert made is not None
    answer = client.post(f"/circles/{made['id']}/join/{made['edit_token']}")
    assert answer.status_code == 303
    return made


def test_a_circle_held_here_is_offered_and_its_absent_members_come_late(
    client: FlaskClient,
) -> None:
    made = circle_held_here(client)
    page = client.get("/events/new").get_data(as_text=True)
    assert f'<option value="{made["id"]}">Club</option>' in page
    chosen = client.get(f"/events/new?circle={made['id']}").get_data(as_text=True)
    assert chosen.count('type="checkbox" name="members"') == len(MEMBERS)
    form = {**NIGHT, "circle": made["id"], "members": MEMBERS[:4], "players": "Zein\nDana"}
    answer = client.post("/events/new", data=form)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    night = client.get(answer.headers["Location"].split("#")[0]).get_data(as_text=True)
    assert 'data-testid="late-members"' in night
    assert '<option value="Hadi">' in night and '<option value="Maya">' in night
    assert '<option value="Rana">' not in night.split('data-testid="late-members"')[1][:200]


def test_a_circle_not_held_here_is_refused_and_nothing_is_written(
    app: Flask, client: FlaskClient
) -> None:
    made = client.post("/api/v1/circles", json={"name": "Club", "members": MEMBERS}).json
    assert made is not None
    form = {**NIGHT, "circle": made["id"], "members": MEMBERS[:4]}
    answer = app.test_client().post("/events/new", data=form)
    assert answer.status_code == 403
    assert "cannot hold a night for this circle" in answer.get_data(as_text=True)


def test_a_partnership_preset_makes_a_partnership_night(client: FlaskClient) -> None:
    players = "\n".join([*MEMBERS, "Zein", "Dana"])
    answer = client.post("/events/new", data={**NIGHT, "players": players, "preset": "partnership"})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    event_id = answer.headers["Location"].split("#")[0].rsplit("/", 1)[1]
    night = client.get(f"/api/v1/events/{event_id}").json
    assert night is not None and night["partnership"] and night["rules"]["partnership"]


def test_the_forms_first_submit_button_creates_the_night(client: FlaskClient) -> None:
    """Enter in a box presses the form's first submit button: it is the one that creates
    the night (no ``step``), with or without a circle's members shown."""
    made = circle_held_here(client)
    for url in ("/events/new", f"/events/new?circle={made['id']}"):
        page = client.get(url).get_data(as_text=True)
        form = page.split('data-testid="new-event-form"', 1)[1].split("</form>", 1)[0]
        buttons = re.findall(r"<button\b[^>]*>", form)
        submits = [b for b in buttons if 'type="submit"' in b]
        assert 'data-testid="show-members"' in " ".join(submits), url
        assert "name=" not in submits[0] and 'data-testid="show-members"' not in submits[0]
        assert 'tabindex="-1"' in submits[0] and 'aria-hidden="true"' in submits[0]
    data = {**NIGHT, "players": "\n".join([*MEMBERS, "Zein", "Dana"])}
    assert client.post("/events/new", data=data).status_code == 302  # no step: created


def test_a_refused_circle_night_is_shown_again_with_its_members_ticked(
    app: Flask, client: FlaskClient
) -> None:
    made = circle_held_here(client)
    form = {**NIGHT, "rounds": "0", "circle": made["id"], "members": MEMBERS[:4]}
    answer = client.post("/events/new", data=form)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert page.count('type="checkbox" name="members"') == len(MEMBERS)
    ticked = re.findall(r'<input[^>]*name="members"[^>]*>', page)
    assert sum("checked" in box for box in ticked) == 4, ticked
    assert db.session.query(Event).count() == 0  # nothing saved


PLAYERS = "\n".join([*MEMBERS, "Zein", "Dana"])


@pytest.mark.parametrize(
    "typed",
    [
        {"rounds": "٢", "bye_points": "٥٠", "seed": "١٧"},  # Arabic-Indic
        {"rounds": "۲", "bye_points": "۵۰", "seed": "۱۷"},  # Eastern Arabic-Indic
    ],
)
def test_the_nights_numbers_in_arabic_indic_digits_are_read_right(
    client: FlaskClient, typed: dict[str, str]
) -> None:
    data = {**NIGHT, **typed, "byes": "fixed", "players": PLAYERS}
    answer = client.post("/events/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    event_id = answer.headers["Location"].split("#")[0].rsplit("/", 1)[1]
    night = client.get(f"/api/v1/events/{event_id}").json
    assert night is not None
    assert (night["rounds"], night["bye_points"], night["seed"]) == (2, 50, 17)


@pytest.mark.parametrize(
    ("name", "typed", "label"),
    [
        ("rounds", "٢x", "Rounds"),
        ("bye_points", "五", "Points for a round sat out (fixed)"),
        ("seed", "१७", "Seed of the draw (empty: chosen at random)"),  # Devanagari digits
    ],
)
def test_a_nights_number_that_is_no_number_is_refused_naming_its_box(
    client: FlaskClient, name: str, typed: str, label: str
) -> None:
    answer = client.post("/events/new", data={**NIGHT, name: typed, "players": PLAYERS})
    assert answer.status_code == 422
    assert f"{label}: “{typed}” is not a whole number." in answer.get_data(as_text=True)
    assert db.session.query(Event).count() == 0  # nothing saved


def test_the_nights_number_boxes_take_any_digits(client: FlaskClient) -> None:
    """Text boxes with a numeric keyboard: a type=number box refuses ٥ in Chromium."""
    page = client.get("/events/new").get_data(as_text=True)
    for name in ("rounds", "bye_points", "seed"):
        box = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
        assert box and 'type="text"' in box.group(0) and 'inputmode="numeric"' in box.group(0)


class FormAsRendered(HTMLParser):
    """What a browser sends for the page's new-night form, untouched: its boxes' values, each
    select's chosen option, the ticked boxes (the buttons aside: the form is sent by Enter)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self.shown: dict[str, str] = {}
        """Each text box's value as the page shows it."""
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("data-testid") == "new-event-form"
        if not self.inside or "name" not in a and tag != "option":
            return
        kind = a.get("type", "text")
        if tag == "input" and (kind not in ("checkbox", "radio") or "checked" in a):
            self.fields.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
            if kind == "text":
                self.shown[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select, self.options = a["name"], []
        elif tag == "option" and self.select is not None:
            self.options.append((a.get("value", ""), "selected" in a))
        elif tag == "textarea":
            self.textarea = a["name"]
            self.fields.append((a["name"], ""))

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            name, text = self.fields[-1]
            self.fields[-1] = (name, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "textarea":
            self.textarea = None
        elif tag == "select" and self.select is not None:
            chosen = [v for v, on in self.options if on] or [v for v, _ in self.options[:1]]
            self.fields.extend((self.select, v) for v in chosen)
            self.select = None


def rendered(page: str) -> FormAsRendered:
    form = FormAsRendered()
    form.feed(page)
    return form


def test_under_arabic_indic_digits_the_form_shows_its_numbers_so_and_is_read_as_shown(
    app: Flask, client: FlaskClient
) -> None:
    """The defaults (rounds 3, a round sat out 0, match points 3 2 1 0) and a seed shown again
    after a refusal are in the page's digits from the server, not only once app.js has run;
    the form sent as it was shown makes the night with those numbers."""
    client.set_cookie("lang", "ar")
    client.set_cookie("digits", "arab")
    blank = rendered(client.get("/events/new").get_data(as_text=True))
    numbers = {"rounds": "٣", "bye_points": "٠", "seed": "", "places": "٣ ٢ ١ ٠"}
    assert {name: blank.shown[name] for name in numbers} == numbers
    form = MultiDict(blank.fields)
    form.setlist("seed", ["17"])  # typed on a Latin keyboard; no name nor players: refused
    refused = client.post("/events/new", data=form)
    assert refused.status_code == 422
    again = rendered(refused.get_data(as_text=True))
    assert {name: again.shown[name] for name in numbers} == {**numbers, "seed": "١٧"}
    assert not [v for v in again.shown.values() if re.search("[0-9]", v)], again.shown
    form = MultiDict(again.fields)
    form.setlist("name", ["Thursday"])
    form.setlist("players", [PLAYERS])
    answer = client.post("/events/new", data=form)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    night = db.session.query(Event).one()
    assert (night.rounds, night.bye_points, night.seed, night.places) == (3, 0, 17, [3, 2, 1, 0])
