"""Kingdoms, contract rotation and the end of the game (R2, R8, R9.5, R9.6, R9.9, R12)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import KING_OF_HEARTS, QUEENS, Suit
from scorekeeper.rules.contracts import ALL_CONTRACTS, TRICK_CONTRACTS, Contract
from scorekeeper.rules.errors import IllegalError, MalformedError, RulesError, StateError
from scorekeeper.rules.game import DealEntry, Game, RedealEntry
from scorekeeper.rules.game_log import entry_from_dict
from scorekeeper.rules.ruleset import (
    ClosedSuit,
    Combination,
    Dealer,
    KingdomOrder,
    RuleSet,
    SelfCapture,
    Starter,
    Tiebreak,
    Values,
)
from tests.common import NAMES, C, D, K, Q, T, examples

# --- building deals -------------------------------------------------------------------


def king(taker: int, doubled_by: int | None = None, *, n: int | None = None) -> DealEntry:
    return DealEntry((K,), Captures(king_of_hearts=Capture(taker, doubled_by)), n)


def queens(*takers: int | tuple[int, int]) -> DealEntry:
    caps = tuple(Capture(*t) if isinstance(t, tuple) else Capture(t) for t in takers)
    return DealEntry((Q,), Captures(queens=caps))  # type: ignore[arg-type]


def diamonds(*counts: int) -> DealEntry:
    return DealEntry((D,), Captures(diamonds=counts))  # type: ignore[arg-type]


def collections(*counts: int) -> DealEntry:
    return DealEntry((C,), Captures(tricks=counts))  # type: ignore[arg-type]


def trix(*order: int, n: int | None = None) -> DealEntry:
    return DealEntry((T,), Captures(trix_order=order), n)  # type: ignore[arg-type]


def with_king(entry: DealEntry, seat: int) -> DealEntry:
    return DealEntry(entry.contracts, entry.captures, seat)


# A golden game under the default rules, worked out by hand (see each kingdom's totals).
KINGDOM_1 = [  # Rana is king; totals (30, -235, 125, 80)
    trix(2, 0, 3, 1),  # (150, 50, 200, 100)
    king(1, 3),  # doubled by Lina, taken by Sami: (0, -150, 0, 75)
    queens(0, 1, 1, 3),  # (-25, -50, 0, -25)
    diamonds(5, 4, 3, 1),  # (-50, -40, -30, -10)
    collections(3, 3, 3, 4),  # (-45, -45, -45, -60)
]
KINGDOM_2 = [  # Sami is king; totals (70, 65, -100, -35)
    king(2),  # (0, 0, -75, 0)
    queens((2, 0), 2, 3, (0, 0)),  # Q♠ doubled by Rana; Rana doubled and took Q♣: (0, 0, -75, -25)
    diamonds(0, 6, 4, 3),  # (0, -60, -40, -30)
    collections(2, 5, 4, 2),  # (-30, -75, -60, -30)
    trix(1, 2, 0, 3),  # (100, 200, 150, 50)
]
KINGDOM_3 = [  # Omar is king; totals (-160, 40, 65, 55)
    diamonds(2, 2, 7, 2),
    trix(3, 2, 1, 0),
    collections(6, 1, 1, 5),
    king(0),
    queens(3, 3, 0, 1),
]
KINGDOM_4 = [  # Lina is king; totals (60, 10, -90, 20)
    collections(4, 4, 4, 1),
    diamonds(3, 3, 3, 4),
    queens(0, 0, 2, 2),
    trix(0, 3, 1, 2),
    king(3),
]
GOLDEN = KINGDOM_1 + KINGDOM_2 + KINGDOM_3 + KINGDOM_4

# Short games (one kingdom, Rana king) that end in a tie for first.
TIE_RANA_HAS_TRIX = [  # Rana and Sami 50 each; Rana went out first in Trix
    trix(0, 1, 2, 3),
    king(0),
    queens(1, 2, 3, 3),
    diamonds(3, 3, 4, 3),
    collections(3, 3, 3, 4),
]
TIE_NO_TRIX = [  # Rana and Sami 25 each; Omar went out first in Trix
    trix(2, 0, 1, 3),
    king(2),
    queens(0, 0, 2, 2),
    diamonds(3, 3, 3, 4),
    collections(3, 3, 3, 4),
]
SHORT = RuleSet(kingdoms=1)


def replay(
    log: list[DealEntry | RedealEntry], rules: RuleSet | None = None, first: int = 0
) -> Game:
    return Game.replay(rules or RuleSet(), first, NAMES, log)


def error_of(call: Callable[..., object], *args: object) -> RulesError:
    """The RulesError that ``call(*args)`` raises."""
    with pytest.raises(RulesError) as info:
        call(*args)
    return info.value


# --- R2: kingdoms and contract rotation -----------------------------------------------


def test_r2_golden_full_game_default_rules() -> None:
    game = replay(GOLDEN)
    assert [k.king for k in game.kingdoms] == [0, 1, 2, 3]
    assert [k.totals for k in game.kingdoms] == [
        (30, -235, 125, 80),
        (70, 65, -100, -35),
        (-160, 40, 65, 55),
        (60, 10, -90, 20),
    ]
    assert all(sum(k.totals) == 0 and k.zero_sum_ok for k in game.kingdoms)
    assert game.totals == (0, -120, 0, 120)
    assert [(s.seat, s.total, s.rank) for s in game.standings] == [
        (3, 120, 1),
        (0, 0, 2),
        (2, 0, 2),
        (1, -120, 4),
    ]
    assert (game.finished, game.winner, game.tied, game.deals_played) == (True, 3, (), 20)
    assert game.outcome.decided_by == "total"
    assert game.trix_first_places == (1, 1, 1, 1)


def test_r2_golden_deal_records() -> None:
    game = replay(GOLDEN)
    deals = game.deals
    assert [d.n for d in deals] == list(range(1, 21))
    assert [d.king for d in deals] == [0] * 5 + [1] * 5 + [2] * 5 + [3] * 5
    assert deals[1].scores == (0, -150, 0, 75)
    assert deals[6].scores == (0, 0, -75, -25)
    assert game.kingdoms[1].deals[0].n == 6


def test_r2_state_during_a_kingdom() -> None:
    game = replay(KINGDOM_1[:2])
    assert (game.current_king, game.kingdom_index, game.deals_played) == (0, 0, 2)
    assert game.available_contracts == (Q, D, C)
    assert (game.finished, game.winner, game.tied, game.deals_total) == (False, None, (), 20)
    game = replay(KINGDOM_1)
    assert (game.current_king, game.kingdom_index, game.available_contracts) == (
        1,
        1,
        ALL_CONTRACTS,
    )
    assert game.kingdoms[-1].deals == ()


def test_r2_king_cannot_repeat_a_contract() -> None:
    game = replay(KINGDOM_1 + [queens(0, 1, 2, 3), collections(4, 3, 3, 3)])
    err = error_of(game.record, queens(0, 1, 2, 3))
    assert isinstance(err, StateError)
    problem = err.problems[0]
    assert (problem.code, problem.rule, problem.field) == (
        "contract_already_played",
        "R2",
        "contracts",
    )
    assert problem.message == (
        "The kingdom of Sami has already had Queens; the contracts left are "
        "King of Hearts, Diamonds and Trix."
    )
    data = {k: problem.params[k] for k in ("king", "contracts", "remaining")}
    assert data == {"king": 1, "contracts": ["queens"], "remaining": ["king", "diamonds", "trix"]}
    assert not game.can(queens(0, 1, 2, 3))
    assert game.can(king(0))


def test_r2_repeat_with_one_contract_left() -> None:
    game = replay(KINGDOM_1[:4])
    err = error_of(game.verify, king(2))
    assert err.problems[0].message == (
        "The kingdom of Rana has already had King of Hearts; the contract left is Collections."
    )


def test_r2_replay_names_the_bad_entry() -> None:
    err = error_of(replay, KINGDOM_1 + [king(0), king(1)])
    assert isinstance(err, StateError)
    assert err.problems[0].field == "log.6.contracts"
    err = error_of(replay, [trix(0, 1, 2, 3), diamonds(3, 3, 3, 3)])
    assert isinstance(err, IllegalError)
    assert err.problems[0].field == "log.1.captures.diamonds"


def test_r2_record_leaves_the_game_unchanged() -> None:
    game = replay(KINGDOM_1[:1])
    later = game.record(KINGDOM_1[1])
    assert (game.deals_played, later.deals_played) == (1, 2)
    assert later.log == tuple(KINGDOM_1[:2])


def test_r2_king_given_must_be_the_king() -> None:
    game = replay(KINGDOM_1)
    assert game.record(with_king(king(0), 1)).deals_played == 6
    err = error_of(game.record, with_king(king(0), 2))
    assert isinstance(err, StateError)
    assert (err.problems[0].code, err.problems[0].field) == ("not_the_king", "king")
    assert err.problems[0].message == "Sami is king of this kingdom and deals it, not Omar."


def test_r2_game_over() -> None:
    game = replay(GOLDEN)
    err = error_of(game.record, king(0))
    assert isinstance(err, StateError) and err.problems[0].code == "game_over"
    assert err.problems[0].message == (
        "The game is over; Lina won with 120 points, so no more deals can be recorded."
    )
    assert not game.can(RedealEntry("misdeal"))
    assert (game.current_king, game.available_contracts) == (None, ())


def test_r9_9_short_game_is_one_kingdom() -> None:
    game = replay(KINGDOM_1, SHORT)
    assert (game.finished, game.winner, len(game.kingdoms), game.deals_total) == (True, 2, 1, 5)
    assert game.totals == (30, -235, 125, 80)


def test_r9_9_kings_go_right_from_the_first_king() -> None:
    game = replay(GOLDEN, first=2)
    assert [k.king for k in game.kingdoms] == [2, 3, 0, 1]
    assert game.totals == (0, -120, 0, 120)  # the captures, not the kings, decide the scores


def test_r9_9_custom_kingdom_order() -> None:
    rules = RuleSet(kingdom_order=KingdomOrder.CUSTOM, king_order=(2, 0, 3, 1))
    game = replay(GOLDEN, rules, first=2)
    assert [k.king for k in game.kingdoms] == [2, 0, 3, 1]
    assert replay(GOLDEN[:10], rules, first=2).current_king == 3


def test_r2_custom_order_must_start_with_the_first_king() -> None:
    rules = RuleSet(kingdom_order=KingdomOrder.CUSTOM, king_order=(2, 0, 3, 1))
    err = error_of(Game.start, rules, 0, NAMES)
    assert isinstance(err, IllegalError)
    assert (err.problems[0].rule, err.problems[0].field) == ("R2", "first_king")
    assert err.problems[0].message == (
        "The agreed kingdom order starts with Omar, so Omar is the first king, not Rana."
    )


SEVEN = RuleSet(kingdom_order=KingdomOrder.SEVEN_OF_HEARTS)


def test_r9_9_seven_of_hearts_asks_who_holds_it() -> None:
    game = replay(KINGDOM_1, SEVEN)
    assert (game.current_king, game.needs_king, game.available_contracts) == (
        None,
        True,
        ALL_CONTRACTS,
    )
    err = error_of(game.record, king(0))
    assert isinstance(err, StateError)
    assert (err.problems[0].code, err.problems[0].field) == ("seven_of_hearts_needed", "king")
    assert err.problems[0].message == (
        "Say who was dealt the 7♥: under the 7♥ rule that player is king of the new kingdom, "
        "or the nearest player to the right who has not been king yet."
    )


def test_r9_9_seven_of_hearts_skips_former_kings() -> None:
    log = (
        KINGDOM_1
        + [with_king(KINGDOM_2[0], 1)]  # Sami holds the 7♥: king
        + KINGDOM_2[1:]
        + [with_king(KINGDOM_3[0], 0)]  # Rana, then Sami, were kings: Omar
        + KINGDOM_3[1:]
    )
    game = replay(log, SEVEN)
    assert [k.king for k in game.kingdoms] == [0, 1, 2, 3]
    assert (game.current_king, game.needs_king) == (3, False)  # the last king is forced
    game = replay(log + KINGDOM_4, SEVEN)
    assert (game.finished, game.winner) == (True, 3)


def test_r9_9_seven_of_hearts_holder_becomes_king() -> None:
    log = KINGDOM_1 + [with_king(KINGDOM_2[0], 3)] + KINGDOM_2[1:]
    game = replay(log + [with_king(KINGDOM_3[0], 3)], SEVEN)  # Lina and Rana were kings: Sami
    assert [k.king for k in game.kingdoms] == [0, 3, 1]
    err = error_of(replay, log + [KINGDOM_3[0]], SEVEN)
    assert (err.problems[0].field, err.problems[0].code) == (
        "log.10.king",
        "seven_of_hearts_needed",
    )


def test_r9_9_seven_of_hearts_king_given_later_must_match() -> None:
    game = replay(KINGDOM_1 + [with_king(KINGDOM_2[0], 2)], SEVEN)
    assert game.current_king == 2
    assert game.can(with_king(KINGDOM_2[1], 2))
    assert not game.can(with_king(KINGDOM_2[1], 1))


# --- R8: redeals ----------------------------------------------------------------------


def test_r8_redeal_does_not_use_up_a_contract() -> None:
    game = replay([trix(0, 1, 2, 3), RedealEntry("redeal", seat=2, contract=K, note="K♥ alone")])
    kingdom = game.kingdoms[0]
    assert kingdom.remaining == (K, Q, D, C)
    assert kingdom.redeals == (RedealEntry("redeal", 2, K, "K♥ alone"),)
    assert game.deals_played == 1
    game = game.record(queens(0, 1, 2, 3))  # the king need not choose King of Hearts again
    assert game.available_contracts == (K, D, C)
    assert game.deals[-1].n == 2


def test_r8_misdeal_after_any_contract() -> None:
    game = replay([RedealEntry("misdeal", contract=D), RedealEntry("misdeal")])
    assert len(game.kingdoms[0].redeals) == 2 and game.available_contracts == ALL_CONTRACTS


def test_r8_redeal_claim_only_in_king_of_hearts_or_trix() -> None:
    game = replay([])
    err = error_of(game.record, RedealEntry("redeal", seat=1, contract=Q))
    assert isinstance(err, IllegalError)
    assert (err.problems[0].rule, err.problems[0].field) == ("R8", "contract")
    assert err.problems[0].message == (
        "A redeal can only be claimed in King of Hearts or Trix; Rana announced Queens."
    )


def test_r8_redeal_of_a_contract_already_played() -> None:
    err = error_of(replay, [trix(0, 1, 2, 3), RedealEntry("redeal", contract=T)])
    assert isinstance(err, StateError)
    assert (err.problems[0].field, err.problems[0].code) == (
        "log.1.contract",
        "contract_already_played",
    )


def test_r8_redeal_shape() -> None:
    game = replay([])
    assert isinstance(error_of(game.record, RedealEntry("oops", 1)), MalformedError)  # type: ignore[arg-type]
    assert isinstance(error_of(game.record, RedealEntry("redeal", 7)), MalformedError)


# --- R9.6: combinations ---------------------------------------------------------------

ALL_FOUR_CAPTURES = Captures(
    king_of_hearts=Capture(0),
    queens=(Capture(0), Capture(1), Capture(2), Capture(3)),
    diamonds=(3, 3, 4, 3),
    tricks=(4, 3, 3, 3),
)  # (-190, -100, -110, -100)


def test_r9_6_all_four_gives_two_deals_per_kingdom() -> None:
    rules = RuleSet(combination=Combination.ALL_FOUR)
    kingdom = [DealEntry(TRICK_CONTRACTS, ALL_FOUR_CAPTURES), trix(0, 1, 2, 3)]
    game = replay(kingdom * 4, rules)
    assert [len(k.deals) for k in game.kingdoms] == [2, 2, 2, 2]
    assert [k.king for k in game.kingdoms] == [0, 1, 2, 3]
    assert game.kingdoms[0].totals == (10, 50, -10, -50)
    assert game.deals[0].scores == (-190, -100, -110, -100)
    assert (game.deals_played, game.totals, game.winner) == (8, (40, 200, -40, -200), 1)


ALL_FOUR = RuleSet(combination=Combination.ALL_FOUR)


@pytest.mark.parametrize("contract", TRICK_CONTRACTS, ids=lambda c: c.value)
def test_r9_6_all_four_refuses_a_single_trick_contract(contract: Contract) -> None:
    game = replay([], ALL_FOUR)
    entry = DealEntry((contract,), ALL_FOUR_CAPTURES)
    err = error_of(game.record, entry)
    assert isinstance(err, StateError)
    problem = err.problems[0]
    assert (problem.code, problem.rule, problem.field) == (
        "contract_not_all_four",
        "R9.6",
        "contracts",
    )
    assert problem.message == (
        "Under “all four at once” (R9.6) the four trick contracts are always played together "
        f"in one deal, then Trix: Rana cannot announce {contract.label} alone."
    )
    assert not game.can(entry)


def test_r9_6_all_four_offers_the_complex_and_trix() -> None:
    game = replay([], ALL_FOUR)
    assert game.available_choices == (TRICK_CONTRACTS, (T,))
    assert game.to_dict()["available_choices"] == [
        ["king", "queens", "diamonds", "collections"],
        ["trix"],
    ]
    assert game.deals_total == 8
    game = game.record(trix(0, 1, 2, 3))
    assert game.available_choices == (TRICK_CONTRACTS,)
    assert (game.deals_total, replay([], RuleSet()).available_choices[0]) == (8, (K,))


def test_r9_6_all_four_no_king_of_hearts_redeal_claim() -> None:
    game = replay([], ALL_FOUR)
    err = error_of(game.record, RedealEntry("redeal", 1, K))
    assert err.problems[0].code == "contract_not_all_four"
    assert game.can(RedealEntry("redeal", 1, T)) and game.can(RedealEntry("misdeal", None, K))


def test_r9_6_combination_leaves_fewer_contracts() -> None:
    rules = RuleSet(combination=Combination.ANY)
    combo = DealEntry(
        (D, Q, C),
        Captures(
            queens=(Capture(0), Capture(1), Capture(2), Capture(3)),
            diamonds=(3, 3, 4, 3),
            tricks=(4, 3, 3, 3),
        ),
    )
    game = replay([combo], rules)
    assert game.deals[0].contracts == (Q, D, C)  # canonical order
    assert game.available_contracts == (K, T)
    game = game.record(king(1)).record(trix(0, 1, 2, 3))
    assert (len(game.kingdoms[0].deals), game.current_king, game.kingdom_index) == (3, 1, 1)
    assert game.kingdoms[0].zero_sum_ok and sum(game.kingdoms[0].totals) == 0


def test_r9_6_combination_with_a_played_contract() -> None:
    rules = RuleSet(combination=Combination.ANY)
    game = replay([king(1)], rules)
    entry = DealEntry(
        (K, Q),
        Captures(king_of_hearts=Capture(0), queens=ALL_FOUR_CAPTURES.queens, tricks=(4, 3, 3, 3)),
    )
    err = error_of(game.record, entry)
    assert isinstance(err, StateError)
    assert err.problems[0].message == (
        "The kingdom of Rana has already had King of Hearts; the contracts left are "
        "Queens, Diamonds, Collections and Trix."
    )


def test_r9_6_combination_needs_the_house_rule() -> None:
    err = error_of(replay([]).record, DealEntry(TRICK_CONTRACTS, ALL_FOUR_CAPTURES))
    assert isinstance(err, IllegalError) and err.problems[0].rule == "R9.6"


# --- R12: end of game and tie-break ---------------------------------------------------


def test_r12_tie_broken_by_trix_first_places() -> None:
    game = replay(TIE_RANA_HAS_TRIX, SHORT)
    assert game.totals == (50, 50, -10, -90)
    assert (game.finished, game.winner, game.tied, game.needs_extra_deal) == (True, 0, (), False)
    assert game.outcome.decided_by == "trix_first_places"
    assert [s.rank for s in game.standings] == [1, 1, 3, 4]


def test_r12_tie_without_trix_difference_needs_an_extra_deal() -> None:
    game = replay(TIE_NO_TRIX, SHORT)
    assert game.totals == (25, 25, 0, -50)
    assert (game.finished, game.winner, game.tied, game.needs_extra_deal) == (
        False,
        None,
        (0, 1),
        True,
    )
    assert (game.current_king, game.available_contracts, game.deals_total) == (0, ALL_CONTRACTS, 6)
    game = game.record(king(1))
    assert game.totals == (25, -50, 0, -50)
    assert (game.finished, game.winner, game.tied) == (True, 0, ())
    assert game.outcome.decided_by == "extra_deal"
    assert [d.n for d in game.extra_deals] == [6] and game.extra_deals[0].king == 0
    assert game.kingdoms[0].totals == (25, 25, 0, -50)  # extra deals are not in a kingdom
    err = error_of(game.record, king(1))
    assert err.problems[0].message == (
        "The game is over; Rana won with 25 points, so no more deals can be recorded."
    )


def test_r12_still_tied_after_an_extra_deal() -> None:
    game = replay(TIE_NO_TRIX + [king(3)], SHORT)
    assert (game.finished, game.tied, game.totals) == (False, (0, 1), (25, 25, 0, -125))
    game = game.record(trix(1, 0, 2, 3))
    assert (game.finished, game.winner, game.totals[:2]) == (True, 1, (175, 225))
    assert game.deals_played == 7


def test_r12_extra_deal_is_dealt_by_the_first_king() -> None:
    game = replay(TIE_NO_TRIX, SHORT)
    assert game.can(with_king(king(1), 0))
    err = error_of(game.record, with_king(king(1), 2))
    assert err.problems[0].message == "Rana, the first king, deals the extra deal, not Omar."
    game = game.record(RedealEntry("redeal", seat=3, contract=K))
    assert (game.extra_redeals, game.needs_extra_deal) == ((RedealEntry("redeal", 3, K),), True)


def test_r12_extra_deal_house_rule_ignores_trix() -> None:
    rules = RuleSet(kingdoms=1, tiebreak=Tiebreak.EXTRA_DEAL)
    game = replay(TIE_RANA_HAS_TRIX, rules)
    assert (game.finished, game.winner, game.tied) == (False, None, (0, 1))
    game = game.record(collections(5, 2, 3, 3))
    assert (game.finished, game.winner) == (True, 1)


def test_r12_three_way_tie_narrowed_by_trix() -> None:
    from scorekeeper.rules.game_end import decide

    out = decide(RuleSet(), (10, 10, 10, -30), (1, 1, 0, 2), over=True)
    assert (out.winner, out.tied) == (None, (0, 1))


def test_r9_8_inverted_signs_lowest_total_wins() -> None:
    game = replay(GOLDEN, RuleSet(inverted=True))
    assert game.totals == (0, 120, 0, -120)
    assert (game.winner, game.standings[0].seat, game.standings[0].rank) == (3, 3, 1)


# --- R9.5: partnership ----------------------------------------------------------------

PARTNERS = RuleSet(partnership=True)


def test_r9_5_partnership_winner_is_a_team() -> None:
    game = replay(TIE_RANA_HAS_TRIX, RuleSet(kingdoms=1, partnership=True))
    assert (game.team_totals, game.winner, game.winning_team) == ((40, -40), 0, (0, 2))
    assert [s.to_dict() for s in game.standings] == [
        {"seat": 0, "total": 40, "rank": 1, "team": [0, 2]},
        {"seat": 1, "total": -40, "rank": 2, "team": [1, 3]},
    ]
    err = error_of(game.record, king(0))
    assert err.problems[0].message == (
        "The game is over; Rana and Omar won together with 40 points, so no more deals can be "
        "recorded."
    )


def test_r9_5_team_tie_broken_by_trix_first_places() -> None:
    log = [
        trix(0, 1, 2, 3),
        king(0),
        queens(0, 2, 1, 3),
        diamonds(2, 4, 2, 5),
        collections(5, 2, 4, 2),
    ]
    game = replay(log, RuleSet(kingdoms=1, partnership=True))
    assert (game.totals, game.team_totals) == ((5, 55, -5, -55), (0, 0))
    assert (game.finished, game.winner, game.winning_team) == (True, 0, (0, 2))
    assert game.outcome.decided_by == "trix_first_places"


def test_r9_5_team_tie_needs_an_extra_deal() -> None:
    game = replay(GOLDEN, PARTNERS)
    assert (game.team_totals, game.tied, game.needs_extra_deal) == ((0, 0), (0, 1, 2, 3), True)
    game = game.record(king(1))
    assert (game.finished, game.winner, game.winning_team) == (True, 0, (0, 2))


# --- setup ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "first", "kind", "field", "message"),
    [
        (
            NAMES[:3],
            0,
            IllegalError,
            "players",
            "Trex is played by exactly 4 players; 3 names were given.",
        ),
        (["Rana", "Sami", " ", "Lina"], 0, MalformedError, "players.2", "Player 3 needs a name."),
        (
            ["Rana", "Sami", "rana", "Lina"],
            0,
            IllegalError,
            "players.2",
            "Two players are called rana; give each player a different name.",
        ),
        (NAMES, 4, MalformedError, "first_king", "The first king must be a seat 0–3, not 4."),
    ],
)
def test_r1_start_checks_players_and_first_king(
    names: list[str], first: int, kind: type[RulesError], field: str, message: str
) -> None:
    err = error_of(Game.start, RuleSet(), first, names)
    assert type(err) is kind
    assert (err.problems[0].field, err.problems[0].message) == (field, message)


def test_start_strips_names() -> None:
    game = Game.start(RuleSet(), 1, [" Rana ", "Sami", "Omar", "Lina"])
    assert (game.names, game.current_king, game.zero_sum) == (
        ("Rana", "Sami", "Omar", "Lina"),
        1,
        True,
    )
    assert not Game.start(RuleSet(doubled_self_capture=SelfCapture.DOUBLE), 0, NAMES).zero_sum


def test_entries_round_trip_through_dicts() -> None:
    for entry in [
        *GOLDEN,
        with_king(king(1), 2),
        RedealEntry("redeal", 1, K, "x"),
        RedealEntry("misdeal"),
    ]:
        assert entry_from_dict(json.loads(json.dumps(entry.to_dict()))) == entry
    err = error_of(entry_from_dict, {"contracts": ["king"], "captures": {}, "dealer": 1})
    assert (err.problems[0].code, err.problems[0].field) == ("unknown_field", "dealer")
    assert isinstance(error_of(entry_from_dict, {"contracts": [], "captures": {}}), MalformedError)
    assert isinstance(
        error_of(entry_from_dict, {"contracts": ["king"], "captures": {}, "king": 9}),
        MalformedError,
    )
    assert isinstance(error_of(entry_from_dict, {"kind": "claim"}), MalformedError)


def test_to_dict_is_the_api_game_state() -> None:
    state = json.loads(json.dumps(replay(GOLDEN[:6]).to_dict()))
    assert state["players"] == NAMES and state["rules"] == RuleSet().to_dict()
    assert (state["zero_sum"], state["current_king"], state["finished"]) == (True, 1, False)
    assert state["available_contracts"] == ["queens", "diamonds", "collections", "trix"]
    assert state["kingdoms"][0]["totals"] == [30, -235, 125, 80]
    assert state["kingdoms"][0]["remaining"] == [] and state["kingdoms"][0]["zero_sum_ok"] is True
    assert state["kingdoms"][1]["deals"] == [
        {
            "n": 6,
            "king": 1,
            "contracts": ["king"],
            "captures": {"king_of_hearts": {"taker": 2, "doubled_by": None}},
            "scores": [0, 0, -75, 0],
        }
    ]
    assert state["totals"] == [30, -235, 50, 80]
    assert state["standings"][0] == {"seat": 3, "total": 80, "rank": 1}
    assert (state["winner"], state["tied"], state["needs_extra_deal"]) == (None, [], False)
    assert (state["deals_played"], state["deals_total"], state["team_totals"]) == (6, 20, None)
    assert state["extra_deals"] == [] and state["winning_team"] is None
    assert replay(GOLDEN, PARTNERS).to_dict()["team_totals"] == [0, 0]


# --- Hypothesis: random valid games ---------------------------------------------------

VARIANTS = [
    RuleSet(),
    RuleSet(combination=Combination.ANY),
    RuleSet(combination=Combination.ALL_FOUR),
    SEVEN,
    RuleSet(kingdom_order=KingdomOrder.CUSTOM, king_order=(0, 2, 1, 3)),
    RuleSet(partnership=True, inverted=True),
    RuleSet(kingdoms=1, tiebreak=Tiebreak.EXTRA_DEAL),
    RuleSet(doubling=False),
    RuleSet(doubled_self_capture=SelfCapture.DOUBLE),
    RuleSet(doubled_self_capture=SelfCapture.QUADRUPLE),
    RuleSet(partnership=True, team_kingdoms=True),
    RuleSet(partnership=True, team_kingdoms=True, rounds=2, dealer=Dealer.ROTATES, first_dealer=1),
    RuleSet(dealer=Dealer.FIRST_ANY, first_dealer=3, trix_closed_suit=ClosedSuit.REPLAY),
    # Only Trix first places score: ties for first are common, so extra deals get played.
    RuleSet(values=Values(king=0, queen=0, diamond=0, trick=0, trix=(1, 0, 0, 0))),
]
DIAMOND_CARDS = range(Suit.DIAMONDS * 13, Suit.DIAMONDS * 13 + 13)


def random_captures(rnd: random.Random, rules: RuleSet) -> Captures:
    """Captures of a physically possible deal: a shuffled pack in 13 tricks, random winners."""
    pack = list(range(52))
    rnd.shuffle(pack)
    winners = [rnd.randrange(4) for _ in range(13)]
    winner_of = {card: winners[pos // 4] for pos, card in enumerate(pack)}
    tricks = [winners.count(seat) for seat in range(4)]
    diamonds = [0, 0, 0, 0]
    for card in DIAMOND_CARDS:
        diamonds[winner_of[card]] += 1

    def capture(index: int) -> Capture:
        doubled = rnd.randrange(4) if rules.doubling and rnd.random() < 0.3 else None
        return Capture(winner_of[index], doubled)

    return Captures(
        king_of_hearts=capture(KING_OF_HEARTS.index),
        queens=tuple(capture(q.index) for q in QUEENS),  # type: ignore[arg-type]
        diamonds=tuple(diamonds),  # type: ignore[arg-type]
        tricks=tuple(tricks),  # type: ignore[arg-type]
        trix_order=tuple(rnd.sample(range(4), 4)),  # type: ignore[arg-type]
    )


def random_groups(rnd: random.Random, rules: RuleSet) -> list[tuple[Contract, ...]]:
    """A king's five contracts in a random order, grouped into deals as the rules allow."""
    if rules.combination is Combination.ALL_FOUR:
        groups: list[tuple[Contract, ...]] = [TRICK_CONTRACTS, (T,)]
    elif rules.combination is Combination.ANY and rnd.random() < 0.7:
        tricks = list(TRICK_CONTRACTS)
        rnd.shuffle(tricks)
        cut = rnd.randrange(2, 5)
        groups = [tuple(tricks[:cut]), *((c,) for c in tricks[cut:]), (T,)]
    else:
        groups = [(c,) for c in ALL_CONTRACTS]
    rnd.shuffle(groups)
    return groups


