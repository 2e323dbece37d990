"""Redeal claims (R8), checked from the claimant's whole hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import ALL_CARDS, Card, Rank, Suit, parse_cards
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.redeal import RedealVerdict, check_redeal
from scorekeeper.rules.ruleset import RuleSet
from tests.common import examples

LONG = RuleSet(redeal_long_hearts=True)
SPADES = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]


def hand(hearts: str, *, filler: list[str] = SPADES) -> list[Card]:
    """The given cards topped up to 13 with cards from ``filler``."""
    given_cards = hearts.split()
    return parse_cards(
        given_cards + [c for c in filler if c not in given_cards][: 13 - len(given_cards)]
    )


def king(cards: str, rules: RuleSet | None = None) -> RedealVerdict:
    return check_redeal(rules or RuleSet(), Contract.KING, hand(cards))


def trix(cards: str) -> RedealVerdict:
    filler = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "AD", "KD"]
    return check_redeal(RuleSet(), Contract.TRIX, hand(cards, filler=filler))


# --- King of Hearts -----------------------------------------------------------------------------


def test_r8_king_of_hearts_alone() -> None:
    assert king("KH") == RedealVerdict(
        True, "only_king_of_hearts", "Your only heart is the K♥: you may ask for a redeal (R8)."
    )


def test_r8_ace_of_hearts_alone() -> None:
    assert king("AH") == RedealVerdict(
        True, "only_ace_of_hearts", "Your only heart is the A♥: you may ask for a redeal (R8)."
    )


def test_r8_king_and_ace_of_hearts_exactly() -> None:
    verdict = king("AH KH")
    assert (verdict.eligible, verdict.code) == (True, "king_and_ace_of_hearts")
    assert verdict.reason == "Your only hearts are the K♥ and A♥: you may ask for a redeal (R8)."


def test_r8_other_hearts_spoil_the_claim() -> None:
    assert king("AH KH 9H 2H") == RedealVerdict(
        False,
        "hearts_not_eligible",
        "You hold 4 hearts (A♥ K♥ 9♥ 2♥); a redeal needs the K♥ or A♥ alone, or exactly K♥ and A♥.",
    )
    assert king("QH").reason == (
        "Your only heart is the Q♥; a redeal needs the K♥ or A♥ alone, or exactly K♥ and A♥."
    )
    assert not king("KH QH").eligible


def test_r8_no_hearts_is_no_claim() -> None:
    verdict = king("")
    assert (verdict.eligible, verdict.code) == (False, "hearts_not_eligible")
    assert verdict.reason.startswith("You hold no hearts; a redeal needs")


def test_r8_long_hearts_house_rule_off_by_default() -> None:
    verdict = king("KH 9H 7H 5H 3H")
    assert (verdict.eligible, verdict.code) == (False, "hearts_not_eligible")
    assert verdict.reason == (
        "You hold 5 hearts (K♥ 9♥ 7♥ 5♥ 3♥); a redeal needs the K♥ or A♥ alone, or exactly "
        "K♥ and A♥ (the house rule for 5+ hearts with the K♥ is off)."
    )


def test_r8_long_hearts_house_rule_on() -> None:
    assert king("KH 9H 7H 5H 3H", LONG) == RedealVerdict(
        True,
        "long_hearts_with_king",
        "You hold 5 hearts including the K♥: you may ask for a redeal (R8).",
    )
    assert not king("AH 9H 7H 5H 3H", LONG).eligible  # the K♥ is required
    assert not king("KH 9H 7H 5H", LONG).eligible  # four hearts are not enough
    assert king("KH", LONG).code == "only_king_of_hearts"  # the base claims still hold


# --- Trix ---------------------------------------------------------------------------------------


def test_r8_trix_all_four_twos() -> None:
    assert trix("2S 2H 2D 2C") == RedealVerdict(
        True, "four_twos", "You hold all four 2s: you may ask for a redeal (R8)."
    )


def test_r8_trix_three_twos_and_the_three_of_the_fourth_suit() -> None:
    assert trix("2S 2H 2C 3D") == RedealVerdict(
        True,
        "three_twos_and_three",
        "You hold three 2s (2♠ 2♥ 2♣) and the 3♦: you may ask for a redeal (R8).",
    )


def test_r8_trix_three_twos_with_the_wrong_three() -> None:
    assert trix("2S 2H 2C 3S") == RedealVerdict(
        False,
        "twos_not_eligible",
        "You hold three 2s (2♠ 2♥ 2♣) but not the 3♦; a redeal needs all four 2s, or three "
        "2s and the 3 of the fourth suit.",
    )


@pytest.mark.parametrize(
    ("cards", "held"),
    [
        ("", "You hold no 2s"),
        ("2D", "You hold one 2 (2♦)"),
        ("2S 2C 3H 3D", "You hold two 2s (2♠ 2♣)"),
    ],
)
def test_r8_trix_too_few_twos(cards: str, held: str) -> None:
    verdict = trix(cards)
    assert (verdict.eligible, verdict.code) == (False, "twos_not_eligible")
    assert verdict.reason == (
        f"{held}; a redeal needs all four 2s, or three 2s and the 3 of the fourth suit."
    )


# --- other contracts, malformed hands -----------------------------------------------------------


@pytest.mark.parametrize("contract", [Contract.QUEENS, Contract.DIAMONDS, Contract.COLLECTIONS])
def test_r8_no_redeal_claims_in_other_contracts(contract: Contract) -> None:
    verdict = check_redeal(LONG, contract, hand("KH"))
    assert (verdict.eligible, verdict.code) == (False, "no_redeal_for_contract")
    assert verdict.reason == (
        f"Redeal claims exist only for King of Hearts and Trix, not {contract.label} (R8); a "
        "misdeal is another matter: the same dealer deals again."
    )
    assert verdict.as_dict()["eligible"] is False


@pytest.mark.parametrize(
    ("cards", "code", "message"),
    [
        (SPADES[:12], "hand_size", "A hand has 13 cards; this one has 12."),
        ([*SPADES, "AH"], "hand_size", "A hand has 13 cards; this one has 14."),
        ([*SPADES[:12], "AS"], "hand_card_twice", "A hand cannot hold the same card twice (A♠)."),
    ],
)
def test_r8_hand_must_be_thirteen_distinct_cards(cards: list[str], code: str, message: str) -> None:
    with pytest.raises(MalformedError) as caught:
        check_redeal(RuleSet(), Contract.KING, parse_cards(cards))
    problem = caught.value.problems[0]
    assert (problem.code, problem.field, problem.message) == (code, "hand", message)


# --- property: the engine agrees with a plain set-based reading of R8 -----------------------------

KH, AH = Card(Suit.HEARTS, Rank.KING), Card(Suit.HEARTS, Rank.ACE)
TWOS = {Card(s, Rank.TWO) for s in Suit}
INTERESTING = sorted(
    {KH, AH, *TWOS, *(Card(s, Rank.THREE) for s in Suit)}
    | {Card(Suit.HEARTS, r) for r in (Rank.QUEEN, Rank.NINE, Rank.FIVE)}
)


def eligible_by_sets(rules: RuleSet, contract: Contract, cards: set[Card]) -> bool:
    hearts = {c for c in cards if c.suit == Suit.HEARTS}
    if contract is Contract.KING:
        long_ok = rules.redeal_long_hearts and len(hearts) >= 5 and KH in hearts
        return hearts in ({KH}, {AH}, {KH, AH}) or long_ok
    if contract is Contract.TRIX:
        twos = cards & TWOS
        if len(twos) == 4:
            return True
        if len(twos) == 3:
            (missing,) = TWOS - twos
            return Card(missing.suit, Rank.THREE) in cards
    return False


@st.composite
def hands(draw: st.DrawFn) -> set[Card]:
    """13 cards, biased towards hearts, 2s and 3s so that both answers are common."""
    core = draw(st.sets(st.sampled_from(INTERESTING), max_size=8))
    extra = draw(st.booleans())
    pool = [c for c in ALL_CARDS if c not in core and (extra or c.suit != Suit.HEARTS)]
    rest = draw(st.permutations(pool))
    return core | set(rest[: 13 - len(core)])


@settings(max_examples=examples(400), deadline=None)
@given(cards=hands(), contract=st.sampled_from(list(Contract)), long=st.booleans())
def test_r8_eligibility_matches_the_set_definition(
    cards: set[Card], contract: Contract, long: bool
) -> None:
    rules = RuleSet(redeal_long_hearts=long)
    verdict = check_redeal(rules, contract, sorted(cards))
    assert verdict.eligible == eligible_by_sets(rules, contract, cards)
    claim_ok = verdict.reason.endswith(": you may ask for a redeal (R8).")
    assert claim_ok == verdict.eligible and verdict.reason.endswith(".")
