"""The one game state a phone draws its offline screens from (phone.screen / projection).

The server's log plus the phone's outbox, replayed by the engine, must say
what the server's own game page says once those entries are on the server:
at every boundary (a kingdom's last deal, the game's last deal, a redeal, a
correction, an undo, a table's first deal, a fixed contract order, team
kingdoms), whichever part of the log is still on the phone.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, entry_from_dict
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store.snapshot import LogRow
from scorekeeper.web.games.present import build_board, played_grid
from scorekeeper.web.offline import phone

NAMES = ["Ali", "Dina", "Fadi", "Youssef"]
KING = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}}
QUEENS = {
    "contracts": ["queens"],
    "captures": {
        "queens": {
            q: {"taker": i, "doubled_by": None} for i, q in enumerate(["QS", "QH", "QD", "QC"])
        }
    },
}
DIAMONDS = {"contracts": ["diamonds"], "captures": {"diamonds": [4, 3, 3, 3]}}
COLLECTIONS = {"contracts": ["collections"], "captures": {"tricks": [4, 3, 3, 3]}}
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
KINGDOM = [KING, QUEENS, DIAMONDS, COLLECTIONS, TRIX]
REDEAL = {"kind": "redeal", "seat": 2, "contract": None, "note": ""}
AT = datetime(2026, 1, 1, tzinfo=UTC)


def deal_of(data: dict[str, Any]) -> dict[str, Any]:
    return {"action": "redeal" if "kind" in data else "record", "entry": data}


def screen(
    stored: list[dict[str, Any]], pending: list[dict[str, Any]], rules: dict[str, Any] | None = None
) -> Any:
    game = {"rules": rules or {}, "first_king": 0, "players": NAMES, "log": stored}
    marked = [{**p, "entry_id": f"o{i}"} for i, p in enumerate(pending)]
    return json.loads(phone.screen(json.dumps({"game": game, "pending": marked})))


def server_view(
    entries: list[dict[str, Any]], rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What the server's game page shows once ``entries`` are its whole log."""
    parsed = [entry_from_dict(e) for e in entries]
    ruleset = RuleSet.from_dict(rules or {})
    game = Game.replay(ruleset, 0, NAMES, parsed)
    log, n = [], 0
    for position, entry in enumerate(parsed):
        n += isinstance(entry, DealEntry)
        kind = "deal" if isinstance(entry, DealEntry) else "redeal"
        log.append(LogRow(position, kind, entry, n if kind == "deal" else None, AT))
    board = build_board(game, log)
    over = not game.in_kingdoms and not game.needs_extra_deal
    last = board.last_entry
    rows = [*board.kingdoms, *([board.extra] if board.extra else [])]
    return {
        "next_deal": board.next_deal,
        "deals_total": game.deals_total,
        "king": game.current_king,
        "number": game.kingdom_index + 1,
        "dealer": board.dealer,
        "first_lead": board.first_lead,
        "trix_first": board.trix_first,
        "choices": [] if over else [[c.value for c in g] for g in board.choices],
        "totals": list(game.totals),
        "leaders": sorted(board.leaders),
        "last": None if last is None else (last.kind, last.n, [c.value for c in last.contracts]),
        "sheet": [
            (
                v.number,
                v.king,
                [getattr(r, "deal", None) and r.deal.n for r in v.rows],
                list(v.totals),
            )
            for v in rows
        ],
        "played": [(r.number, r.king, list(r.deals)) for r in played_grid(board.kingdoms)],
    }


def phone_view(answer: dict[str, Any]) -> dict[str, Any]:
    s = answer["screen"]
    last = s["last"]
    return {
        "next_deal": s["next_deal"],
        "deals_total": s["deals_total"],
        "king": s["kingdom"]["king"],
        "number": s["kingdom"]["number"],
        "dealer": s["dealer"],
        "first_lead": s["first_lead"],
        "trix_first": s["trix_first"],
        "choices": s["choices"],
        "totals": s["totals"],
        "leaders": s["leaders"],
        "last": None if last is None else (last["kind"], last["n"], last["contracts"]),
        "sheet": [
            (k["number"], k["king"], [r.get("n") for r in k["rows"]], k["totals"])
            for k in s["sheet"]
        ],
        "played": [(r["number"], r["king"], r["deals"]) for r in s["played"]],
    }


def agrees(entries: list[dict[str, Any]], rules: dict[str, Any] | None = None) -> None:
    """Every split of ``entries`` between the server's log and the outbox draws the
    server's page for the whole log."""
    expected = server_view(entries, rules)
    for split in range(len(entries) + 1):
        stored = entries[:split]
        pending = [deal_of(e) for e in entries[split:]]
        answer = screen(stored, pending, rules)
        assert answer["refused"] is None
        assert phone_view(answer) == expected, f"{split} stored, {len(pending)} on the phone"


def test_a_kingdoms_last_deal_saved_on_the_phone_starts_the_next_kingdom() -> None:
    answer = screen(KINGDOM[:4], [deal_of(TRIX)])
    s = answer["screen"]
    assert s["kingdom"]["number"] == 2 and s["kingdom"]["king"] != 0
    assert s["choices"] == [["king"], ["queens"], ["diamonds"], ["collections"], ["trix"]]
    assert s["next_deal"] == 6
    agrees(KINGDOM + [KING])


