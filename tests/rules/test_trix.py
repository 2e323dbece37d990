"""The Trix layout contract (R7) and its pass-with-a-legal-play ruling (R10's Trix analogue)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.cards import ALL_CARDS, Card, Rank, Suit, cards_of, hand_mask, parse_cards
from scorekeeper.rules.deals import random_trix
from scorekeeper.rules.errors import IllegalError, MalformedError
from scorekeeper.rules.ruleset import ClosedSuit, RuleSet, Starter, TrixRevoke
from scorekeeper.rules.trix import (
    JACKS,
    Layout,
    first_player,
    frontier,
    legal_mask,
    play,
    replay_trix,
)
from tests.common import examples

NAMES = ["Rana", "Sami", "Omar", "Lina"]
LAST = RuleSet(trix_revoke=TrixRevoke.LAST)
RIGHT = RuleSet(trix_first=Starter.RIGHT_OF_KING)
# Each row in an order that is always legal: up from the Jack to the Ace, then down to the 2.
ROW_ORDER = list("JQKAT98765432")


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def names(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def suit_run(suit: str) -> list[Card]:
    return cards(" ".join(rank + suit for rank in ROW_ORDER))


# Golden deal 1: each seat holds one whole suit (seat 0 spades ... seat 3 clubs).
SUIT_HANDS = [suit_run(s) for s in "SHDC"]


def suit_record(first: int) -> list[Card | None]:
    """Everyone plays his own row in turn; the three seats from ``first`` go out in round 13."""
    plays: list[Card | None] = []
    for rnd in range(13):
        plays += [SUIT_HANDS[(first + i) % 4][rnd] for i in range(4)]
    return plays[:-1]  # the third player out ends the deal


# Golden deal 2: seat 3 lacks the J♣ (seat 0 holds it) and holds the 2♠ instead.
SLOW_HANDS = [
    cards("JS JC QS KS AS TS 9S 8S 7S 6S 5S 4S 3S"),
    suit_run("H"),
    suit_run("D"),
    cards("QC KC AC TC 9C 8C 7C 6C 5C 4C 3C 2C 2S"),
]


def slow_record() -> list[Card | None]:
    """Seat 0 passes on turn 1 holding J♠ and J♣; seat 3 must pass on turns 4 and 8."""
    seat0 = cards("JS JC QS KS AS TS 9S 8S 7S 6S 5S 4S 3S")
    seat3 = cards("QC KC AC TC 9C 8C 7C 6C 5C 4C 3C 2C")
    hearts, diamonds = suit_run("H"), suit_run("D")
    plays: list[Card | None] = [None, hearts[0], diamonds[0], None]
    plays += [seat0[0], hearts[1], diamonds[1], None]
    for rnd in range(2, 13):
        plays += [seat0[rnd - 1], hearts[rnd], diamonds[rnd], seat3[rnd - 2]]
    return [*plays, seat0[12]]  # seat 0's last card: three players are out


# --- the layout ------------------------------------------------------------------------------


def test_r7_row_opens_with_jack() -> None:
    assert frontier(0) == JACKS
    assert names(legal_mask(Layout(), hand_mask(cards("TS QS JS 2H")))) == ["JS"]


def test_r7_any_jack_is_legal_while_other_rows_grow() -> None:
    layout = Layout.from_dict({"S": ["8S", "QS"]})
    hand = hand_mask(cards("AS KS 7S 6S JH JD 5C"))
    assert names(legal_mask(layout, hand)) == ["KS", "7S", "JH", "JD"]


def test_r7_row_grows_one_rank_at_a_time() -> None:
    layout = Layout()
    for text in ["JS", "TS", "QS", "9S"]:
        layout = play(layout, Card.parse(text).index)
    assert layout.to_dict() == {"S": ["9S", "QS"]}
    assert names(frontier(layout.played) & 0x1FFF) == ["KS", "8S"]


def test_r7_rows_stop_at_ace_and_two_without_leaking_into_the_next_suit() -> None:
    layout = Layout.from_dict({"S": ["2S", "AS"], "H": ["JH", "AH"], "D": ["2D", "JD"]})
    assert names(frontier(layout.played)) == ["TH", "QD", "JC"]


def test_r7_play_refuses_a_card_the_layout_cannot_take() -> None:
    layout = Layout.from_dict({"S": ["8S", "QS"]})
    with pytest.raises(IllegalError) as caught:
        play(layout, Card.parse("6S").index)
    problem = caught.value.problems[0]
    assert (problem.code, problem.rule) == ("card_not_placeable", "R7")
    assert problem.message == "The 6♠ cannot be laid: the spade row runs 8♠–Q♠."
    with pytest.raises(IllegalError, match="the heart row is not opened yet"):
        play(layout, Card.parse("TH").index)


def test_r7_layout_round_trips_and_describes_rows() -> None:
    data = {"S": ["8S", "QS"], "D": ["JD", "JD"], "C": ["2C", "AC"]}
    layout = Layout.from_dict(data)
    assert layout.to_dict() == data
    assert Layout.from_dict({"♠": ["8♠", "q♠"]}) == Layout.from_dict({"S": ["8S", "QS"]})
    assert layout.describe_row(Suit.DIAMONDS) == "the diamond row holds only the J♦"
    assert layout.rows()[Suit.SPADES] == (Rank.EIGHT, Rank.QUEEN)
    assert layout.rows()[Suit.HEARTS] is None


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ([], "layout_shape", "layout"),
        ({"X": ["8S", "QS"]}, "bad_suit", "layout.X"),
        ({"S": ["8S", "QH"]}, "layout_row_shape", "layout.S"),
        ({"S": ["8S"]}, "layout_row_shape", "layout.S"),
        ({"S": "8S-QS"}, "layout_row_shape", "layout.S"),
        ({"S": ["8S", "ZZ"]}, "bad_card", "layout.S"),
        ({"S": ["QS", "KS"]}, "layout_row_without_jack", "layout.S"),
        ({"S": ["QS", "8S"]}, "layout_row_without_jack", "layout.S"),
        ({"S": ["8S", "QS"], "♠": ["JS", "JS"]}, "layout_row_twice", "layout.♠"),
    ],
)
def test_r7_bad_layouts_are_malformed(data: object, code: str, field: str) -> None:
    with pytest.raises(MalformedError) as caught:
        Layout.from_dict(data)
    problem = caught.value.problems[0]
    assert (problem.code, problem.field) == (code, field)


def test_r7_layout_without_jack_message() -> None:
    with pytest.raises(MalformedError) as caught:
        Layout.from_dict({"S": ["QS", "KS"]})
    assert str(caught.value) == "A row grows from its Jack: the spade row cannot run QS–KS."


def test_r7_layout_value_must_be_runs_through_jacks() -> None:
    with pytest.raises(ValueError):
        Layout(Card.parse("QS").bit)
    with pytest.raises(ValueError):
        Layout(hand_mask(cards("JS KS")))


# --- replay: who plays first, finishing order -----------------------------------------------


def test_r7_king_plays_first_and_finishing_order() -> None:
    done = replay_trix(RuleSet(), 0, suit_record(0), SUIT_HANDS, NAMES)
    assert (done.complete, done.legal, done.order, done.to_play) == (True, True, (0, 1, 2, 3), None)
    assert done.captures == Captures(trix_order=(0, 1, 2, 3)) == done.ruled
    assert done.ruling == "No rule was broken; the finishing order is Rana, Sami, Omar and Lina."
    assert names(done.hands[3]) == ["2C"]
    assert done.hands[:3] == (0, 0, 0)
    assert done.layout.to_dict() == {
        "S": ["2S", "AS"],
        "H": ["2H", "AH"],
        "D": ["2D", "AD"],
        "C": ["3C", "AC"],
    }


def test_r7_right_of_king_plays_first() -> None:
    assert first_player(RIGHT, 3) == 0 and first_player(RuleSet(), 3) == 3
    done = replay_trix(RIGHT, 0, suit_record(1), SUIT_HANDS)
    assert done.order == (1, 2, 3, 0)
    with pytest.raises(MalformedError) as caught:
        replay_trix(RuleSet(), 0, suit_record(1), SUIT_HANDS)
    assert caught.value.problems[0].code == "card_not_held"
    assert str(caught.value) == "On turn 1, seat 0 plays the J♥, but seat 1 holds it."


def test_r7_incomplete_record_reports_position() -> None:
    done = replay_trix(RuleSet(), 2, suit_record(2)[:6], SUIT_HANDS)
    assert (done.complete, done.order, done.to_play, done.ruled) == (False, (), 0, None)
    assert done.captures == Captures()
    assert done.layout.to_dict() == {
        "S": ["JS", "JS"],
        "H": ["JH", "JH"],
        "D": ["JD", "QD"],
        "C": ["JC", "QC"],
    }
    assert done.ruling == "The play so far breaks no rule; the deal is not finished yet."


def test_r7_players_out_are_skipped_and_forced_passes_are_legal() -> None:
    done = replay_trix(RuleSet(), 0, slow_record(), SLOW_HANDS, NAMES)
    assert done.complete and done.order == (1, 2, 0, 3)
    assert [v.turn for v in done.violations] == [1]  # seat 3's passes on turns 4 and 8 are forced
    assert names(done.hands[3]) == ["2S", "2C"]


def test_r7_players_out_are_skipped_in_turn_order() -> None:
    # Seats 1 and 2 go out in round 12; round 13 is seat 0 then seat 3.
    record = slow_record()[:-1]
    done = replay_trix(RuleSet(), 0, record, SLOW_HANDS)
    assert (done.order, done.to_play) == ((1, 2), 0)


# --- violations: passing with a legal play (R7, R10 analogue) --------------------------------


def test_r7_pass_while_holding_a_legal_play_is_a_violation() -> None:
    done = replay_trix(RuleSet(), 0, slow_record(), SLOW_HANDS, NAMES)
    (violation,) = done.violations
    assert violation.as_dict() == {
        "rule": "R7",
        "turn": 1,
        "seat": 0,
        "card": None,
        "code": "trix_pass_with_legal_play",
        "message": (
            "Rana passed on turn 1 holding J♠ and J♣, either of which could have been played."
        ),
    }
    assert not done.legal


def test_r7_violation_message_with_one_card_and_unknown_names() -> None:
    plays: list[Card | None] = []  # seat 2 passes holding the J♦, then plays a round behind
    for rnd in range(13):
        plays += [SUIT_HANDS[0][rnd], SUIT_HANDS[1][rnd]]
        plays += [SUIT_HANDS[2][rnd - 1] if rnd else None, SUIT_HANDS[3][rnd]]
    done = replay_trix(RuleSet(), 0, plays, SUIT_HANDS)
    assert done.order == (0, 1, 3, 2)
    assert (
        done.violations[0].message
        == "Seat 2 passed on turn 3 holding J♦, which could have been played."
    )


def test_r10_trix_revoke_flag_keeps_the_order() -> None:
    done = replay_trix(RuleSet(), 0, slow_record(), SLOW_HANDS, NAMES)
    assert done.captures.trix_order == (1, 2, 0, 3)
    assert done.ruled == Captures(trix_order=(1, 2, 0, 3))
    assert done.ruling == (
        "Rana passed on turn 1 holding a playable card (R7); the finishing "
        "order stands (Sami, Omar, Rana and Lina) and the table decides."
    )


def test_r10_trix_revoke_last_moves_the_offender_last() -> None:
    done = replay_trix(LAST, 0, slow_record(), SLOW_HANDS, NAMES)
    assert done.captures.trix_order == (1, 2, 0, 3)
    assert done.ruled == Captures(trix_order=(1, 2, 3, 0))
    assert done.ruling == (
        "Rana passed on turn 1 holding a playable card (R7), so by the house "
        "rule that player finishes last: Sami, Omar, Lina and Rana."
    )


def test_r10_trix_revoke_incomplete_record_has_no_ruled_order() -> None:
    done = replay_trix(LAST, 0, slow_record()[:10], SLOW_HANDS, NAMES)
    assert (done.ruled, done.captures) == (None, Captures())
    assert done.ruling == (
        "Rana passed on turn 1 holding a playable card (R7); the deal is not finished yet."
    )


def test_r9_5_partnership_does_not_change_legality() -> None:
    partners = RuleSet(partnership=True)
    assert replay_trix(partners, 0, slow_record(), SLOW_HANDS) == replay_trix(
        RuleSet(), 0, slow_record(), SLOW_HANDS
    )


# --- impossible records (422) ----------------------------------------------------------------


def malformed(
    plays: Sequence[Card | None],
    hands: list[list[Card]] | None = SUIT_HANDS,
    rules: RuleSet | None = None,
) -> tuple[str, str | None, str]:
    with pytest.raises(MalformedError) as caught:
        replay_trix(rules or RuleSet(), 0, plays, hands, NAMES)
    problem = caught.value.problems[0]
    return problem.code, problem.field, problem.message


def test_r7_card_played_twice_is_malformed() -> None:
    plays = [*suit_record(0)[:4], Card.parse("JS")]
    assert malformed(plays) == (
        "card_twice",
        "plays.4",
        "On turn 5 the J♠ is played again; it was played on turn 1.",
    )
    assert malformed(plays, None)[:2] == ("card_twice", "plays.4")


def test_r7_card_not_in_hand_is_malformed() -> None:
    assert malformed(cards("JH")) == (
        "card_not_held",
        "plays.0",
        "On turn 1, Rana plays the J♥, but Sami holds it.",
    )


def test_r7_unplaceable_card_is_malformed() -> None:
    assert malformed(cards("QS")) == (
        "card_not_placeable",
        "plays.0",
        "On turn 1, Rana plays the Q♠, which cannot be laid: the spade row is not opened yet "
        "(only the J♠ opens it).",
    )
    plays = [*suit_record(0)[:4], Card.parse("9S")]
    assert malformed(plays)[2].endswith("the spade row holds only the J♠.")


def test_r7_unplaceable_card_without_hands_is_malformed() -> None:
    plays = suit_record(0)
    plays[0], plays[4] = plays[4], plays[0]  # Q♠ before J♠
    assert malformed(plays, None)[:2] == ("card_not_placeable", "plays.0")


def test_r7_play_after_the_deal_ended_is_malformed() -> None:
    plays = [*suit_record(0), Card.parse("2C")]
    expected = (
        "play_after_end",
        "plays.51",
        "Turn 52 comes after the deal ended: Rana, Sami and Omar were out.",
    )
    assert malformed(plays) == expected
    assert malformed(plays, None) == expected
    assert malformed([*suit_record(0), None])[:2] == ("play_after_end", "plays.51")


def test_r7_record_without_hands_must_be_complete() -> None:
    assert malformed(suit_record(0)[:-1], None) == (
        "record_incomplete",
        "hands",
        "Without the hands the record must run to the end of the "
        "deal (three players out); here 2 went out.",
    )


def test_r7_record_without_hands_gives_the_rest_to_the_last_player() -> None:
    done = replay_trix(RuleSet(), 0, slow_record())
    assert done == replay_trix(RuleSet(), 0, slow_record(), SLOW_HANDS)
    assert names(done.dealt[3]) == names(hand_mask(SLOW_HANDS[3]))


@pytest.mark.parametrize(
    ("hands", "code", "field", "message"),
    [
        (SUIT_HANDS[:3], "hands_count", "hands", "Give four hands, one per seat, not 3."),
        (
            [*SUIT_HANDS[:3], SUIT_HANDS[3][:12]],
            "hand_size",
            "hands.3",
            "Lina must be dealt 13 different cards, not 12 cards.",
        ),
        (
            [*SUIT_HANDS[:3], SUIT_HANDS[3][:12] + cards("JC")],
            "hand_size",
            "hands.3",
            "Lina must be dealt 13 different cards, not 13 cards.",
        ),
        (
            [SUIT_HANDS[0], SUIT_HANDS[1][:12] + cards("AS"), *SUIT_HANDS[2:]],
            "card_in_two_hands",
            "hands.1",
            "The A♠ is in both Rana's and Sami's hands.",
        ),
    ],
)
def test_r1_hands_must_be_four_times_thirteen_distinct_cards(
    hands: list[list[Card]], code: str, field: str, message: str
) -> None:
    assert malformed(suit_record(0), hands) == (code, field, message)


# --- properties --------------------------------------------------------------------------------

SEEDS = st.integers(0, 2**32 - 1)
RULES = st.sampled_from([RuleSet(), RIGHT, LAST])


@settings(max_examples=examples(150), deadline=None)
@given(seed=SEEDS, king=st.integers(0, 3), rules=RULES)
def test_r7_random_legal_games_replay_cleanly(seed: int, king: int, rules: RuleSet) -> None:
    hands, plays = random_trix(random.Random(seed), rules, king)
    done = replay_trix(rules, king, plays, hands)
    assert done.complete and done.legal
    assert sorted(done.order) == [0, 1, 2, 3]
    assert done.ruled == done.captures == Captures(trix_order=done.order)  # type: ignore[arg-type]
    assert sum(1 for h in done.hands if h) == 1
    assert done.layout.played | done.hands[done.order[3]] == (1 << 52) - 1
    assert replay_trix(rules, king, plays) == done


def _legal_naive(layout_ranks: dict[Suit, tuple[int, int]], card: Card) -> bool:
    if card.rank == Rank.JACK:
        return card.suit not in layout_ranks
    if card.suit not in layout_ranks:
        return False
    low, high = layout_ranks[card.suit]
    return card.rank in (low - 1, high + 1)


@settings(max_examples=examples(300), deadline=None)
@given(
    rows=st.dictionaries(
        st.sampled_from(list(Suit)), st.tuples(st.integers(2, 11), st.integers(11, 14))
    ),
    hand=st.sets(st.sampled_from(ALL_CARDS), max_size=13),
)
def test_r7_legal_mask_matches_the_rule_as_written(
    rows: dict[Suit, tuple[int, int]], hand: set[Card]
) -> None:
    layout = Layout.from_dict(
        {s.letter: [str(Card(s, Rank(lo))), str(Card(s, Rank(hi)))] for s, (lo, hi) in rows.items()}
    )
    in_layout = {
        c for c in ALL_CARDS if c.suit in rows and rows[c.suit][0] <= c.rank <= rows[c.suit][1]
    }
    hand -= in_layout
    expected = {c for c in hand if _legal_naive(rows, c)}
    assert set(cards_of(legal_mask(layout, hand_mask(hand)))) == expected
    assert Layout.from_dict(layout.to_dict()) == layout


def _game_with_one_illegal_pass(
    rng: random.Random, rules: RuleSet, king: int, at: int
) -> tuple[tuple[list[Card], ...], list[Card | None], int, int, int]:
    """A legal random game except one pass (the first chance from turn ``at``) with a legal card."""
    hands, _ = random_trix(random.Random(rng.random()), rules, king)
    masks = [hand_mask(h) for h in hands]
    layout, seat, out, plays = Layout(), first_player(rules, king), 0, list[Card | None]()
    offence = (-1, -1, 0)
    while out < 3:
        legal = legal_mask(layout, masks[seat])
        if legal and offence[0] < 0 and len(plays) >= at:
            offence, legal = (len(plays) + 1, seat, legal), 0
        card = rng.choice(cards_of(legal)) if legal else None
        if card is not None:
            layout = play(layout, card.index)
            masks[seat] ^= card.bit
            out += not masks[seat]
        plays.append(card)
        seat = (seat + 1) % 4
        while not masks[seat]:
            seat = (seat + 1) % 4
    return hands, plays, *offence


@settings(max_examples=examples(150), deadline=None)
@given(seed=SEEDS, king=st.integers(0, 3), rules=RULES, at=st.integers(0, 45))
def test_r7_an_injected_illegal_pass_is_caught_at_its_turn(
    seed: int, king: int, rules: RuleSet, at: int
) -> None:
    hands, plays, turn, seat, legal = _game_with_one_illegal_pass(
        random.Random(seed), rules, king, at
    )
    done = replay_trix(rules, king, plays, hands)
    assert [(v.turn, v.seat, v.playable) for v in done.violations] == [
        (turn, seat, tuple(cards_of(legal)))
    ]
    assert plays[turn - 1] is None
    assert done.complete and sorted(done.order) == [0, 1, 2, 3]
    expected = done.order
    if rules.trix_revoke is TrixRevoke.LAST:
        expected = tuple(s for s in done.order if s != seat) + (seat,)
    assert done.ruled == Captures(trix_order=expected)  # type: ignore[arg-type]
    assert replay_trix(rules, king, plays) == done


@settings(max_examples=examples(50), deadline=None)
@given(seed=SEEDS, cut=st.integers(0, 60))
def test_r7_prefix_replay_matches_incremental_layout(seed: int, cut: int) -> None:
    hands, plays = random_trix(random.Random(seed), RuleSet(), 0)
    prefix = plays[:cut]
    done = replay_trix(RuleSet(), 0, prefix, hands)
    layout = Layout()
    for card in prefix:
        if card is not None:
            layout = play(layout, card.index)
    assert done.layout == layout
    assert done.complete == (cut >= len(plays))


# --- R7 house rule "closed suit replays" (seed 000/001) ---------------------------------------

REPLAY = RuleSet(trix_closed_suit=ClosedSuit.REPLAY)
# Seat 1 holds the hearts but not the J♥ (Lina does, and keeps it): Lina's club row is
# complete on turn 48 while the J♥ is still in her hand; Rana's spade row would be next.
EARLY_HANDS = [
    suit_run("S"),
    [*suit_run("H")[1:], Card.parse("JC")],
    suit_run("D"),
    [*suit_run("C")[1:], Card.parse("JH")],
]
CLUBS_AFTER_JC = cards("TC 9C 8C 7C 6C 5C 4C 3C 2C QC KC AC")


def early_record() -> list[Card | None]:
    plays: list[Card | None] = []
    for rnd in range(12):
        clubs = [Card.parse("JC")] if rnd == 0 else [None]
        plays += [SUIT_HANDS[0][rnd], *clubs, SUIT_HANDS[2][rnd], CLUBS_AFTER_JC[rnd]]
    return [*plays, SUIT_HANDS[0][12]]


def test_r7_closed_suit_replays_voids_the_deal() -> None:
    replay = replay_trix(REPLAY, 0, early_record(), EARLY_HANDS, ["Rana", "Sami", "Omar", "Lina"])
    assert (replay.void, replay.void_turn, replay.legal, replay.ruled) == (True, 48, True, None)
    assert replay.ruling == (
        "Lina completed the club row on turn 48 while J♥ was still in a hand, so under the "
        "house rule “closed suit replays” (R7) the deal is void and is dealt again; nothing is "
        "scored."
    )


def test_r7_closed_suit_plays_on_by_default() -> None:
    replay = replay_trix(RuleSet(), 0, early_record(), EARLY_HANDS)
    assert (replay.void, replay.void_turn, replay.legal, replay.order) == (False, None, True, (0,))


def test_r7_closed_suit_after_every_jack_is_no_void() -> None:
    replay = replay_trix(REPLAY, 0, suit_record(0), SUIT_HANDS)
    assert not replay.void and replay.complete and replay.ruled is not None


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_property_closed_suit_void_exactly_when_a_row_closes_before_the_last_jack(
    seed: int, king: int
) -> None:
    hands, plays = random_trix(random.Random(seed), RuleSet(), king)
    replay = replay_trix(REPLAY, king, plays, hands)
    laid = 0
    for turn, card in enumerate(plays, 1):
        if card is None:
            continue
        laid |= card.bit
        rows_done = [
            s
            for s in Suit
            if laid & hand_mask(suit_run("SHDC"[s])) == hand_mask(suit_run("SHDC"[s]))
        ]
        if rows_done and not all(laid & Card(s, Rank.JACK).bit for s in Suit):
            assert replay.void_turn == turn
            return
    assert not replay.void and replay.order == replay_trix(RuleSet(), king, plays, hands).order
