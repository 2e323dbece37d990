"""The Trix layout contract (R7): legal plays, replay of a play record, finishing order.

A :class:`Layout` is the set of cards already laid out.  Every row is a run
of one suit around its Jack, so the set alone says where each row ends, and
"what may be played next" is a few shifts of a 52-bit int (:func:`frontier`).

>>> from scorekeeper.rules.cards import format_cards, hand_mask, parse_cards
>>> layout = Layout.from_dict({"S": ["8S", "QS"]})
>>> format_cards(cards_of(legal_mask(layout, hand_mask(parse_cards(["KS", "7S", "6S", "JH"])))))
['KS', '7S', 'JH']
>>> play(layout, Card.parse("KS").index).to_dict()
{'S': ['8S', 'KS']}

Partnership (R9.5) changes nothing here: laying the 2s face up is about
information only.  A replay of a whole deal is :func:`replay_trix`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.cards import ALL_CARDS, FULL_DECK, SUIT_MASKS, Card, Rank, Suit, cards_of
from scorekeeper.rules.errors import (
    IllegalError,
    MalformedError,
    Problem,
    ProblemList,
    join_words,
    joined,
    part,
)
from scorekeeper.rules.ruleset import ClosedSuit, RuleSet, Starter, TrixRevoke
from scorekeeper.rules.sentences import english

JACKS = sum(Card(s, Rank.JACK).bit for s in Suit)
"""The four Jacks: each opens its row (R7)."""
_TWOS = sum(Card(s, Rank.TWO).bit for s in Suit)
_NOT_TWOS = FULL_DECK & ~_TWOS
_NOT_ACES = FULL_DECK & ~(_TWOS << 12)
_SUIT_WORDS = ("spade", "heart", "diamond", "club")
_BITS = tuple(tuple(1 << (13 * s + r - 2) if r >= 2 else 0 for r in range(15)) for s in range(4))
"""``_BITS[suit][rank]``: a card's bit, four times faster than ``Card.bit`` in the hot loops."""

Hands4 = tuple[int, int, int, int]
Names = Sequence[str]


def frontier(played: int) -> int:
    """Every card a layout of ``played`` cards can take next (R7).

    Shifting a suit's run by one rank gives the cards next to its two ends;
    the masks stop an Ace's neighbour from leaking into the next suit's 2.

    >>> from .cards import format_cards
    >>> format_cards(cards_of(frontier(Card.parse("JC").bit)))
    ['JS', 'JH', 'JD', 'QC', 'TC']
    """
    return (JACKS | ((played << 1) & _NOT_TWOS) | ((played >> 1) & _NOT_ACES)) & ~played


@dataclass(frozen=True)
class Layout:
    """The cards laid out in a Trix deal: one run per suit through its Jack (R7)."""

    played: int = 0
    """Bit set of the cards on the table."""

    def __post_init__(self) -> None:
        for suit in Suit:
            if not _is_row((self.played & SUIT_MASKS[suit]) >> (13 * suit)):
                raise ValueError(f"not a Trix layout: the {_SUIT_WORDS[suit]}s are not one run")

    @classmethod
    def from_dict(cls, data: object) -> Layout:
        """Parse API.md's ``{"S": ["8S", "QS"], ...}`` (low end, high end; absent = unopened)."""
        if not isinstance(data, Mapping):
            raise MalformedError.one(
                "layout_shape",
                rule="R7",
                field="layout",
            )
        problems, played = ProblemList(), 0
        for key, value in data.items():
            run = _parse_row(problems, key, value)
            if run & played:
                where = f"layout.{key}"
                problems.add("layout_row_twice", rule="R7", field=where, name=str(key))
            played |= run
        problems.raise_if_any(MalformedError)
        return cls(played)

    def to_dict(self) -> dict[str, list[str]]:
        """API.md's layout: each opened row's low and high end, spades first."""
        out: dict[str, list[str]] = {}
        for suit, row in zip(Suit, self.rows(), strict=True):
            if row is not None:
                out[suit.letter] = [str(Card(suit, row[0])), str(Card(suit, row[1]))]
        return out

    def rows(self) -> tuple[tuple[Rank, Rank] | None, ...]:
        """Each suit's row as (low rank, high rank), or ``None`` when not opened."""
        out: list[tuple[Rank, Rank] | None] = []
        for suit in Suit:
            run = (self.played & SUIT_MASKS[suit]) >> (13 * suit)
            low = (run & -run).bit_length() + 1
            out.append((Rank(low), Rank(run.bit_length() + 1)) if run else None)
        return tuple(out)

    def describe_row(self, suit: Suit) -> str:
        """The row in English words: ``the spade row runs 8♠–Q♠`` (:meth:`row_part`)."""
        row = self.row_part(suit)
        return english(row["part"], row["params"])

    def row_part(self, suit: Suit) -> dict[str, Any]:
        """The row as a message part (see :mod:`.errors`)."""
        row = self.rows()[suit]
        name = part(f"word.{_SUIT_WORDS[suit]}_row")
        if row is None:
            return part("word.row_closed", row=name, card=Card(suit, Rank.JACK).pretty)
        low, high = Card(suit, row[0]).pretty, Card(suit, row[1]).pretty
        if low == high:
            return part("word.row_only", row=name, card=low)
        return part("word.row_runs", row=name, low=low, high=high)


