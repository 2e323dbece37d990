"""Claims in Trix (R7, R9.7, R9.8): the search against a plain minimax on small endgames."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import FULL_DECK, Card, hand_mask, indices_of
from scorekeeper.rules.claims.trix import solve_trix_claim
from scorekeeper.rules.deals import random_trix
from scorekeeper.rules.ruleset import RuleSet, Values
from scorekeeper.rules.trix import Layout, legal_mask
from tests.common import examples

Position = tuple[Layout, list[int], int, list[int]]


def awards(rules: RuleSet) -> list[int]:
    return [rules.sign * v for v in rules.values.trix]


def next_seat(hands: Sequence[int], seat: int) -> int:
    return next((seat + i) & 3 for i in range(1, 5) if hands[(seat + i) & 3])


def brute(rules: RuleSet, hands: list[int], to_play: int, out: list[int], seat: int) -> int:
    """Plain minimax over every legal card; a player without one passes (R7)."""
    award, hands, out = awards(rules), list(hands), list(out)

    def rec(player: int) -> int:
        if seat in out:
            return award[out.index(seat)]
        if len(out) == 3:
            return award[3]
        layout = Layout(FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3]))
        legal = legal_mask(layout, hands[player])
        if not legal:
            return rec(next_seat(hands, player))
        values = []
        for card in indices_of(legal):
            hands[player] ^= 1 << card
            if not hands[player]:
                out.append(player)
            ended = seat in out or len(out) == 3
            values.append(rec(player) if ended else rec(next_seat(hands, player)))
            if not hands[player]:
                out.pop()
            hands[player] ^= 1 << card
        return max(values) if player == seat else min(values)

    return rec(to_play)


def replay_line(
    rules: RuleSet, pos: Position, seat: int, line: Sequence[int | None]
) -> tuple[int, int]:
    """Play a line turn by turn, each checked legal; (the claimant's award, turns played)."""
    _, hands, player, out = pos[0], list(pos[1]), pos[2], list(pos[3])
    for turn, card in enumerate(line):
        assert len(out) < 3, f"turn {turn} comes after the deal ended"
        legal = legal_mask(
            Layout(FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3])), hands[player]
        )
        if card is None:
            assert not legal, "a pass while holding a legal card"
        else:
            assert legal >> card & 1
            hands[player] ^= 1 << card
            if not hands[player]:
                out.append(player)
        if len(out) < 3:
            player = next_seat(hands, player)
    assert len(out) == 3, "the line must run to the end of the deal"
    return (awards(rules)[out.index(seat)] if seat in out else awards(rules)[3]), len(line)


def random_endgame(rng: random.Random, rules: RuleSet, held: int) -> Position:
    """A random legal Trix game, stopped when at most ``held`` cards are still held."""
    king = rng.randrange(4)
    dealt, plays = random_trix(rng, rules, king)
    hands, player, out = [hand_mask(h) for h in dealt], king, []
    for card in plays:
        if sum(h.bit_count() for h in hands) <= held:
            break
        if card is not None:
            hands[player] ^= card.bit
            if not hands[player]:
                out.append(player)
        player = next_seat(hands, player)
    return Layout(FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3])), hands, player, out


RULES = [
    ("r7_default", RuleSet()),
    ("r7_inverted_tail", RuleSet(values=Values(trix=(200, 150, 100, -50)))),
    ("r9_7_odd_values", RuleSet(values=Values(trix=(100, 300, 0, 50)))),
    ("r9_8_inverted", RuleSet(inverted=True)),
]


@pytest.mark.parametrize(("name", "rules"), RULES, ids=[r[0] for r in RULES])
def test_r7_search_equals_brute_force(name: str, rules: RuleSet) -> None:
    rng = random.Random(name)
    for _ in range(40):
        pos = random_endgame(rng, rules, rng.randint(4, 20))
        seat = rng.randrange(4)
        exact = brute(rules, pos[1], pos[2], pos[3], seat)
        claim = exact + rng.choice([-50, 0, 1, 50])
        result = solve_trix_claim(rules, *pos, seat, claim)
        assert (result.guaranteed, result.holds, result.decided) == (exact, exact >= claim, True)
        if not result.holds:
            assert replay_line(rules, pos, seat, result.line)[0] == exact < claim


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 10**6), held=st.integers(4, 14), turn=st.integers(1, 3))
def test_property_r7_seats_are_symmetric(seed: int, held: int, turn: int) -> None:
    rng = random.Random(seed)
    layout, hands, player, out = random_endgame(rng, RuleSet(), held)
    seat = rng.randrange(4)
    turned = [hands[(s - turn) & 3] for s in range(4)]
    moved = [(s + turn) & 3 for s in out]
    a = solve_trix_claim(RuleSet(), layout, hands, player, out, seat, None)
    b = solve_trix_claim(
        RuleSet(), layout, turned, (player + turn) & 3, moved, (seat + turn) & 3, None
    )
    assert a.guaranteed == b.guaranteed == brute(RuleSet(), hands, player, out, seat)


def masks(*hands: str) -> list[int]:
    return [hand_mask(Card.parse(t) for t in h.split()) for h in hands]


def layout_with(hands: list[int]) -> Layout:
    return Layout(FULL_DECK ^ (hands[0] | hands[1] | hands[2] | hands[3]))


def everything_else(hands: list[int], seat: int) -> list[int]:
    """Give ``seat`` every card neither held by the others nor in a layout of the four Jacks."""
    jacks = hand_mask(Card.parse(t) for t in ("JS", "JH", "JD", "JC"))
    hands[seat] = FULL_DECK ^ jacks ^ hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
    return hands


def test_r7_i_go_out_first_holds() -> None:
    hands = everything_else(masks("QS TS", "QH TH", "QD TD", ""), 3)
    pos = (layout_with(hands), hands, 0, [])
    result = solve_trix_claim(RuleSet(), *pos, 0, 200)
    assert (result.holds, result.guaranteed, result.line) == (True, 200, [])


def test_r7_i_go_out_first_fails_and_the_line_shows_why() -> None:
    hands = everything_else(masks("QS TS", "QH TH", "QD TD", ""), 3)
    pos = (layout_with(hands), hands, 0, [])
    result = solve_trix_claim(RuleSet(), *pos, 1, 200)
    assert (result.holds, result.guaranteed) == (False, 150)  # seat 0 plays first and wins
    assert replay_line(RuleSet(), pos, 1, result.line) == (150, 7)


def test_r7_passes_are_forced_and_shown() -> None:
    # Seat 1 holds only the K♠, which must wait for the Q♠: he passes first.
    hands = everything_else(masks("TH", "KS", "QS", ""), 3)
    pos = (layout_with(hands), hands, 1, [])
    result = solve_trix_claim(RuleSet(), *pos, 1, 200)
    assert (result.holds, result.guaranteed) == (False, 100)
    assert result.line[:2] == [None, Card.parse("QS").index]
    assert replay_line(RuleSet(), pos, 1, result.line)[0] == 100


def test_r7_a_player_already_out_keeps_his_place() -> None:
    hands = everything_else(masks("", "QH", "QD", ""), 3)
    pos = (layout_with(hands), hands, 1, [0])
    result = solve_trix_claim(RuleSet(), *pos, 0, 200)
    assert (result.holds, result.guaranteed, result.nodes) == (True, 200, 0)
    assert solve_trix_claim(RuleSet(), *pos, 1, 150).guaranteed == 150
