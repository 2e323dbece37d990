"""Switches that only make sense together (R2, R9.5, R9.6): a rule set's coherence.

>>> from scorekeeper.rules.ruleset import RuleSet
>>> problems = ProblemList()
>>> check_coherence(RuleSet(team_kingdoms=True), problems)
>>> [p.params["variant"] for p in problems.problems]
['partnership']
"""

from __future__ import annotations

from typing import Protocol

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import ProblemList
from scorekeeper.rules.switches import Combination, Dealer, KingdomOrder


class Switches(Protocol):
    """The switches these checks read: a :class:`~scorekeeper.rules.ruleset.RuleSet`, which
    calls them while it is built (so this module cannot import it)."""

    @property
    def partnership(self) -> bool: ...
    @property
    def combination(self) -> Combination: ...
    @property
    def kingdom_order(self) -> KingdomOrder: ...
    @property
    def king_order(self) -> tuple[int, int, int, int] | None: ...
    @property
    def kingdoms(self) -> int: ...
    @property
    def dealer(self) -> Dealer: ...
    @property
    def first_dealer(self) -> int | None: ...
    @property
    def team_kingdoms(self) -> bool: ...
    @property
    def rounds(self) -> int: ...
    @property
    def contract_order(self) -> tuple[Contract, ...] | None: ...


def check_coherence(rules: Switches, problems: ProblemList) -> None:
    custom = rules.kingdom_order is KingdomOrder.CUSTOM
    if custom and rules.king_order is None:
        problems.add(
            "rules_king_order_missing",
            rule="R2",
            field="rules.king_order",
        )
    if rules.contract_order is not None and rules.combination is not Combination.OFF:
        problems.add(
            "rules_contract_order_combination",
            rule="R2",
            field="rules.contract_order",
        )
    _check_dealer(rules, problems)
    _check_team_kingdoms(rules, problems)
    if not custom and rules.king_order is not None:
        problems.add(
            "rules_king_order_unused",
            rule="R2",
            field="rules.king_order",
        )


def _check_dealer(rules: Switches, problems: ProblemList) -> None:
    if rules.dealer is not Dealer.KING and rules.first_dealer is None:
        problems.add(
            "rules_first_dealer_missing",
            rule="R2",
            field="rules.first_dealer",
            dealer=rules.dealer.value,
        )
    if rules.dealer is Dealer.KING and rules.first_dealer is not None:
        problems.add(
            "rules_first_dealer_unused",
            rule="R2",
            field="rules.first_dealer",
        )


def _check_team_kingdoms(rules: Switches, problems: ProblemList) -> None:
    where = {"rule": "R9.5", "field": "rules.team_kingdoms"}
    if not rules.team_kingdoms:
        if rules.rounds != 1:
            problems.add(
                "rules_rounds",
                rule="R9.5",
                field="rules.rounds",
                variant="unused",
            )
        return
    if not rules.partnership:
        problems.add(
            "rules_team_kingdoms",
            variant="partnership",
            **where,
        )
    if rules.kingdom_order is not KingdomOrder.RIGHT:
        problems.add(
            "rules_team_kingdoms",
            variant="order",
            **where,
        )
    if rules.kingdoms != 4:
        problems.add(
            "rules_team_kingdoms",
            variant="short",
            **where,
        )
