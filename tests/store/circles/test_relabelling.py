"""A Hypothesis property: a member's statistics do not depend on the seat he sat at.

The same game played with every seat moved round the table (seat s becomes
s + k, R1; the first king and every capture moved with it) gives every
member the same statistics.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract
from scorekeeper.rules.game import DealEntry, Game
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store.circles.facts import game_facts
from scorekeeper.store.circles.stats import GameRow, member_statistics
from tests.common import examples

MEMBERS = (11, 12, 13, 14)
seat = st.integers(0, 3)
maybe_seat = st.none() | seat


@st.composite
def split13(draw: Any) -> tuple[int, int, int, int]:
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    return (parts[0], parts[1], parts[2], parts[3])


@st.composite
def captures_for(draw: Any, contract: Contract) -> Captures:
    if contract is Contract.KING:
        return Captures(king_of_hearts=Capture(draw(seat), draw(maybe_seat)))
    if contract is Contract.QUEENS:
        q = [Capture(draw(seat), draw(maybe_seat)) for _ in range(4)]
        return Captures(queens=(q[0], q[1], q[2], q[3]))
    if contract is Contract.DIAMONDS:
        return Captures(diamonds=draw(split13()))
    if contract is Contract.COLLECTIONS:
        return Captures(tricks=draw(split13()))
    order = draw(st.permutations([0, 1, 2, 3]))
    return Captures(trix_order=(order[0], order[1], order[2], order[3]))


@st.composite
def short_games(draw: Any) -> tuple[RuleSet, int, list[DealEntry]]:
    rules = RuleSet(kingdoms=1, partnership=draw(st.booleans()), inverted=draw(st.booleans()))
    order = draw(st.permutations(list(ALL_CONTRACTS)))
    deals = [DealEntry((c,), draw(captures_for(c))) for c in order]
    return rules, draw(seat), deals


def statistics_of(rules: RuleSet, first_king: int, deals: list[DealEntry], shift: int) -> dict:
    moved = [(s + shift) % 4 for s in range(4)]
    game = Game.start(rules, (first_king + shift) % 4, ["a", "b", "c", "d"])
    for entry in deals:
        game = game.record(DealEntry(entry.contracts, entry.captures.permuted(moved)))
    members = [0, 0, 0, 0]
    for s in range(4):
        members[moved[s]] = MEMBERS[s]
    row = GameRow(
        "g", None, True, (members[0], members[1], members[2], members[3]), game_facts(game)
    )  # type: ignore[arg-type]
    names = {m: str(m) for m in MEMBERS}
    return {m: member_statistics(m, [row], names) for m in MEMBERS}


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(short_games(), st.integers(1, 3))
def test_statistics_are_invariant_under_moving_the_seats_round_r1(
    game: tuple[RuleSet, int, list[DealEntry]], shift: int
) -> None:
    rules, first_king, deals = game
    assert statistics_of(rules, first_king, deals, 0) == statistics_of(
        rules, first_king, deals, shift
    )
