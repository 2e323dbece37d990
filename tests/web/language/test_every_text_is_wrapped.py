"""Nothing is left untranslated: every page rendered under a pseudo-locale.

A pseudo-locale's ``gettext`` returns ``⟦text⟧``. Every page of the app (home,
new game, the game page in progress, finished, tied, read-only, every deal form,
a deal and its history, correction, undo, redeal, help, the error pages, the
backup import, the dispute desk) and the printed sheets are rendered under it;
each visible text (and each attribute a person reads or hears: ``title``,
``aria-label``, ``alt``, ``placeholder``, the texts scripts show) must then be
made of marked texts and user data only (players' names, numbers, card codes,
dates, links). A word outside the marks is a string that does not go through
gettext, so no translator would ever see it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import Any

import flask_babel
import pytest
from babel.messages.pofile import read_po
from babel.support import NullTranslations
from flask import Flask, abort
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.store import games as services
from scorekeeper.text.locale import SUPPORTED_LOCALES
from scorekeeper.web.paper import pdf

NAMES = ["Rana", "Sami", "Omar", "Lina"]
NOTE = "42"
"""A redeal's note is user data: digits only, so that no word of it counts as English."""
OPEN, CLOSE = "⟦", "⟧"
READ_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder"}
"""Attributes a person reads or hears; ``data-*-text`` and ``data-copied`` too (shown by JS)."""
ALLOWED = [
    r"https?://\S+",  # the view and edit links
    r"\b\d{4}-\d\d-\d\d( \d\d:\d\d)?( UTC)?",  # dates (ISO, as on every phone)
    # game ids (URL-safe base64: they may start or end with "-", where \b does not hold)
    r"(?<![\w-])(?:g-)?[\w-]{16}(?![\w-])",
    r"(?:10|[2-9AKQJT])[♠♥♦♣]",  # card codes
    r"\b(?:10|[2-9AKQJT])[SHDC]\b",  # card codes as typed (the dispute desk's examples)
    r"\bpass\b",  # … and the word the card-by-card check reads for a pass in Trix
    r"\bR\d+(?:\.\d+)?\b",  # rule numbers next to a wrapped sentence's brackets
    r"\bscorekeeper\b",  # the app's name
    r"A/ع",  # the language menu's icon
    *(re.escape(name) for name in SUPPORTED_LOCALES.values()),  # languages, in their own words
    *(rf"\b{name}\b" for name in NAMES),
]
SYMBOLS = {"Q", "J"}
"""The contracts' short marks (blueprint.SYMBOLS) that are letters: Q for Queens, J for Trix."""


class Pseudo(NullTranslations):
    """Every text marked: ``⟦King of Hearts⟧``; every msgid asked for is remembered."""

    asked: set[str] = set()

    def gettext(self, message: str) -> str:
        Pseudo.asked.add(message)
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        Pseudo.asked.add(singular)
        return f"{OPEN}{singular if n == 1 else plural}{CLOSE}"

    ugettext = gettext
    ungettext = ngettext


class Texts(HTMLParser):
    """The visible text nodes of a page, and the attributes people read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            shown = name in READ_ATTRIBUTES or name == "data-copied" or name.endswith("-text")
            if value and shown:
                self.chunks.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.chunks.append(data)


def unmarked(text: str) -> str:
    """What is left of ``text`` outside the marks, user data and symbols removed."""
    previous = None
    while previous != text:  # innermost marks first: a sentence holds marked parts
        previous, text = text, re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
    for pattern in ALLOWED:
        text = re.sub(pattern, " ", text)
    return text


def words_outside(html: str) -> list[str]:
    """The words of ``html`` outside the marks (a sentence's marks span its inner tags).

    The page's texts are read as one stream, one chunk per line, so that a sentence
    whose names are in ``<bdi>`` is still one marked text.
    """
    parser = Texts()
    parser.feed(html)
    rest = unmarked("\n".join(chunk.replace("\n", " ") for chunk in parser.chunks))
    return [
        line.strip()[:120]
        for line in rest.splitlines()
        if line.strip() not in SYMBOLS and re.search(r"[^\W\d_]", line)
    ]


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every gettext of the app (templates, Python, the engine's catalogue) marks its text.

    Afterwards, every msgid the pages asked for must be in messages.pot: a ``gettext(x)``
    whose ``x`` was never marked (``N_()``) would reach no translator.
    """
    Pseudo.asked = set()
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Pseudo())
    yield
    with (PROJECT_ROOT / "translations" / "messages.pot").open("rb") as handle:
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle)}
    unknown = sorted(Pseudo.asked - known)
    assert not unknown, f"asked for but not in messages.pot (mark them with N_()): {unknown[:10]}"


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Iterator[Flask]:
    app = make_app()

    @app.get("/boom")
    def boom() -> str:  # a 500, as a crash would give
        abort(500)

    with app.app_context():
        db.create_all()
        yield app
        db.session.remove()
        db.drop_all()