def _is_row(run: int) -> bool:
    """Empty, or one unbroken run of ranks through the Jack (bit 9 of a suit's 13)."""
    if not run:
        return True
    stripped = run // (run & -run)  # drop the trailing zeros: a run is then 2**n - 1
    return bool(run >> 9 & 1) and not stripped & (stripped + 1)


def _parse_row(problems: ProblemList, key: object, value: object) -> int:
    """One row of a layout dict as a bit set (0 after reporting a problem)."""
    where = f"layout.{key}"
    try:
        suit = Suit.parse(str(key))
        ends = [Card.parse(v) for v in value] if isinstance(value, list) else []
    except MalformedError as error:
        problems.extend(error.at(where))
        return 0
    word = _SUIT_WORDS[suit]
    if len(ends) != 2 or any(c.suit != suit for c in ends):
        params = {"value": repr(value), "variant": word}
        problems.add("layout_row_shape", rule="R7", field=where, **params)
        return 0
    low, high = ends[0].rank, ends[1].rank
    if not low <= Rank.JACK <= high:
        params = {"low": str(ends[0]), "high": str(ends[1]), "variant": word}
        problems.add("layout_row_without_jack", rule="R7", field=where, **params)
        return 0
    return ((1 << (high - low + 1)) - 1) << (13 * suit + low - 2)


def legal_mask(layout: Layout, hand: int) -> int:
    """The cards of ``hand`` (a bit set) that may be played on ``layout`` (R7)."""
    return frontier(layout.played) & hand


def play(layout: Layout, card_index: int) -> Layout:
    """The layout after laying card ``card_index``; :class:`IllegalError` if it cannot go."""
    bit = 1 << card_index
    if not frontier(layout.played) & bit:
        card = ALL_CARDS[card_index]
        row = layout.row_part(card.suit)
        raise IllegalError.one("card_not_placeable", rule="R7", card=card.pretty, row=row)
    return Layout(layout.played | bit)


def first_player(rules: RuleSet, king: int) -> int:
    """Who plays first in Trix (R7): the king, or under the house rule the seat on his right.

    ``king`` is whoever dealt: under R2's dealer house rules, the dealer.
    """
    return king if rules.trix_first is Starter.KING else (king + 1) % 4


@dataclass(frozen=True)
class TrixViolation:
    """A Trix pass while holding a legal play (R7; R10's Trix analogue)."""

    rule: str
    turn: int
    """1-based, like ``Violation.trick`` of :mod:`.tricks`: the entry ``plays[turn - 1]``."""
    seat: int
    card: Card | None
    """Always ``None``: the offence is a pass."""
    code: str
    message: str
    playable: tuple[Card, ...] = ()
    """The cards the player could have played."""

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {k: getattr(self, k) for k in ("rule", "turn", "seat", "code")}
        out["card"] = None if self.card is None else str(self.card)
        return {**out, "message": self.message}


