"""What the tap-based card picker asks after every card (``static/picker.js``).

Whose turn it is, the cards he holds, which of them are legal and, for the
others, why not (:func:`scorekeeper.rules.tricks.illegal_reason`), or in
Trix what can be laid and whether a pass breaks R7; and the engine's
judgement of the record so far.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.cards import FULL_DECK, Card, Suit, cards_of
from scorekeeper.rules.timeline import (
    Position,
    dealt_from_tricks,
    masks,
    playable,
    trick_position,
    trick_rows,
    trix_position,
    trix_turns,
)
from scorekeeper.rules.trickplay import first_leader, plan_for
from scorekeeper.rules.tricks import illegal_reason, legal_cards
from scorekeeper.rules.trix import Layout
from scorekeeper.text import disputes as text
from scorekeeper.text.disputes import gettext
from scorekeeper.text.locale import isolate_name
from scorekeeper.text.messages import translate_problem
from scorekeeper.web.disputes.play import judge
from scorekeeper.web.disputes.record import PlayRecord

# --- the picker's state ----------------------------------------------------------------------


def picker_state(record: PlayRecord) -> dict[str, Any]:
    """After the cards entered so far: whose turn, his cards, which are legal and why not."""
    if record.trix:
        turns = trix_turns(record.rules, record.first_seat, record.plays)
        dealt = masks(record.hands) if record.hands else None
        position = trix_position(record.rules, record.first_seat, turns, dealt)
        state = _trix_state(record, position)
    else:
        rows = trick_rows(record.rules, record.contracts, record.first_seat, record.tricks)
        dealt = masks(record.hands) if record.hands else None
        first = first_leader(plan_for(record.rules, record.contracts), record.first_seat)
        position = trick_position(rows, first, dealt)
        state = _trick_state(record, position)
        # What each seat has shown: the hands start from these when they are entered after
        # the tricks, so that only the cards still held are left to tap.
        state["played_by"] = [_cards(mask) for mask in dealt_from_tricks(rows)]
    state["verdict"] = _verdict_so_far(record, dealt is not None, position.to_play is None)
    return state


def _verdict_so_far(record: PlayRecord, hands_known: bool, over: bool) -> dict[str, Any] | None:
    """The engine's judgement of the record so far (needs the hands until it is complete)."""
    if not (hands_known or over) or not (record.plays or record.tricks):
        return None
    judgement = judge(record)
    return {
        "legal": judgement.legal,
        "headline": judgement.verdict(),
        "ruling": judgement.ruling,
        "violations": [v.sentence for v in judgement.violations],
    }


def _cards(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def _trick_state(record: PlayRecord, position: Position) -> dict[str, Any]:
    names, seat = record.names, position.to_play
    state: dict[str, Any] = {
        "done": seat is None,
        "to_play": seat,
        "trick": [[s, str(c)] for s, c in position.trick],
        "trick_players": [names[s] for s, _ in position.trick],
        "played": _cards(position.played),
    }
    if seat is None:
        state["status"] = gettext("All 13 tricks are entered.")
        return state
    leader = names[position.leader if position.leader is not None else seat]
    state["status"] = gettext(
        "Trick %(trick)d: %(player)s to play (%(leader)s led).",
        trick=position.number,
        player=isolate_name(names[seat]),
        leader=isolate_name(leader),
    )
    if position.held is None:
        state["cards"] = _cards(FULL_DECK & ~position.played)
        state["legal"] = state["cards"]
        return state
    hand = position.held[seat]
    trick = [c.index for _, c in position.trick]
    legal = legal_cards(record.rules, record.contracts, hand, trick, position.hearts_broken)
    state["cards"], state["legal"] = _cards(hand), _cards(legal)
    state["why"] = {
        str(card): translate_problem(problem)
        for card in cards_of(hand & ~legal)
        if (
            problem := illegal_reason(
                record.rules, record.contracts, hand, trick, position.hearts_broken, card.index
            )
        )
    }
    return state


def _trix_state(record: PlayRecord, position: Position) -> dict[str, Any]:
    names, seat = record.names, position.to_play
    rows = Layout(position.played).rows()
    state: dict[str, Any] = {
        "done": seat is None,
        "to_play": seat,
        "played": _cards(position.played),
        "layout": [
            "—" if row is None else f"{Card(suit, row[0]).pretty}–{Card(suit, row[1]).pretty}"
            for suit, row in zip(Suit, rows, strict=True)
        ],
        "out": [names[s] for s in position.out],
    }
    if seat is None:
        state["status"] = gettext("The deal is over: three players are out.")
        return state
    state["status"] = gettext(
        "Turn %(turn)d: %(player)s to play.", turn=position.number, player=isolate_name(names[seat])
    )
    if position.held is None:
        state["cards"] = _cards(FULL_DECK & ~position.played)
        state["legal"] = state["cards"]
        return state
    could = playable(position, seat)
    state["cards"], state["legal"] = _cards(position.held[seat]), _cards(could)
    if could:
        state["pass_note"] = gettext(
            "Passing now breaks R7: %(player)s can lay %(cards)s.",
            player=isolate_name(names[seat]),
            cards=text.pretty_cards(could),
        )
    return state