class Pages:
    """Requests that collect every page they see, with what it shows outside the marks."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.found: dict[str, list[str]] = {}

    def see(self, name: str, response: TestResponse, status: int = 200) -> TestResponse:
        assert response.status_code == status, (name, response.status_code)
        if response.mimetype == "text/html":
            bad = words_outside(response.get_data(as_text=True))
            if bad:
                self.found[name] = bad
        return response

    def get(self, name: str, url: str, status: int = 200) -> TestResponse:
        return self.see(name, self.client.get(url), status)

    def post(self, name: str, url: str, data: Any, status: int = 200, **kw: Any) -> TestResponse:
        response = self.client.post(url, data=data, follow_redirects=True, **kw)
        return self.see(name, response, status)


DEALS: dict[str, dict[str, str]] = {
    "king": {"kh_taker": "1", "kh_doubled_by": "1"},
    "queens": {
        **{f"{q}_taker": str(i) for i, q in enumerate(("qs", "qh", "qd", "qc"))},
        "qh_doubled_by": "3",
    },
    "diamonds": {f"diamonds-{i}": n for i, n in enumerate(("4", "3", "3", "3"))},
    "collections": {f"tricks-{i}": n for i, n in enumerate(("1", "2", "4", "6"))},
    "trix": {f"trix-{i}": n for i, n in enumerate(("2", "0", "3", "1"))},
}


def new_game(pages: Pages, name: str = "new game (start)", **fields: str) -> str:
    data = {f"players-{i}": player for i, player in enumerate(NAMES)}
    data.update({"first_king": "0", "preset": "standard", **fields})
    response = pages.post(name, "/games/new", data)
    return response.request.path.rsplit("/", 1)[-1]


def deal(pages: Pages, game_id: str, contracts: str, name: str = "", **extra: str) -> None:
    body = {"version": str(services.load_game(game_id).version), **DEALS[contracts], **extra}
    url = f"/games/{game_id}/deals/new?contracts={contracts}"
    pages.post(name or f"after recording {contracts}", url, body)


def play_kingdoms(pages: Pages, game_id: str, kingdoms: int) -> None:
    for _kingdom in range(kingdoms):
        for contracts in DEALS:
            deal(pages, game_id, contracts)


def visit_game_pages(pages: Pages) -> str:
    """The game page's states, every deal form, a deal's history, correction and undo."""
    pages.get("home (no games)", "/")
    pages.get("new game form", "/games/new")
    pages.post("new game form with errors", "/games/new", {"players-0": "Rana"}, 422)
    game_id = new_game(pages)
    gid = f"/games/{game_id}"
    pages.get("deal picker", f"{gid}/deals/new")
    for contracts in DEALS:
        pages.get(f"deal form: {contracts}", f"{gid}/deals/new?contracts={contracts}")
        pages.post(
            f"deal form with errors: {contracts}",
            f"{gid}/deals/new?contracts={contracts}",
            {"version": "1", "diamonds-0": "x", "tricks-0": "5"},
            422,
        )
    deal(pages, game_id, "king")
    bad_diamonds = {f"diamonds-{i}": "4" for i in range(4)}
    body = {"version": str(services.load_game(game_id).version), **bad_diamonds}
    pages.post("deal refused by the engine", f"{gid}/deals/new?contracts=diamonds", body, 422)
    pages.post(
        "deal at a stale version",
        f"{gid}/deals/new?contracts=queens",
        {"version": "1", **DEALS["queens"]},
        409,
    )
    redeal = {"kind": "redeal", "seat": "1", "contract": "trix", "note": NOTE}
    pages.post("after a redeal", f"{gid}/redeals", {"version": _v(game_id), **redeal})
    pages.post("after a misdeal", f"{gid}/redeals", {"version": _v(game_id), "kind": "misdeal"})
    pages.post("redeal with errors", f"{gid}/redeals", {"version": _v(game_id), "kind": "x"}, 422)
    pages.get("undo (a misdeal)", f"{gid}/undo")
    pages.post("after undoing a misdeal", f"{gid}/undo", {"version": _v(game_id), "confirm": "yes"})
    deal(pages, game_id, "diamonds")
    pages.get("undo (a deal)", f"{gid}/undo")
    pages.get("deal 1 edit form", f"{gid}/deals/1/edit")
    pages.get("deal 1 edit form, other contract", f"{gid}/deals/1/edit?contracts=queens")
    edit = {"version": _v(game_id), "kh_taker": "2", "kh_doubled_by": ""}
    pages.post("after correcting deal 1", f"{gid}/deals/1/edit?contracts=king", edit)
    pages.post("after undoing deal 2", f"{gid}/undo", {"version": _v(game_id), "confirm": "yes"})
    pages.get("deal 1 with its history", f"{gid}/deals/1")
    pages.get("game page in progress", gid)
    other = Pages(pages.client.application.test_client())
    other.get("game page, read-only", gid)
    other.post("write refused (403)", f"{gid}/undo", {"version": "1"}, 403)
    pages.found.update(other.found)
    return game_id


def _v(game_id: str) -> str:
    return str(services.load_game(game_id).version)


def visit_other_games(pages: Pages) -> None:
    """Finished, tied, partnership, house rules off the standard, the 7♥ kingdom order."""
    finished = new_game(pages, "new short game", kingdoms="1")
    play_kingdoms(pages, finished, 1)
    pages.get("game page, finished", f"/games/{finished}")
    pages.get("undo page (nothing)", f"/games/{new_game(pages)}/undo")
    team = new_game(pages, "new partnership game", preset="partnership", kingdoms="1")
    play_kingdoms(pages, team, 1)
    pages.get("game page, partnership finished", f"/games/{team}")
    odd = {"trix_tail": "minus", "value_diamond": "15", "kingdom_order": "custom"}
    odd |= {f"king_order-{i}": str(s) for i, s in enumerate((2, 0, 1, 3))}
    odd |= {"first_king": "2", "doubled_self_capture": "double"}
    custom = new_game(pages, "new game with house rules", **odd)
    deal(pages, custom, "king", "king doubled by its holder (not zero-sum)")
    pages.get("game page, not zero-sum rules", f"/games/{custom}")
    seven = new_game(pages, "new 7♥ game", kingdom_order="seven_of_hearts", preset="complex")
    pages.get("game page, 7♥ kingdom", f"/games/{seven}")
    pages.get("deal form with the 7♥", f"/games/{seven}/deals/new?contracts=king")
    combined = f"/games/{seven}/deals/new?contracts=king,queens,diamonds,collections"
    pages.get("deal form, four contracts together", combined)
    tied = new_game(pages, "new tied game", kingdoms="1", tiebreak="extra_deal")
    for contracts, extra in [
        ("king", {"kh_taker": "0", "kh_doubled_by": ""}),
        ("queens", {"qs_taker": "0", "qh_taker": "1", "qd_taker": "2", "qc_taker": "3"}),
        ("diamonds", {f"diamonds-{i}": n for i, n in enumerate(("0", "13", "0", "0"))}),
        ("collections", {f"tricks-{i}": n for i, n in enumerate(("0", "0", "13", "0"))}),
        ("trix", {f"trix-{i}": n for i, n in enumerate(("3", "2", "1", "0"))}),
    ]:
        deal(pages, tied, contracts, **extra)
    pages.get("game page, tie for first place", f"/games/{tied}")


def visit_help_errors_and_import(pages: Pages, game_id: str) -> None:
    pages.get("home (with games)", "/")
    pages.get("help", "/help")
    pages.get("404: no such game", "/games/nope", 404)
    pages.get("404: no such page", "/nowhere", 404)
    pages.get("404: no such deal", f"/games/{game_id}/deals/99", 404)
    pages.get("400: no such contract", f"/games/{game_id}/deals/new?contracts=poker", 400)
    pages.get("405", "/games/new", 200)
    pages.see("405", pages.client.put("/games/new"), 405)
    pages.get("500", "/boom", 500)
    pages.get("import form", "/games/import")
    empty = {"backup": (io.BytesIO(b""), "")}
    pages.post("import without a file", "/games/import", empty, 422)
    junk = {"backup": (io.BytesIO(b"not json"), "x.json")}
    pages.post("import of a file that is not JSON", "/games/import", junk, 422)
    refused = json.dumps({"format": "scorekeeper.game", "format_version": 1, "players": []})
    bad = {"backup": (io.BytesIO(refused.encode()), "x.json")}
    pages.post("import refused by the engine", "/games/import", bad, 422)
    backup = pages.client.get(f"/games/{game_id}/export.json").data
    good = {"backup": (io.BytesIO(backup), "x.json")}
    pages.post("after restoring a backup", "/games/import", good)


def visit_dispute_desk(pages: Pages, game_id: str) -> None:
    """The dispute desk's pages, where the app has them."""
    views = pages.client.application.view_functions
    for endpoint, url in [
        ("web.disputes", "/disputes"),
        ("web.game_disputes", f"/games/{game_id}/disputes"),
        ("web.check_play", "/disputes/play"),
        ("web.check_next_deal", f"/games/{game_id}/check"),
        ("web.check_deal", f"/games/{game_id}/deals/1/check"),
        ("web.check_redeal", "/disputes/redeal"),
        ("web.game_redeal_check", f"/games/{game_id}/redeal-check"),
        ("web.claim", "/disputes/claim"),
        ("web.game_claim", f"/games/{game_id}/claim"),
    ]:
        if endpoint in views:
            pages.get(f"dispute desk: {url}", url)