@dataclass(frozen=True)
class TrixReplay:
    """What a Trix play record shows (R7): violations, finishing order, the ruling."""

    violations: tuple[TrixViolation, ...]
    complete: bool
    """Three players are out: the deal is over."""
    order: tuple[int, ...]
    """Seats out so far, first out first (all four once complete)."""
    captures: Captures
    """``trix_order`` as played when complete, else empty."""
    ruled: Captures | None
    """The order to score after the ``trix_revoke`` ruling; ``None`` when incomplete."""
    ruling: str
    layout: Layout
    to_play: int | None
    """Whose turn is next; ``None`` once complete."""
    hands: Hands4
    """Cards each seat still holds, as bit sets."""
    dealt: Hands4
    void_turn: int | None = None
    """Under "closed suit replays" (R7), the 1-based turn that completed a row while another
    suit's Jack was still held: the deal is void there, and later plays are not read."""

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def void(self) -> bool:
        """The deal is void and is dealt again (R7's "closed suit replays"); nothing is scored."""
        return self.void_turn is not None


def replay_trix(
    rules: RuleSet,
    king: int,
    plays: Sequence[Card | None],
    hands: Sequence[Sequence[Card]] | None = None,
    names: Sequence[str] | None = None,
) -> TrixReplay:
    """Replay a Trix record: one entry per turn, ``None`` for a pass, players out skipped.

    Without ``hands`` the record must be complete; each player then held what he played
    and the player left last held the rest of the pack.  Raise :class:`MalformedError`
    when the record is impossible.

    >>> import random
    >>> from scorekeeper.rules.deals import random_trix
    >>> rules = RuleSet()
    >>> hands, plays = random_trix(random.Random(7), rules, king=1)
    >>> done = replay_trix(rules, 1, plays, hands, names=["Rana", "Sami", "Omar", "Lina"])
    >>> done.complete, done.legal, done.order, done.captures.trix_order == done.order
    (True, True, (1, 3, 0, 2), True)
    >>> done.ruling
    'No rule was broken; the finishing order is Sami, Lina, Rana and Omar.'
    >>> replay_trix(rules, 1, plays, names=["Rana", "Sami", "Omar", "Lina"]) == done
    True
    """
    who = list(names) if names else [f"seat {s}" for s in range(4)]
    first = first_player(rules, king)
    dealt = _dealt(first, plays, who) if hands is None else _check_hands(hands, who)
    run = _Run(list(dealt), first, who, rules.trix_closed_suit is ClosedSuit.REPLAY)
    run.replay(plays)
    return run.result(rules, dealt)


