"""The entry id's shape (API.md "Exactly-once entries"): 1–64 of ``[A-Za-z0-9_-]``."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import MalformedError
from scorekeeper.store.input import parse_entry_id, take_entry_id


@pytest.mark.parametrize("good", ["a", "A" * 64, "01HZX3ABCDEF", "5f0c-9a_b"])
def test_entry_ids_of_letters_digits_dash_and_underscore(good: str) -> None:
    assert parse_entry_id(good) == good


@pytest.mark.parametrize("bad", ["", "A" * 65, "a b", "é", "a/b", 7, None, ["a"], "a\n"])
def test_other_entry_ids_are_refused_naming_the_field(bad: object) -> None:
    with pytest.raises(MalformedError) as refused:
        parse_entry_id(bad)
    problem = refused.value.problems[0]
    assert problem.code == "bad_entry_id" and problem.field == "entry_id"
    assert "1 to 64" in problem.message


def test_the_entry_id_is_taken_out_of_the_body() -> None:
    entry_id, rest = take_entry_id({"entry_id": "e1", "contracts": ["trix"]})
    assert entry_id == "e1" and rest == {"contracts": ["trix"]}