def visit_club_paper(pages: Pages) -> None:
    """A circle's club night, played: its results page for a website and the ladder (the
    circle, the night and the players all named from NAMES, the texts this test knows)."""
    from tests.web.events.test_api import Event, deal, kingdom

    client = pages.client
    made = client.post("/api/v1/circles", json={"name": NAMES[0], "members": NAMES}).json
    assert made is not None
    body = {"name": NAMES[1], "players": [], "circle": made["id"], "round": "kingdom"}
    night = Event(client, made["edit_token"], **body, rounds=1)
    for table in night.draw()["tables"]:
        for entry in kingdom():
            assert deal(client, table, entry).status_code == 201
    pages.get("club night's results page", f"/events/{night.id}/results.html")
    pages.get("circle's season ladder", f"/circles/{made['id']}/ladder")
    empty = client.post("/api/v1/circles", json={"name": NAMES[2], "members": NAMES}).json
    assert empty is not None
    pages.get("season ladder, no night", f"/circles/{empty['id']}/ladder")


def test_every_visible_text_goes_through_gettext(app: Flask, pseudo: None) -> None:
    pages = Pages(app.test_client())
    game_id = visit_game_pages(pages)
    visit_other_games(pages)
    visit_help_errors_and_import(pages, game_id)
    visit_dispute_desk(pages, game_id)
    visit_club_paper(pages)
    assert not pages.found, "texts outside gettext:\n" + "\n".join(
        f"{page}: {chunks}" for page, chunks in pages.found.items()
    )


