"""Who played which card: a play record laid out trick by trick (or turn by turn) with seats.

The rules engine judges a record (``check_play``); these helpers only walk
it with the engine's own pieces (:func:`~scorekeeper.rules.trickplay.trick_winner`,
:func:`~scorekeeper.rules.trix.frontier`, …) to say, for the pages, who led
each trick, who played each card, what each player still holds, and whose
turn it is: the card picker's state and the tables of a check's result.
Nothing here decides whether a play was legal.

>>> from scorekeeper.rules.cards import parse_cards
>>> from scorekeeper.rules.contracts import Contract
>>> from scorekeeper.rules.ruleset import RuleSet
>>> rows = trick_rows(RuleSet(), (Contract.KING,), 1, [parse_cards(["2C", "5C", "KC", "3C"])])
>>> [(seat, str(card)) for seat, card in rows[0].plays], rows[0].winner
([(1, '2C'), (2, '5C'), (3, 'KC'), (0, '3C')], 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scorekeeper.rules.cards import FULL_DECK, Card, hand_mask
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trickplay import breaks_hearts, first_leader, plan_for, trick_winner
from scorekeeper.rules.trix import Layout, first_player, frontier, legal_mask

Hands = list[int]


@dataclass(frozen=True)
class TrickRow:
    """One trick of a record: its leader, each (seat, card) in play order, its winner."""

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None
    """None while the trick is not complete."""


@dataclass(frozen=True)
class TrixTurn:
    """One turn of a Trix record: the seat, and the card laid (None: a pass)."""

    number: int
    seat: int
    card: Card | None


@dataclass
class Position:
    """Where a record stands: whose turn it is and what each player still holds."""

    to_play: int | None
    """None when the deal is over."""
    held: Hands | None
    """Each seat's remaining cards (bit sets); None when the hands are not known."""
    played: int = 0
    """Every card played so far (bit set)."""
    trick: list[tuple[int, Card]] = field(default_factory=list)
    """Trick contracts: the trick in progress."""
    number: int = 1
    """Trick contracts: the number of the trick in progress (or next); Trix: the next turn."""
    leader: int | None = None
    hearts_broken: bool = False
    out: list[int] = field(default_factory=list)
    """Trix: the seats out, first out first."""


def trick_rows(
    rules: RuleSet, contracts: Sequence[Contract], dealer: int, tricks: Sequence[Sequence[Card]]
) -> list[TrickRow]:
    """The record's tricks with their seats (the dealer or his right leads first, R10).

    ``dealer`` is the king unless R2's dealer house rules say another player dealt.
    """
    leader = first_leader(plan_for(rules, contracts), dealer)
    rows: list[TrickRow] = []
    for number, cards in enumerate(tricks, start=1):
        plays = tuple(((leader + i) % 4, card) for i, card in enumerate(cards))
        winner = trick_winner(leader, [c.index for c in cards]) if len(cards) == 4 else None
        rows.append(TrickRow(number, leader, plays, winner))
        if winner is not None:
            leader = winner
    return rows


def dealt_from_tricks(rows: Sequence[TrickRow]) -> Hands:
    """The hands a complete record implies: what each seat played."""
    hands = [0, 0, 0, 0]
    for row in rows:
        for seat, card in row.plays:
            hands[seat] |= card.bit
    return hands


def trick_position(rows: Sequence[TrickRow], first: int, dealt: Hands | None) -> Position:
    """After ``rows``: the trick in progress, who plays next, what is left in each hand."""
    held = None if dealt is None else list(dealt)
    position = Position(to_play=first, held=held, leader=first)
    for row in rows:
        for seat, card in row.plays:
            position.played |= card.bit
            if held is not None:
                held[seat] &= ~card.bit
        if row.winner is None:
            position.trick = list(row.plays)
            position.to_play = (row.leader + len(row.plays)) % 4
            position.leader, position.number = row.leader, row.number
            return position
        indices = [card.index for _, card in row.plays]
        position.hearts_broken = position.hearts_broken or breaks_hearts(indices)
        position.to_play = position.leader = row.winner
        position.number = row.number + 1
    if position.number > 13:
        position.to_play = None
    return position


def held_before(rows: Sequence[TrickRow], dealt: Hands, trick: int, seat: int) -> int:
    """What ``seat`` held just before playing to trick ``trick`` (1-based)."""
    hand = dealt[seat]
    for row in rows[: trick - 1]:
        for who, card in row.plays:
            if who == seat:
                hand &= ~card.bit
    return hand


# --- Trix ------------------------------------------------------------------------------------


def trix_turns(rules: RuleSet, dealer: int, plays: Sequence[Card | None]) -> list[TrixTurn]:
    """Each turn of a Trix record with its seat; players out are skipped (R7).

    The first turn counts from ``dealer``: the king unless R2's dealer house rules say otherwise.
    """
    seat, counts, turns = first_player(rules, dealer), [0, 0, 0, 0], []
    for number, card in enumerate(plays, start=1):
        turns.append(TrixTurn(number, seat, card))
        if card is not None:
            counts[seat] += 1
        if sum(1 for n in counts if n == 13) == 3:
            break
        seat = _next_in(seat, counts)
    return turns


def _next_in(seat: int, counts: Sequence[int]) -> int:
    for step in range(1, 5):
        if counts[(seat + step) % 4] < 13:
            return (seat + step) % 4
    return seat


def dealt_from_trix(turns: Sequence[TrixTurn]) -> Hands:
    """The hands a complete Trix record implies: what each played, the rest to the last."""
    hands = [0, 0, 0, 0]
    for turn in turns:
        if turn.card is not None:
            hands[turn.seat] |= turn.card.bit
    last = min(range(4), key=lambda s: hands[s].bit_count())
    hands[last] |= FULL_DECK & ~(hands[0] | hands[1] | hands[2] | hands[3])
    return hands


def trix_position(
    rules: RuleSet, dealer: int, turns: Sequence[TrixTurn], dealt: Hands | None
) -> Position:
    """After ``turns``: the layout, who is out, whose turn it is, what each still holds.

    Before the first turn it is the turn of the first player counted from ``dealer`` (R2, R7).
    """
    held = None if dealt is None else list(dealt)
    counts = [0, 0, 0, 0]
    position = Position(to_play=first_player(rules, dealer), held=held)
    for turn in turns:
        if turn.card is not None:
            position.played |= turn.card.bit
            counts[turn.seat] += 1
            if held is not None:
                held[turn.seat] &= ~turn.card.bit
            if counts[turn.seat] == 13:
                position.out.append(turn.seat)
        position.to_play = _next_in(turn.seat, counts)
    position.number = len(turns) + 1
    if len(position.out) >= 3:
        position.to_play = None
    return position


def playable(position: Position, seat: int) -> int:
    """The cards ``seat`` could lay now (R7); 0 when his hand is not known."""
    if position.held is None:
        return 0
    return legal_mask(Layout(position.played), position.held[seat])


def passes_with_play(turns: Sequence[TrixTurn], dealt: Hands) -> dict[int, int]:
    """For each pass made while holding a playable card: turn number -> the cards he could lay."""
    held, played, found = list(dealt), 0, {}
    for turn in turns:
        if turn.card is None:
            could = frontier(played) & held[turn.seat]
            if could:
                found[turn.number] = could
        else:
            held[turn.seat] &= ~turn.card.bit
            played |= turn.card.bit
    return found


def masks(hands: Sequence[Sequence[Card]]) -> Hands:
    return [hand_mask(hand) for hand in hands]
