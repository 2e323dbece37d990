"""Cheap refutations first (R10): node budgets at the defenders' leads change no answer.

At the defenders' leads near the root, every lead is first searched within a
small node budget, then again with larger ones (:meth:`TrickTree._refute`). In a
whole deal that only happens in the first tricks, after thousands of nodes; here
the thresholds are lowered so that budgets run out on small positions too, and
the answers are compared with a memoised plain minimax (up to 5 cards per hand)
and with the search without it (6 cards per hand).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.rules.claims import tree
from scorekeeper.rules.claims.core import ALL_ON, ClaimResult, SearchOptions, adjudicate
from tests.rules.claims.helpers import (
    SETUPS,
    Position,
    memo_minimax,
    random_position,
    search_of,
    solve,
)

NO_CHEAP = replace(ALL_ON, cheap_first=False)


@pytest.fixture
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets from the first trick on, of one node, looked at every fourth node."""
    monkeypatch.setattr(tree, "CHEAP_FROM", 0)
    monkeypatch.setattr(tree, "FIRST_BUDGET", 1)
    monkeypatch.setattr(tree, "CHECK_EVERY", 3)


def run(
    pos: Position, seat: int, claim: int | None, options: SearchOptions
) -> tuple[ClaimResult, int]:
    """The claim adjudicated, and how many budgeted searches ran out on the way."""
    search = search_of(pos, seat, options=options)
    return adjudicate(search, claim, options.verdict_first), search.overruns


@pytest.mark.usefixtures("tiny_budgets")
@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_cheap_refutations_agree_with_minimax(
    name: str, rules: object, contracts: tuple
) -> None:
    rng = random.Random(f"cheap {name}")
    overruns = 0
    for cards in (3, 4, 4, 5):
        pos = random_position(rng, rules, contracts, cards, mid=rng.random() < 0.3)  # type: ignore[arg-type]
        seat = rng.randrange(4)
        exact = memo_minimax(pos, seat)
        for claim in (exact, exact + 1):
            for options in (ALL_ON, NO_CHEAP):
                result, ran_out = run(pos, seat, claim, options)
                assert (result.guaranteed, result.holds) == (exact, exact >= claim), options
                overruns += ran_out
    assert overruns > 0  # the budgets did run out: the re-searches were exercised


@pytest.mark.usefixtures("tiny_budgets")
@pytest.mark.parametrize(("name", "rules", "contracts"), SETUPS, ids=[s[0] for s in SETUPS])
def test_r10_cheap_refutations_agree_on_six_cards(
    name: str, rules: object, contracts: tuple
) -> None:
    # Positions the quick bounds settle at once never reach a budget: take two that do not.
    rng = random.Random(f"cheap six {name}")
    searched = overruns = 0
    while searched < 2:
        pos = random_position(rng, rules, contracts, 6, mid=False)  # type: ignore[arg-type]
        seat = rng.randrange(4)
        reference = solve(pos, seat, None, options=NO_CHEAP)
        assert reference.guaranteed is not None
        if reference.nodes < 200:
            continue
        searched += 1
        result, ran_out = run(pos, seat, None, ALL_ON)
        assert result.guaranteed == reference.guaranteed
        overruns += ran_out
        for claim in (reference.guaranteed, reference.guaranteed + 1):
            assert run(pos, seat, claim, ALL_ON)[0].holds is (reference.guaranteed >= claim)
    assert overruns > 0


def test_a_timeout_inside_a_budget_leaves_the_search_usable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The defeating line re-runs the search after the proof: no budget may be left over.
    monkeypatch.setattr(tree, "CHEAP_FROM", 0)
    rng = random.Random("cheap timeout")
    name, rules, contracts = SETUPS[4]
    pos = random_position(rng, rules, contracts, 4, mid=False)
    search = search_of(pos, 1, deadline=0.0)
    search.node_limit = 5  # as if a timeout had struck inside a budgeted search
    search.deadline = float("inf")
    assert search.value(-tree.INFINITY, tree.INFINITY) == memo_minimax(pos, 1)
