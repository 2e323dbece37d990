"""R3 heart lead, R9.4 penalty discard, R10 trick play: legality, replay and revoke rulings."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import trickplay
from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import (
    ALL_CARDS,
    KING_OF_HEARTS,
    QUEENS,
    SUIT_MASKS,
    Card,
    Suit,
    cards_of,
    hand_mask,
    parse_cards,
)
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.deals import random_deal, random_revoke_deal
from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.ruleset import (
    Combination,
    HeartLead,
    RevokeRule,
    RuleSet,
    Starter,
)
from scorekeeper.rules.scoring import expected_total, score_deal
from scorekeeper.rules.tricks import (
    TrickReplay,
    Violation,
    first_leader,
    illegal_reason,
    legal_cards,
    replay_indices,
    replay_tricks,
    trick_winner,
)
from tests.common import examples

K, Q, D, C = Contract.KING, Contract.QUEENS, Contract.DIAMONDS, Contract.COLLECTIONS
NAMES = ["Rana", "Sami", "Omar", "Lina"]
PENALTY = RuleSet(penalty_discard=True)
ONLY_HEARTS = RuleSet(heart_lead=HeartLead.ONLY_HEARTS)
BROKEN = RuleSet(heart_lead=HeartLead.BROKEN)
WHOLE = RuleSet(revoke=RevokeRule.WHOLE)
ANY = RuleSet(combination=Combination.ANY)


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def mask(text: str) -> int:
    return hand_mask(cards(text))


def idx(text: str) -> list[int]:
    return [c.index for c in cards(text)]


def names_of(bits: int) -> list[str]:
    return [str(c) for c in cards_of(bits)]


# A golden deal: seat 0 long in spades, seat 1 holds the K♥, seat 3 void in spades.
GOLDEN = [
    cards("AS KS QS JS TS 9S 8S 2H 3H AD KD AC KC"),
    cards("7S 6S 5S KH AH QD JD TD 9D QC JC TC 9C"),
    cards("4S 3S 2S 4H 5H 6H 7H 8D 7D 6D 8C 7C 6C"),
    cards("8H 9H TH JH QH 5D 4D 3D 2D 5C 4C 3C 2C"),
]
# Seat 1 revokes on trick 3 (K♥ on a spade lead while holding the 5♠).
REVOKE_T3 = [
    cards("QS 7S 4S 5D"),
    cards("AS 6S 3S 9H"),
    cards("KS KH 2S TH"),
    cards("JS 5S 4H JH"),
]
# Every seat holds one suit; seat 0 leads a spade and wins every trick.
SUITS = [cards(" ".join(r + s for r in "AKQJT98765432")) for s in "SHDC"]
SUITS_PLAY = [cards(f"{r}S {r}H {r}D {r}C") for r in "23456789TJQKA"]


# --- Legality (R10, R3, R9.4) -------------------------------------------------------------


def test_r10_must_follow_suit() -> None:
    hand = mask("AS 3S KH 7D 2C")
    assert names_of(legal_cards(RuleSet(), [K], hand, idx("9S"), False)) == ["AS", "3S"]


def test_r10_void_may_play_any_card() -> None:
    hand = mask("KH 7D 2C")
    assert names_of(legal_cards(RuleSet(), [K], hand, idx("9S 2S"), False)) == ["KH", "7D", "2C"]


def test_r10_follow_suit_even_with_a_penalty_card() -> None:
    hand = mask("3S KH 7D")
    assert names_of(legal_cards(PENALTY, [K, D], hand, idx("9S"), False)) == ["3S"]


def test_r3_heart_lead_free_by_default() -> None:
    hand = mask("2S 2H 3H")
    assert names_of(legal_cards(RuleSet(), [K], hand, [], False)) == ["2S", "3H", "2H"]


def test_r3_heart_lead_only_hearts() -> None:
    assert names_of(legal_cards(ONLY_HEARTS, [K], mask("2S 2H KH"), [], True)) == ["2S"]
    assert names_of(legal_cards(ONLY_HEARTS, [K], mask("2H KH"), [], False)) == ["KH", "2H"]


def test_r3_heart_lead_rule_applies_only_under_king_of_hearts() -> None:
    hand = mask("2S 2H")
    assert names_of(legal_cards(ONLY_HEARTS, [Q], hand, [], False)) == ["2S", "2H"]
    assert names_of(legal_cards(BROKEN, [D, C], hand, [], False)) == ["2S", "2H"]
    assert names_of(legal_cards(ONLY_HEARTS.with_changes(combination=Combination.ANY),
                                [K, D], hand, [], False)) == ["2S"]  # fmt: skip


def test_r3_hearts_must_be_broken() -> None:
    hand = mask("2S 2H KH")
    assert names_of(legal_cards(BROKEN, [K], hand, [], False)) == ["2S"]
    assert names_of(legal_cards(BROKEN, [K], hand, [], True)) == ["2S", "KH", "2H"]
    assert names_of(legal_cards(BROKEN, [K], mask("2H KH"), [], False)) == ["KH", "2H"]


def test_r3_breaks_hearts_only_by_a_discard_on_another_suit() -> None:
    assert trickplay.breaks_hearts(idx("2S 5H 3S 4S"))
    assert not trickplay.breaks_hearts(idx("2H 5H 3H 4S"))
    assert not trickplay.breaks_hearts(idx("2S 5D 3S"))


@pytest.mark.parametrize(
    ("contracts", "hand", "legal"),
    [
        ([K], "KH 7D QC 2H", ["KH"]),
        ([D], "KH 7D 5D QC", ["7D", "5D"]),
        ([Q], "KH 7D QD QC", ["QD", "QC"]),
        ([K, D], "KH 7D QC 2H", ["KH", "7D"]),
        ([K, Q, D, C], "KH 7D QC 2H", ["KH", "7D", "QC"]),
        ([K], "AH 7D QC", ["AH", "7D", "QC"]),  # no penalty card: anything
        ([C], "KH 7D QC", ["KH", "7D", "QC"]),  # Collections has no penalty card
    ],
)
def test_r9_4_penalty_discard(contracts: list[Contract], hand: str, legal: list[str]) -> None:
    assert names_of(legal_cards(PENALTY, contracts, mask(hand), idx("9S"), False)) == legal


def test_r9_4_penalty_discard_off_by_default() -> None:
    assert names_of(legal_cards(RuleSet(), [D], mask("KH 7D"), idx("9S"), False)) == ["KH", "7D"]


def test_plan_memo_follows_the_rule_set() -> None:
    hand, trick = mask("KH 7D"), idx("9S")
    for _ in range(3):  # alternate two rule sets: the one-entry memo must not mix them up
        assert names_of(legal_cards(PENALTY, [K], hand, trick, False)) == ["KH"]
        assert names_of(legal_cards(RuleSet(), [K], hand, trick, False)) == ["KH", "7D"]
        assert names_of(legal_cards(PENALTY, [D], hand, trick, False)) == ["7D"]


@pytest.mark.parametrize(
    ("rules", "contracts", "hand", "trick", "broken", "card", "code", "rule", "message"),
    [
        (RuleSet(), [K], "AS 9S 3S 2C", "5S", False, "2C", "must_follow_suit", "R10",
         "You must follow suit: you hold 3 spades."),
        (RuleSet(), [K], "AH 2C", "5H", False, "2C", "must_follow_suit", "R10",
         "You must follow suit: you hold 1 heart."),
        (ONLY_HEARTS, [K], "2H 2C", "", False, "2H", "heart_lead_forbidden", "R3",
         "You may not lead a heart while you hold a card of another suit."),
        (BROKEN, [K], "2H 2C", "", False, "2H", "hearts_not_broken", "R3",
         "You may not lead a heart until a heart has been discarded on another suit."),
        (PENALTY, [K, D], "KH 7D 2C", "5S", False, "2C", "must_discard_penalty", "R9.4",
         "You cannot follow suit, so you must discard a penalty card: you hold K♥ and 7♦."),
        (PENALTY, [D], "9D 7D 2D 2C", "5S", False, "2C", "must_discard_penalty", "R9.4",
         "You cannot follow suit, so you must discard a penalty card: you hold 9♦, 7♦ and 2♦."),
        (RuleSet(), [K], "2H 2C", "5S", False, "3C", "card_not_held", "R1",
         "You do not hold 3♣."),
    ],
)  # fmt: skip
def test_illegal_reason_explains_in_plain_words(
    rules: RuleSet, contracts: list[Contract], hand: str, trick: str, broken: bool,
    card: str, code: str, rule: str, message: str,
) -> None:  # fmt: skip
    problem = illegal_reason(rules, contracts, mask(hand), idx(trick), broken, idx(card)[0])
    assert problem is not None
    assert (problem.code, problem.rule, problem.message) == (code, rule, message)


def test_illegal_reason_none_for_a_legal_card() -> None:
    assert illegal_reason(BROKEN, [K], mask("2H 2C"), [], True, idx("2H")[0]) is None
    assert illegal_reason(PENALTY, [K], mask("KH 2C"), idx("5S"), False, idx("KH")[0]) is None


# --- Trick winner and first lead (R10) -----------------------------------------------------


def test_r10_highest_card_of_the_suit_led_wins() -> None:
    assert trick_winner(0, idx("2S AH KS 3S")) == 2  # no trumps: the A♥ does not win


def test_r10_winner_counts_seats_from_the_leader() -> None:
    assert trick_winner(3, idx("5D 9D 2C AD")) == 2
    assert trick_winner(1, idx("2C AS AH AD")) == 1  # nobody followed: the leader wins
    assert trick_winner(2, idx("TC")) == 2  # a trick in progress


def test_r10_first_lead_king_by_default() -> None:
    assert first_leader(trickplay.plan_for(RuleSet(), [K]), 2) == 2


def test_r10_first_lead_right_of_king() -> None:
    rules = RuleSet(first_lead=Starter.RIGHT_OF_KING)
    assert [first_leader(trickplay.plan_for(rules, [K]), k) for k in range(4)] == [1, 2, 3, 0]


def test_r10_first_lead_right_of_king_in_a_replay() -> None:
    rules = RuleSet(first_lead=Starter.RIGHT_OF_KING)
    replay = replay_tricks(rules, [K], 3, REVOKE_T3[:2], GOLDEN)
    assert replay.winners == (0, 0)
    with pytest.raises(MalformedError) as caught:
        replay_tricks(RuleSet(), [K], 3, REVOKE_T3[:2], GOLDEN)  # the king, seat 3, must lead
    assert str(caught.value) == "In trick 1, seat 3 plays Q♠, a card not in that player's hand."


def test_r10_winner_leads_next() -> None:
    play = [cards("QS 7S 4S 8H"), cards("2H KH 4H 9H"), cards("AH")]
    replay = replay_tricks(RuleSet(), [K], 0, play, GOLDEN)
    assert (replay.winners, replay.next_leader, replay.to_play) == ((0, 1), 1, 2)


# --- Replays: legal records ---------------------------------------------------------------


def test_r10_complete_legal_deal_without_hands() -> None:
    replay = replay_tricks(RuleSet(), [K, Q, D, C], 0, SUITS_PLAY, doubled=[KING_OF_HEARTS])
    assert replay.violations == ()
    assert replay.complete and replay.winners == (0,) * 13
    assert replay.captures == Captures(
        king_of_hearts=Capture(0, 1),
        queens=(Capture(0), Capture(0), Capture(0), Capture(0)),
        diamonds=(13, 0, 0, 0),
        tricks=(13, 0, 0, 0),
    )
    assert replay.ruled == replay.captures
    assert replay.ruling == "All 13 tricks were played legally; the captures stand as played."
    assert (replay.next_leader, replay.to_play) == (None, None)
    assert replay == replay_tricks(RuleSet(), [K, Q, D, C], 0, SUITS_PLAY, SUITS, [KING_OF_HEARTS])


def test_r10_incomplete_legal_record_has_no_ruled_captures() -> None:
    play = [cards("QS 7S 4S 8H"), cards("AS 6S 3S 9H"), cards("KS 5S 2S TH"), cards("JS KH")]
    replay = replay_tricks(PENALTY, [K], 0, play, GOLDEN)
    assert replay.legal and not replay.complete
    assert replay.captures == Captures(king_of_hearts=None, tricks=(3, 0, 0, 0))
    assert replay.ruled is None
    assert replay.ruling == (
        "No revoke so far: 3 of 13 tricks are complete and the deal is not finished."
    )
    assert (replay.next_leader, replay.to_play) == (0, 2)


def test_r3_r4_doubled_cards_keep_their_holders() -> None:
    replay = replay_tricks(RuleSet(), [Q], 0, REVOKE_T3, GOLDEN, [QUEENS[Suit.HEARTS]])
    assert replay.captures.queens is None  # three queens still out
    assert replay.ruled is not None and replay.ruled.queens is not None
    assert replay.ruled.queens[Suit.HEARTS] == Capture(taker=1, doubled_by=3)


# --- Violations and rulings (R10, R3, R9.4) ------------------------------------------------


def test_r10_revoke_is_reported_with_rule_trick_seat_and_card() -> None:
    replay = replay_tricks(RuleSet(), [K], 0, REVOKE_T3, GOLDEN, names=NAMES)
    assert [v.as_dict() for v in replay.violations] == [
        {
            "rule": "R10",
            "trick": 3,
            "seat": 1,
            "card": "KH",
            "message": "Sami played K♥ on trick 3 while holding 1 spade, and must follow suit.",
            "code": "must_follow_suit",
        }
    ]
    assert replay.ruling == (
        "Sami revoked on trick 3 (played K♥ holding a spade); under the standard penalty, "
        "Sami takes every trick from trick 3 on."
    )


def test_r10_revoke_remaining_king_of_hearts() -> None:
    replay = replay_tricks(RuleSet(), [K], 0, REVOKE_T3, GOLDEN)
    assert replay.captures == Captures(king_of_hearts=Capture(0), tricks=(4, 0, 0, 0))
    assert replay.ruled == Captures(king_of_hearts=Capture(1), tricks=(2, 11, 0, 0))


def test_r10_revoke_remaining_diamonds_keeps_earlier_captures() -> None:
    replay = replay_tricks(RuleSet(), [D], 0, REVOKE_T3, GOLDEN)
    assert replay.captures == Captures(diamonds=(1, 0, 0, 0), tricks=(4, 0, 0, 0))
    assert replay.ruled == Captures(diamonds=(1, 12, 0, 0), tricks=(2, 11, 0, 0))


def test_r10_revoke_remaining_queens() -> None:
    replay = replay_tricks(RuleSet(), [Q], 0, REVOKE_T3, GOLDEN)
    assert replay.ruled == Captures(
        queens=(Capture(0), Capture(1), Capture(1), Capture(1)), tricks=(2, 11, 0, 0)
    )


def test_r10_revoke_in_the_trick_in_progress() -> None:
    play = [*REVOKE_T3[:2], cards("KS KH")]
    replay = replay_tricks(RuleSet(), [D], 0, play, GOLDEN)
    assert [(v.trick, v.seat) for v in replay.violations] == [(3, 1)]
    assert not replay.complete
    assert replay.captures == Captures(diamonds=(1, 0, 0, 0), tricks=(2, 0, 0, 0))
    assert replay.ruled == Captures(diamonds=(1, 12, 0, 0), tricks=(2, 11, 0, 0))


def test_r10_revoke_whole_house_rule() -> None:
    replay = replay_tricks(WHOLE, [K, Q, D, C], 0, REVOKE_T3, GOLDEN, names=NAMES)
    assert replay.ruled == Captures(
        king_of_hearts=Capture(1),
        queens=(Capture(1), Capture(1), Capture(1), Capture(1)),
        diamonds=(0, 13, 0, 0),
        tricks=(0, 13, 0, 0),
    )
    assert replay.ruling == (
        "Sami revoked on trick 3 (played K♥ holding a spade); under the house rule “whole”, the "
        "deal is scored as if Sami had taken all 13 tricks: Sami is charged the whole contract "
        "and a doubling bonus still goes to the card's holder."
    )


# Sami revokes on trick 3 after Rana took tricks 1 and 2 (with the 5♦ and the 9♥); Rana
# doubled the Q♠ and Lina the Q♥, Sami his own K♥.
WHOLE_SCORES = [
    pytest.param(K, ["KH"], (0, -75, 0, 0), id="king_of_hearts"),
    pytest.param(Q, ["QS", "QH"], (25, -150, 0, 25), id="queens_bonus_to_holders"),
    pytest.param(D, [], (0, -130, 0, 0), id="diamonds"),
    pytest.param(C, [], (0, -195, 0, 0), id="collections"),
]


@pytest.mark.parametrize(("contract", "doubled", "scores"), WHOLE_SCORES)
def test_r10_revoke_whole_scores_as_if_the_offender_took_all_13(
    contract: Contract, doubled: list[str], scores: tuple[int, int, int, int]
) -> None:
    replay = replay_tricks(WHOLE, [contract], 0, REVOKE_T3, GOLDEN, cards(" ".join(doubled)))
    assert replay.ruled is not None and replay.ruled.tricks == (0, 13, 0, 0)
    assert score_deal(WHOLE, [contract], replay.ruled) == scores
    assert sum(scores) == expected_total(WHOLE, [contract], replay.ruled)  # total unchanged


def test_r10_only_the_first_violation_is_ruled() -> None:
    play = [*REVOKE_T3[:3], cards("JS 9D 4H JH")]  # seat 1 still holds the 5♠: revokes again
    replay = replay_tricks(RuleSet(), [K], 0, play, GOLDEN)
    assert [(v.trick, v.seat, v.code) for v in replay.violations] == [
        (3, 1, "must_follow_suit"),
        (4, 1, "must_follow_suit"),
    ]
    assert replay.ruled == Captures(king_of_hearts=Capture(1), tricks=(2, 11, 0, 0))
    assert replay.ruling.startswith("Seat 1 revoked on trick 3 ")


def test_r10_following_suit_is_no_violation() -> None:
    play = [*REVOKE_T3[:2], cards("KS 5S 2S TH")]
    assert replay_tricks(RuleSet(), [K], 0, play, GOLDEN).violations == ()


def test_r9_4_penalty_discard_violation() -> None:
    play = [
        cards("QS 7S 4S 8H"),
        cards("AS 6S 3S 9H"),
        cards("KS 5S 2S TH"),
        cards("JS 9D 4H JH"),
    ]
    replay = replay_tricks(PENALTY, [K], 0, play, GOLDEN)
    assert replay.violations == (
        Violation(
            "R9.4", 4, 1, Card.parse("9D"), "must_discard_penalty",
            "Seat 1 discarded 9♦ on trick 4 while holding K♥; a player who cannot follow suit "
            "must discard a penalty card.",
        ),
    )  # fmt: skip
    assert replay.ruling == (
        "Seat 1 revoked on trick 4 (discarded 9♦ holding a penalty card); under the standard "
        "penalty, seat 1 takes every trick from trick 4 on."
    )
    assert replay.ruled == Captures(king_of_hearts=Capture(1), tricks=(3, 10, 0, 0))
    assert replay_tricks(RuleSet(), [K], 0, play, GOLDEN).violations == ()  # rule off


def test_r9_4_every_violation_is_listed_in_order() -> None:
    play = [cards("QS 7S 4S 8H"), cards("AS 6S 3S 9H"), cards("KS 5S 2S TH"), cards("JS 9D 4H JH")]
    replay = replay_tricks(PENALTY, [D], 0, play, GOLDEN)
    assert [(v.rule, v.trick, v.seat) for v in replay.violations] == [
        ("R9.4", 1, 3), ("R9.4", 2, 3), ("R9.4", 3, 3), ("R9.4", 4, 2), ("R9.4", 4, 3),
    ]  # fmt: skip
    assert replay.violations[0].message == (
        "Seat 3 discarded 8♥ on trick 1 while holding 5♦, 4♦, 3♦ and 2♦; a player who cannot "
        "follow suit must discard a penalty card."
    )
    assert replay.ruled == Captures(diamonds=(0, 0, 0, 13), tricks=(0, 0, 0, 13))


HEART_LEAD_T1 = [cards("2H AH 4H 8H")]


def test_r3_heart_lead_free_is_legal() -> None:
    assert replay_tricks(RuleSet(), [K], 0, HEART_LEAD_T1, GOLDEN).violations == ()


def test_r3_heart_lead_only_hearts_violation() -> None:
    replay = replay_tricks(ONLY_HEARTS, [K], 0, HEART_LEAD_T1, GOLDEN)
    assert [v.as_dict() for v in replay.violations] == [
        {
            "rule": "R3",
            "trick": 1,
            "seat": 0,
            "card": "2H",
            "message": "Seat 0 led 2♥ on trick 1 while holding another suit; hearts may be led "
            "only by a player who holds nothing else.",
            "code": "heart_lead_forbidden",
        }
    ]
    assert replay.captures == Captures(king_of_hearts=None, tricks=(0, 1, 0, 0))
    assert replay.ruled == Captures(king_of_hearts=Capture(0), tricks=(13, 0, 0, 0))
    assert replay.ruling == (
        "Seat 0 revoked on trick 1 (led 2♥ holding another suit); under the standard penalty, "
        "seat 0 takes every trick from trick 1 on."
    )


def test_r3_heart_lead_rule_ignored_outside_king_of_hearts() -> None:
    assert replay_tricks(ONLY_HEARTS, [Q], 0, HEART_LEAD_T1, GOLDEN).violations == ()


def test_r3_hearts_not_broken_violation() -> None:
    play = [cards("QS 7S 4S 5D"), cards("2H KH 4H 9H")]
    replay = replay_tricks(BROKEN, [K], 0, play, GOLDEN)
    assert [(v.rule, v.trick, v.seat, v.code) for v in replay.violations] == [
        ("R3", 2, 0, "hearts_not_broken")
    ]
    assert replay.violations[0].message == (
        "Seat 0 led 2♥ on trick 2 while holding another suit, before any heart had been "
        "discarded on another suit."
    )
    assert replay.ruled == Captures(king_of_hearts=Capture(0), tricks=(13, 0, 0, 0))


def test_r3_a_heart_trick_does_not_break_hearts() -> None:
    play = [cards("2H AH 4H 8H"), cards("KH 5H 9H 3H")]  # hearts led twice, nobody discarded one
    replay = replay_tricks(BROKEN, [K], 0, play, GOLDEN)
    assert [(v.trick, v.seat, v.code) for v in replay.violations] == [
        (1, 0, "hearts_not_broken"),
        (2, 1, "hearts_not_broken"),
    ]


def test_r3_hearts_broken_by_a_discard_then_led() -> None:
    play = [cards("QS 7S 4S 8H"), cards("2H KH 4H 9H")]
    replay = replay_tricks(BROKEN, [K], 0, play, GOLDEN)
    assert replay.violations == ()
    assert replay.captures == Captures(king_of_hearts=Capture(1), tricks=(1, 1, 0, 0))


# --- Impossible records (422) -------------------------------------------------------------


def _swap_last(play: list[list[Card]], text: str) -> list[list[Card]]:
    return [*play[:-1], [*play[-1][:-1], Card.parse(text)]]


@pytest.mark.parametrize(
    ("play", "hands", "code", "field", "message"),
    [
        (_swap_last(SUITS_PLAY, "2C"), None, "card_twice", "tricks.12",
         "2♣ is played twice: in trick 1 and again in trick 13."),
        ([cards("QS 7S 4S 5D"), cards("QS 6S 3S 9H")], GOLDEN, "card_twice", "tricks.1",
         "Q♠ is played twice: in trick 1 and again in trick 2."),
        ([cards("QS 7S 4S 8S")], GOLDEN, "card_not_held", "tricks.0",
         "In trick 1, seat 3 plays 8♠, a card not in that player's hand."),
        (SUITS_PLAY + [cards("2S")], SUITS, "too_many_tricks", "tricks",
         "A deal has 13 tricks; this record has 14."),
        ([cards("QS 7S 4S 5D 2C")], GOLDEN, "trick_too_long", "tricks.0",
         "Trick 1 has 5 cards; a trick has 4."),
        ([cards("QS 7S 4S 5D"), []], GOLDEN, "empty_trick", "tricks.1", "Trick 2 has no cards."),
        ([cards("QS 7S 4S"), cards("AS")], GOLDEN, "trick_incomplete", "tricks.0",
         "Trick 1 has only 3 cards but is not the last."),
        (REVOKE_T3[:2], None, "record_incomplete", "tricks",
         "Without the hands every card must be played, but only 8 of 52 were; give the four "
         "hands to check an unfinished deal."),
        ([], GOLDEN[:3], "hands_count", "hands", "Give the hands of all four players, not 3."),
        ([], [*GOLDEN[:2], GOLDEN[2][1:], GOLDEN[3]], "hand_size", "hands.2",
         "Seat 2's hand has 12 cards; each player is dealt 13."),
        ([], [GOLDEN[0], GOLDEN[1], [*GOLDEN[2][1:], Card.parse("QS")], GOLDEN[3]],
         "hands_overlap", "hands.2", "Q♠ is in both seat 0's and seat 2's hands."),
        ([], [GOLDEN[0], GOLDEN[1], [*GOLDEN[2][1:], Card.parse("7D")], GOLDEN[3]],
         "card_twice_in_hand", "hands.2", "7♦ is given twice in seat 2's hand."),
    ],
)  # fmt: skip
def test_r10_impossible_records_are_malformed(
    play: list[list[Card]], hands: list[list[Card]] | None, code: str, field: str, message: str
) -> None:
    with pytest.raises(MalformedError) as caught:
        replay_tricks(RuleSet(), [K], 0, play, hands)
    problem = caught.value.problems[0]
    assert (problem.code, problem.field, problem.message) == (code, field, message)
    assert isinstance(caught.value, (MalformedError, IllegalError))


@pytest.mark.parametrize(
    ("rules", "contracts", "doubled", "code", "field", "message"),
    [
        (RuleSet(doubling=False), [K], "KH", "doubling_off", "doubled.0",
         "Doubling is off in this game's rules, so K♥ cannot be doubled."),
        (RuleSet(), [K], "QS", "not_doubleable", "doubled.0",
         "Q♠ cannot be doubled in this deal: only the K♥ in King of Hearts and the queens in "
         "Queens can be."),
        (RuleSet(), [Q], "QS 7D", "not_doubleable", "doubled.1",
         "7♦ cannot be doubled in this deal: only the K♥ in King of Hearts and the queens in "
         "Queens can be."),
        (RuleSet(), [K], "KH KH", "doubled_twice", "doubled.1",
         "K♥ is listed twice among the doubled cards."),
    ],
)  # fmt: skip
def test_r3_r4_bad_doubling_is_malformed(
    rules: RuleSet, contracts: list[Contract], doubled: str, code: str, field: str, message: str
) -> None:
    with pytest.raises(MalformedError) as caught:
        replay_tricks(rules, contracts, 0, REVOKE_T3, GOLDEN, cards(doubled))
    problem = caught.value.problems[0]
    assert (problem.code, problem.field, problem.message) == (code, field, message)


def test_r10_trick_record_needs_trick_contracts_and_a_seat() -> None:
    with pytest.raises(MalformedError, match="Trix is checked from its plays"):
        replay_tricks(RuleSet(), [Contract.TRIX], 0, [], GOLDEN)
    with pytest.raises(MalformedError, match="The king must be a seat 0–3, not 4."):
        replay_tricks(RuleSet(), [K], 4, [], GOLDEN)


def test_fast_path_agrees_with_the_public_replay() -> None:
    found = replay_indices(RuleSet(), [K], 0, [idx(" ".join(map(str, t))) for t in REVOKE_T3],
                           [hand_mask(h) for h in GOLDEN])  # fmt: skip
    assert found.winners == [0, 0, 0, 0]
    assert [(f.trick, f.seat, ALL_CARDS[f.card].pretty, f.code) for f in found.faults] == [
        (2, 1, "K♥", "must_follow_suit")
    ]


# --- Properties ---------------------------------------------------------------------------

CONTRACT_SETS = [
    [c for i, c in enumerate(TRICK_CONTRACTS) if bits >> i & 1] for bits in range(1, 16)
]
rule_sets = st.builds(
    RuleSet,
    heart_lead=st.sampled_from(list(HeartLead)),
    penalty_discard=st.booleans(),
    first_lead=st.sampled_from(list(Starter)),
    revoke=st.sampled_from(list(RevokeRule)),
    combination=st.just(Combination.ANY),
)
setups = st.tuples(rule_sets, st.sampled_from(CONTRACT_SETS), st.integers(0, 3), st.integers())


def _as_cards(hands: list[int], play: list[list[int]]) -> tuple[list[list[Card]], list[Any]]:
    return [cards_of(h) for h in hands], [[ALL_CARDS[i] for i in t] for t in play]


def _doubleable(contracts: list[Contract]) -> list[Card]:
    found = [KING_OF_HEARTS] if K in contracts else []
    return found + (list(QUEENS[::2]) if Q in contracts else [])


@settings(max_examples=examples(300), deadline=None)
@given(setups)
def test_r10_random_legal_deal_replays_without_violation(setup: Any) -> None:
    rules, contracts, king, seed = setup
    hands, play = random_deal(random.Random(seed), rules, contracts, king)
    card_hands, card_play = _as_cards(hands, play)
    replay = replay_tricks(rules, contracts, king, card_play, card_hands)
    assert replay.violations == () and replay.complete
    assert replay.ruled == replay.captures
    assert replay.captures.tricks is not None and sum(replay.captures.tricks) == 13
    if D in contracts:
        assert replay.captures.diamonds is not None and sum(replay.captures.diamonds) == 13


@settings(max_examples=examples(300), deadline=None)
@given(setups, st.integers(0, 40))
def test_r10_injected_revoke_caught_at_its_trick_and_seat(setup: Any, after: int) -> None:
    rules, contracts, king, seed = setup
    hands, play, (trick, seat, card) = random_revoke_deal(
        random.Random(seed), rules, contracts, king, after
    )
    card_hands, card_play = _as_cards(hands, play)
    replay = replay_tricks(rules, contracts, king, card_play, card_hands)
    assert [(v.trick, v.seat, v.card.index) for v in replay.violations] == [(trick, seat, card)]
    assert replay.ruled is not None and replay.ruled.tricks is not None
    offender_tricks = replay.ruled.tricks[seat]
    if rules.revoke is RevokeRule.WHOLE:
        assert offender_tricks == 13
    else:
        assert offender_tricks == 14 - trick + replay.winners[: trick - 1].count(seat)


@settings(max_examples=examples(200), deadline=None)
@given(setups, st.integers(0, 40), st.booleans())
def test_r10_replay_without_hands_equals_replay_with_hands(
    setup: Any, after: int, revoke: bool
) -> None:
    rules, contracts, king, seed = setup
    rng = random.Random(seed)
    if revoke:
        hands, play, _ = random_revoke_deal(rng, rules, contracts, king, after)
    else:
        hands, play = random_deal(rng, rules, contracts, king)
    card_hands, card_play = _as_cards(hands, play)
    doubled = _doubleable(contracts) if rules.doubling else []
    with_hands = replay_tricks(rules, contracts, king, card_play, card_hands, doubled)
    assert with_hands == replay_tricks(rules, contracts, king, card_play, None, doubled)


@settings(max_examples=examples(200), deadline=None)
@given(setups, st.integers(1, 51))
def test_r10_unfinished_record_is_legal_so_far(setup: Any, cut: int) -> None:
    rules, contracts, king, seed = setup
    hands, play = random_deal(random.Random(seed), rules, contracts, king)
    flat = [card for trick in play for card in trick][:cut]
    partial = [flat[i : i + 4] for i in range(0, cut, 4)]
    card_hands, card_play = _as_cards(hands, partial)
    replay = replay_tricks(rules, contracts, king, card_play, card_hands)
    winners = [trick_winner(0, trick) for trick in play]  # relative to each trick's leader
    leader = first_leader(trickplay.plan_for(rules, contracts), king)
    seats = []
    for trick_no in range(13):
        seats += [(leader + i) & 3 for i in range(4)]
        leader = (leader + winners[trick_no]) & 3
    assert replay.violations == () and not replay.complete and replay.ruled is None
    assert len(replay.winners) == cut // 4
    assert replay.to_play == seats[cut]
    assert replay.captures.tricks == tuple(replay.winners.count(s) for s in range(4))


def _score_by_hand(
    contracts: list[Contract], replay: TrickReplay, play: list[list[int]], holders: dict[int, int]
) -> list[int]:
    """Default values, straight from the trick record: what the summary path must agree with."""
    scores = [0, 0, 0, 0]
    penalty = {KING_OF_HEARTS.index: 75} if K in contracts else {}
    penalty.update({q.index: 25 for q in QUEENS} if Q in contracts else {})
    for trick, winner in zip(play, replay.winners, strict=True):
        scores[winner] -= 15 if C in contracts else 0
        for card in trick:
            scores[winner] -= 10 if D in contracts and card // 13 == Suit.DIAMONDS else 0
            value = penalty.get(card, 0)
            holder = holders.get(card)
            if holder is not None and holder != winner:  # doubled: taker pays twice, holder gains
                scores[winner] -= value
                scores[holder] += value
            scores[winner] -= value
    return scores


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(CONTRACT_SETS), st.integers(0, 3), st.integers(), st.booleans())
def test_r11_derived_captures_score_identically_through_the_summary_path(
    contracts: list[Contract], king: int, seed: int, double: bool
) -> None:
    scoring = pytest.importorskip("scorekeeper.rules.scoring")
    hands, play = random_deal(random.Random(seed), ANY, contracts, king)
    card_hands, card_play = _as_cards(hands, play)
    doubled = _doubleable(contracts) if double else []
    replay = replay_tricks(ANY, contracts, king, card_play, None, doubled)
    assert replay.ruled is not None
    summary = Captures.from_dict(replay.ruled.to_dict())
    holders = {c.index: next(s for s in range(4) if hands[s] >> c.index & 1) for c in doubled}
    scores = scoring.score_deal(ANY, contracts, summary)
    assert list(scores) == _score_by_hand(contracts, replay, play, holders)
    assert sum(scores) == scoring.expected_total(ANY, contracts, summary)


@settings(max_examples=examples(100), deadline=None)
@given(setups, st.integers(0, 40))
def test_r10_ruled_captures_pass_the_summary_checks(setup: Any, after: int) -> None:
    scoring = pytest.importorskip("scorekeeper.rules.scoring")
    rules, contracts, king, seed = setup
    hands, play, _ = random_revoke_deal(random.Random(seed), rules, contracts, king, after)
    card_hands, card_play = _as_cards(hands, play)
    replay = replay_tricks(rules, contracts, king, card_play, card_hands)
    assert replay.ruled is not None
    scores = scoring.score_deal(rules, contracts, replay.ruled)
    assert sum(scores) == scoring.expected_total(rules, contracts, replay.ruled)


def test_suit_masks_sanity_for_the_golden_deal() -> None:
    # Seat 3 holds no spade: every one of its discards on trick 1-4 is a void discard.
    assert hand_mask(GOLDEN[3]) & SUIT_MASKS[Suit.SPADES] == 0
