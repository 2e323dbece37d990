"""Consistency of a deal's captures (R11), before any score is computed.

:func:`validate_captures` reports *every* problem at once, each with its rule
number, field, code and one sentence naming the players involved.

>>> from .ruleset import RuleSet
>>> caps = Captures(diamonds=(5, 4, 3, 2))
>>> try:
...     validate_captures(RuleSet(), [Contract.DIAMONDS], caps, ["Rana", "Sami", "Omar", "Lina"])
... except IllegalError as err:
...     print(err.problems[0].field, err.problems[0].message)
captures.diamonds Diamonds must add up to 13; these add up to 14 (Rana 5, Sami 4, Omar 3, Lina 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.rules.captures import SEATS, Capture, Captures, needed_fields
from scorekeeper.rules.cards import KING_OF_HEARTS, QUEENS, Suit
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import IllegalError, ProblemList, joined, part
from scorekeeper.rules.ruleset import RuleSet

__all__ = ["validate_captures", "seat_name", "seat_param"]


def seat_name(names: Sequence[str] | None, seat: int) -> str:
    """A player's name for messages, or ``seat N`` when names are unknown.

    >>> seat_name(["Rana", "Sami", "Omar", "Lina"], 2), seat_name(None, 2)
    ('Omar', 'seat 2')
    """
    return names[seat] if names is not None and _named(names, seat) else f"seat {seat}"


def _named(names: Sequence[str] | None, seat: int) -> bool:
    return names is not None and 0 <= seat < len(names) and bool(names[seat])


def seat_param(names: Sequence[str] | None, seat: int) -> str | dict[str, Any]:
    """:func:`seat_name` for a problem's params: the name, or a ``seat N`` part.

    >>> seat_param(["Rana", "Sami", "Omar", "Lina"], 2), seat_param(None, 2)
    ('Omar', {'part': 'word.seat', 'params': {'seat': 2}})
    """
    return (
        names[seat] if names is not None and _named(names, seat) else part("word.seat", seat=seat)
    )


def validate_captures(
    rules: RuleSet,
    contracts: Sequence[Contract],
    captures: Captures,
    names: Sequence[str] | None = None,
) -> None:
    """Raise :class:`IllegalError` listing every inconsistency of ``captures`` (R11).

    Only the fields the contracts use are checked; ``tricks`` is also used,
    when given, to cross-check the penalty cards of any trick contract.

    >>> from .ruleset import RuleSet
    >>> validate_captures(RuleSet(), [Contract.TRIX], Captures(trix_order=(2, 0, 3, 1)))
    >>> try:
    ...     validate_captures(RuleSet(), [Contract.TRIX], Captures(trix_order=(2, 0, 2, 1)))
    ... except IllegalError as err:
    ...     print(err.problems[0].message)
    The Trix order must name each player once; it names seat 2 twice and leaves out seat 3.
    """
    chosen = set(contracts)
    problems = ProblemList()
    _check_missing(problems, chosen, captures)
    if Contract.DIAMONDS in chosen and captures.diamonds is not None:
        _check_sum(problems, captures.diamonds, "diamonds", names)
    if chosen & _TRICK_SET and captures.tricks is not None:
        _check_sum(problems, captures.tricks, "tricks", names)
        _check_tricks_hold_cards(problems, chosen, captures, captures.tricks, names)
    if Contract.TRIX in chosen and captures.trix_order is not None:
        _check_order(problems, captures.trix_order, names)
    _check_doubling(problems, rules, chosen, captures, names)
    if {Contract.QUEENS, Contract.DIAMONDS} <= chosen:
        _check_queen_of_diamonds(problems, captures, names)
    problems.raise_if_any(IllegalError)


_TRICK_SET = frozenset({Contract.KING, Contract.QUEENS, Contract.DIAMONDS, Contract.COLLECTIONS})

_MISSING: dict[str, tuple[str, str]] = {
    # field: (rule, code)
    "king_of_hearts": ("R3", "missing_king_of_hearts"),
    "queens": ("R4", "missing_queens"),
    "diamonds": ("R5", "missing_diamonds"),
    "trix_order": ("R7", "missing_trix_order"),
}


def _check_missing(problems: ProblemList, chosen: set[Contract], captures: Captures) -> None:
    for name in sorted(needed_fields(list(chosen))):
        if getattr(captures, name) is not None:
            continue
        variant: dict[str, str] = {}
        if name != "tricks":
            rule, code = _MISSING[name]
        elif Contract.COLLECTIONS in chosen:
            rule, code = "R6", "missing_tricks"
        else:
            rule, code = "R9.6", "missing_tricks"
            variant = {"variant": "combination"}
        problems.add(code, rule=rule, field=f"captures.{name}", **variant)


def _check_sum(
    problems: ProblemList,
    counts: Sequence[int],
    name: str,
    names: Sequence[str] | None,
) -> None:
    total = sum(counts)
    if total == 13:
        return
    problems.add(
        f"{name}_sum",
        rule="R11",
        field=f"captures.{name}",
        total=total,
        counts=list(counts),
        listed=joined("comma", (_tally_part(names, s, n) for s, n in enumerate(counts))),
    )


def _tally_part(names: Sequence[str] | None, seat: int, count: int) -> dict[str, Any]:
    """``Rana 5``, or ``seat 0: 5`` when the name is unknown (``seat 0 5`` reads badly)."""
    if names is None or not _named(names, seat):
        return part("word.tally_seat", seat=seat, count=count)
    return part("word.tally", player=names[seat], count=count)


_TIMES_KEYS = {2: "word.named_twice", 3: "word.named_three_times", 4: "word.named_four_times"}


def _check_order(problems: ProblemList, order: Sequence[int], names: Sequence[str] | None) -> None:
    repeated = [s for s in SEATS if order.count(s) > 1]
    if not repeated:
        return
    missing = [s for s in SEATS if s not in order]
    problems.add(
        "trix_order_not_permutation",
        rule="R11",
        field="captures.trix_order",
        repeated=repeated,
        missing=missing,
        twice=joined(
            "and",
            (part(_TIMES_KEYS[order.count(s)], player=seat_param(names, s)) for s in repeated),
        ),
        left_out=joined("and", (seat_param(names, s) for s in missing)),
    )


def _doubled_cards(
    chosen: set[Contract], captures: Captures
) -> list[tuple[str, str, str, Capture]]:
    """(rule, field, card, capture) of every capture the contracts use."""
    found: list[tuple[str, str, str, Capture]] = []
    if Contract.KING in chosen and captures.king_of_hearts is not None:
        kh = KING_OF_HEARTS.pretty
        found.append(("R3", "captures.king_of_hearts", kh, captures.king_of_hearts))
    if Contract.QUEENS in chosen and captures.queens is not None:
        for queen, cap in zip(QUEENS, captures.queens, strict=True):
            found.append(("R4", f"captures.queens.{queen}", queen.pretty, cap))
    return found


def _check_doubling(
    problems: ProblemList,
    rules: RuleSet,
    chosen: set[Contract],
    captures: Captures,
    names: Sequence[str] | None,
) -> None:
    if rules.doubling:
        return  # any seat may have held and exposed the card
    for rule, field, card, cap in _doubled_cards(chosen, captures):
        if cap.doubled_by is None:
            continue
        problems.add(
            "doubling_off",
            rule=rule,
            field=f"{field}.doubled_by",
            card=card,
            seat=cap.doubled_by,
            player=seat_param(names, cap.doubled_by),
        )


def _check_queen_of_diamonds(
    problems: ProblemList, captures: Captures, names: Sequence[str] | None
) -> None:
    # The Q♦ is also a diamond: its taker's diamond count includes it.
    if captures.queens is None or captures.diamonds is None:
        return
    taker = captures.queens[Suit.DIAMONDS].taker
    if captures.diamonds[taker] == 0:
        problems.add(
            "queen_of_diamonds_not_counted",
            rule="R11",
            field="captures.diamonds",
            seat=taker,
            player=seat_param(names, taker),
        )


def _penalty_cards(
    chosen: set[Contract], captures: Captures, seat: int
) -> tuple[int, list[dict[str, Any]]]:
    """How many distinct penalty cards a seat took, and which, as message parts (``the K♥``,
    ``3 diamonds``)."""
    pieces: list[dict[str, Any]] = []
    count = 0
    kh = captures.king_of_hearts
    if Contract.KING in chosen and kh is not None and kh.taker == seat:
        pieces.append(part("word.the_card", card=KING_OF_HEARTS.pretty))
        count += 1
    counts_diamonds = Contract.DIAMONDS in chosen and captures.diamonds is not None
    if Contract.QUEENS in chosen and captures.queens is not None:
        for queen, cap in zip(QUEENS, captures.queens, strict=True):
            # The Q♦ is already among the diamonds when those are counted.
            if cap.taker == seat and not (counts_diamonds and queen.suit is Suit.DIAMONDS):
                pieces.append(part("word.the_card", card=queen.pretty))
                count += 1
    if counts_diamonds and captures.diamonds is not None and captures.diamonds[seat]:
        n = captures.diamonds[seat]
        pieces.append(part("word.diamonds", count=n))
        count += n
    return count, pieces


def _check_tricks_hold_cards(
    problems: ProblemList,
    chosen: set[Contract],
    captures: Captures,
    tricks_taken: Sequence[int],
    names: Sequence[str] | None,
) -> None:
    for seat in SEATS:
        cards, pieces = _penalty_cards(chosen, captures, seat)
        tricks = tricks_taken[seat]
        if cards <= 4 * tricks:
            continue
        params: dict[str, Any] = {"seat": seat, "cards": cards, "tricks": tricks}
        params |= {"player": seat_param(names, seat), "what": joined("and", pieces)}
        if tricks == 0:
            problems.add(
                "penalty_without_trick",
                rule="R11",
                field="captures.tricks",
                **params,
            )
            continue
        problems.add(
            "penalty_exceeds_tricks",
            rule="R11",
            field="captures.tricks",
            max=4 * tricks,
            **params,
        )