def next_entry(rnd: random.Random, game: Game, group: tuple[Contract, ...]) -> DealEntry:
    holder = rnd.randrange(4) if game.needs_king or rnd.random() < 0.1 else None
    if holder is not None and not game.needs_king:
        holder = game.current_king
    return DealEntry(group, random_captures(rnd, game.rules), holder)


@st.composite
def random_games(draw: st.DrawFn) -> tuple[RuleSet, int, list[DealEntry | RedealEntry], Game]:
    rules = draw(st.sampled_from(VARIANTS))
    rnd = random.Random(draw(st.integers(0, 2**32)))  # one seed keeps the example small
    first = rules.king_order[0] if rules.king_order else rnd.randrange(4)
    game = Game.start(rules, first, NAMES)
    log: list[DealEntry | RedealEntry] = []
    while game.in_kingdoms:
        for group in random_groups(rnd, rules):
            if rnd.random() < 0.1:
                log.append(RedealEntry("misdeal", contract=group[0]))
                game = game.record(log[-1])
            log.append(next_entry(rnd, game, group))
            game = game.record(log[-1])
    while game.needs_extra_deal and len(game.extra_deals) < 10:
        log.append(DealEntry((rnd.choice(ALL_CONTRACTS),), random_captures(rnd, rules)))
        game = game.record(log[-1])
    return rules, first, log, game


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games())
def test_property_random_game_replays_like_recording(
    case: tuple[RuleSet, int, list[DealEntry | RedealEntry], Game],
) -> None:
    rules, first, log, recorded = case
    replayed = Game.replay(rules, first, NAMES, log)
    assert replayed == recorded
    assert replayed.to_dict() == recorded.to_dict()
    assert len(replayed.kingdoms) == rules.kingdom_count
    for kingdom in replayed.kingdoms:  # R2: each contract exactly once per king
        assert sorted(c.value for d in kingdom.deals for c in d.contracts) == sorted(
            c.value for c in ALL_CONTRACTS
        )
    if rules.kingdom_count == 4:
        assert sorted(k.king for k in replayed.kingdoms) == [0, 1, 2, 3]  # type: ignore[type-var]
    assert replayed.finished or len(replayed.extra_deals) == 10
    if rules.dealer is Dealer.ROTATES and rules.first_dealer is not None:  # misdeals: same dealer
        assert [d.dealer for d in replayed.deals] == [
            (rules.first_dealer + d.n - 1) % 4 for d in replayed.deals
        ]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games())
