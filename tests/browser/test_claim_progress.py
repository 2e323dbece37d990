"""A slow claim in a browser: with JavaScript the progress bar moves and the answer replaces
it without a tap; without JavaScript the page refreshes itself until the answer is there."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.web.disputes import pool
from tests.browser.closing import close

pytestmark = pytest.mark.browser

SLOW = "tests.server.slow_solver"
HANDS = ["2S 3S", "AS KS", "QS JS", "TS 9S"]


@pytest.fixture
def slow_solver(app: Flask, tmp_path: Path) -> Iterator[None]:
    """Every claim keeps a CPU busy for its whole time limit (tests/server/slow_solver.py)."""
    app.config.update(CLAIM_SOLVER_MODULE=SLOW, CLAIM_FOLDER=str(tmp_path / "claims"))
    yield
    pool.SOLVERS.close()


def send_slow_claim(page: Page, live_server: str, seconds: int, picker: bool = True) -> None:
    page.goto(f"{live_server}/disputes/claim")
    page.get_by_test_id("contract").select_option("collections")
    for seat, hand in enumerate(HANDS):
        if not picker:  # without JavaScript, typed
            page.locator(f"[name=hands-{seat}]").fill(hand)
            continue
        page.get_by_test_id(f"picker-seat-{seat}").tap()
        for card in hand.split():
            page.get_by_test_id("picker-grid").locator(f"[data-card='{card}']").tap()
    page.get_by_test_id("leader").select_option("0")
    page.get_by_test_id("claimant").select_option("1")
    page.get_by_test_id("min_score").fill("0")
    page.get_by_test_id("time_limit").fill(str(seconds))
    with page.expect_navigation():
        page.get_by_test_id("claim-submit").click()


def test_with_javascript_the_progress_moves_then_the_answer_shows(
    live_server: str, phone: Page, slow_solver: None
) -> None:
    send_slow_claim(phone, live_server, 8)
    expect(phone.get_by_test_id("progress-headline")).to_have_text("Judging the claim")
    expect(phone.get_by_test_id("progress-text")).to_have_text(
        re.compile(r"Judging the claim: [2-7] s of at most 8 s\."), timeout=5_000
    )
    value = phone.get_by_test_id("progress-bar").evaluate("bar => bar.value")
    assert 1 <= value <= 8
    expect(phone.get_by_test_id("verdict-headline")).to_have_text(
        "Not decided in time", timeout=15_000
    )
    expect(phone.get_by_test_id("claim-progress")).to_have_count(0)


def test_without_javascript_the_page_refreshes_until_the_answer(
    live_server: str, browser: Browser, slow_solver: None
) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        send_slow_claim(page, live_server, 3, picker=False)
        expect(page.get_by_test_id("progress-headline")).to_have_text("Judging the claim")
        expect(page.get_by_test_id("verdict-headline")).to_have_text(
            "Not decided in time", timeout=15_000
        )
    finally:
        close(context)
