"""Club nights in the database, on SQLite and PostgreSQL: rounds drawn in one transaction,
table results kept by every write to a table's game, standings without any replay."""

from __future__ import annotations

from flask import Flask

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.events.standings import Scoring, TableResult, Tally, table_points
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.store import games
from scorekeeper.store.events import services as events
from scorekeeper.store.events.changes import replace_player
from scorekeeper.store.events.input import parse_new_event_body
from tests.sql import sql_statements
from tests.store.test_games import kingdom

EIGHT = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad"]
FIFTEEN = [*EIGHT, "Joud", "Salma", "Rami", "Tala", "Karim", "Dana", "Fadi"]


def trix(order: tuple[int, int, int, int]) -> DealEntry:
    return DealEntry((Contract.TRIX,), Captures(trix_order=order))


def new_event(**body: object) -> tuple[events.EventView, str]:
    return events.create_event(
        parse_new_event_body({"name": "Night", "players": EIGHT, "seed": 3, **body})
    )


def test_a_round_starts_one_game_per_table_and_keeps_the_draw(db_app: Flask) -> None:
    event, token = new_event()
    drawn = events.draw_next_round(event.id, token)
    loaded = events.load_event(event.id)
    assert loaded.version == event.version + 1
    assert [t.game_id for t in loaded.drawn[0].tables] == [t.game_id for t in drawn.tables]
    for table in drawn.tables:
        game = games.load_game(table.game_id)
        assert game.players == list(table.players)
        assert games.token_matches(table.game_id, table.edit_token)


def test_each_write_to_a_tables_game_refreshes_its_result_and_the_events_version(
    db_app: Flask,
) -> None:
    event, token = new_event()
    table = events.draw_next_round(event.id, token).tables[0]
    before = events.load_event(event.id).version
    loaded, _n = games.record_deal(table.game_id, trix((1, 0, 3, 2)))
    after = events.load_event(event.id)
    assert after.version == before + 1
    result = after.drawn[0].tables[0]
    assert list(result.totals) == list(loaded.game.totals)
    assert result.trix_firsts == (0, 1, 0, 0) and result.deals == 1
    games.undo_last(table.game_id, None)
    assert events.load_event(event.id).drawn[0].tables[0].totals == (0, 0, 0, 0)


def test_a_game_outside_any_event_costs_one_lookup_more(db_app: Flask) -> None:
    loaded, _token = games.create_game(
        EIGHT[:4], 0, parse_new_event_body({"name": "x", "players": []}).rules
    )
    with sql_statements() as statements:
        games.record_deal(loaded.id, trix((0, 1, 2, 3)))
    assert sum("event_tables" in s for s in statements) == 1
    assert not any("UPDATE events" in s for s in statements)


def test_standings_come_from_stored_results_without_replaying_a_game(db_app: Flask) -> None:
    event, token = new_event()
    tables = events.draw_next_round(event.id, token).tables
    for table, order in zip(tables, [(0, 1, 2, 3), (3, 2, 1, 0)], strict=True):
        games.record_deal(table.game_id, trix(order))
    with sql_statements() as statements:
        standings = events.load_event(event.id).standings()
    selects = [s for s in statements if s.startswith("SELECT")]
    assert len(selects) == 5  # the event, its players, rounds, tables and changes
    assert not any("log_entries" in s for s in statements)
    expected = Tally.of(
        [
            TableResult(1, t.number, t.players, tuple(games.load_game(t.game_id).game.totals))  # type: ignore[arg-type]
            for t in tables
        ],
        Scoring.TOTALS,
    ).standings()
    assert [(s.player, s.points) for s in standings] == [(s.player, s.points) for s in expected]


def test_a_tables_notes_are_read_once_per_version_and_follow_a_substitute(
    db_app: Flask,
) -> None:
    """The four phones of a table fetch its page after each deal: only the first asks
    the database what the page says of the table; a seat change moves the version."""
    event, token = new_event(players=EIGHT + ["Sara"])
    table = events.draw_next_round(event.id, token).tables[0]
    loaded = games.load_game(table.game_id)
    with sql_statements() as first:
        assert events.table_notes(loaded).first_king_open
    with sql_statements() as again:
        assert events.table_notes(loaded).seat_changes == ()
    assert any("event_tables" in s for s in first) and again == []
    leaving = table.players[1]
    replace_player(event.id, 1, leaving, "Sara")
    notes = events.table_notes(games.load_game(table.game_id))
    assert [(c.player, c.substitute) for c in notes.seat_changes] == [(leaving, "Sara")]


# --- a round in play ---------------------------------------------------------------------------


def played_night() -> tuple[events.EventView, str]:
    """15 players by places, round 1 (one kingdom a table) played through; 3 sit it out."""
    event, token = new_event(players=FIFTEEN, round="kingdom", rounds=3, scoring="places")
    for table in events.draw_next_round(event.id, token).tables:
        for entry in kingdom(0):
            games.record_deal(table.game_id, entry)
    return events.load_event(event.id), token


def test_a_round_drawn_with_no_deal_leaves_every_standing_unchanged(db_app: Flask) -> None:
    event, token = played_night()
    before = event.standings()
    drawn = events.draw_next_round(event.id, token)
    after = events.load_event(event.id)
    assert after.standings() == before  # nobody moves before a card is played, a sit-out neither
    # Counted as four level totals, the new tables would share out 1.5 points a seat.
    shared = after.tally()
    for table in drawn.tables:
        shared.apply(TableResult(2, table.number, table.players, (0, 0, 0, 0)))
    assert [s.player for s in shared.standings()] != [s.player for s in before]


def test_a_table_with_a_deal_counts_its_result_so_far_marked_as_provisional(
    db_app: Flask,
) -> None:
    event, token = played_night()
    before = {s.player: s for s in event.standings()}
    table = events.draw_next_round(event.id, token).tables[0]
    games.record_deal(table.game_id, kingdom(0)[0])
    after = events.load_event(event.id)
    result = after.drawn[1].tables[0]
    assert (result.deals, result.finished) == (1, False)
    assert set(after.playing()) >= set(table.players)
    earned = table_points(result.result(), after.scoring, after.places)
    for line in after.standings():
        old = before[line.player]
        if line.player in table.players:
            seat = table.players.index(line.player)
            # His finished tables and byes give what they gave; the rest is provisional.
            assert line.points - line.provisional == old.points
            assert line.tables == old.tables + 1
            if not line.byes:  # an average bye moves with the table, provisionally too
                assert line.provisional == earned[seat]
        elif line.player in after.drawn[1].sitting_out:
            assert line.byes == old.byes + 1  # the round is under way: its byes count
        else:
            assert (line.points, line.tables, line.provisional) == (old.points, old.tables, 0)


def test_a_finished_table_counts_as_settled_points(db_app: Flask) -> None:
    event, _token = played_night()
    standings = event.standings()
    assert all(s.provisional == 0 for s in standings)  # every table of round 1 has finished
    assert not event.playing()
    assert sorted(s.tables for s in standings) == [0] * 3 + [1] * 12