def test_property_zero_sum_rule_sets_sum_to_zero(
    case: tuple[RuleSet, int, list[DealEntry | RedealEntry], Game],
) -> None:
    rules, _, _, game = case
    kingdom_sum = sum(sum(k.totals) for k in game.kingdoms)
    extra_sum = sum(sum(d.scores) for d in game.extra_deals)
    assert sum(game.totals) == kingdom_sum + extra_sum
    assert all(k.zero_sum_ok for k in game.kingdoms)
    if game.zero_sum:  # R11: every kingdom adds up to 0 by design
        assert [sum(k.totals) for k in game.kingdoms] == [0] * rules.kingdom_count
    if rules == RuleSet():
        assert game.zero_sum and kingdom_sum == 0


# --- R2 house rule "fixed contract order" (seed 000/001) -----------------------------------

FIXED = RuleSet(contract_order=(T, Q, K, D, C))
IN_ORDER = [trix(2, 0, 3, 1), queens(0, 1, 1, 3), king(1, 3), diamonds(5, 4, 3, 1)]


def test_r2_fixed_contract_order_offers_only_the_next() -> None:
    game = replay([], FIXED)
    assert (game.available_contracts, game.next_in_order) == ((T,), T)
    assert game.available_choices == ((T,),)
    game = replay(IN_ORDER, FIXED)
    assert game.available_contracts == (C,)
    assert game.to_dict()["available_contracts"] == ["collections"]


