"""What the phone's worker runs (scorekeeper/web/offline/phone.py), run here as a module.

The phone must say the same as the server: the same engine decides, and the
same templates word the refusal, in the reader's language.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import entry_from_dict
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.text.messages import translate_error
from scorekeeper.web.offline import phone
from scorekeeper.web.offline.catalogue import catalogue

NAMES = ["Rana", "Sami", "Omar", "عمر"]
GAME = {"rules": {}, "first_king": 0, "players": NAMES, "log": []}
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
BAD_DIAMONDS = {"contracts": ["diamonds"], "captures": {"diamonds": [3, 4, 5, 0]}}


def ask(pending: list[dict[str, Any]], entry: dict[str, Any] | None, **game: Any) -> Any:
    request = {"game": {**GAME, **game}, "pending": pending, "entry": entry}
    return json.loads(phone.check(json.dumps(request)))


def record(deal: dict[str, Any]) -> dict[str, Any]:
    return {"action": "record", "entry": deal}


@pytest.fixture(autouse=True)
def english() -> Any:
    phone.use_catalogue(json.dumps(catalogue("en")))
    yield
    phone.use_catalogue(json.dumps(catalogue("en")))


def test_a_deal_is_scored_as_the_server_scores_it() -> None:
    answer = ask([record(KING)], record(TRIX))
    server = Game.replay(RuleSet(), 0, NAMES, [entry_from_dict(KING), entry_from_dict(TRIX)])
    assert answer["ok"] and answer["deal"] == server.deals[-1].to_dict()
    assert answer["state"] == server.to_dict()


@pytest.mark.parametrize("language", ["en", "ar", "es", "it", "pt", "ru"])
def test_r11_a_refusal_in_the_same_words_as_the_server(app: Flask, language: str) -> None:
    phone.use_catalogue(json.dumps(catalogue(language)))
    answer = ask([], record(BAD_DIAMONDS))
    with app.test_request_context(f"/?lang={language}"):
        try:
            Game.start(RuleSet(), 0, NAMES).record(entry_from_dict(BAD_DIAMONDS))
        except RulesError as error:
            server = translate_error(error)
    assert answer == {"ok": False, "status": 422, "errors": server, "at": None}


def test_r2_a_contract_played_twice_is_409() -> None:
    answer = ask([record(KING)], record(KING))
    assert answer["status"] == 409 and answer["errors"][0]["code"] == "contract_already_played"


def test_an_undo_takes_back_the_last_entry_and_an_edit_replaces_a_deal() -> None:
    assert ask([record(KING), {"action": "undo"}], None)["state"]["deals_played"] == 0
    fixed = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 2, "doubled_by": 3}}}
    answer = ask([], {"action": "edit", "n": 1, "entry": fixed}, log=[KING])
    assert answer["deal"]["captures"]["king_of_hearts"]["taker"] == 2
    assert ask([], {"action": "undo"})["errors"][0]["code"] == "nothing_to_undo"


def test_a_waiting_entry_that_no_longer_fits_is_named() -> None:
    answer = ask([record(TRIX), record(TRIX)], None)
    assert answer["ok"] is False and answer["at"] == 1


def test_plural_forms_follow_the_languages_rule() -> None:
    phone.use_catalogue(json.dumps(catalogue("ru")))
    forms = [phone.CATALOGUE.plural(n) for n in (1, 2, 5, 21)]
    assert forms == [0, 1, 2, 0]


# --- a club night's table: its first deal names the first king (R2) --------------------------

TABLE = {"first_king_from_deal": True}


def named(deal: dict[str, Any], king: int) -> dict[str, Any]:
    return {**deal, "king": king}


@pytest.mark.parametrize("language", ["en", "ar", "es", "it", "pt", "ru"])
def test_r2_a_tables_first_deal_without_the_7h_holder_is_refused_in_the_forms_words(
    app: Flask, language: str
) -> None:
    phone.use_catalogue(json.dumps(catalogue(language)))
    answer = ask([], record(TRIX), **TABLE)
    with app.test_request_context(f"/?lang={language}"):
        from scorekeeper.web.deals.forms import DealForm

        form_says = DealForm._missing_message("king")
    assert answer["ok"] is False and answer["status"] == 422 and answer["at"] is None
    assert [(e["code"], e["field"], e["rule"]) for e in answer["errors"]] == [
        ("first_king_needed", "king", "R2")
    ]
    assert answer["errors"][0]["message"] == form_says


def test_r2_a_tables_first_deal_names_the_first_king_and_the_kingdoms_follow_him() -> None:
    answer = ask([], record(named(TRIX, 2)), **TABLE)
    server = Game.replay(RuleSet(), 2, NAMES, [entry_from_dict(named(TRIX, 2))])
    assert answer["ok"] and answer["state"] == server.to_dict()
    assert answer["deal"]["king"] == 2 and answer["first_king_open"] is False
    # Four more deals later, the next kingdom is the first king's right-hand player's.
    deals = [KING, {"contracts": ["diamonds"], "captures": {"diamonds": [3, 4, 5, 1]}}]
    later = ask([record(named(TRIX, 2)), *map(record, deals)], None, **TABLE)
    assert later["state"]["current_king"] == 2 and later["first_king_open"] is False


def test_r2_a_waiting_first_deal_without_its_king_is_named_as_the_refused_entry() -> None:
    answer = ask([record(TRIX)], record(KING), **TABLE)
    assert answer["ok"] is False and answer["at"] == 0
    assert answer["errors"][0]["code"] == "first_king_needed"


def test_r2_only_a_tables_first_deal_asks_and_the_question_comes_back_after_an_undo() -> None:
    assert ask([], None, **TABLE)["first_king_open"] is True
    assert ask([], None)["first_king_open"] is False  # not a table: seat 0 is first king
    assert ask([], record(TRIX))["ok"] is True
    # Once stored, the server keeps the named king as the first king.
    assert ask([], record(KING), log=[named(TRIX, 1)], first_king=1, **TABLE)["ok"] is True
    undone = ask([record(named(TRIX, 3)), {"action": "undo"}], None, **TABLE)
    assert undone["first_king_open"] is True


def test_r2_correcting_a_tables_first_deal_may_change_the_first_king() -> None:
    answer = ask([], {"action": "edit", "n": 1, "entry": named(TRIX, 3)}, log=[TRIX], **TABLE)
    assert answer["ok"] and answer["deal"]["king"] == 3
    assert answer["state"]["current_king"] == 3
    kept = ask([], {"action": "edit", "n": 1, "entry": KING}, log=[TRIX], **TABLE)
    assert kept["ok"] and kept["deal"]["king"] == 0


def test_r2_a_table_with_an_agreed_kingdom_order_is_never_asked() -> None:
    # The phone is told (first_king_from_deal false): the agreed order names the first king.
    order = {"kingdom_order": "custom", "king_order": [2, 3, 0, 1]}
    answer = ask([], record(TRIX), rules=order, first_king=2, first_king_from_deal=False)
    assert answer["ok"] and answer["deal"]["king"] == 2
