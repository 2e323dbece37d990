"""The sheet prints when each deal was played (the phone's clock at Save), not when it
reached the server."""

from __future__ import annotations

from datetime import timedelta, timezone
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.web.sheets.content import DealLine, build_sheet

NAMES = ["Rana", "Sami", "Omar", "Lina"]
KING_DEAL = DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1)))
TRIX_DEAL = DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1)))
TABLE = timezone(timedelta(hours=3))


def game_with_a_played_time() -> tuple[services.LoadedGame, str]:
    loaded, _ = services.create_game(NAMES, 0, RuleSet())
    played = loaded.created_at.astimezone(TABLE).replace(second=0, microsecond=0)
    services.record_deal(loaded.id, KING_DEAL, played_at=played)
    services.record_deal(loaded.id, TRIX_DEAL)  # sent without a time
    return services.load_game(loaded.id), played.strftime("%H:%M")


def test_the_sheet_says_when_each_deal_was_played_in_the_tables_time(app: Flask) -> None:
    loaded, shown = game_with_a_played_time()
    with app.test_request_context():
        sheet = build_sheet(loaded)
    first, second = sheet.sections[0].lines[:2]
    assert isinstance(first, DealLine) and isinstance(second, DealLine)
    assert first.played == f"played {shown}"
    assert second.played == ""


def test_the_pdf_prints_the_time_played(client: FlaskClient, app: Flask, pdfs: Any) -> None:
    loaded, shown = game_with_a_played_time()
    text = pdfs.text(client.get(f"/games/{loaded.id}/sheet.pdf").data)
    assert f"played {shown}" in text