def test_r2_fixed_contract_order_refuses_any_other() -> None:
    game = replay(IN_ORDER[:1], FIXED)
    err = error_of(game.record, king(1))
    assert isinstance(err, StateError)
    problem = err.problems[0]
    assert (problem.code, problem.rule, problem.field) == (
        "contract_out_of_order",
        "R2",
        "contracts",
    )
    assert problem.message == (
        "The table plays the contracts in a fixed order (R2): Trix, Queens, King of Hearts, "
        "Diamonds, Collections; Rana plays Queens next, not King of Hearts."
    )
    assert not game.can(diamonds(5, 4, 3, 1)) and game.can(IN_ORDER[1])


def test_r2_fixed_contract_order_redeal_names_the_next_contract() -> None:
    game = replay(IN_ORDER[:2], FIXED)  # King of Hearts is next
    assert game.can(RedealEntry("redeal", 2, K))
    err = error_of(game.record, RedealEntry("redeal", 2, T))
    assert err.problems[0].code == "contract_already_played"
    err = error_of(game.record, RedealEntry("misdeal", None, D))
    assert (err.problems[0].code, err.problems[0].field) == ("contract_out_of_order", "contract")


def test_r2_fixed_contract_order_whole_game() -> None:
    kingdom = [*IN_ORDER, collections(3, 3, 3, 4)]
    game = replay(kingdom * 4, FIXED)
    assert game.finished and [k.king for k in game.kingdoms] == [0, 1, 2, 3]
    for played in game.kingdoms:
        assert [d.contracts for d in played.deals] == [(T,), (Q,), (K,), (D,), (C,)]
    assert game.totals == replay(kingdom * 4).totals  # the order changes no score


