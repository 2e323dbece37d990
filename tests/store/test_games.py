"""The services on SQLite and PostgreSQL: every path, every refusal, nothing written on failure.

Each test runs twice: on a SQLite file (WAL, as in production) and on the
PostgreSQL server of scripts/test.sh, in a fresh schema.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.errors import IllegalError, MalformedError, RulesError, StateError
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store import models
from scorekeeper.web.errors import refusal_text
from tests.common import NAMES, C, D, K, Q, T
from tests.sql import sql_statements

# --- building deals ------------------------------------------------------------------------


def king(taker: int, doubled_by: int | None = None, seat: int | None = None) -> DealEntry:
    return DealEntry((K,), Captures(king_of_hearts=Capture(taker, doubled_by)), seat)


def queens(qs: int, qh: int, qd: int, qc: int) -> DealEntry:
    caps = (Capture(qs), Capture(qh), Capture(qd), Capture(qc))
    return DealEntry((Q,), Captures(queens=caps))


def diamonds(a: int, b: int, c: int, d: int) -> DealEntry:
    return DealEntry((D,), Captures(diamonds=(a, b, c, d)))


def collections(a: int, b: int, c: int, d: int) -> DealEntry:
    return DealEntry((C,), Captures(tricks=(a, b, c, d)))


def trix(a: int, b: int, c: int, d: int) -> DealEntry:
    return DealEntry((T,), Captures(trix_order=(a, b, c, d)))


def kingdom(k: int) -> list[DealEntry]:
    """King ``k``'s five deals, in an order that differs from kingdom to kingdom.

    Per kingdom the king's neighbours take: K♥ -> k+1; Q♠ Q♥ -> k+2, Q♦ -> k+3,
    Q♣ -> k; Trix order k+1, k, k+3, k+2. Diamonds (5, 4, 3, 1) and tricks
    (2, 3, 4, 4) are the same every kingdom, so the game does not end in a tie.
    """
    s = [(k + i) % 4 for i in range(4)]
    deals = [
        trix(s[1], s[0], s[3], s[2]),
        king(s[1]),
        queens(s[2], s[2], s[3], s[0]),
        diamonds(5, 4, 3, 1),
        collections(2, 3, 4, 4),
    ]
    return deals[k:] + deals[:k]


TWENTY = [deal for k in range(4) for deal in kingdom(k)]
# Worked by hand: every seat gets −75 (K♥), −100 (queens) and +500 (Trix) once over the
# four kingdoms = +325; diamonds 4 × (−50, −40, −30, −10); tricks 4 × (−30, −45, −60, −60).
FINAL_TOTALS = [325 - 200 - 120, 325 - 160 - 180, 325 - 120 - 240, 325 - 40 - 240]
assert FINAL_TOTALS == [5, -15, -35, 45]


def new_game(**rules: Any) -> tuple[services.LoadedGame, str]:
    return services.create_game(list(NAMES), 0, RuleSet.from_dict(rules))


def play(game_id: str, deals: list[DealEntry]) -> services.LoadedGame:
    loaded = services.load_game(game_id)
    for deal in deals:
        loaded, _ = services.record_deal(game_id, deal)
    return loaded


def snapshot(game_id: str) -> tuple[int, int, int, Any]:
    """What a refused write must leave unchanged: version, log, revisions, summary."""
    db.session.remove()
    row = db.session.get(models.Game, game_id)
    assert row is not None
    entries = db.session.scalar(
        select(func.count()).select_from(models.LogEntry).where(models.LogEntry.game_id == game_id)
    )
    revisions = db.session.scalar(
        select(func.count()).select_from(models.Revision).where(models.Revision.game_id == game_id)
    )
    return row.version, entries or 0, revisions or 0, row.summary


# --- creating and loading ------------------------------------------------------------------


def test_create_game_stores_players_rules_and_a_hashed_token(db_app: Flask) -> None:
    loaded, token = services.create_game([" Rana ", "Sami", "عمر", "Lina"], 2, RuleSet())
    assert loaded.version == 1 and loaded.players == ["Rana", "Sami", "عمر", "Lina"]
    assert len(loaded.id) >= 16 and len(token) >= 47  # ≥ 96 and ≥ 256 random bits, a check
    row = db.session.get(models.Game, loaded.id)
    assert row is not None and token not in row.edit_token_hash
    assert services.token_matches(loaded.id, token)
    assert not services.token_matches(loaded.id, token[:-1])
    assert not services.token_matches("no-such-game", token)
    again = services.load_game(loaded.id)
    assert again.players == ["Rana", "Sami", "عمر", "Lina"] and again.first_king == 2
    assert again.state()["current_king"] == 2 and again.state()["id"] == loaded.id
    assert again.created_at.tzinfo is not None


def test_every_game_gets_its_own_id_and_token(db_app: Flask) -> None:
    made = [new_game() for _ in range(5)]
    assert len({g.id for g, _ in made}) == 5 and len({t for _, t in made}) == 5


def test_state_is_the_api_game_state(db_app: Flask) -> None:
    loaded, _ = new_game()
    state = services.load_game(loaded.id).state()
    for key in ("id", "version", "players", "rules", "zero_sum", "kingdoms", "totals"):
        assert key in state
    for key in ("current_king", "available_contracts", "finished", "standings", "winner", "tied"):
        assert key in state
    assert state["version"] == 1 and state["rules"] == RuleSet().to_dict()


@pytest.mark.parametrize(
    ("players", "field", "code"),
    [
        (["Rana", "Sami", "Omar"], "players", "players_count"),
        ("Rana", "players", "players_count"),
        (["Rana", "Sami", "Omar", "  "], "players.3", "player_name"),
        (["Rana", "Sami", "x" * 41, "Lina"], "players.2", "player_name_length"),
        (["Rana", "Sami", "rana", "Lina"], "players.2", "player_name_twice"),
        (["Rana", 7, "Omar", "Lina"], "players.1", "player_name"),
        (["Rana", "Sa\nmi", "Omar", "Lina"], "players.1", "player_name_control"),
    ],
)
def test_r1_bad_players_are_refused_and_nothing_is_saved(
    db_app: Flask, players: Any, field: str, code: str
) -> None:
    with pytest.raises(RulesError) as caught:
        services.create_game(players, 0, RuleSet())
    problem = caught.value.problems[0]
    assert (problem.field, problem.code, problem.rule) == (field, code, "R1")
    assert isinstance(caught.value, (MalformedError, IllegalError))
    assert db.session.scalar(select(func.count()).select_from(models.Game)) == 0


def test_r1_forty_characters_and_any_script_are_fine(db_app: Flask) -> None:
    names = ["ر" * 40, "Sami", "Ωμέγα", "李娜"]
    loaded, _ = services.create_game(names, 0, RuleSet())
    assert services.load_game(loaded.id).players == names


def test_bad_first_king_is_refused(db_app: Flask) -> None:
    with pytest.raises(MalformedError) as caught:
        services.create_game(list(NAMES), 4, RuleSet())
    assert caught.value.problems[0].field == "first_king"


def test_unknown_game_is_not_found(db_app: Flask) -> None:
    with pytest.raises(services.GameNotFound):
        services.load_game("nope")
    with pytest.raises(services.GameNotFound):
        services.record_deal("nope", trix(0, 1, 2, 3))
    assert not services.game_exists("nope")


# --- recording deals -----------------------------------------------------------------------


def test_record_deal_appends_scores_and_keeps_a_revision(db_app: Flask) -> None:
    loaded, _ = new_game()
    after, n = services.record_deal(loaded.id, trix(2, 0, 3, 1), 1, source="api")
    assert n == 1 and after.version == 2
    assert after.game.totals == (150, 50, 200, 100)
    assert [(r.position, r.kind, r.n) for r in after.log] == [(0, "deal", 1)]
    fresh = services.load_game(loaded.id)
    assert fresh.state() == after.state()
    (revision,) = services.deal_revisions(loaded.id, 1)
    assert (revision.action, revision.source, revision.version) == ("record", "api", 2)
    assert revision.before is None and revision.after is not None
    assert revision.after["scores"] == [150, 50, 200, 100]
    assert revision.after["captures"] == {"trix_order": [2, 0, 3, 1]}


def test_r2_repeated_contract_is_409_and_nothing_is_written(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, trix(2, 0, 3, 1))
    before = snapshot(loaded.id)
    with pytest.raises(StateError) as caught:
        services.record_deal(loaded.id, trix(0, 1, 2, 3))
    assert isinstance(caught.value, StateError)
    assert caught.value.problems[0].code == "contract_already_played"
    assert "The kingdom of Rana has already had Trix" in str(caught.value)
    assert snapshot(loaded.id) == before


def test_r11_invalid_captures_are_422_and_nothing_is_written(db_app: Flask) -> None:
    loaded, _ = new_game()
    before = snapshot(loaded.id)
    with pytest.raises(IllegalError) as caught:
        services.record_deal(loaded.id, diamonds(5, 4, 3, 0))
    assert isinstance(caught.value, (MalformedError, IllegalError))
    assert caught.value.problems[0].field == "captures.diamonds"
    assert "add up to 13" in str(caught.value)
    assert snapshot(loaded.id) == before


def test_stale_version_is_refused_with_what_changed(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, king(1), 1)
    before = snapshot(loaded.id)
    with pytest.raises(services.StaleVersion) as caught:
        services.record_deal(loaded.id, trix(2, 0, 3, 1), 1)
    said = refusal_text(caught.value)  # the store gives the facts; the web layer words them
    assert "Deal 1 was already recorded: \u2068Rana\u2069's King of Hearts." in said
    assert [c.action for c in caught.value.changes] == ["record"]
    assert caught.value.loaded.version == 2 and caught.value.expected == 1
    assert caught.value.loaded.game.deals_played == 1
    assert snapshot(loaded.id) == before


def test_a_version_from_the_future_is_stale_too(db_app: Flask) -> None:
    loaded, _ = new_game()
    with pytest.raises(services.StaleVersion) as caught:
        services.record_deal(loaded.id, king(1), 9)
    assert caught.value.changes == ()
    assert "not a version of this game" in refusal_text(caught.value)


def test_without_expected_version_the_next_valid_deal_is_recorded(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, king(1))
    after, n = services.record_deal(loaded.id, trix(2, 0, 3, 1))
    assert n == 2 and after.version == 3


def test_a_full_game_of_twenty_deals(db_app: Flask) -> None:
    loaded, _ = new_game()
    after = play(loaded.id, TWENTY)
    assert after.version == 21 and after.game.deals_played == 20
    assert list(after.game.totals) == FINAL_TOTALS
    state = services.load_game(loaded.id).state()
    assert state["totals"] == FINAL_TOTALS
    assert state["finished"] and state["winner"] == 3 and state["current_king"] is None
    assert [k["king"] for k in state["kingdoms"]] == [0, 1, 2, 3]
    assert all(sum(k["totals"]) == 0 for k in state["kingdoms"])
    with pytest.raises(StateError) as caught:
        services.record_deal(loaded.id, king(1))
    assert caught.value.problems[0].code == "game_over"


def test_short_game_finishes_after_one_kingdom(db_app: Flask) -> None:
    loaded, _ = new_game(kingdoms=1)
    after = play(loaded.id, kingdom(0))
    assert after.game.finished
    in_progress, finished = services.list_games()
    assert [g.id for g in finished] == [loaded.id] and in_progress == []


# --- redeals -------------------------------------------------------------------------------


def test_r8_redeal_uses_no_contract_and_no_deal_number(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, king(1))
    after = services.record_redeal(loaded.id, RedealEntry("redeal", 2, T, "four 2s"), 2)
    assert after.version == 3 and [r.n for r in after.log] == [1, None]
    assert after.log[1].kind == "redeal"
    after, n = services.record_deal(loaded.id, trix(2, 0, 3, 1))
    assert n == 2 and [r.n for r in after.log] == [1, None, 2]
    assert services.load_game(loaded.id).state()["kingdoms"][0]["redeals"][0]["note"] == "four 2s"


def test_r8_redeal_refusals_write_nothing(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, king(1))
    before = snapshot(loaded.id)
    with pytest.raises(StateError):  # King of Hearts is already played
        services.record_redeal(loaded.id, RedealEntry("redeal", 1, K))
    with pytest.raises(IllegalError):  # no redeal can be claimed in Diamonds
        services.record_redeal(loaded.id, RedealEntry("redeal", 1, D))
    assert snapshot(loaded.id) == before


# --- editing -------------------------------------------------------------------------------


def test_edit_deal_rescores_and_keeps_before_and_after(db_app: Flask) -> None:
    loaded, _ = new_game()
    play(loaded.id, [king(1), trix(2, 0, 3, 1)])
    after = services.edit_deal(loaded.id, 1, king(2), 3, source="page")
    assert after.version == 4 and after.game.totals == (150, 50, 125, 100)
    assert services.load_game(loaded.id).game.totals == (150, 50, 125, 100)
    record, edit = services.deal_revisions(loaded.id, 1)
    assert (record.action, edit.action) == ("record", "edit")
    assert edit.before is not None and edit.after is not None
    assert edit.before["scores"] == [0, -75, 0, 0] and edit.after["scores"] == [0, 0, -75, 0]
    assert edit.after["captures"]["king_of_hearts"]["taker"] == 2


def test_edit_that_breaks_a_later_deal_is_refused_with_the_reason(db_app: Flask) -> None:
    loaded, _ = new_game()
    play(loaded.id, [king(1), trix(2, 0, 3, 1), diamonds(5, 4, 3, 1)])
    before = snapshot(loaded.id)
    with pytest.raises(StateError) as caught:
        services.edit_deal(loaded.id, 1, diamonds(1, 3, 4, 5), 4)
    problem = caught.value.problems[0]
    assert isinstance(caught.value, StateError) and problem.code == "edit_breaks_later_deal"
    assert problem.field == "deals.3.contracts" and problem.rule == "R2"
    assert problem.message.startswith("Changing deal 1 this way would break deal 3:")
    assert "already had Diamonds" in problem.message
    assert snapshot(loaded.id) == before


def test_edit_with_bad_captures_is_the_edits_own_error(db_app: Flask) -> None:
    loaded, _ = new_game()
    play(loaded.id, [diamonds(5, 4, 3, 1), king(1)])
    before = snapshot(loaded.id)
    with pytest.raises(IllegalError) as caught:
        services.edit_deal(loaded.id, 1, diamonds(5, 4, 3, 2), 3)
    assert caught.value.problems[0].field == "captures.diamonds"
    assert snapshot(loaded.id) == before


def test_edit_of_a_missing_deal_or_with_a_stale_version(db_app: Flask) -> None:
    loaded, _ = new_game()
    play(loaded.id, [king(1)])
    with pytest.raises(services.DealNotFound) as missing:
        services.edit_deal(loaded.id, 2, king(2), 2)
    assert refusal_text(missing.value) == "This game has no deal 2; it has 1 deal so far."
    with pytest.raises(services.StaleVersion):
        services.edit_deal(loaded.id, 1, king(2), 1)
    assert services.load_game(loaded.id).game.totals == (0, -75, 0, 0)


def test_an_edit_that_changes_nothing_writes_nothing(db_app: Flask) -> None:
    loaded, _ = new_game()
    play(loaded.id, [king(1)])
    before = snapshot(loaded.id)
    assert services.edit_deal(loaded.id, 1, king(1), 2).version == 2
    assert snapshot(loaded.id) == before


# --- undo ----------------------------------------------------------------------------------


def test_undo_removes_the_last_entry_and_keeps_a_revision(db_app: Flask) -> None:
    loaded, _ = new_game()
    play(loaded.id, [king(1), trix(2, 0, 3, 1)])
    services.record_redeal(loaded.id, RedealEntry("misdeal", note="card shown"))
    after = services.undo_last(loaded.id, 4)  # the misdeal
    assert after.version == 5 and [r.n for r in after.log] == [1, 2]
    after = services.undo_last(loaded.id, 5)  # deal 2
    assert after.game.deals_played == 1 and after.game.totals == (0, -75, 0, 0)
    assert services.load_game(loaded.id).state() == after.state()
    assert [r.action for r in services.deal_revisions(loaded.id, 1)] == ["record"]
    services.record_deal(loaded.id, trix(0, 1, 2, 3))
    history = services.deal_revisions(loaded.id, 2)
    assert [r.action for r in history] == ["record", "undo", "record"]
    assert history[1].before is not None and history[1].after is None
    assert history[1].before["captures"] == {"trix_order": [2, 0, 3, 1]}


def test_undo_with_nothing_to_undo_or_a_stale_version(db_app: Flask) -> None:
    loaded, _ = new_game()
    with pytest.raises(StateError, match="nothing to undo"):
        services.undo_last(loaded.id, 1)
    play(loaded.id, [king(1)])
    with pytest.raises(services.StaleVersion) as caught:
        services.undo_last(loaded.id, 1)
    assert "Deal 1 was already recorded" in refusal_text(caught.value)
    assert services.load_game(loaded.id).game.deals_played == 1


def test_deal_revisions_of_a_missing_deal(db_app: Flask) -> None:
    loaded, _ = new_game()
    with pytest.raises(services.DealNotFound):
        services.deal_revisions(loaded.id, 1)


# --- lists ---------------------------------------------------------------------------------


def test_list_games_splits_and_summarises_newest_first(db_app: Flask) -> None:
    first, _ = services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
    second, _ = services.create_game(["Hala", "Ziad", "Rana", "Nour"], 1, RuleSet(kingdoms=1))
    play(second.id, kingdom(1))
    play(first.id, [trix(2, 0, 3, 1)])  # now the most recently changed
    fresh, _ = services.create_game(["Aya", "Badr", "Carl", "Dina"], 0, RuleSet())
    in_progress, finished = services.list_games()
    assert [g.id for g in in_progress] == [fresh.id, first.id]
    assert [g.id for g in finished] == [second.id]
    summary = in_progress[1]
    assert (summary.deals_played, summary.deals_total) == (1, 20)
    assert summary.totals == [150, 50, 200, 100] and summary.leaders == ["Omar"]
    assert in_progress[0].leaders == [] and not summary.finished
    assert finished[0].finished and finished[0].winner is not None
    assert finished[0].deals_played == finished[0].deals_total == 5


def test_recent_player_names_newest_first_without_repeats(db_app: Flask) -> None:
    services.create_game(["Rana", "Sami", "Omar", "Lina"], 0, RuleSet())
    services.create_game(["Hala", "rana", "Ziad", "Nour"], 0, RuleSet())
    assert services.recent_player_names() == [
        "Hala",
        "rana",
        "Ziad",
        "Nour",
        "Sami",
        "Omar",
        "Lina",
    ]
    assert services.recent_player_names(limit=2) == ["Hala", "rana"]


# --- concurrency and speed -----------------------------------------------------------------


def race(app: Flask, *calls: Callable[[], object]) -> list[object]:
    """Run the calls at the same moment, each in its own thread and session."""
    db.session.remove()
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        with app.app_context():
            barrier.wait()
            try:
                results[index] = call()
            except Exception as error:  # noqa: BLE001  (the test inspects it)
                results[index] = error
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_two_phones_with_the_same_version_exactly_one_is_saved(db_app: Flask) -> None:
    loaded, _ = new_game()
    for _ in range(3):
        version = services.load_game(loaded.id).version
        results = race(
            db_app,
            lambda v=version: services.record_deal(loaded.id, king(1), v),
            lambda v=version: services.record_deal(loaded.id, king(2), v),
        )
        saved = [r for r in results if isinstance(r, tuple)]
        stale = [r for r in results if isinstance(r, services.StaleVersion)]
        assert len(saved) == 1 and len(stale) == 1, results
        assert "was already recorded: \u2068Rana\u2069's King of Hearts" in refusal_text(stale[0])
        assert services.load_game(loaded.id).game.deals_played == 1
        services.undo_last(loaded.id, version + 1)


def test_two_phones_without_a_version_the_contract_is_played_once(db_app: Flask) -> None:
    loaded, _ = new_game()
    results = race(
        db_app,
        lambda: services.record_deal(loaded.id, king(1)),
        lambda: services.record_deal(loaded.id, king(3)),
    )
    assert sum(isinstance(r, tuple) for r in results) == 1, results
    assert sum(isinstance(r, StateError) for r in results) == 1, results
    state = services.load_game(loaded.id)
    assert state.version == 2 and state.game.deals_played == 1


def count_statements(action: Callable[[], object]) -> list[str]:
    db.session.remove()
    with sql_statements() as statements:
        action()
    return statements


def test_loading_a_game_takes_the_same_few_queries_whatever_its_length(db_app: Flask) -> None:
    short, _ = new_game()
    play(short.id, TWENTY[:1])
    long, _ = new_game()
    play(long.id, TWENTY)
    one = count_statements(lambda: services.load_game(short.id))
    twenty = count_statements(lambda: services.load_game(long.id))
    assert len(one) == len(twenty) <= 4, twenty