def test_the_games_last_deal_ends_the_game_with_no_choice_left() -> None:
    entries = KINGDOM * 4
    answer = screen(entries[:-1], [deal_of(entries[-1])])
    assert answer["screen"]["over"] and answer["screen"]["choices"] == []
    agrees(entries)


def test_a_redeal_uses_no_contract_and_is_a_line_of_its_kingdom() -> None:
    entries = [KING, REDEAL, QUEENS, DIAMONDS, COLLECTIONS, TRIX, REDEAL, KING]
    agrees(entries)
    s = screen(entries[:1], [deal_of(e) for e in entries[1:]])["screen"]
    assert [r.get("redeal", {}).get("kind") for r in s["sheet"][0]["rows"]][:2] == [None, "redeal"]
    assert s["sheet"][1]["rows"][0]["redeal"]["kind"] == "redeal"


def test_a_correction_on_the_phone_changes_the_scores_and_not_whose_deal_it_is() -> None:
    fixed = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 3, "doubled_by": 2}}}
    answer = screen([KING, QUEENS], [{"action": "edit", "n": 1, "entry": fixed}])
    assert phone_view(answer) == server_view([fixed, QUEENS])
    assert answer["screen"]["last"]["entry_id"] is None


def test_an_undo_on_the_phone_goes_back_over_a_kingdom_boundary() -> None:
    answer = screen(KINGDOM, [{"action": "undo"}])
    assert phone_view(answer) == server_view(KINGDOM[:4])
    assert answer["screen"]["kingdom"] == {"number": 1, "total": 4, "king": 0, "team": None}
    assert answer["screen"]["choices"] == [["trix"]]


def test_the_latest_entry_says_whose_it_is() -> None:
    answer = screen([KING], [deal_of(QUEENS), deal_of(REDEAL)])
    assert answer["screen"]["last"] == {
        "kind": "redeal",
        "n": None,
        "contracts": [],
        "entry_id": "o1",
    }
    answer = screen([KING], [deal_of(QUEENS)])
    assert answer["screen"]["last"] == {
        "kind": "deal", "n": 2, "contracts": ["queens"], "entry_id": "o0",
    }  # fmt: skip
    assert answer["deals"]["o0"]["n"] == 2


def test_a_fixed_contract_order_offers_only_the_next_contract_across_a_boundary() -> None:
    rules = {"contract_order": ["trix", "queens", "king", "diamonds", "collections"]}
    ordered = [TRIX, QUEENS, KING, DIAMONDS, COLLECTIONS]
    answer = screen(ordered[:4], [deal_of(ordered[4])], rules)
    assert answer["screen"]["choices"] == [["trix"]]
    agrees([*ordered, TRIX], rules)


def test_team_kingdoms_name_the_kingdoms_team() -> None:
    rules = {"partnership": True, "team_kingdoms": True}
    answer = screen(KINGDOM[:4], [deal_of(TRIX)], rules)
    s = answer["screen"]
    assert s["kingdom"]["team"] == sorted(s["kingdom"]["team"]) and s["kingdom"]["team"] != [0, 2]
    assert s["team_totals"] is not None
    agrees([*KINGDOM, KING], rules)


def test_a_rotating_dealer_is_counted_with_the_phones_deals() -> None:
    agrees(
        [KING, REDEAL, QUEENS, DIAMONDS, COLLECTIONS, TRIX],
        {"dealer": "rotates", "first_dealer": 2},
    )


def test_a_tables_first_deal_on_the_phone_names_the_king() -> None:
    game = {"rules": {}, "first_king": 0, "players": NAMES, "log": [], "first_king_from_deal": True}
    before = json.loads(phone.screen(json.dumps({"game": game, "pending": []})))
    assert before["screen"]["first_king_open"] and before["screen"]["kingdom"]["king"] is None
    first = {**KING, "king": 2}
    after = json.loads(phone.screen(json.dumps({"game": game, "pending": [deal_of(first)]})))
    assert not after["screen"]["first_king_open"] and after["screen"]["kingdom"]["king"] == 2


def test_an_entry_that_no_longer_fits_stops_the_replay_and_the_rest_waits() -> None:
    answer = screen([KING], [deal_of(QUEENS), deal_of(KING), deal_of(DIAMONDS)])
    assert answer["refused"]["at"] == 1 and answer["refused"]["status"] == 409
    assert answer["screen"]["next_deal"] == 3 and list(answer["deals"]) == ["o0"]


@pytest.mark.parametrize("pending", [[], [deal_of(QUEENS)]])
def test_check_answers_with_the_same_screen(pending: list[dict[str, Any]]) -> None:
    game = {"rules": {}, "first_king": 0, "players": NAMES, "log": [KING]}
    marked = [{**p, "entry_id": f"o{i}"} for i, p in enumerate(pending)]
    checked = json.loads(phone.check(json.dumps({"game": game, "pending": marked, "entry": None})))
    assert checked["screen"] == screen([KING], pending)["screen"]
