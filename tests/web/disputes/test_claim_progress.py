"""A claim's page while it is judged: progress that refreshes itself, then the answer; a
claim nobody follows is stopped; the limits answer 429 (scorekeeper/web/disputes/jobs.py)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.web.disputes import jobs, pool
from scorekeeper.web.server import workers
from scorekeeper.web.server.hardening import CONTENT_SECURITY_POLICY

SLOW = "tests.server.slow_solver"
GUARD_SECONDS = 60.0
"""The longest a test waits for what must happen (never a speed assertion)."""
CLAIM = {
    "contract": "collections",
    "hands-0": "2S 3S",
    "hands-1": "AS KS",
    "hands-2": "QS JS",
    "hands-3": "TS 9S",
    "leader": "0",
    "current_trick": "",
    "claimant": "1",
    "min_score": "0",
}


def with_tables(app: Flask) -> Flask:
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture
def slow_app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    """An app whose solver keeps a CPU busy for each claim's whole time limit."""
    app = make_app(CLAIM_SOLVER_MODULE=SLOW, CLAIM_FOLDER=str(tmp_path / "claims"))
    yield with_tables(app)
    pool.SOLVERS.close()


def post(client: FlaskClient, **changes: str) -> str:
    """The claim's page address the post redirects to."""
    response = client.post("/disputes/claim", data={**CLAIM, **changes})
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert re.fullmatch(r"/disputes/claims/[A-Za-z0-9_-]{22}#verdict", location), location
    return location.split("#")[0]


