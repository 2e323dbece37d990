"""One deal, one position, and the time it was played: the store on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from flask import Flask

from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store.played import AHEAD, EARLY, check_played_at, parse_played_at
from scorekeeper.store.positions import Position, PositionTaken, parse_position
from tests.common import NAMES
from tests.store.test_games import kingdom, snapshot, trix


def new_game() -> services.LoadedGame:
    return services.create_game(list(NAMES), 0, RuleSet())[0]


def test_a_deal_for_the_next_position_is_recorded(db_app: Flask) -> None:
    game = new_game()
    _loaded, n = services.record_deal(game.id, kingdom(0)[0], position=Position(1, 0, game.id))
    assert n == 1


def test_a_kingdoms_last_deal_saved_twice_is_recorded_once(db_app: Flask) -> None:
    """Deal 5 closes Rana's kingdom: the second phone's copy is never Sami's deal 6."""
    game = new_game()
    deals = kingdom(0)
    for deal in deals[:4]:
        services.record_deal(game.id, deal)
    last = deals[4]
    services.record_deal(game.id, last, position=Position(5, 0), entry_id="phone-a")
    before = snapshot(game.id)
    with pytest.raises(PositionTaken) as taken:
        services.record_deal(game.id, last, position=Position(5, 0), entry_id="phone-b")
    assert snapshot(game.id) == before
    error = taken.value
    assert error.problems[0].code == "deal_already_recorded" and error.same
    assert error.holder is not None and error.holder.entry_id == "phone-a"
    assert error.holder.deal.n == 5 and error.holder.source == "page"
    # As the next deal it would be valid (Sami has played nothing): only if the scorer says so.
    assert error.next_position == Position(6, 1, game.id) and not error.next_problems
    assert services.load_game(game.id).game.deals_played == 5


def test_the_position_is_asked_before_the_version(db_app: Flask) -> None:
    game = new_game()
    services.record_deal(game.id, trix(1, 0, 3, 2))
    with pytest.raises(PositionTaken):
        services.record_deal(game.id, trix(1, 0, 3, 2), game.version, position=Position(1))
    with pytest.raises(services.StaleVersion):  # the right position, an old version
        services.record_deal(game.id, kingdom(0)[1], game.version, position=Position(2))


def test_a_repeat_of_the_same_entry_is_never_the_other_phone(db_app: Flask) -> None:
    game = new_game()
    deal = trix(1, 0, 3, 2)
    services.record_deal(game.id, deal, position=Position(1), entry_id="e1")
    with pytest.raises(services.AlreadyWritten):
        services.record_deal(game.id, deal, position=Position(1), entry_id="e1")


def test_another_king_or_an_undone_deal_moves_the_position(db_app: Flask) -> None:
    game = new_game()
    with pytest.raises(PositionTaken) as king:
        services.record_deal(game.id, trix(1, 0, 3, 2), position=Position(1, 2))
    assert king.value.problems[0].code == "position_moved" and king.value.holder is None
    with pytest.raises(PositionTaken) as ahead:
        services.record_deal(game.id, trix(1, 0, 3, 2), position=Position(2))
    assert ahead.value.problems[0].params == {"n": 2, "next": 1}
    with pytest.raises(PositionTaken):
        services.record_deal(game.id, trix(1, 0, 3, 2), position=Position(1, 0, "another"))


def test_the_time_played_is_stored_with_its_offset(db_app: Flask) -> None:
    game = new_game()
    played = datetime.now(timezone(timedelta(hours=-5))).replace(microsecond=0)
    services.record_deal(game.id, trix(1, 0, 3, 2), played_at=played)
    services.record_deal(game.id, kingdom(0)[1])
    services.edit_deal(game.id, 1, trix(0, 1, 3, 2), None)  # a correction keeps the time
    loaded = services.load_game(game.id)
    row = loaded.deal_row(1)
    assert row.played_at == played and row.played_at.utcoffset() == timedelta(hours=-5)
    assert loaded.deal_row(2).played_at is None
    assert loaded.deal_row(2).when_played == loaded.deal_row(2).created_at


def test_a_clock_out_of_bounds_is_refused_and_nothing_is_written(db_app: Flask) -> None:
    game = new_game()
    before = snapshot(game.id)
    for played in (datetime.now(UTC) + AHEAD * 2, game.created_at - EARLY * 2):
        with pytest.raises(IllegalError):
            services.record_deal(game.id, trix(1, 0, 3, 2), played_at=played)
    assert snapshot(game.id) == before


def test_played_at_bounds() -> None:
    now = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    created = now - timedelta(hours=2)
    check_played_at(now + AHEAD, created, now)  # a fast clock, just within
    check_played_at(created - EARLY, created, now)  # a slow clock, just within
    with pytest.raises(IllegalError, match="ahead of the server's clock"):
        check_played_at(now + AHEAD + timedelta(seconds=1), created, now)
    with pytest.raises(IllegalError, match="before this game was created"):
        check_played_at(created - EARLY - timedelta(seconds=1), created, now)


@pytest.mark.parametrize(
    "raw", ["2026-12-03T21:42:05", "2026-13-03T21:42:05+03:00", "", None, 5, "x" * 50]
)
def test_played_at_must_be_iso_8601_with_an_offset(raw: object) -> None:
    with pytest.raises(MalformedError):
        parse_played_at(raw)


def test_played_at_keeps_its_offset() -> None:
    assert parse_played_at("2026-12-03T21:42:05+03:00").utcoffset() == timedelta(hours=3)
    assert parse_played_at("2026-12-03T18:42:05Z").utcoffset() == timedelta(0)


@pytest.mark.parametrize("raw", [{"n": 0}, {"n": True}, {"n": 1, "king": 4}, {"k": 1}, "1"])
def test_a_malformed_position_is_refused(raw: object) -> None:
    with pytest.raises(MalformedError):
        parse_position(raw)


def test_a_position_reads_its_deal_king_and_game() -> None:
    assert parse_position({"n": 10, "king": 1, "game": "g"}) == Position(10, 1, "g")
    assert parse_position({"n": 10}) == Position(10)