@st.composite
def fixed_order_games(draw: st.DrawFn) -> tuple[RuleSet, Game, list[tuple[Contract, ...]]]:
    order = tuple(draw(st.permutations(ALL_CONTRACTS)))
    rules = RuleSet(contract_order=order, kingdoms=draw(st.sampled_from([1, 4])))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    game = Game.start(rules, rnd.randrange(4), NAMES)
    tried: list[tuple[Contract, ...]] = []
    while game.in_kingdoms:
        group = (rnd.choice(ALL_CONTRACTS),)
        tried.append(group)
        entry = next_entry(rnd, game, group)
        if game.can(entry):
            game = game.record(entry)
    return rules, game, tried


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fixed_order_games())
def test_property_fixed_order_every_legal_game_plays_the_five_in_order(
    case: tuple[RuleSet, Game, list[tuple[Contract, ...]]],
) -> None:
    rules, game, _ = case
    assert len(game.kingdoms) == rules.kingdoms
    for kingdom in game.kingdoms:
        assert tuple(d.contracts[0] for d in kingdom.deals) == rules.contract_order


# --- R2 house rules on the dealer: "first deal by anyone", "dealer rotates" -----------------

FIRST_ANY = RuleSet(dealer=Dealer.FIRST_ANY, first_dealer=3)
ROTATES = RuleSet(dealer=Dealer.ROTATES, first_dealer=2)


