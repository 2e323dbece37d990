"""A player leaves in the middle of a round, on SQLite and PostgreSQL: a substitute takes
his seat (the seat's result goes to whoever finishes it), or the tables not started are
drawn again without him; refused, nothing is saved."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.rules.errors import RulesError
from scorekeeper.store import games
from scorekeeper.store.events import changes as event_changes
from scorekeeper.store.events import services as events
from scorekeeper.store.events.input import parse_new_event_body
from tests.store.test_events import trix

NINE = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad", "Dana"]


def night(players: list[str] = NINE, **body: object) -> tuple[events.EventView, str]:
    event, token = events.create_event(
        parse_new_event_body({"name": "Night", "players": players, "seed": 3, **body})
    )
    events.draw_next_round(event.id, token)
    return events.load_event(event.id), token


def refused(code: str, call: object) -> None:
    with pytest.raises(RulesError) as caught:
        call()  # type: ignore[operator]
    assert caught.value.problems[0].code == code


def test_a_substitute_takes_the_seat_and_the_game_goes_on_under_his_name(db_app: Flask) -> None:
    event, _token = night()
    table = event.drawn[0].tables[0]
    leaving, substitute = table.players[2], event.drawn[0].sitting_out[0]
    games.record_deal(table.game_id, trix((0, 1, 2, 3)))
    after = event_changes.replace_player(event.id, 1, leaving, substitute)
    changed = after.drawn[0].tables[0]
    assert changed.players[2] == substitute and leaving not in changed.players
    assert after.drawn[0].sitting_out == ()
    loaded = games.load_game(table.game_id)
    assert loaded.players[2] == substitute and loaded.game.deals_played == 1
    change = after.drawn[0].changes[0]
    assert (change.kind, change.player, change.substitute, change.after_deals) == (
        "replace",
        leaving,
        substitute,
        1,
    )
    # The seat's result goes to whoever finishes it; the leaver scores nothing this round.
    points = {s.player: s.points for s in after.standings()}
    assert points[substitute] == changed.totals[2] and points[leaving] == 0
    assert leaving not in after.present(2)


def test_a_new_name_or_a_late_arrival_can_substitute(db_app: Flask) -> None:
    event, _token = night(NINE[:8])
    events.add_player(event.id, "Late")
    first = event.drawn[0].tables[0].players[0]
    after = event_changes.replace_player(event.id, 1, first, "late")
    assert "Late" in after.drawn[0].tables[0].players
    assert after.present(1).count("Late") == 1
    second = after.drawn[0].tables[1].players[0]
    after = event_changes.replace_player(event.id, 1, second, "Newcomer")
    assert after.drawn[0].tables[1].players[0] == "Newcomer"
    assert [p.name for p in after.players][-1] == "Newcomer"


def test_a_replacement_is_refused_when_it_cannot_be_done_and_nothing_is_saved(
    db_app: Flask,
) -> None:
    event, _token = night()
    table = event.drawn[0].tables[0]
    seated, other = table.players[0], event.drawn[0].tables[1].players[0]
    out = event.drawn[0].sitting_out[0]
    refused("event_player_not_seated", lambda: event_changes.replace_player(event.id, 1, out, "X"))
    refused("event_not_a_player", lambda: event_changes.replace_player(event.id, 1, "Nobody", out))
    refused("event_player_seated", lambda: event_changes.replace_player(event.id, 1, seated, other))
    refused("event_no_such_round", lambda: event_changes.replace_player(event.id, 2, seated, out))
    events.lock_round(event.id, 1)
    refused("event_round_locked", lambda: event_changes.replace_player(event.id, 1, seated, out))
    events.close_event(event.id)
    refused("event_closed", lambda: event_changes.replace_player(event.id, 1, seated, out))
    after = events.load_event(event.id)
    assert after.drawn[0].tables == event.drawn[0].tables and not after.drawn[0].changes
    assert games.load_game(table.game_id).players == list(table.players)


def test_a_redraw_keeps_started_tables_and_draws_the_others_again_seeded(db_app: Flask) -> None:
    event, token = night()
    started, waiting = event.drawn[0].tables
    games.record_deal(started.game_id, trix((0, 1, 2, 3)))
    leaving = waiting.players[1]
    drawn = event_changes.redraw(event.id, 1, leaving, token)
    assert drawn.seed == "3-1-r1" and [t.number for t in drawn.tables] == [2]
    after = events.load_event(event.id)
    kept, fresh = after.drawn[0].tables
    assert kept == events.load_event(event.id).drawn[0].tables[0] and kept.deals == 1
    assert leaving not in fresh.players and after.drawn[0].sitting_out == ()
    assert sorted(fresh.players) == sorted(
        [*(n for n in waiting.players if n != leaving), *event.drawn[0].sitting_out]
    )
    assert not games.game_exists(waiting.game_id)
    assert games.token_matches(fresh.game_id, drawn.tables[0].edit_token)
    assert after.drawn[0].changes[0].seed == "3-1-r1" and leaving not in after.present(2)
    refused(
        "event_table_started", lambda: event_changes.redraw(event.id, 1, kept.players[0], token)
    )


def test_a_redraw_with_no_one_sitting_out_leaves_three_out_and_can_be_repeated(
    db_app: Flask,
) -> None:
    event, token = night(NINE[:8])
    leaving = event.drawn[0].tables[1].players[0]
    drawn = event_changes.redraw(event.id, 1, leaving, token)
    after = events.load_event(event.id)
    assert len(drawn.tables) == 1 and len(after.drawn[0].tables) == 1
    assert len(drawn.sitting_out) == 3 and drawn.seed == "3-1-r1"
    leaving = after.drawn[0].tables[0].players[0]
    drawn = event_changes.redraw(event.id, 1, leaving, token)
    assert drawn.seed == "3-1-r2" and len(drawn.tables) == 1 and len(drawn.sitting_out) == 2


def test_only_the_last_round_can_be_drawn_again(db_app: Flask) -> None:
    event, token = night()
    events.draw_next_round(event.id, token)
    leaving = event.drawn[0].tables[0].players[0]
    refused("event_redraw_not_last", lambda: event_changes.redraw(event.id, 1, leaving, token))


def test_r2_a_tables_first_deal_names_the_7_of_hearts_holder_as_first_king(db_app: Flask) -> None:
    from dataclasses import replace

    event, _token = night()
    table = event.drawn[0].tables[0]
    entry = replace(trix((0, 1, 2, 3)), king=2)
    loaded, _n = games.record_deal(table.game_id, entry)
    assert loaded.first_king == 2 and loaded.game.deals[0].king == 2
    reread = games.load_game(table.game_id)
    assert reread.first_king == 2 and reread.game.current_king == 2
    # Corrected on deal 1: the holder was seat 3 after all.
    fixed = games.edit_deal(table.game_id, 1, replace(entry, king=3), None)
    assert fixed.first_king == 3 and fixed.game.deals[0].king == 3


def test_r2_outside_a_club_night_or_under_an_agreed_order_the_first_king_stands(
    db_app: Flask,
) -> None:
    from dataclasses import replace

    game, _token = games.create_game(NINE[:4], 0, events.load_event(night()[0].id).rules)
    refused("not_the_king", lambda: games.record_deal(game.id, replace(trix((0, 1, 2, 3)), king=2)))
    rules = {"kingdom_order": "custom", "king_order": [1, 2, 3, 0]}
    event, _token = night(rules=rules)
    table = event.drawn[0].tables[0]
    refused(
        "not_the_king",
        lambda: games.record_deal(table.game_id, replace(trix((0, 1, 2, 3)), king=2)),
    )


# --- a player who left stays out of later rounds, until he is back ---------------------------


def test_a_replaced_player_is_not_drawn_again_and_each_later_draw_says_so(db_app: Flask) -> None:
    event, token = night()
    leaving = event.drawn[0].tables[0].players[1]
    event_changes.replace_player(event.id, 1, leaving, event.drawn[0].sitting_out[0])
    for number in (2, 3):
        drawn = events.draw_next_round(event.id, token)
        seated = [n for t in drawn.tables for n in t.players]
        assert leaving not in seated and leaving not in drawn.sitting_out
        assert drawn.left_out == (leaving,)
        assert events.load_event(event.id).drawn[number - 1].left_out == (leaving,)


def test_a_round_drawn_before_he_left_gives_his_seat_to_whoever_sits_it_out(
    db_app: Flask,
) -> None:
    event, token = night()
    events.draw_next_round(event.id, token)
    event = events.load_event(event.id)
    first, second = event.drawn
    substitute, waiting = first.sitting_out[0], second.sitting_out[0]
    leaving = next(n for t in second.tables for n in t.players if n not in (substitute, waiting))
    table = next(t for t in second.tables if leaving in t.players)
    after = event_changes.replace_player(event.id, 1, leaving, substitute)
    later = after.drawn[1]
    moved = next(t for t in later.tables if t.number == table.number)
    taker = substitute if substitute in second.sitting_out else waiting
    assert moved.players[table.players.index(leaving)] == taker
    assert leaving not in [n for t in later.tables for n in t.players]
    assert games.load_game(moved.game_id).players == list(moved.players)
    assert later.left_out == (leaving,) and taker not in later.sitting_out
    [change] = later.changes
    assert (change.kind, change.player, change.substitute, change.left_in) == (
        "replace",
        leaving,
        taker,
        1,
    )


def test_a_round_drawn_before_he_left_no_longer_lists_him_sitting_out(db_app: Flask) -> None:
    event, token = night()
    events.draw_next_round(event.id, token)
    event = events.load_event(event.id)
    first, second = event.drawn
    leaving = second.sitting_out[0]
    after = event_changes.replace_player(event.id, 1, leaving, first.sitting_out[0])
    assert after.drawn[1].sitting_out == () and after.drawn[1].left_out == (leaving,)
    assert after.drawn[1].tables == second.tables and not after.drawn[1].changes


def test_a_started_table_of_a_later_round_keeps_him_for_the_director(db_app: Flask) -> None:
    event, token = night()
    events.draw_next_round(event.id, token)
    second = events.load_event(event.id).drawn[1]
    table = second.tables[0]
    leaving = next(n for n in table.players if n not in event.drawn[0].sitting_out)
    games.record_deal(table.game_id, trix((0, 1, 2, 3)))
    after = event_changes.replace_player(event.id, 1, leaving, event.drawn[0].sitting_out[0])
    assert after.drawn[1].tables[0].players == table.players and not after.drawn[1].changes


def test_a_player_who_left_is_drawn_again_once_the_director_says_he_is_back(
    db_app: Flask,
) -> None:
    event, token = night()
    leaving = event.drawn[0].tables[0].players[1]
    event_changes.replace_player(event.id, 1, leaving, event.drawn[0].sitting_out[0])
    events.draw_next_round(event.id, token)
    back = events.add_player(event.id, leaving.upper())
    assert leaving not in [p.name for p in back.players if p.left_round is not None]
    assert [p.name for p in back.players].count(leaving) == 1
    drawn = events.draw_next_round(event.id, token)
    assert leaving in [n for t in drawn.tables for n in t.players] + list(drawn.sitting_out)
    assert drawn.left_out == ()
    # The rounds he missed still say so.
    assert events.load_event(event.id).drawn[1].left_out == (leaving,)
