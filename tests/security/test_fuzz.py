"""Fuzzing with Hypothesis: random and malformed bodies to every route, with a valid token.

Never a 500, and never a partial write: after a refused request the game's
version, log, revisions and token are exactly as before; after an accepted
one the stored game still replays. Bodies are random JSON (wrong types, huge
and non-finite numbers, unicode, deep nesting), raw bytes, and valid bodies
with a few parts replaced, removed or added, so that the fuzz gets past the
first check. Forms are random fields and values, and valid forms mutated.
CSRF is off here (tests/security/test_csrf.py covers it). Each test is
bounded (``MAX_EXAMPLES``, sized by the Hypothesis profile: :func:`tests.common.examples`),
so that the whole file runs in well under a minute under `ci`, in seconds under `dev`.
"""

from __future__ import annotations

import copy
import io
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.rules.cards import ALL_CARDS
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import random_deal
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store import models
from scorekeeper.store.circles import services as circles
from tests import malformed
from tests.common import examples
from tests.conftest import postgres_schema_app
from tests.malformed import part_paths as _paths

API = "/api/v1"
MAX_EXAMPLES = examples(100)
FUZZ = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
FUZZ_PAGES = settings(FUZZ, max_examples=examples(80))
"""Pages and imports cost more per request (a rendered page, a whole backup): fewer examples."""
FUZZ_SLOW = settings(FUZZ, max_examples=examples(50))
"""Several requests per example."""

# --- values ----------------------------------------------------------------------------------

WORDS = [
    "king", "queens", "diamonds", "collections", "trix", "redeal", "misdeal", "pass",
    "KH", "QS", "10♦", "T♣", "AS", "2C", "kh", "", " ", "0", "-1", "3", "٣", "１", "1e999",
    "NaN", "null", "true", "right", "seven_of_hearts", "custom", "single", "double",
    "\u0000", "\ud800", "\u202e", "عمر", "🂡", "x" * 300,
]  # fmt: skip
KEYS = [
    "contracts", "captures", "king", "king_of_hearts", "taker", "doubled_by", "queens",
    "diamonds", "tricks", "trix_order", "kind", "seat", "contract", "note", "players",
    "first_king", "rules", "hands", "plays", "doubled", "claim", "min_score", "leader",
    "current_trick", "names", "values", "doubling", "kingdoms", "QS", "QH", "0", "1",
]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=20),
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(WORDS),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=12))
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=6), st.dictionaries(keys, children, max_size=6)
    ),
    max_leaves=25,
)


def nested(depth: int, leaf: str = "1") -> str:
    """A JSON text nested ``depth`` levels deep (lists and objects alternating)."""
    return (
        "".join("[" if i % 2 else '{"a":' for i in range(depth))
        + leaf
        + "".join("]" if i % 2 else "}" for i in reversed(range(depth)))
    )


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one to three parts replaced, removed, or given an extra key."""
    value = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(value)))
        if not path:
            return draw(json_values)
        *head, last = path
        parent = value
        for step in head:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "replace":
            parent[last] = draw(json_values)
        elif action == "delete":
            del parent[last]
        elif isinstance(parent[last], dict):
            parent[last][draw(keys)] = draw(json_values)
        else:
            parent[last] = [parent[last], draw(json_values)]
    return value


def bodies(*bases: Any) -> st.SearchStrategy[bytes]:
    """Request bodies: mostly mutated valid bodies, then random JSON, bytes, deep nesting."""
    valid = st.sampled_from(bases)
    return st.one_of(
        valid.flatmap(mutated).map(_dumps),
        valid.flatmap(mutated).map(_dumps),
        valid.map(_dumps),
        json_values.map(_dumps),
        st.binary(max_size=64),
        st.integers(1, 3000).map(lambda depth: nested(depth).encode()),
    )


def _dumps(value: Any) -> bytes:
    return json.dumps(value, allow_nan=True).encode("utf-8", "surrogatepass")


# --- valid bodies ------------------------------------------------------------------------------

QUEENS = {q: {"taker": i, "doubled_by": None} for i, q in enumerate(("QS", "QH", "QD", "QC"))}
DEAL_BODIES = [
    {"contracts": ["queens"], "captures": {"queens": QUEENS}},
    {"contracts": ["diamonds"], "captures": {"diamonds": [4, 3, 3, 3]}},
    {"contracts": ["collections"], "captures": {"tricks": [1, 2, 4, 6]}},
    {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}},
]
KING_BODY = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": 2}}}
REDEAL_BODY = {"kind": "redeal", "seat": 1, "contract": "trix", "note": "seven cards of hearts"}
FULL_RULES = {**RuleSet().to_dict(), "kingdom_order": "custom", "king_order": [2, 0, 3, 1]}
"""Every field of a rule set, so that mutations reach each one's parsing."""
NEW_GAME_BODY = {"players": ["Rana", "Sami", "Omar", "Lina"], "first_king": 1, "rules": FULL_RULES}