def test_r2_the_king_deals_by_default() -> None:
    game = replay(GOLDEN[:6])
    assert (game.current_dealer, game.current_king) == (1, 1)
    assert "dealer" not in game.deals[0].to_dict() and game.deals[0].dealer is None
    assert replay(GOLDEN).current_dealer is None


def test_r2_first_deal_by_anyone_then_the_king_deals() -> None:
    game = replay([], FIRST_ANY)
    assert (game.current_dealer, game.current_king) == (3, 0)
    game = game.record(RedealEntry("misdeal")).record(RedealEntry("redeal", 1, T))
    assert game.current_dealer == 3  # still the very first deal
    game = game.record(trix(0, 1, 2, 3))
    assert (game.deals[0].dealer, game.current_dealer) == (3, 0)
    assert game.deals[0].to_dict()["dealer"] == 3
    game = replay(GOLDEN[:5], FIRST_ANY)
    assert (game.current_dealer, game.current_king) == (1, 1)


def test_r2_dealer_rotates_every_deal_whoever_is_king() -> None:
    game = replay(GOLDEN[:7], ROTATES)
    assert [d.dealer for d in game.deals] == [2, 3, 0, 1, 2, 3, 0]
    assert [d.king for d in game.deals] == [0, 0, 0, 0, 0, 1, 1]
    assert (game.current_dealer, game.to_dict()["current_dealer"]) == (1, 1)


