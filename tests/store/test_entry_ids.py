"""Exactly-once writes (API.md "Exactly-once entries"), on SQLite and PostgreSQL.

A write named by an entry id is made once: a repeat writes nothing and hands
back what the first one did; the same id for another write is a 409.
"""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.rules.errors import StateError
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.store import games as services
from scorekeeper.store import models
from tests.common import K
from tests.store.test_games import diamonds, king, new_game, snapshot, trix


def test_a_repeated_deal_writes_nothing_and_returns_the_first_answer(db_app: Flask) -> None:
    loaded, _ = new_game()
    first, n = services.record_deal(loaded.id, trix(2, 0, 3, 1), 1, entry_id="phone-a-1")
    before = snapshot(loaded.id)
    with pytest.raises(services.AlreadyWritten) as repeat:
        services.record_deal(loaded.id, trix(2, 0, 3, 1), 1, entry_id="phone-a-1")
    assert snapshot(loaded.id) == before
    assert repeat.value.action == "record" and repeat.value.loaded.version == first.version
    assert repeat.value.after is not None and repeat.value.after["n"] == n == 1
    assert repeat.value.after["scores"] == list(first.game.deals[0].scores)


def test_a_repeat_is_recognised_before_a_stale_version(db_app: Flask) -> None:
    """The retry of a write that succeeded carries the version it was made against."""
    loaded, _ = new_game()
    services.record_deal(loaded.id, trix(2, 0, 3, 1), 1, entry_id="e1")
    services.record_deal(loaded.id, king(1))  # another phone writes in between
    with pytest.raises(services.AlreadyWritten) as repeat:
        services.record_deal(loaded.id, trix(2, 0, 3, 1), 1, entry_id="e1")
    assert repeat.value.loaded.version == 3  # the game as it is now


def test_the_same_id_for_another_deal_is_409_and_writes_nothing(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, trix(2, 0, 3, 1), entry_id="e1")
    before = snapshot(loaded.id)
    with pytest.raises(StateError) as refused:
        services.record_deal(loaded.id, king(1), entry_id="e1")
    problem = refused.value.problems[0]
    assert problem.code == "entry_id_reused" and problem.field == "entry_id"
    assert snapshot(loaded.id) == before


def test_the_same_id_in_another_game_is_another_write(db_app: Flask) -> None:
    one, _ = new_game()
    two, _ = new_game()
    services.record_deal(one.id, trix(2, 0, 3, 1), entry_id="e1")
    after, n = services.record_deal(two.id, trix(2, 0, 3, 1), entry_id="e1")
    assert n == 1 and after.version == 2


def test_a_repeat_after_the_deal_was_undone_is_still_not_recorded_again(db_app: Flask) -> None:
    """The id is kept with the write's revision, which an undo does not delete."""
    loaded, _ = new_game()
    services.record_deal(loaded.id, trix(2, 0, 3, 1), entry_id="e1")
    services.undo_last(loaded.id, 2)
    with pytest.raises(services.AlreadyWritten):
        services.record_deal(loaded.id, trix(2, 0, 3, 1), entry_id="e1")
    assert services.load_game(loaded.id).game.deals_played == 0


def test_undo_redeal_and_edit_are_written_once(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, trix(2, 0, 3, 1))
    services.record_redeal(loaded.id, RedealEntry("redeal", 0, K), entry_id="r1")
    with pytest.raises(services.AlreadyWritten):
        services.record_redeal(loaded.id, RedealEntry("redeal", 0, K), entry_id="r1")
    services.undo_last(loaded.id, 3, entry_id="u1")
    with pytest.raises(services.AlreadyWritten) as undo:
        services.undo_last(loaded.id, 3, entry_id="u1")
    assert undo.value.action == "undo" and undo.value.loaded.version == 4
    services.record_deal(loaded.id, diamonds(5, 4, 3, 1))
    services.edit_deal(loaded.id, 2, diamonds(4, 5, 3, 1), 5, entry_id="x1")
    with pytest.raises(services.AlreadyWritten) as edit:
        services.edit_deal(loaded.id, 2, diamonds(4, 5, 3, 1), 5, entry_id="x1")
    assert edit.value.after is not None and edit.value.after["captures"]["diamonds"] == [4, 5, 3, 1]
    with pytest.raises(StateError):  # the same id for an undo of another version
        services.undo_last(loaded.id, 6, entry_id="u1")


def test_the_entry_id_is_kept_with_its_revision(db_app: Flask) -> None:
    loaded, _ = new_game()
    services.record_deal(loaded.id, trix(2, 0, 3, 1), entry_id="01HZX3ABCDEFGHJKMNPQRSTVWX")
    services.record_deal(loaded.id, king(1))
    rows = db.session.execute(
        select(models.Revision.entry_id, models.Revision.request_hash).order_by(
            models.Revision.version
        )
    ).all()
    assert rows[0][0] == "01HZX3ABCDEFGHJKMNPQRSTVWX" and len(rows[0][1]) == 64
    assert tuple(rows[1]) == (None, None)  # unnamed writes stay unnamed, many of them
