"""Is a claim's position possible? The checks before a claim search (R1, R3, R7, R9.4, R10).

Positions are bit sets and card indices, as the searches take them. Each
check raises a :class:`RulesError` whose field points into the JSON body of
``POST /api/v1/check/claim``.

>>> from scorekeeper.rules.cards import hand_mask, parse_cards
>>> from scorekeeper.rules.contracts import Contract
>>> def hand(text): return hand_mask(parse_cards(text.split()))
>>> hands = [hand("2S 3S"), hand("AS"), hand("QS KS"), hand("TS 9S")]
>>> check_trick_position(RuleSet(), (Contract.KING,), hands, [Card.parse("JS").index], 1, False)
>>> check_trick_position(RuleSet(), (Contract.KING,), hands, [], 1, False)
Traceback (most recent call last):
...
scorekeeper.rules.errors.IllegalError: Seat 2 holds 2 cards, but with no card in the current \
trick every player holds the same number as the leader (seat 1 holds 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.rules.cards import ALL_CARDS, FULL_DECK, KING_OF_HEARTS, Card, Rank, cards_of
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import IllegalError, MalformedError, joined, part
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.rulings import RULE_OF
from scorekeeper.rules.trickplay import (
    fault_code,
    plan_for,
)

__all__ = ["check_doubled", "check_trick_position", "check_trix_position"]

Names = Sequence[str] | None


def _person(seat: int, names: Names, start: bool = False) -> str | dict[str, Any]:
    """A player for a problem's params: the name, or a ``seat N`` part (``Seat N`` first)."""
    if names:
        return _cap(names[seat]) if start else names[seat]
    return part("word.seat_start" if start else "word.seat", seat=seat)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def check_trick_position(
    rules: RuleSet,
    contracts: Sequence[Contract],
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    hearts_broken: bool,
    names: Names = None,
) -> None:
    """Hands and the trick in progress: no card twice, consistent sizes, legal so far."""
    if len(trick) > 3:
        params = {"count": len(trick), "variant": "claim"}
        raise MalformedError.one("trick_too_long", rule="R10", field="current_trick", **params)
    _no_card_twice(hands, trick, names)
    _sizes(hands, len(trick), leader, names)
    _trick_legal(rules, contracts, hands, trick, leader, hearts_broken, names)


def _no_card_twice(hands: Sequence[int], trick: Sequence[int], names: Names) -> None:
    seen = 0
    for seat, hand in enumerate(hands):
        if seen & hand:
            card = cards_of(seen & hand)[0]
            params = {"card": card.pretty, "player": _person(seat, names), "seat": seat}
            raise MalformedError.one(
                "card_twice", rule="R1", field=f"hands.{seat}", variant="hands", **params
            )
        seen |= hand
    for i, index in enumerate(trick):
        card = ALL_CARDS[index]
        if seen >> index & 1:
            params = {"card": card.pretty, "variant": "current_trick"}
            raise MalformedError.one("card_twice", rule="R1", field=f"current_trick.{i}", **params)
        seen |= 1 << index


def _sizes(hands: Sequence[int], played: int, leader: int, names: Names) -> None:
    """Those who played to the current trick hold one card fewer than the others (R10)."""
    each = hands[leader].bit_count() + (1 if played else 0)
    for i in range(4):
        seat = (leader + i) & 3
        want = each - 1 if i < played else each
        have = hands[seat].bit_count()
        if have != want or each > 13:
            raise _size_error(seat, have, want, played, leader, names)


def _size_error(
    seat: int, have: int, want: int, played: int, leader: int, names: Names
) -> IllegalError:
    params: dict[str, Any] = {"seat": seat, "count": have, "want": want}
    params |= {"player": _person(seat, names, True), "leader": _person(leader, names)}
    if want > 13:
        params["variant"] = "over_13"
    elif played:
        params |= {"again": _person(seat, names), "played": part("word.cards", count=played)}
        params["variant"] = "mid_trick"
    else:
        params["variant"] = "trick_empty"
    error = IllegalError.one("hand_sizes", rule="R10", field=f"hands.{seat}", **params)
    assert isinstance(error, IllegalError)
    return error


def _trick_legal(
    rules: RuleSet,
    contracts: Sequence[Contract],
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    hearts_broken: bool,
    names: Names,
) -> None:
    """Each card of the current trick was a legal play from its player's hand then."""
    plan = plan_for(rules, contracts)
    for i, index in enumerate(trick):
        seat = (leader + i) & 3
        code = fault_code(plan, hands[seat] | 1 << index, trick[:i], hearts_broken, index)
        if code is not None:
            card = ALL_CARDS[index].pretty
            params = {"card": card, "player": _person(seat, names, True), "seat": seat}
            field = f"current_trick.{i}"
            raise IllegalError.one(code, rule=RULE_OF[code], field=field, variant="claim", **params)


def check_doubled(rules: RuleSet, contracts: Sequence[Contract], doubled: Sequence[Card]) -> int:
    """The exposed cards as a bit set: doubling on, each a K♥ or queen of the deal (R3, R4)."""
    mask = 0
    for i, card in enumerate(doubled):
        field = f"doubled.{i}"
        king_ok = card == KING_OF_HEARTS and Contract.KING in contracts
        queen_ok = card.rank == Rank.QUEEN and Contract.QUEENS in contracts
        if not rules.doubling:
            params = {"card": card.pretty, "variant": "doubled"}
            raise MalformedError.one("doubling_off", rule="R9.1", field=field, **params)
        if not (king_ok or queen_ok):
            rule = "R3" if card == KING_OF_HEARTS else "R4"
            raise MalformedError.one("not_doubleable", rule=rule, field=field, card=card.pretty)
        if mask & card.bit:
            raise MalformedError.one("doubled_twice", rule="R3", field=field, card=card.pretty)
        mask |= card.bit
    return mask


def check_trix_position(
    hands: Sequence[int], layout: int, to_play: int, out: Sequence[int], names: Names = None
) -> None:
    """Layout and hands share out the pack; the players out hold nothing; the turn is live."""
    seen = layout
    for seat, hand in enumerate(hands):
        if seen & hand:
            card = cards_of(seen & hand)[0]
            params = {"card": card.pretty, "player": _person(seat, names), "seat": seat}
            params["variant"] = "in_layout" if layout & card.bit else "in_another_hand"
            raise MalformedError.one("card_twice", rule="R7", field=f"hands.{seat}", **params)
        seen |= hand
    if seen != FULL_DECK:
        missing = [c.pretty for c in cards_of(FULL_DECK ^ seen)]
        params = {"count": len(missing), "cards": joined("comma", missing[:5])}
        if len(missing) > 5:
            params["variant"] = "more"
        raise MalformedError.one("cards_missing", rule="R7", field="hands", **params)
    _out_consistent(hands, out, names)
    if len(out) < 3 and to_play in out:
        raise IllegalError.one(
            "turn_of_player_out",
            rule="R7",
            field="to_play",
            player=_person(to_play, names),
            seat=to_play,
        )


def _out_consistent(hands: Sequence[int], out: Sequence[int], names: Names) -> None:
    if len(set(out)) != len(out) or len(out) > 3:
        raise MalformedError.one("out_shape", rule="R7", field="out", variant="once")
    for seat, hand in enumerate(hands):
        if (seat in out) != (not hand):
            params: dict[str, Any] = {"seat": seat, "player": _person(seat, names, True)}
            if hand:
                params |= {"count": hand.bit_count(), "variant": "holding"}
            else:
                params["variant"] = "empty"
            raise IllegalError.one("out_mismatch", rule="R7", field="out", **params)