class _Run:
    """Mutable replay state in bit sets: the hot loop builds no objects."""

    def __init__(self, hands: list[int], seat: int, who: Names, closing: bool = False) -> None:
        self.hands, self.seat, self.played, self.who = hands, seat, 0, who
        self.order: list[int] = []
        self.passes: list[tuple[int, int, int]] = []
        self.closing = closing
        """Whether completing a row before every Jack is laid voids the deal (R7)."""
        self.void: tuple[int, int, Card] | None = None
        """(turn, seat, card) of the play that voided the deal."""

    def replay(self, plays: Sequence[Card | None]) -> None:
        hands, seat, played, order = self.hands, self.seat, self.played, self.order
        bits, ended, open_ = _BITS, len(order) == 3, frontier(played)
        closing = self.closing
        for turn, card in enumerate(plays):
            if ended:
                raise _after_end(turn, order, self.who)
            hand = hands[seat]
            if card is None:
                if hand & open_:
                    self.passes.append((turn, seat, hand & open_))
            else:
                bit = bits[card.suit][card.rank]
                if not hand & bit & open_:
                    raise _impossible(self, turn, seat, card, played, plays)
                hand ^= bit
                hands[seat] = hand
                played |= bit
                open_ = (JACKS | (played << 1 & _NOT_TWOS) | (played >> 1 & _NOT_ACES)) & ~played
                if closing and _closes_early(played, card):
                    self.void = (turn, seat, card)
                    break
                if not hand:
                    order.append(seat)
                    ended = len(order) == 3
            seat = (seat + 1) & 3
            while not hands[seat]:
                seat = (seat + 1) & 3
        self.seat, self.played = seat, played

    def result(self, rules: RuleSet, dealt: Hands4) -> TrixReplay:
        violations = tuple(_violation(t, seat, legal, self.who) for t, seat, legal in self.passes)
        if self.void is not None:
            return self._void_result(violations, dealt)
        complete, order = len(self.order) == 3, tuple(self.order)
        captures, ruled = Captures(), None
        if complete:
            order += (next(s for s in range(4) if self.hands[s]),)
            captures = ruled = Captures(trix_order=_four(order))
            if violations and rules.trix_revoke is TrixRevoke.LAST:
                offender = violations[0].seat  # the first offence decides, as for revokes (R10)
                moved = tuple(s for s in order if s != offender) + (offender,)
                ruled = Captures(trix_order=_four(moved))
        ruling = _ruling(rules, order, ruled, violations, self.who)
        to_play = None if complete else self.seat
        layout, hands = Layout(self.played), _four(self.hands)
        return TrixReplay(
            violations, complete, order, captures, ruled, ruling, layout, to_play, hands, dealt
        )

    def _void_result(self, violations: tuple[TrixViolation, ...], dealt: Hands4) -> TrixReplay:
        assert self.void is not None
        turn, seat, card = self.void
        held = [c.pretty for c in cards_of(JACKS & ~self.played)]
        verb = "was" if len(held) == 1 else "were"
        ruling = (
            f"{_cap(self.who[seat])} completed the {_SUIT_WORDS[card.suit]} row on turn "
            f"{turn + 1} while {join_words(held)} {verb} still in a hand, so under the house rule "
            "“closed suit replays” (R7) the deal is void and is dealt again; nothing is scored."
        )
        layout, hands = Layout(self.played), _four(self.hands)
        return TrixReplay(
            violations, False, tuple(self.order), Captures(), None, ruling, layout, None, hands,
            dealt, turn + 1,
        )  # fmt: skip


def _closes_early(played: int, card: Card) -> bool:
    """Whether laying ``card`` completed its row while another suit's Jack is still held (R7)."""
    if played & JACKS == JACKS or card.rank not in (Rank.TWO, Rank.ACE):
        return False  # a row is completed by its 2 or its Ace, the Jack being its first card
    row = SUIT_MASKS[card.suit]
    return played & row == row


def _four(seats: Sequence[int]) -> tuple[int, int, int, int]:
    return (seats[0], seats[1], seats[2], seats[3])


def _ruling(
    rules: RuleSet,
    order: tuple[int, ...],
    ruled: Captures | None,
    violations: tuple[TrixViolation, ...],
    who: Names,
) -> str:
    """One sentence for the table."""
    if not violations:
        if ruled is None:
            return "The play so far breaks no rule; the deal is not finished yet."
        return f"No rule was broken; the finishing order is {_listing(order, who)}."
    first = violations[0]
    offence = f"{_cap(who[first.seat])} passed on turn {first.turn} holding a playable card (R7)"
    if ruled is None or ruled.trix_order is None:
        return f"{offence}; the deal is not finished yet."
    if rules.trix_revoke is TrixRevoke.LAST:
        last = _listing(ruled.trix_order, who)
        return f"{offence}, so by the house rule that player finishes last: {last}."
    return f"{offence}; the finishing order stands ({_listing(order, who)}) and the table decides."


def _listing(order: Sequence[int], who: Names) -> str:
    return join_words([who[s] for s in order])


def _violation(turn: int, seat: int, legal: int, who: Names) -> TrixViolation:
    cards = tuple(cards_of(legal))
    named = join_words([c.pretty for c in cards])
    which = ("which", "either of which")[len(cards) - 1] if len(cards) < 3 else "any of which"
    message = (
        f"{_cap(who[seat])} passed on turn {turn + 1} holding {named}, "
        f"{which} could have been played."
    )
    return TrixViolation("R7", turn + 1, seat, None, "trix_pass_with_legal_play", message, cards)


# --- reading and checking records -------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _person(who: Names, seat: int, start: bool = False) -> str | dict[str, Any]:
    """A player for a problem's params: the name, or a ``seat N`` part when names are unknown."""
    if who[seat] == f"seat {seat}":
        return part("word.seat_start" if start else "word.seat", seat=seat)
    return _cap(who[seat]) if start else who[seat]


