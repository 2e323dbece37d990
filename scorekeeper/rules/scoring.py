"""Captures to scores, and the deal totals a rule set implies (R3–R7, R9, R11).

>>> from .ruleset import RuleSet
>>> caps = Captures(king_of_hearts=Capture(taker=2, doubled_by=1))
>>> score_deal(RuleSet(), [Contract.KING], caps)
(0, 75, -150, 0)
>>> expected_total(RuleSet(), [Contract.KING]), kingdom_total(RuleSet())
(-75, 0)
>>> team_totals((0, 75, -150, 0))
(-150, 75)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract, canonical
from scorekeeper.rules.errors import IllegalError, ProblemList, joined, part
from scorekeeper.rules.ruleset import Combination, RuleSet, SelfCapture, Values
from scorekeeper.rules.validation import seat_name, validate_captures

__all__ = [
    "check_contracts",
    "validate_captures",
    "score_deal",
    "expected_total",
    "kingdom_total",
    "zero_sum_report",
    "team_totals",
    "seat_name",
]

Scores = list[int]


def check_contracts(rules: RuleSet, contracts: Sequence[Contract]) -> tuple[Contract, ...]:
    """The deal's contracts in canonical order; raise :class:`IllegalError` (R2, R9.6).

    >>> from .ruleset import RuleSet
    >>> rules = RuleSet(combination=Combination.ANY)
    >>> check_contracts(rules, [Contract.DIAMONDS, Contract.KING])
    (<Contract.KING: 'king'>, <Contract.DIAMONDS: 'diamonds'>)
    >>> check_contracts(RuleSet(), [Contract.KING, Contract.QUEENS])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.IllegalError: Only one contract per deal under these house rules; \