def _play_body() -> dict[str, Any]:
    hands, tricks = random_deal(random.Random(3), RuleSet(), [Contract.DIAMONDS], 1)
    return {
        "rules": {},
        "contracts": ["diamonds"],
        "king": 1,
        "hands": {str(s): [str(c) for c in ALL_CARDS if c.bit & hands[s]] for s in range(4)},
        "tricks": [[str(ALL_CARDS[c]) for c in trick] for trick in tricks],
    }


CHECK_BODIES = {
    "deal": [
        {"rules": FULL_RULES, "king": 0, **DEAL_BODIES[1]},
        {"rules": {}, "king": 2, **KING_BODY},
    ],
    "play": [_play_body()],
    "redeal": [
        {"rules": {}, "contract": "trix", "hand": ["2S", "2H", "2D", "2C", "4S", "5S", "6S"]
         + ["7S", "8S", "9S", "TS", "JS", "QS"]}
    ],
    "claim": [
        {
            "rules": {},
            "contracts": ["collections"],
            "king": 0,
            "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
            "current_trick": [],
            "leader": 0,
            "claim": {"seat": 0, "min_score": 0},
        }
    ],
}  # fmt: skip

# --- the invariant -----------------------------------------------------------------------------


def no_partial_write(
    response: TestResponse,
    game_id: str,
    before: Any,
    snapshot: Callable[[str], Any],
    accepted: set[int],
) -> None:
    """Never a 500; refused: nothing changed; accepted: the stored game still replays."""
    text = response.get_data(as_text=True)
    event(f"status {response.status_code}")
    assert response.status_code < 500, text[:500]
    if response.status_code in accepted:
        services.load_game(game_id)  # raises if the stored log no longer replays
        db.session.rollback()
    else:
        assert snapshot(game_id) == before, (response.status_code, text[:300])


def _api(
    client: FlaskClient, method: str, url: str, body: bytes, headers: dict[str, str]
) -> TestResponse:
    return client.open(
        url, method=method, data=body, headers=headers, content_type="application/json"
    )


header_text = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=12)
if_match = st.one_of(
    st.just("current"), st.just("current"), st.none(), header_text, st.integers().map(str)
)


def _headers(token: str, match: str | None, version: int) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if match is not None:
        headers["If-Match"] = f'"{version}"' if match == "current" else match
    return headers


# --- the JSON API ------------------------------------------------------------------------------


@FUZZ
@given(body=bodies(*DEAL_BODIES, KING_BODY), match=if_match)
def test_fuzz_api_record_deal(
    client: FlaskClient, start: Callable[..., Any], snapshot: Any, body: bytes, match: str | None
) -> None:
    game = start()
    before = snapshot(game.id)
    url = f"{API}/games/{game.id}/deals"
    response = _api(client, "POST", url, body, _headers(game.token, match, before.version))
    assert response.is_json
    no_partial_write(response, game.id, before, snapshot, {201})


