"""A decided claim is answered at once: its exact value gets a short time of its own
(``CLAIM_EXACT_SECONDS``), and the claim's page offers to work it out when it was not
found by then. The position is tests/rules/claims/test_exact_budget.py's: the bounds
decide these claims at once, the exact value (−45) takes thousands of nodes, so with
``CLAIM_EXACT_SECONDS=0`` it is unknown whatever the machine's speed."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.web.disputes import pool
from tests.rules.claims.test_exact_budget import EXACT, HANDS, claim

FORM = {
    "contract": "collections",
    **{f"hands-{seat}": cards for seat, cards in HANDS.items()},
    "leader": "1",
    "current_trick": "",
    "claimant": "0",
    "time_limit": "25",
}


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    """The real solver; a decided claim's exact value is given no time at all."""
    app = make_app(CLAIM_FOLDER=str(tmp_path / "claims"), CLAIM_EXACT_SECONDS=0)
    with app.app_context():
        db.create_all()
    yield app
    pool.SOLVERS.close()


def test_the_api_answers_the_ruling_without_waiting_for_the_exact_value(app: Flask) -> None:
    client = app.test_client()
    for min_score, holds in [(-90, True), (15, False)]:
        answer = client.post("/api/v1/check/claim", json=claim(min_score)).get_json()
        assert (answer["decided"], answer["holds"]) == (True, holds)
        assert (answer["guaranteed"], answer["guaranteed_known"]) == (None, False)
        assert bool(answer["line"]) is not holds
    asked = client.post("/api/v1/check/claim", json=claim(15, exact_time_limit=60)).get_json()
    assert (asked["holds"], asked["guaranteed"], asked["guaranteed_known"]) == (False, EXACT, True)


def test_the_setting_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert pool.limits_from({}, tmp_path).exact_seconds == 2.0
    monkeypatch.setenv("CLAIM_EXACT_SECONDS", "0")
    assert pool.limits_from(pool.config_from_env({}), tmp_path).exact_seconds == 0.0
    monkeypatch.setenv("CLAIM_EXACT_SECONDS", "-1")
    with pytest.raises(ValueError, match="CLAIM_EXACT_SECONDS must be a number of 0 or more"):
        pool.config_from_env({})


def test_a_whole_deals_claim_is_ruled_without_seeking_its_exact_value(tmp_path: Path) -> None:
    """R10: the exact value is sought by default only where it can be found within the
    budget: up to nine cards a hand. A whole deal's claim is ruled at once; a Trix claim's
    exact value, found in milliseconds, is always sought; the claim's own limit wins."""
    limits = pool.limits_from({}, tmp_path)
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in "23456789TJQKA"]
    whole = {"contracts": ["collections"], "hands": {str(s): deck[s::4] for s in range(4)}}
    nine = {**whole, "hands": {s: hand[:9] for s, hand in whole["hands"].items()}}
    assert limits.exact_limit(nine) == 2.0
    assert limits.exact_limit({**nine, "current_trick": ["2S"]}) == 0.0  # 37 cards in play
    assert limits.exact_limit(whole) == 0.0
    assert limits.exact_limit({**whole, "contracts": ["trix"]}) == 2.0
    assert limits.exact_limit({**whole, "exact_time_limit": 5}) == 5
    assert limits.exact_limit({**whole, "hands": "not hands"}) == 2.0  # refused by the engine
    wider = pool.limits_from({"CLAIM_EXACT_CARDS": 52}, tmp_path)
    assert wider.exact_limit(whole) == 2.0


def judged(client: FlaskClient, response: Any) -> str:
    """The page of the claim ``response`` redirected to, once its answer is in."""
    assert response.status_code == 303, response.get_data(as_text=True)
    page = response.headers["Location"].split("#")[0]
    deadline = time.monotonic() + 60
    while client.get(f"{page}/status").get_json()["state"] != "done":
        assert time.monotonic() < deadline, f"{page} was never judged"
        time.sleep(0.1)
    answer = client.get(page)
    assert answer.status_code == 200, page
    return str(answer.get_data(as_text=True))


def test_the_page_rules_at_once_then_works_the_exact_value_out_on_request(app: Flask) -> None:
    client = app.test_client()
    page = judged(client, client.post("/disputes/claim", data={**FORM, "min_score": "15"}))
    assert "The claim fails" in page
    assert 'data-testid="guaranteed"' not in page
    assert "was not worked out in the time given to it" in page
    action = re.search(r'action="(/disputes/claims/[^"]+/exact)"', page)
    assert action is not None and "This can take up to 25 s." in page

    again = judged(client, client.post(action.group(1)))
    assert "The claim fails" in again
    shown = re.search(r'data-testid="guaranteed">.*?<strong>(.*?)</strong>', again)
    assert shown is not None and shown.group(1) == "−45"
    assert 'data-testid="exact-form"' not in again