def test_the_pseudo_locale_reaches_every_kind_of_text(app: Flask, pseudo: None) -> None:
    """The marks come from templates, Python (flash, forms) and the engine's catalogue alike."""
    client = app.test_client()
    page = client.post("/games/new", data={"players-0": "Rana"}).get_data(as_text=True)
    assert f"{OPEN}New game{CLOSE}" in page  # a template
    assert f"{OPEN}Player %(number)d needs a name.{CLOSE}".replace("%(number)d", "2") in page
    assert words_outside("<p>Deal 7 recorded</p>") == ["Deal 7 recorded"]  # the check bites
    assert words_outside(f"<p>{OPEN}Deal {OPEN}7{CLOSE}{CLOSE} Rana −75 K♥</p>") == []


def test_printed_sheets_are_translated(
    app: Flask, pseudo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    monkeypatch.setattr(pdf, "html_to_pdf", lambda html, paper: seen.append(html) or b"%PDF")
    pages = Pages(app.test_client())
    game_id = new_game(pages, "new game for the sheet", kingdoms="1", preset="partnership")
    redeal = {"kind": "redeal", "seat": "1", "contract": "trix", "note": NOTE}
    pages.post("redeal", f"/games/{game_id}/redeals", {"version": _v(game_id), **redeal})
    pages.post("misdeal", f"/games/{game_id}/redeals", {"version": _v(game_id), "kind": "misdeal"})
    app.test_client().get(f"/games/{game_id}/sheet.pdf")  # in progress
    play_kingdoms(pages, game_id, 1)
    app.test_client().get(f"/games/{game_id}/sheet.pdf")  # finished
    app.test_client().get("/sheets/blank.pdf?players=Rana,Sami")
    assert len(seen) == 3
    found = {n: words_outside(html) for n, html in enumerate(seen) if words_outside(html)}
    assert not found and not pages.found, found


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("get", "/api/v1/games/nope", None),
        ("post", "/api/v1/games", {"players": ["Rana"]}),
        ("post", "/api/v1/check/deal", {"contracts": ["diamonds"], "captures": {}}),
        ("post", "/api/v1/check/poker", {}),
        ("post", "/api/v1/check/deal", []),
    ],
)
def test_api_errors_are_translated(
    client: FlaskClient, pseudo: None, method: str, url: str, body: Any
) -> None:
    response = getattr(client, method)(url, json=body)
    errors = response.get_json()["errors"]
    assert errors and all(e["message"].startswith(OPEN) for e in errors), errors
    assert all({"rule", "field", "message"} <= set(e) for e in errors)