@FUZZ
@given(body=bodies(KING_BODY, *DEAL_BODIES), match=if_match)
def test_fuzz_api_edit_deal(
    client: FlaskClient, start: Callable[..., Any], snapshot: Any, body: bytes, match: str | None
) -> None:
    game = start()
    before = snapshot(game.id)
    url = f"{API}/games/{game.id}/deals/1"
    response = _api(client, "PUT", url, body, _headers(game.token, match, before.version))
    assert response.is_json
    no_partial_write(response, game.id, before, snapshot, {200})


@FUZZ
@given(body=bodies(REDEAL_BODY, {"kind": "misdeal"}), match=if_match)
def test_fuzz_api_record_redeal(
    client: FlaskClient, start: Callable[..., Any], snapshot: Any, body: bytes, match: str | None
) -> None:
    game = start()
    before = snapshot(game.id)
    url = f"{API}/games/{game.id}/redeals"
    response = _api(client, "POST", url, body, _headers(game.token, match, before.version))
    assert response.is_json
    no_partial_write(response, game.id, before, snapshot, {201})


@FUZZ
@given(body=st.binary(max_size=32), match=if_match, deals=st.integers(0, 1))
def test_fuzz_api_undo(
    client: FlaskClient,
    start: Callable[..., Any],
    snapshot: Any,
    body: bytes,
    match: str | None,
    deals: int,
) -> None:
    game = start(deals=deals)
    before = snapshot(game.id)
    url = f"{API}/games/{game.id}/deals/last"
    response = _api(client, "DELETE", url, body, _headers(game.token, match, before.version))
    assert response.is_json
    no_partial_write(response, game.id, before, snapshot, {200})


@FUZZ
@given(body=bodies(NEW_GAME_BODY))
def test_fuzz_api_create_game(client: FlaskClient, body: bytes) -> None:
    response = _api(client, "POST", f"{API}/games", body, {})
    assert response.status_code < 500 and response.is_json, response.get_data(as_text=True)
    if response.status_code == 201:
        game = services.load_game(response.get_json()["id"])
        assert game.version == 1 and not game.log
        db.session.rollback()


@settings(FUZZ, max_examples=examples(200))  # four checks, and cheap
@given(
    kind_and_body=st.sampled_from(sorted(CHECK_BODIES)).flatmap(
        lambda kind: st.tuples(st.just(kind), bodies(*CHECK_BODIES[kind]))
    )
)
def test_fuzz_api_checks(client: FlaskClient, kind_and_body: tuple[str, bytes]) -> None:
    kind, body = kind_and_body
    response = _api(client, "POST", f"{API}/check/{kind}", body, {})
    event(f"{kind}: status {response.status_code}")
    assert response.status_code < 500 and response.is_json, response.get_data(as_text=True)


# --- the pages ---------------------------------------------------------------------------------

FIELD_NAMES = [
    "version", "kh_taker", "kh_doubled_by", "qs_taker", "qh_doubled_by", "diamonds-0",
    "diamonds-3", "diamonds-4", "tricks-0", "tricks-2", "trix-0", "trix-3", "king", "confirm",
    "kind", "seat", "contract", "note", "players-0", "players-3", "players-9", "first_king",
    "preset", "doubling", "kingdoms", "king_order-0", "value_king", "csrf_token",
]  # fmt: skip
form_text = st.characters(blacklist_categories=["Cs"])  # a browser sends UTF-8: no lone surrogates
field_values = st.one_of(
    st.sampled_from([w for w in WORDS if w != "\ud800"]),
    st.text(form_text, max_size=15),
    st.integers().map(str),
)
forms = st.dictionaries(
    st.one_of(st.sampled_from(FIELD_NAMES), st.text(form_text, max_size=10)),
    st.one_of(field_values, st.lists(field_values, max_size=3)),
    max_size=8,
)
PAGE_FORMS = {
    "king": {"kh_taker": "2", "kh_doubled_by": "0"},
    "queens": {f"{q}_taker": str(i) for i, q in enumerate(("qs", "qh", "qd", "qc"))},
    "diamonds": {f"diamonds-{s}": n for s, n in enumerate(("4", "3", "3", "3"))},
    "collections": {f"tricks-{s}": n for s, n in enumerate(("1", "2", "4", "6"))},
    "trix": {f"trix-{s}": n for s, n in enumerate(("2", "0", "3", "1"))},
    "redeal": {"kind": "redeal", "seat": "1", "contract": "trix", "note": "seven hearts"},
    "undo": {"confirm": "yes"},
}
contract_queries = st.one_of(
    st.sampled_from(["king", "queens", "diamonds", "collections", "trix", "king,queens", ""]),
    st.text(form_text, max_size=12),
)


