"""Bounded games: the largest game the app can hold exports, and its export imports again.

A game keeps at most ``GAME_WRITES_MAX`` writes, and a deal at most
``REDEALS_IN_A_ROW_MAX`` redeals; the import's size limit is computed from them. The
game built here is the largest in bytes too: nearly every write is a redeal carrying the
longest note there is, in characters that take the most room in either export.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import StateError
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.redeal import REDEALS_IN_A_ROW_MAX
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store.backup_format import IMPORT_BYTES_MAX
from scorekeeper.store.game_store import GAME_WRITES_MAX
from scorekeeper.store.input import NOTE_MAX, parse_deal_body
from scorekeeper.store.snapshot import LoadedGame
from tests.common import NAMES

DEALS = 20
"""A whole game of four kingdoms, every contract played alone."""
LONGEST_NOTE = "🂡" * NOTE_MAX
"""A character past the BMP: 12 bytes in the API's escaped JSON, 4 in the page's file."""
QUEENS = {q: {"taker": i, "doubled_by": 3} for i, q in enumerate(("QS", "QH", "QD", "QC"))}
CAPTURES: dict[Contract, dict[str, Any]] = {
    Contract.KING: {"king_of_hearts": {"taker": 1, "doubled_by": 2}},
    Contract.QUEENS: {"queens": QUEENS},
    Contract.DIAMONDS: {"diamonds": [4, 3, 3, 3]},
    Contract.COLLECTIONS: {"tricks": [1, 2, 4, 6]},
    Contract.TRIX: {"trix_order": [2, 0, 3, 1]},
}


def _misdeal(loaded: LoadedGame) -> LoadedGame:
    contract = loaded.game.available_contracts[0]
    return services.record_redeal(loaded.id, RedealEntry("misdeal", 3, contract, LONGEST_NOTE))


def _deal(loaded: LoadedGame) -> LoadedGame:
    contract = loaded.game.available_contracts[0]
    body = {"contracts": [contract.value], "captures": CAPTURES[contract]}
    return services.record_deal(loaded.id, parse_deal_body(body))[0]


def build_largest_game() -> str:
    """A whole game of 20 deals, each dealt again the most times a deal may be, and the
    writes left spent on undoing and recording a redeal again: every write it may keep."""
    loaded, _token = services.create_game(NAMES, 0, RuleSet())
    spare = GAME_WRITES_MAX - DEALS * (1 + REDEALS_IN_A_ROW_MAX)
    assert spare >= 0 and spare % 2 == 0
    for deal in range(DEALS):
        for _ in range(REDEALS_IN_A_ROW_MAX):
            loaded = _misdeal(loaded)
        for _ in range(spare // 2 if deal == 0 else 0):
            services.undo_last(loaded.id, None)
            loaded = _misdeal(loaded)
        loaded = _deal(loaded)
    assert loaded.version == 1 + GAME_WRITES_MAX
    return loaded.id


def test_the_largest_game_exports_and_imports_again(db_app: Flask) -> None:
    game_id = build_largest_game()
    game = services.load_game(game_id).game
    assert game.finished and game.deals_played == DEALS
    with pytest.raises(StateError) as refused:
        services.undo_last(game_id, None)
    assert refused.value.problems[0].code == "game_full"

    client = db_app.test_client()
    exported = client.get(f"/api/v1/games/{game_id}/export").get_data()
    file = client.get(f"/games/{game_id}/export.json").get_data()
    assert len(exported) <= IMPORT_BYTES_MAX and len(file) <= IMPORT_BYTES_MAX
    print(f"\nlargest game: API export {len(exported):,} B, file {len(file):,} B, "
          f"import limit {IMPORT_BYTES_MAX:,} B")  # fmt: skip

    answer = client.post("/api/v1/games/import", data=exported, content_type="application/json")
    assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
    again = client.get(f"/api/v1/games/{answer.get_json()['id']}/export").get_json()
    original = json.loads(exported)
    assert again["log"] == original["log"] and again["undone"] == original["undone"]

    upload = {"backup": (io.BytesIO(file), "backup.json")}
    page = client.post("/games/import", data=upload, content_type="multipart/form-data")
    assert page.status_code == 302, page.get_data(as_text=True)[:300]


def test_a_file_past_the_limit_is_413(app: Flask) -> None:
    client = app.test_client()
    body = b" " * (IMPORT_BYTES_MAX + 1)
    answer = client.post("/api/v1/games/import", data=body, content_type="application/json")
    assert answer.status_code == 413


def test_a_21st_redeal_in_a_row_is_refused_in_the_api_and_the_page(app: Flask) -> None:
    client = app.test_client()
    created = client.post("/api/v1/games", json={"players": NAMES}).get_json()
    game_id, token = created["id"], created["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(REDEALS_IN_A_ROW_MAX):
        answer = client.post(
            f"/api/v1/games/{game_id}/redeals", json={"kind": "misdeal"}, headers=auth
        )
        assert answer.status_code == 201
    before = client.get(f"/api/v1/games/{game_id}").get_json()["version"]
    answer = client.post(f"/api/v1/games/{game_id}/redeals", json={"kind": "misdeal"}, headers=auth)
    assert answer.status_code == 409
    error = answer.get_json()["errors"][0]
    assert error["code"] == "too_many_redeals" and error["rule"] == "R8"
    assert "Deal 1 was dealt again 20 times" in error["message"]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["version"] == before

    page = app.test_client()
    form = {f"players-{i}": name for i, name in enumerate(NAMES)}
    created_page = page.post("/games/new", data={**form, "first_king": "0", "preset": "standard"})
    page_game = created_page.headers["Location"].rsplit("/", 1)[-1]
    for _ in range(REDEALS_IN_A_ROW_MAX):
        services.record_redeal(page_game, RedealEntry("misdeal"))
    version = services.load_game(page_game).version
    refused = page.post(
        f"/games/{page_game}/redeals", data={"kind": "misdeal", "version": str(version)}
    )
    assert refused.status_code == 409
    assert "Deal 1 was dealt again 20 times" in refused.get_data(as_text=True)
    assert services.load_game(page_game).version == version