this deal names 2 (King of Hearts + Queens).
    """
    problems = ProblemList()
    chosen = canonical(list(contracts))
    if not contracts:
        problems.add("contracts_empty", rule="R2", field="contracts")
    for contract in chosen:
        if list(contracts).count(contract) > 1:
            problems.add(
                "contract_repeated",
                rule="R2",
                field="contracts",
                contract=contract.value,
                label=part(f"contract.{contract.value}"),
            )
    if len(chosen) > 1:
        _check_combination(problems, rules, chosen)
    problems.raise_if_any(IllegalError)
    return chosen


def _check_combination(problems: ProblemList, rules: RuleSet, chosen: tuple[Contract, ...]) -> None:
    params: dict[str, Any] = {"contracts": [c.value for c in chosen], "count": len(chosen)}
    params["names"] = joined("plus", (part(f"contract.{c.value}") for c in chosen))
    if rules.combination is Combination.OFF:
        problems.add(
            "combination_off",
            rule="R9.6",
            field="contracts",
            **params,
        )
    elif Contract.TRIX in chosen:
        problems.add(
            "combination_with_trix",
            rule="R9.6",
            field="contracts",
            **params,
        )
    elif rules.combination is Combination.ALL_FOUR and chosen != TRICK_CONTRACTS:
        problems.add(
            "combination_not_all_four",
            rule="R9.6",
            field="contracts",
            **params,
        )


def score_deal(
    rules: RuleSet,
    contracts: Sequence[Contract],
    captures: Captures,
    names: Sequence[str] | None = None,
) -> tuple[int, int, int, int]:
    """Verify the deal (contracts and captures), then score it per seat.

    Every contract of a combination is scored in the one deal (R9.6);
    inverted signs negate every score (R9.8). The scores always add up to
    :func:`expected_total`.

    >>> from .ruleset import RuleSet
    >>> score_deal(RuleSet(inverted=True), [Contract.TRIX], Captures(trix_order=(2, 0, 3, 1)))
    (-150, -50, -200, -100)
    """
    chosen = check_contracts(rules, contracts)
    validate_captures(rules, chosen, captures, names)
    scores: Scores = [0, 0, 0, 0]
    for contract in chosen:
        _SCORERS[contract](rules, captures, scores)
    result = tuple(rules.sign * s for s in scores)
    total = expected_total(rules, chosen, captures)
    if sum(result) != total:  # two independent computations must agree (R11)
        raise AssertionError(f"scores {result} add up to {sum(result)}, expected {total}")
    return (result[0], result[1], result[2], result[3])


_T = TypeVar("_T")


def _present(value: _T | None) -> _T:
    if value is None:  # validate_captures guarantees it
        raise AssertionError("a capture field the contracts need is missing")
    return value


def _score_card(rules: RuleSet, capture: Capture, value: int, scores: Scores) -> None:
    """One K♥ or queen (R3, R4): plain, doubled by another, or doubled by its taker."""
    holder = capture.doubled_by if rules.doubling else None
    if holder is None:
        scores[capture.taker] -= value
    elif holder != capture.taker:
        scores[capture.taker] -= 2 * value
        scores[holder] += value
    else:  # the holder took it himself: R3/R4's self-capture rule says how dear
        scores[capture.taker] -= rules.doubled_self_capture.multiplier * value


def _score_king(rules: RuleSet, captures: Captures, scores: Scores) -> None:
    _score_card(rules, _present(captures.king_of_hearts), rules.values.king, scores)


def _score_queens(rules: RuleSet, captures: Captures, scores: Scores) -> None:
    for capture in _present(captures.queens):
        _score_card(rules, capture, rules.values.queen, scores)


def _score_diamonds(rules: RuleSet, captures: Captures, scores: Scores) -> None:
    for seat, n in enumerate(_present(captures.diamonds)):
        scores[seat] -= n * rules.values.diamond


def _score_collections(rules: RuleSet, captures: Captures, scores: Scores) -> None:
    for seat, n in enumerate(_present(captures.tricks)):
        scores[seat] -= n * rules.values.trick


def _score_trix(rules: RuleSet, captures: Captures, scores: Scores) -> None:
    for place, seat in enumerate(_present(captures.trix_order)):
        scores[seat] += rules.values.trix[place]


_SCORERS: dict[Contract, Callable[[RuleSet, Captures, Scores], None]] = {
    Contract.KING: _score_king,
    Contract.QUEENS: _score_queens,
    Contract.DIAMONDS: _score_diamonds,
    Contract.COLLECTIONS: _score_collections,
    Contract.TRIX: _score_trix,
}


def _base_total(values: Values, contract: Contract) -> int:
    """A contract's deal total before signs and self-captures (R11's table)."""
    return {
        Contract.KING: -values.king,
        Contract.QUEENS: -4 * values.queen,
        Contract.DIAMONDS: -13 * values.diamond,
        Contract.COLLECTIONS: -13 * values.trick,
        Contract.TRIX: sum(values.trix),
    }[contract]


def _self_capture_extra(rules: RuleSet, chosen: set[Contract], captures: Captures) -> int:
    """What doubled cards taken by their own holders cost beyond the base totals."""
    times = rules.doubled_self_capture.multiplier - 1
    if not rules.doubling or not times:
        return 0
    extra = 0
    kh = captures.king_of_hearts
    if Contract.KING in chosen and kh is not None and kh.doubled_by == kh.taker:
        extra += times * rules.values.king
    if Contract.QUEENS in chosen and captures.queens is not None:
        extra += sum(times * rules.values.queen for q in captures.queens if q.doubled_by == q.taker)
    return extra


def expected_total(
    rules: RuleSet, contracts: Sequence[Contract], captures: Captures | None = None
) -> int:
    """The deal total the rule set implies, computed apart from the per-seat scores (R11).

    Under the "double" ("quadruple") self-capture rule each doubled card taken
    by its own holder costs its value once (three times) more; without
    ``captures`` none is assumed.

    >>> from .ruleset import RuleSet
    >>> rules = RuleSet(doubled_self_capture=SelfCapture.DOUBLE)
    >>> caps = Captures(king_of_hearts=Capture(taker=1, doubled_by=1))
    >>> expected_total(rules, [Contract.KING]), expected_total(rules, [Contract.KING], caps)
    (-75, -150)
    >>> expected_total(rules.with_changes(doubled_self_capture=SelfCapture.QUADRUPLE),
    ...                [Contract.KING], caps)
    -300
    """
    chosen = set(contracts)
    total = sum(_base_total(rules.values, c) for c in chosen)
    if captures is not None:
        total -= _self_capture_extra(rules, chosen, captures)
    return rules.sign * total


def kingdom_total(rules: RuleSet) -> int:
    """The five contracts' totals together, without self-captures (0 by default).

    >>> from .ruleset import RuleSet
    >>> kingdom_total(RuleSet(values=Values(trix=(200, 150, 100, -50))))
    -100
    """
    return sum(expected_total(rules, [c]) for c in Contract)


def zero_sum_report(rules: RuleSet) -> tuple[bool, list[str]]:
    """Whether every kingdom of this rule set adds up to 0 by design, and why not (R11).

    >>> from .ruleset import RuleSet
    >>> zero_sum_report(RuleSet())
    (True, [])
    >>> zero_sum_report(RuleSet(values=Values(trix=(200, 150, 100, -50))))
    (False, ['The Trix awards total 400 while the penalties total −500, so a kingdom adds up to \
−100, not 0.'])
    """
    reasons: list[str] = []
    values = rules.values
    cost = -rules.doubled_self_capture.multiplier * rules.sign
    if _self_capture_costs_more(rules):
        reasons.append(
            "A doubled K♥ or queen taken by its own holder costs "
            f"{_num(cost * values.king)} / {_num(cost * values.queen)} "
            "with no bonus to anyone, so such a deal does not add up to its usual total."
        )
    total = kingdom_total(rules)
    if total != 0:
        trix = expected_total(rules, [Contract.TRIX])
        penalties = total - trix
        reasons.append(
            f"The Trix awards total {_num(trix)} while the penalties total {_num(penalties)}, "
            f"so a kingdom adds up to {_num(total)}, not 0."
        )
    return (not reasons, reasons)


def _self_capture_costs_more(rules: RuleSet) -> bool:
    values = rules.values
    dearer = rules.doubled_self_capture is not SelfCapture.SINGLE
    return rules.doubling and dearer and bool(values.king or values.queen)


def _num(n: int) -> str:
    """A number for people, with a real minus sign."""
    return str(n).replace("-", "−")


def team_totals(scores: Sequence[int]) -> tuple[int, int]:
    """Partnership totals (R9.5): seats 0 + 2, then seats 1 + 3.

    >>> team_totals([200, 150, 100, 50])
    (300, 200)
    """
    return (scores[0] + scores[2], scores[1] + scores[3])