def page_forms(*bases: str) -> st.SearchStrategy[dict[str, Any]]:
    """Form posts: mutated valid forms (with the version) and random fields."""
    valid = st.sampled_from([PAGE_FORMS[b] for b in bases])
    return st.one_of(valid.flatmap(mutated), valid.flatmap(mutated), valid, forms)


def deal_forms(*contracts: str) -> st.SearchStrategy[tuple[str, Any]]:
    """(contracts query, form): mostly a contract with its own form, sometimes anything."""
    matching = st.sampled_from(contracts).flatmap(lambda c: st.tuples(st.just(c), page_forms(c)))
    return st.one_of(matching, matching, st.tuples(contract_queries, page_forms(*contracts)))


mostly_true = st.sampled_from([True, True, True, False])


def _form(data: Any, version: int, keep_version: bool) -> dict[str, Any]:
    """``data`` as form fields (text, or lists of text for repeated fields)."""
    if not isinstance(data, dict):
        return {"x": _utf8(json.dumps(data, allow_nan=True))}
    cleaned = {_utf8(str(k)): _as_field(v) for k, v in data.items()}
    if keep_version:
        cleaned["version"] = str(version)
    return cleaned


def _as_field(value: Any) -> Any:
    if isinstance(value, str):
        return _utf8(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [_utf8(v) for v in value]
    return json.dumps(value, allow_nan=True)


def _utf8(text: str) -> str:
    """What a browser can send: lone surrogates become U+FFFD."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _post_page(
    phone: Callable[..., FlaskClient],
    start: Callable[..., Any],
    snapshot: Any,
    path: str,
    data: Any,
    keep_version: bool,
    contracts: str | None = None,
) -> None:
    game = start()
    owner = phone(game, game.token, owner=True)
    before = snapshot(game.id)
    form = _form(data, before.version, keep_version)
    query = {} if contracts is None else {"contracts": contracts}
    response = owner.post(path.format(id=game.id), data=form, query_string=query)
    no_partial_write(response, game.id, before, snapshot, {302})


@FUZZ_PAGES
@given(case=deal_forms("queens", "diamonds", "collections", "trix", "king"), keep=mostly_true)
def test_fuzz_page_new_deal(
    phone: Any, start: Any, snapshot: Any, case: tuple[str, Any], keep: bool
) -> None:
    contracts, data = case
    _post_page(phone, start, snapshot, "/games/{id}/deals/new", data, keep, contracts)


@FUZZ_PAGES
@given(case=deal_forms("king", "queens", "trix"), keep=mostly_true)
def test_fuzz_page_edit_deal(
    phone: Any, start: Any, snapshot: Any, case: tuple[str, Any], keep: bool
) -> None:
    contracts, data = case
    _post_page(phone, start, snapshot, "/games/{id}/deals/1/edit", data, keep, contracts)


@FUZZ_PAGES
@given(data=page_forms("redeal", "undo"), keep=mostly_true)
def test_fuzz_page_redeal(phone: Any, start: Any, snapshot: Any, data: Any, keep: bool) -> None:
    _post_page(phone, start, snapshot, "/games/{id}/redeals", data, keep)


@FUZZ_PAGES
@given(data=page_forms("undo", "redeal"), keep=mostly_true)
def test_fuzz_page_undo(phone: Any, start: Any, snapshot: Any, data: Any, keep: bool) -> None:
    _post_page(phone, start, snapshot, "/games/{id}/undo", data, keep)


NEW_GAME_FORM = {
    "players-0": "Rana", "players-1": "Sami", "players-2": "Omar", "players-3": "Lina",
    "first_king": "2", "preset": "standard", "doubling": "yes", "kingdoms": "1",
}  # fmt: skip


@FUZZ_PAGES
@given(data=st.one_of(mutated(NEW_GAME_FORM), mutated(NEW_GAME_FORM), forms))
def test_fuzz_page_new_game(app: Flask, data: Any) -> None:
    response = app.test_client().post("/games/new", data=_form(data, 0, keep_version=False))
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if response.status_code == 302:
        services.load_game(response.headers["Location"].rsplit("/", 1)[-1])
        db.session.rollback()


@FUZZ_SLOW
@given(data=forms, token=st.text(form_text, min_size=1, max_size=60))
def test_fuzz_page_revoke_and_join(
    phone: Any, start: Any, snapshot: Any, data: Any, token: str
) -> None:
    game = start()
    before = snapshot(game.id)
    visitor = phone()
    response = visitor.get(f"/games/{game.id}/join/{quote(token, safe='')}")
    assert response.status_code < 500 and response.status_code != 302, response.status_code
    assert visitor.post(f"/games/{game.id}/revoke", data=_form(data, 0, False)).status_code == 403
    assert snapshot(game.id) == before
    owner = phone(game, game.token, owner=True)
    response = owner.post(f"/games/{game.id}/revoke", data=_form(data, 0, False))
    assert response.status_code == 302
    after = snapshot(game.id)
    assert (after.version, after.log) == (before.version, before.log)
    assert after.token_hash != before.token_hash


# --- backups: importing a file -----------------------------------------------------------------


def _games_count() -> int:
    db.session.rollback()
    count = db.session.scalar(select(func.count()).select_from(models.Game))
    db.session.rollback()
    return int(count or 0)


def _imported(response: TestResponse, games_before: int, accepted: int) -> None:
    """Never a 500; an accepted import is one new game that replays; a refused one adds none."""
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    event(f"status {response.status_code}")
    if response.status_code == accepted:
        assert _games_count() == games_before + 1
    else:
        assert _games_count() == games_before


@FUZZ_PAGES
@given(data=st.data())
def test_fuzz_api_import(
    client: FlaskClient, start: Callable[..., Any], data: st.DataObject
) -> None:
    game = start()
    backup = client.get(f"{API}/games/{game.id}/export").get_json()
    body = data.draw(bodies(backup))
    before = _games_count()
    response = _api(client, "POST", f"{API}/games/import", body, {})
    assert response.is_json
    _imported(response, before, 201)
    if response.status_code == 201:
        services.load_game(response.get_json()["id"])
        db.session.rollback()


@FUZZ_PAGES
@given(data=st.data())
def test_fuzz_page_import(
    phone: Callable[..., FlaskClient], start: Callable[..., Any], data: st.DataObject
) -> None:
    game = start()
    client = phone()
    backup = client.get(f"{API}/games/{game.id}/export").get_json()
    upload = data.draw(bodies(backup))
    before = _games_count()
    form = {"backup": (io.BytesIO(upload), "backup.json")}
    response = client.post("/games/import", data=form, content_type="multipart/form-data")
    _imported(response, before, 302)


# --- shapes the fuzz found, on both databases --------------------------------------------------

SURROGATE = "\udfff"
HUGE = [2**63, 2**64, 10**30]
IMPOSSIBLE_IDS = ["%00", "a%00b", "%ED%B3%BF", "%EF%BF%BD", "x" * 65, "a.b", "a%20b", "%C3%A9"]


def _json(value: Any) -> bytes:
    """JSON as a client may send it: a lone surrogate spelled ``\\udfff`` is valid JSON."""
    return json.dumps(value).encode()


class TestShapes:
    """Each shape once, on SQLite and on PostgreSQL (which refuses a NUL in any text)."""

    @pytest.fixture(params=["sqlite", "postgresql"])
    def app(self, request: pytest.FixtureRequest, make_app: Callable[..., Flask]) -> Any:
        if request.param == "sqlite":
            app = make_app()
            with app.app_context():
                db.create_all()
                yield app
                db.session.remove()
                db.drop_all()
            return
        url = request.getfixturevalue("test_database_url")
        with postgres_schema_app(make_app, url) as app:
            yield app

    def test_surrogate_note_is_a_422_naming_it(
        self, client: FlaskClient, start: Any, snapshot: Any
    ) -> None:
        game = start()
        before = snapshot(game.id)
        body = _json({**REDEAL_BODY, "note": SURROGATE})
        url = f"{API}/games/{game.id}/redeals"
        response = _api(client, "POST", url, body, _headers(game.token, None, 0))
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["field"] == "note"
        assert snapshot(game.id) == before
        assert client.get(f"/games/{game.id}").status_code == 200
        assert client.get(f"{API}/games/{game.id}/export").status_code == 200

    @pytest.mark.parametrize("text", [SURROGATE, "Sa\x00mi"])
    def test_unstorable_name_is_refused_everywhere(
        self, client: FlaskClient, start: Any, text: str
    ) -> None:
        body = {**NEW_GAME_BODY, "players": ["Rana", text, "Omar", "Lina"]}
        response = _api(client, "POST", f"{API}/games", _json(body), {})
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["field"] == "players.1"
        backup = client.get(f"{API}/games/{start().id}/export").get_json()
        backup["players"][1] = text
        before = _games_count()
        response = _api(client, "POST", f"{API}/games/import", _json(backup), {})
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["field"] == "players.1"
        form = {"backup": (io.BytesIO(_json(backup)), "backup.json")}
        response = client.post("/games/import", data=form, content_type="multipart/form-data")
        assert response.status_code == 422
        assert "players.1" in response.get_data(as_text=True)
        backup["players"][1] = "Sami"
        backup["log"][0]["revisions"][0]["source"] = text
        response = _api(client, "POST", f"{API}/games/import", _json(backup), {})
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["field"] == "log.0.revisions.0.source"
        assert _games_count() == before

    @pytest.mark.parametrize("game_id", IMPOSSIBLE_IDS)
    def test_impossible_game_id_is_a_404(self, phone: Any, start: Any, game_id: str) -> None:
        game = start()
        client = phone(game, game.token, owner=True)
        for method, path in [
            ("GET", "/games/{}"),
            ("GET", "/games/{}/export.json"),
            ("GET", "/games/{}/join/abc"),
            ("POST", "/games/{}/deals/new?contracts=king"),
            ("POST", "/games/{}/undo"),
            ("GET", f"{API}/games/{{}}"),
            ("POST", f"{API}/games/{{}}/deals"),
            ("GET", "/games/{}/version"),
        ]:
            response = client.open(path.format(game_id), method=method, json={})
            assert response.status_code == 404, (method, path, response.status_code)
        response = client.get(f"/disputes/claim?for_game={game_id}")
        assert response.status_code == 422  # "There is no game at this address any more."

    @pytest.mark.parametrize("huge", HUGE)
    @pytest.mark.parametrize(
        ("path", "form"),
        [
            ("/games/{id}/deals/new?contracts=king", PAGE_FORMS["king"]),
            ("/games/{id}/deals/1/edit?contracts=king", PAGE_FORMS["king"]),
            ("/games/{id}/redeals", PAGE_FORMS["redeal"]),
            ("/games/{id}/undo", PAGE_FORMS["undo"]),
        ],
    )
    def test_huge_version_is_a_422(
        self, phone: Any, start: Any, snapshot: Any, path: str, form: Any, huge: int
    ) -> None:
        game = start()
        owner = phone(game, game.token, owner=True)
        before = snapshot(game.id)
        response = owner.post(path.format(id=game.id), data={**form, "version": str(huge)})
        assert response.status_code == 422, response.status_code
        assert snapshot(game.id) == before

    @pytest.mark.parametrize("huge", HUGE)
    def test_huge_integers_in_the_api_are_4xx(
        self, client: FlaskClient, start: Any, snapshot: Any, huge: int
    ) -> None:
        game = start()
        before = snapshot(game.id)
        headers = _headers(game.token, None, 0)
        sent = [
            ("POST", "/redeals", {**REDEAL_BODY, "seat": huge}),
            ("POST", "/deals", {**KING_BODY, "king": huge}),
            ("POST", "/deals", {"contracts": ["king"], "captures": {"king_of_hearts": huge}}),
            ("PUT", f"/deals/{huge}", KING_BODY),
        ]
        for method, path, body in sent:
            url = f"{API}/games/{game.id}{path}"
            answer = _api(client, method, url, _json(body), {**headers, "If-Match": str(huge)})
            assert 400 <= answer.status_code < 500, (path, answer.status_code)
        body = {**NEW_GAME_BODY, "first_king": huge}
        assert _api(client, "POST", f"{API}/games", _json(body), {}).status_code == 422
        assert snapshot(game.id) == before


# --- every JSON endpoint of docs/API.md: a wrong type at every level ---------------------------


@dataclass
class Stage:
    """Something to aim each endpoint at: a game (its token, and a browser that owns it for
    the offline sync), a club night with a round drawn, a circle, and a game's backup."""

    places: dict[str, Any]
    tokens: dict[str, str]
    owner: FlaskClient


@pytest.fixture
def stage(app: Flask, client: FlaskClient, start: Any, phone: Any) -> Stage:
    game = start()
    circle, circle_token = circles.create_circle("Friday club", malformed.PLAYERS)
    created = client.post(f"{API}/events", json=malformed.NEW_EVENT).get_json()
    director = created["director_token"]
    drawn = client.post(
        f"{API}/events/{created['id']}/rounds", headers={"Authorization": f"Bearer {director}"}
    ).get_json()
    first = drawn["tables"][0]
    deal = {**malformed.KING_DEAL, "king": 0}
    headers = {"Authorization": f"Bearer {first['edit_token']}"}
    client.post(f"{API}/games/{first['game']}/deals", json=deal, headers=headers)
    places: dict[str, Any] = {
        "game": game.id,
        "event": created["id"],
        "table_game": first["game"],
        "circle": circle.id,
        "member": str(circle.members[0].id),
        "backup": client.get(f"{API}/games/{game.id}/export").get_json(),
    }
    tokens = {"game": game.token, "director": director, "circle": circle_token}
    return Stage(places, tokens, phone(game, game.token, owner=True))


def _fingerprint() -> tuple[int, ...]:
    db.session.rollback()
    found = malformed.fingerprint(db.session.connection())
    db.session.rollback()
    return found


def _send(
    client: FlaskClient, stage: Stage, endpoint: malformed.Endpoint, path: str, body: bytes | None
) -> TestResponse:
    headers = {}
    if endpoint.auth in stage.tokens:
        headers["Authorization"] = f"Bearer {stage.tokens[endpoint.auth]}"
    if endpoint.if_match:
        target = stage.places["table_game" if "{table_game}" in endpoint.path else "game"]
        headers["If-Match"] = client.get(f"{API}/games/{target}").headers["ETag"]
    sender = stage.owner if endpoint.auth == "session" else client
    return _api(sender, endpoint.method, path, body or b"", headers)


def _refused_writes_nothing(
    client: FlaskClient, stage: Stage, endpoint: malformed.Endpoint, path: str, body: bytes | None
) -> int:
    """Send one request: never a 5xx, always JSON, and a refusal leaves every table as it was."""
    before = _fingerprint()
    response = _send(client, stage, endpoint, path, body)
    shown = (endpoint.method, path, (body or b"")[:200])
    assert response.status_code < 500, (*shown, response.get_data(as_text=True)[:300])
    assert response.is_json or response.status_code == 304, shown
    if response.status_code >= 400:
        assert _fingerprint() == before, (*shown, response.status_code)
    return response.status_code


def test_the_fuzz_covers_every_json_route(app: Flask) -> None:
    """A JSON route added later is fuzzed too: each ``/api/v1`` route is in the table."""
    routes = {rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith(API)}
    assert routes == {endpoint.rule for endpoint in malformed.ENDPOINTS}
    text = (Path(__file__).parents[2] / "docs" / "API.md").read_text()
    spelled = re.findall(r"`((?:GET|POST|PUT|DELETE) (?:/api/v1|…)/[^`?]*)`", text)
    documented = {_shape(_expand(route)) for route in spelled}
    fuzzed = {_shape(f"{e.method} {e.path}") for e in malformed.ENDPOINTS}
    assert documented and documented <= fuzzed, documented - fuzzed


def _expand(route: str) -> str:
    """API.md's short forms: ``POST …/events/<eid>/close``, ``POST …/deals`` (a game's)."""
    short = "…/events/" if "…/events/" in route else "…/"
    return route.replace(short, f"{API}/events/" if short == "…/events/" else f"{API}/games/<id>/")


def _shape(route: str) -> str:
    """A route with every id or number in it as ``<>``: how API.md and the table compare."""
    return re.sub(r"<[^>]*>|\{[^}]*\}|/1(?=/|$)", lambda m: "/<>" if m[0] == "/1" else "<>", route)


@pytest.mark.parametrize("endpoint", malformed.ENDPOINTS, ids=lambda e: f"{e.method} {e.path}")
def test_every_endpoint_refuses_every_wrong_type(
    client: FlaskClient, stage: Stage, endpoint: malformed.Endpoint
) -> None:
    depth = 2 if endpoint.path.endswith("/import") else 99  # a backup has hundreds of parts
    statuses = Counter(
        _refused_writes_nothing(client, stage, endpoint, path, body)
        for _method, path, body in malformed.requests_of(endpoint, stage.places, depth)
    )
    assert statuses, endpoint


@FUZZ_SLOW
@given(data=st.data())
def test_fuzz_every_endpoint(client: FlaskClient, stage: Stage, data: st.DataObject) -> None:
    endpoint = data.draw(st.sampled_from([e for e in malformed.ENDPOINTS if e.bodies]))
    base = malformed.fill(data.draw(st.sampled_from(endpoint.bodies)), stage.places)
    body = data.draw(bodies(base))
    path = endpoint.path.format(**{k: v for k, v in stage.places.items() if isinstance(v, str)})
    event(f"{endpoint.method} {endpoint.path}")
    _refused_writes_nothing(client, stage, endpoint, path, body)


@pytest.mark.parametrize("entry", [5, True, 1.5, ["contracts"]])
@pytest.mark.parametrize("action", ["record", "redeal", "edit"])
def test_an_outbox_entry_of_the_wrong_type_is_a_422_naming_it(
    stage: Stage, action: str, entry: Any
) -> None:
    before = _fingerprint()
    body = {"entry_id": "e9", "action": action, "entry": entry, "n": 1, "version": 2}
    url = f"{API}/games/{stage.places['game']}/sync"
    response = stage.owner.post(url, json=body)
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("json_type", "entry")
    assert _fingerprint() == before


def test_places_that_are_a_number_are_a_422_naming_them(client: FlaskClient) -> None:
    before = _fingerprint()
    response = client.post(f"{API}/events", json={**malformed.NEW_EVENT, "places": 4})
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("json_type", "places")
    assert error["message"].endswith("must be a JSON list, not a number.")
    assert _fingerprint() == before