def _check_hands(hands: Sequence[Sequence[Card]], who: Names) -> Hands4:
    """Four hands of 13 cards, no card twice (R1)."""
    if len(hands) != 4:
        params = {"count": len(hands), "variant": "trix"}
        raise MalformedError.one("hands_count", rule="R1", field="hands", **params)
    masks = [_mask(hand) for hand in hands]
    if (
        all(len(h) == 13 for h in hands)
        and (masks[0] | masks[1] | masks[2] | masks[3]) == FULL_DECK
    ):
        return _four(masks)  # the common case: 52 cards, so 52 different ones
    problems = ProblemList()
    for seat, (hand, mask) in enumerate(zip(hands, masks, strict=True)):
        where = f"hands.{seat}"
        if len(hand) != 13 or mask.bit_count() != 13:
            params = {"count": len(hand), "player": _person(who, seat, True), "variant": "player"}
            problems.add("hand_size", rule="R1", field=where, **params)
        for other in range(seat):
            for card in cards_of(mask & masks[other]):
                params = {"card": card.pretty, "player": _person(who, seat)}
                params["other"] = _person(who, other)
                problems.add("card_in_two_hands", rule="R1", field=where, **params)
    problems.raise_if_any(MalformedError)
    return _four(masks)


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= _BITS[card.suit][card.rank]
    return mask


def _dealt(first: int, plays: Sequence[Card | None], who: Names) -> Hands4:
    """The hands a complete record implies: what each played, the rest to the last player."""
    held, counts, seen, seat = [0, 0, 0, 0], [0, 0, 0, 0], 0, first
    order: list[int] = []
    for turn, card in enumerate(plays):
        if len(order) == 3:
            raise _after_end(turn, order, who)
        if card is not None:
            bit = _BITS[card.suit][card.rank]
            if seen & bit:
                raise _twice(turn, card, plays)
            seen |= bit
            held[seat] |= bit
            counts[seat] += 1
            if counts[seat] == 13:
                order.append(seat)
        seat = (seat + 1) & 3
        while counts[seat] == 13:
            seat = (seat + 1) & 3
    if len(order) < 3:
        params = {"count": len(order), "variant": "trix"}
        raise MalformedError.one("record_incomplete", rule="R7", field="hands", **params)
    held[counts.index(min(counts))] |= FULL_DECK & ~seen  # the last player held the rest
    return _four(held)


def _malformed(code: str, turn: int, **params: object) -> MalformedError:
    """An impossible record, pointing at ``plays.<turn>``."""
    params = {"turn": turn, "turn_number": turn + 1, **params}
    return MalformedError([Problem.of(code, rule="R7", field=f"plays.{turn}", **params)])


def _after_end(turn: int, order: Sequence[int], who: Names) -> MalformedError:
    out = joined("and", (_person(who, s) for s in order))
    return _malformed("play_after_end", turn, out=out)


def _twice(turn: int, card: Card, plays: Sequence[Card | None]) -> MalformedError:
    before = next(t for t, c in enumerate(plays) if c == card)
    params = {"card": card.pretty, "first": before + 1, "variant": "trix"}
    return _malformed("card_twice", turn, **params)


def _impossible(
    run: _Run, turn: int, seat: int, card: Card, played: int, plays: Sequence[Card | None]
) -> MalformedError:
    """Why a played card cannot be: played before, held by another, or not placeable."""
    if played & card.bit:
        return _twice(turn, card, plays)
    who = run.who
    if not run.hands[seat] & card.bit:
        holder = next(s for s in range(4) if run.hands[s] & card.bit)
        params = {"card": card.pretty, "seat": seat, "player": _person(who, seat)}
        params |= {"holder": _person(who, holder), "variant": "trix"}
        return _malformed("card_not_held", turn, **params)
    params = {"card": card.pretty, "seat": seat, "player": _person(who, seat)}
    params |= {"row": Layout(played).row_part(card.suit), "variant": "turn"}
    return _malformed("card_not_placeable", turn, **params)
