"""The printed sheet under the five sources' house rules: the rules in words, who dealt,
the team of each kingdom, and a Trix deal void for a closed suit (R2, R7, R9.5)."""

from __future__ import annotations

from flask import Flask

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.web.sheets.content import DealLine, NoteLine, build_sheet, plain

NAMES = ["Rana", "Sami", "Omar", "Lina"]
KING_DEAL = DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1)))


def bare(text: str) -> str:
    """Text as read: without the isolates that keep names in their place."""
    return text.translate({0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None})


def test_r2_sheet_says_who_dealt_each_deal_and_the_dealer_rule(app: Flask) -> None:
    rules = RuleSet.from_dict({"dealer": "rotates", "first_dealer": 2})
    loaded, _ = services.create_game(NAMES, 0, rules)
    services.record_deal(loaded.id, KING_DEAL)
    with app.test_request_context():
        sheet = build_sheet(services.load_game(loaded.id))
    assert any(
        bare(rule).startswith("Omar deals first, then the deal passes") for rule in sheet.rules
    )
    line = sheet.sections[0].lines[0]
    assert isinstance(line, DealLine) and plain(line.dealer, NAMES) == "dealt by Omar"


def test_r9_5_sheet_names_the_team_of_each_kingdom(app: Flask) -> None:
    rules = RuleSet.from_dict({"partnership": True, "team_kingdoms": True})
    loaded, _ = services.create_game(NAMES, 1, rules)
    with app.test_request_context():
        sheet = build_sheet(loaded)
    assert sheet.sections[0].team == (1, 3)
    assert any(rule.startswith("Team kingdoms: partners share a kingdom") for rule in sheet.rules)


def test_r7_sheet_prints_a_closed_suit_redeal_where_it_happened(app: Flask) -> None:
    rules = RuleSet.from_dict({"trix_closed_suit": "replay"})
    loaded, _ = services.create_game(NAMES, 0, rules)
    services.record_redeal(loaded.id, RedealEntry("redeal", None, Contract.TRIX, "", "closed_suit"))
    with app.test_request_context():
        sheet = build_sheet(services.load_game(loaded.id))
    (note,) = sheet.sections[0].lines
    assert isinstance(note, NoteLine)
    assert plain(note.text, NAMES).startswith("Trix dealt again: a suit was closed")


def test_sheet_pdf_renders_the_new_house_rules(app: Flask) -> None:
    rules = RuleSet.from_dict(
        {"partnership": True, "team_kingdoms": True, "dealer": "rotates", "first_dealer": 3}
    )
    loaded, _ = services.create_game(NAMES, 0, rules)
    services.record_deal(loaded.id, KING_DEAL)
    response = app.test_client().get(f"/games/{loaded.id}/sheet.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