def test_r2_rotating_dealer_deals_again_after_a_misdeal_not_after_a_redeal() -> None:
    game = replay([], ROTATES).record(RedealEntry("misdeal"))
    assert game.current_dealer == 2  # the same dealer deals again (R8)
    game = game.record(RedealEntry("redeal", 1, K))
    assert (game.current_dealer, game.deals_dealt) == (3, 1)


def test_r2_rotating_dealer_whole_game() -> None:
    game = replay(GOLDEN, ROTATES)
    assert game.finished and game.current_dealer is None
    assert [d.dealer for d in game.deals] == [(2 + n) % 4 for n in range(20)]
    assert game.totals == replay(GOLDEN).totals  # who deals changes no score


def test_r2_dealer_rule_needs_a_first_dealer() -> None:
    with pytest.raises(MalformedError) as info:
        RuleSet.from_dict({"dealer": "rotates"})
    assert info.value.problems[0].code == "rules_first_dealer_missing"
    with pytest.raises(MalformedError) as info:
        RuleSet.from_dict({"first_dealer": 1})
    assert info.value.problems[0].code == "rules_first_dealer_unused"
    with pytest.raises(MalformedError) as info:
        RuleSet.from_dict({"dealer": "first_any", "first_dealer": 4})
    assert info.value.problems[0].code == "rules_first_dealer"
    rules = RuleSet.from_dict({"dealer": "rotates", "first_dealer": 2})
    assert rules == ROTATES and rules.differences() == {"dealer": "rotates", "first_dealer": 2}


# --- R7 house rule "closed suit replays": the void Trix deal is dealt again ----------------

CLOSING = RuleSet(trix_closed_suit=ClosedSuit.REPLAY)
CLOSED_SUIT = RedealEntry("redeal", contract=T, reason="closed_suit")


def test_r7_closed_suit_redeal_does_not_use_up_trix() -> None:
    game = replay([king(1)], CLOSING).record(CLOSED_SUIT)
    assert T in game.available_contracts and game.kingdoms[0].redeals == (CLOSED_SUIT,)
    assert game.deals_played == 1 and game.current_king == 0
    game = game.record(trix(0, 1, 2, 3))
    assert T not in game.available_contracts


def test_r7_closed_suit_redeal_round_trips_and_old_entries_unchanged() -> None:
    assert CLOSED_SUIT.to_dict()["reason"] == "closed_suit"
    assert entry_from_dict(CLOSED_SUIT.to_dict()) == CLOSED_SUIT
    assert "reason" not in RedealEntry("redeal", 1, K).to_dict()  # stored logs stay as they were
    with pytest.raises(MalformedError):
        entry_from_dict({"kind": "redeal", "reason": "jacks"})


@pytest.mark.parametrize(
    ("rules", "entry", "code"),
    [
        (RuleSet(), CLOSED_SUIT, "closed_suit_redeal"),
        (CLOSING, RedealEntry("redeal", contract=K, reason="closed_suit"), "closed_suit_redeal"),
        (CLOSING, RedealEntry("misdeal", reason="closed_suit"), "closed_suit_redeal"),
    ],
)
def test_r7_closed_suit_redeal_refused(rules: RuleSet, entry: RedealEntry, code: str) -> None:
    err = error_of(replay([], rules).record, entry)
    assert (err.problems[0].code, err.problems[0].rule) == (code, "R7")


def test_r7_closed_suit_redeal_after_trix_was_played() -> None:
    err = error_of(replay([trix(0, 1, 2, 3)], CLOSING).record, CLOSED_SUIT)
    assert isinstance(err, StateError) and err.problems[0].code == "contract_already_played"


def test_r7_closed_suit_whole_game() -> None:
    log: list[DealEntry | RedealEntry] = []
    for kingdom in (KINGDOM_1, KINGDOM_2, KINGDOM_3, KINGDOM_4):
        for entry in kingdom:
            if T in entry.contracts:
                log.append(CLOSED_SUIT)
            log.append(entry)
    game = replay(log, CLOSING)
    assert game.finished and game.totals == replay(GOLDEN).totals
    assert [len(k.redeals) for k in game.kingdoms] == [1, 1, 1, 1]
    assert Game.replay(CLOSING, 0, NAMES, [entry_from_dict(e.to_dict()) for e in log]) == game


