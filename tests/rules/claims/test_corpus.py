"""The claim search's answers on a fixed corpus stay what they were (R10).

32 seeded positions of 6 to 8 cards per hand (6, 7, 7, 8), four per rule set of the
speed-up tests; the values were computed by the search before partition search
(the engine as of "scripts/fill_translations.py", 9a346a6) and agree with the
search without its table, so any speed-up that changed an answer fails here.
Each position: the exact value, the verdict at 0, the claim of the exact
value holds and one point more fails, with a defeating line that, replayed,
keeps the claimant below it.
"""

from __future__ import annotations

import random

import pytest

from tests.rules.claims.helpers import SETUPS, random_position, replay_line, solve

CARDS = (6, 7, 7, 8)
EXPECTED = [
    *(0, -150, -150, -75),  # R3 King, R9.4 penalty discards
    *(-75, -150, -150, -75),  # R3 King, hearts only once broken
    *(-50, 0, -50, -50),  # R4 Queens
    *(-10, -10, -10, -70),  # R5 Diamonds, R9.4 penalty discards
    *(-60, -15, -60, -75),  # R6 Collections
    *(-145, -245, -130, -165),  # R9.6 all four at once, R9.4 penalty discards
    *(0, 0, 0, 0),  # R9.8 inverted signs, Queens and Diamonds
    *(0, 0, 15, 30),  # R9.8 inverted signs, Collections
]


def corpus() -> list[tuple[str, object, int, int]]:
    """(rule set's name, position, claimant, expected value), in the order of EXPECTED."""
    cases = []
    expected = iter(EXPECTED)
    for name, rules, contracts in SETUPS:
        rng = random.Random(f"corpus {name}")
        for cards in CARDS:
            pos = random_position(rng, rules, contracts, cards, mid=rng.random() < 0.4)
            cases.append((name, pos, rng.randrange(4), next(expected)))
    return cases


@pytest.mark.parametrize(
    ("name", "pos", "seat", "value"), corpus(), ids=[f"{c[0]}-{i}" for i, c in enumerate(corpus())]
)
def test_r10_claim_answers_on_the_corpus_are_unchanged(
    name: str, pos: object, seat: int, value: int
) -> None:
    at_zero = solve(pos, seat, 0)  # type: ignore[arg-type]
    assert (at_zero.guaranteed, at_zero.holds) == (value, value >= 0)
    assert solve(pos, seat, value).holds is True  # type: ignore[arg-type]
    failed = solve(pos, seat, value + 1)  # type: ignore[arg-type]
    assert failed.holds is False and failed.guaranteed == value
    assert replay_line(pos, seat, failed.line) <= value  # type: ignore[arg-type]