def wait_for(client: FlaskClient, page: str, state: str, within: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        status: dict[str, Any] = client.get(f"{page}/status").get_json()
        if status["state"] == state:
            return status
        time.sleep(0.1)
    raise AssertionError(f"{page} never reached {state}")


def test_a_slow_claim_shows_its_progress_then_its_answer(slow_app: Flask) -> None:
    client = slow_app.test_client()
    page = post(client, time_limit="3")
    running = client.get(page)
    body = running.get_data(as_text=True)
    assert running.status_code == 200 and running.headers["Cache-Control"] == "no-store"
    # Without JavaScript the page refreshes itself; CSP has no say on a meta refresh.
    assert f'<noscript><meta http-equiv="refresh" content="2; url={page}"></noscript>' in body
    assert running.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "<script>" not in body and 'src="/static/claims.js"' in body
    assert 'data-state="running"' in body and "Judging the claim: 1 s of at most 3 s." in body
    assert 'name="min_score" id="min_score" value="0"' in body  # the claim, to change it
    status = client.get(f"{page}/status").get_json()
    assert status["state"] == "running" and status["limit"] == 3 and not status["finished"]
    wait_for(client, page, "done")
    done = client.get(page).get_data(as_text=True)
    assert "http-equiv" not in done and 'data-testid="claim-progress"' not in done
    assert "Not decided in time (3 s): no ruling." in done


def test_a_claim_nobody_follows_is_stopped(
    slow_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "ABANDONED_AFTER", 1.0)
    client = slow_app.test_client()
    page = post(client, time_limit="25")
    job_id = page.rsplit("/", 1)[1]
    folder = Path(slow_app.config["CLAIM_FOLDER"]) / "jobs" / job_id
    started = time.monotonic()
    while json.loads((folder / "state.json").read_text())["state"] != "stopped":
        assert time.monotonic() - started < GUARD_SECONDS, "the search was not stopped"
        time.sleep(0.2)
    assert pool.SOLVERS._idle == []  # its process was killed
    stopped = client.get(page).get_data(as_text=True)
    assert "nobody was following its page" in stopped and "http-equiv" not in stopped


def test_a_claim_whose_worker_died_says_so(slow_app: Flask, tmp_path: Path) -> None:
    job_id = "A" * 22
    folder = Path(slow_app.config["CLAIM_FOLDER"]) / "jobs" / job_id
    folder.mkdir(parents=True)
    body = {"contracts": ["collections"], "claim": {"seat": 1, "min_score": 0}}
    (folder / "job.json").write_text(
        json.dumps({"form": list(CLAIM.items()), "body": body, "limit": 20})
    )
    (folder / "state.json").write_text(json.dumps({"state": "running", "started": time.time()}))
    page = slow_app.test_client().get(f"/disputes/claims/{job_id}").get_data(as_text=True)
    assert "The server restarted while judging this claim" in page


def test_an_unknown_claim_is_a_404_that_says_why(client: FlaskClient) -> None:
    for job_id in ("B" * 22, "nope", "..%2E%2E"):
        response = client.get(f"/disputes/claims/{job_id}")
        assert response.status_code == 404
        assert "no longer kept" in response.get_data(as_text=True)


def test_a_second_claim_from_the_same_address_is_a_429(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    app = with_tables(
        make_app(
            CLAIM_SOLVER_MODULE=SLOW, CLAIM_FOLDER=str(tmp_path / "claims"), CLAIM_PER_CLIENT=1
        )
    )
    client = app.test_client()
    try:
        post(client, time_limit="3")
        refused = client.post("/disputes/claim", data=CLAIM)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "5"
        text = refused.get_data(as_text=True)
        assert "Claims sent from this address are already being judged." in text
    finally:
        pool.SOLVERS.close()


def test_the_api_says_429_and_503_in_its_error_format(
    make_app: Callable[..., Flask], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(CLAIM_FOLDER=str(tmp_path / "claims"))
    client = app.test_client()
    for reason, status, words in [
        ("client", 429, "Claims sent from this address"),
        ("busy", 503, "Every place for judging claims is taken"),
    ]:

        def refuse(*args: Any, reason: str = reason) -> dict[str, Any]:
            raise pool.ClaimUnavailable(reason)

        monkeypatch.setattr(pool, "judge", refuse)
        response = client.post("/api/v1/check/claim", json={"claim": {}})
        answer = response.get_json()
        assert response.status_code == status and response.headers["Retry-After"] == "5"
        assert answer["ok"] is False and words in answer["errors"][0]["message"]


def test_jobs_older_than_an_hour_are_removed(slow_app: Flask) -> None:
    client = slow_app.test_client()
    old = post(client, time_limit="1").rsplit("/", 1)[1]
    folder = Path(slow_app.config["CLAIM_FOLDER"]) / "jobs" / old
    wait_for(client, f"/disputes/claims/{old}", "done")
    hour_ago = time.time() - jobs.KEEP_SECONDS - 1
    os.utime(folder / "job.json", (hour_ago, hour_ago))
    post(client, time_limit="1")
    assert not folder.exists()


@pytest.mark.parametrize(
    ("state", "kept"), [("done", False), ("stopped", False), ("running", True)]
)
def test_an_old_job_still_locked_is_kept_only_while_it_runs(
    tmp_path: Path, state: str, kept: bool
) -> None:
    """A finished job's thread may not have let go of its lock yet: that job goes all the same."""
    limits = pool.ClaimLimits(folder=tmp_path / "claims")
    folder = jobs.jobs_folder(limits) / ("x" * 22)
    folder.mkdir(parents=True)
    owner = workers.try_lock(folder / "owner")
    assert owner is not None
    try:
        (folder / "job.json").write_text("{}", encoding="utf-8")
        (folder / "state.json").write_text(json.dumps({"state": state}), encoding="utf-8")
        hour_ago = time.time() - jobs.KEEP_SECONDS - 1
        os.utime(folder / "job.json", (hour_ago, hour_ago))
        jobs.prune(limits)
        assert folder.exists() is kept
    finally:
        os.close(owner)


def test_the_same_claim_posted_again_follows_the_running_one(slow_app: Flask) -> None:
    client = slow_app.test_client()
    page = post(client, time_limit="3")
    assert post(client, time_limit="3") == page  # no second search, not a 429 either
    other = slow_app.test_client()  # another phone at the table, the same claim
    assert post(other, time_limit="3") == page
    wait_for(client, page, "done")


def test_one_game_has_one_claim_at_a_time_on_the_pages(slow_app: Flask) -> None:
    from scorekeeper.rules.ruleset import RuleSet
    from scorekeeper.store import games as services

    with slow_app.app_context():
        loaded, _token = services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
    client = slow_app.test_client()
    page = post(client, time_limit="3", for_game=loaded.id)
    refused = client.post(
        "/disputes/claim",
        data={**CLAIM, "time_limit": "2", "for_game": loaded.id},
        environ_base={"REMOTE_ADDR": "198.51.100.4"},  # another client: still one per game
    )
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "5"
    assert "A claim for this game is already being judged." in refused.get_data(as_text=True)
    alone = client.post(
        "/disputes/claim",
        data={**CLAIM, "time_limit": "2"},
        environ_base={"REMOTE_ADDR": "198.51.100.4"},
    )
    assert alone.status_code == 303  # the same claim without the game is another one
    assert alone.headers["Location"].split("#")[0] != page
    wait_for(client, page, "done")