# --- R9.5 house rule "team kingdoms" (seed 003/004) ----------------------------------------

TEAMS = RuleSet(partnership=True, team_kingdoms=True)
TWICE = TEAMS.with_changes(rounds=2)


def test_r9_5_team_kingdoms_two_kingdoms_of_ten_deals() -> None:
    game = replay([], TEAMS, first=1)
    assert (game.kingdoms[0].team, game.deals_total) == ((1, 3), 10)
    game = replay(KINGDOM_1, TEAMS, first=1)
    assert (game.current_king, game.kingdoms[1].team) == (2, (0, 2))  # to the other team
    game = replay(KINGDOM_1 + KINGDOM_2, TEAMS, first=1)
    assert game.finished and game.deals_played == 10 and len(game.kingdoms) == 2
    assert [k.king for k in game.kingdoms] == [1, 2]
    assert game.team_totals == (125, -125)  # (155, -155) then (-30, 30)
    assert [(s.team, s.total, s.rank) for s in game.standings] == [
        ((0, 2), 125, 1),
        ((1, 3), -125, 2),
    ]
    assert game.winning_team == (0, 2)
    assert game.to_dict()["kingdoms"][0]["team"] == [1, 3]


def test_r9_5_team_kingdoms_twice_round() -> None:
    game = replay(GOLDEN, TWICE)
    assert not game.in_kingdoms and game.deals_played == 20
    assert game.needs_extra_deal and game.team_totals == (0, 0)  # the teams tie (R12)
    assert [k.king for k in game.kingdoms] == [0, 1, 2, 3]
    assert [k.team for k in game.kingdoms] == [(0, 2), (1, 3), (0, 2), (1, 3)]
    assert game.totals == replay(GOLDEN).totals
    assert replay(GOLDEN[:10], TWICE).current_king == 2


def test_r9_5_each_player_has_his_own_kingdom_by_default() -> None:
    game = replay(GOLDEN, PARTNERS)
    assert [k.team for k in game.kingdoms] == [None] * 4
    assert "team" not in game.to_dict()["kingdoms"][0]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"team_kingdoms": True}, "rules_team_kingdoms"),
        ({"partnership": True, "team_kingdoms": True, "kingdoms": 1}, "rules_team_kingdoms"),
        (
            {"partnership": True, "team_kingdoms": True, "kingdom_order": "seven_of_hearts"},
            "rules_team_kingdoms",
        ),
        ({"partnership": True, "rounds": 2}, "rules_rounds"),
        ({"partnership": True, "team_kingdoms": True, "rounds": 3}, "rules_rounds"),
    ],
)
def test_r9_5_team_kingdoms_rule_set_checks(data: dict[str, object], code: str) -> None:
    with pytest.raises(MalformedError) as info:
        RuleSet.from_dict(data)
    assert [p.code for p in info.value.problems] == [code]


def test_r9_5_team_kingdoms_parse() -> None:
    data = {"partnership": True, "team_kingdoms": True, "rounds": 2}
    assert RuleSet.from_dict(data) == TWICE and TWICE.differences() == data
    assert (TEAMS.kingdom_count, TWICE.kingdom_count, RuleSet(kingdoms=1).kingdom_count) == (
        2,
        4,
        1,
    )


# --- stored games from before the new house rules -----------------------------------------

OLD_RULES = {  # a rule set as stored before contract_order, dealer, … existed
    "doubling": True,
    "doubled_self_capture": "single",
    "heart_lead": "free",
    "first_lead": "king",
    "trix_first": "king",
    "penalty_discard": False,
    "partnership": False,
    "combination": "off",
    "values": {"king": 75, "queen": 25, "diamond": 10, "trick": 15, "trix": [200, 150, 100, 50]},
    "inverted": False,
    "kingdom_order": "right",
    "king_order": None,
    "kingdoms": 4,
    "revoke": "remaining",
    "trix_revoke": "flag",
    "tiebreak": "trix_wins",
    "redeal_long_hearts": False,
}


def test_stored_games_from_before_replay_to_the_same_scores() -> None:
    log = [RedealEntry("redeal", 1, K).to_dict(), *(e.to_dict() for e in GOLDEN)]
    assert "reason" not in log[0] and all("dealer" not in e for e in log)
    rules = RuleSet.from_dict(json.loads(json.dumps(OLD_RULES)))
    assert rules == RuleSet()
    game = Game.replay(rules, 0, NAMES, [entry_from_dict(e) for e in log])
    assert (game.totals, game.winner, game.current_dealer) == ((0, -120, 0, 120), 3, None)
    assert all(d.dealer is None and "dealer" not in d.to_dict() for d in game.deals)
    assert all("team" not in k.to_dict() for k in game.kingdoms)


def test_r3_r4_quadruple_self_capture_whole_game() -> None:
    rules = RuleSet(doubled_self_capture=SelfCapture.QUADRUPLE)
    game = replay(GOLDEN, rules)
    assert not game.zero_sum  # flagged when the game is created (R11)
    # Kingdom 2: Rana doubled the Q♣ and took it himself: −100 instead of −25.
    assert game.kingdoms[1].totals == (-5, 65, -100, -35)
    assert game.totals == (-75, -120, 0, 120) and game.winner == 3
    assert all(k.zero_sum_ok for k in game.kingdoms)  # only zero-sum rule sets are checked


@pytest.mark.parametrize(
    ("rules", "contracts", "seat"),
    [
        (RuleSet(), (K,), 0),
        (RuleSet(first_lead=Starter.RIGHT_OF_KING), (K,), 1),
        (RuleSet(trix_first=Starter.RIGHT_OF_KING), (T,), 1),
        (ROTATES, (K,), 2),
        (ROTATES.with_changes(first_lead=Starter.RIGHT_OF_KING), (K, Q), 3),
        (FIRST_ANY.with_changes(trix_first=Starter.RIGHT_OF_KING), (T,), 0),
    ],
)
def test_r2_r7_r10_first_to_play_counts_from_the_dealer(
    rules: RuleSet, contracts: tuple[Contract, ...], seat: int
) -> None:
    assert replay([], rules).first_to_play(contracts) == seat
