"""A game's rule set: every house rule of R9 as a switch (API.md "Rule set").

Rule sets are frozen values; they come from and go back to plain dicts, and
an unknown field or value is an error, never ignored.

>>> rules = RuleSet.from_dict({"doubling": False, "kingdoms": 1})
>>> rules.doubling, rules.kingdoms, rules.values.king
(False, 1, 75)
>>> RuleSet.from_dict(rules.to_dict()) == rules
True
>>> RuleSet.from_dict({}).differences()
{}
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, ProblemList
from scorekeeper.rules.ruleset_checks import check_coherence
from scorekeeper.rules.switches import (
    ClosedSuit,
    Combination,
    Dealer,
    HeartLead,
    KingdomOrder,
    RevokeRule,
    SelfCapture,
    Starter,
    Tiebreak,
    TrixRevoke,
    Values,
)

__all__ = [
    "PRESETS",
    "SOURCE_PRESETS",
    "ClosedSuit",
    "Combination",
    "Dealer",
    "HeartLead",
    "KingdomOrder",
    "Preset",
    "RevokeRule",
    "RuleSet",
    "SelfCapture",
    "Starter",
    "Tiebreak",
    "TrixRevoke",
    "Values",
]


@dataclass(frozen=True)
class RuleSet:
    """Every house rule (R9) of one game. ``RuleSet()`` is the default rule set."""

    doubling: bool = True
    doubled_self_capture: SelfCapture = SelfCapture.SINGLE
    heart_lead: HeartLead = HeartLead.FREE
    first_lead: Starter = Starter.KING
    trix_first: Starter = Starter.KING
    penalty_discard: bool = False
    partnership: bool = False
    combination: Combination = Combination.OFF
    values: Values = field(default_factory=Values)
    inverted: bool = False
    kingdom_order: KingdomOrder = KingdomOrder.RIGHT
    king_order: tuple[int, int, int, int] | None = None
    kingdoms: int = 4
    revoke: RevokeRule = RevokeRule.REMAINING
    trix_revoke: TrixRevoke = TrixRevoke.FLAG
    tiebreak: Tiebreak = Tiebreak.TRIX_WINS
    redeal_long_hearts: bool = False
    """R8 house rule (extension of API.md): a hand of 5+ hearts with the K♥ may ask for a redeal."""
    dealer: Dealer = Dealer.KING
    first_dealer: int | None = None
    """Who deals the first deal, when ``dealer`` is not "king" (R2)."""
    trix_closed_suit: ClosedSuit = ClosedSuit.PLAY_ON
    team_kingdoms: bool = False
    """R9.5 house rule (seed 003/004): with partnerships a kingdom belongs to a team."""
    rounds: int = 1
    """Team kingdoms: 1 (two kingdoms, 10 deals) or 2 ("twice round": four kingdoms)."""
    contract_order: tuple[Contract, ...] | None = None
    """R2 house rule "fixed contract order": the five contracts in the order every king plays
    them; None (default) leaves the order to each king."""

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        """Validate a JSON rule set; raise :class:`MalformedError` listing every bad field."""
        return _parse_ruleset(data)

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (API.md)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, Values):
                value = value.to_dict()
            elif isinstance(value, tuple):
                value = [v.value if isinstance(v, enum.Enum) else v for v in value]
            out[f.name] = value
        return out

    def differences(self) -> dict[str, Any]:
        """The fields that differ from the default rule set, JSON-ready."""
        default = RuleSet().to_dict()
        return {k: v for k, v in self.to_dict().items() if default[k] != v}

    def with_changes(self, **changes: Any) -> RuleSet:
        return replace(self, **changes)

    @property
    def kingdom_count(self) -> int:
        """Kingdoms in a game: ``kingdoms``, or two per round under team kingdoms (R2, R9.5).

        >>> RuleSet(partnership=True, team_kingdoms=True, rounds=2).kingdom_count
        4
        """
        return 2 * self.rounds if self.team_kingdoms else self.kingdoms

    @property
    def sign(self) -> int:
        """−1 under inverted signs (R9.8), else +1."""
        return -1 if self.inverted else 1


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "no_doubling": {"doubling": False},
    "short_game": {"kingdoms": 1},
    "partnership": {"partnership": True},
    "complex": {"combination": "any"},
}
"""Named presets; each is a plain dict of differences from the defaults."""


@dataclass(frozen=True)
class Preset:
    """A named rule set a table can start from, and the source it comes from."""

    rules: Mapping[str, Any]
    """Differences from the default rule set, as in :data:`PRESETS`."""
    source: str
    """Where the table's rules are described (a seed of RULES.md and the rule numbers)."""


SOURCE_PRESETS: dict[str, Preset] = {
    "jordanian_complex": Preset(
        {"combination": "all_four"},
        "RULES.md R9.6, the regional form of Palestine and Jordan (seed 000/001): the four "
        "trick contracts always at once, Trix apart; a kingdom is two deals.",
    ),
    "fixed_order": Preset(
        {
            "contract_order": ["trix", "queens", "king", "diamonds", "collections"],
            "trix_closed_suit": "replay",
        },
        "Seed 000/001 (R2, R7): the contracts in the order Trix, Queens, King of Hearts, "
        "Diamonds, Collections, and a Trix deal dealt again when a suit is closed early.",
    ),
    "team_kingdoms": Preset(
        {"partnership": True, "team_kingdoms": True},
        "Seed 003/004 (R9.5): the partner of the 7♥ holder shares his kingdom; two team "
        "kingdoms of five deals.",
    ),
}
"""Presets of the five sources' house rules (the page names them once it has their words)."""

_E = TypeVar("_E", bound=enum.Enum)


def _enum_field(problems: ProblemList, name: str, raw: object, kind: type[_E]) -> _E | None:
    for member in kind:
        if raw == member.value:
            return member
    allowed = ", ".join(f'"{m.value}"' for m in kind)
    problems.add(
        "rules_bad_value",
        rule="R9",
        field=f"rules.{name}",
        name=name,
        value=repr(raw),
        allowed=allowed,
    )
    return None


def _bool_field(problems: ProblemList, name: str, raw: object) -> bool | None:
    if isinstance(raw, bool):
        return raw
    problems.add(
        "rules_not_bool",
        rule="R9",
        field=f"rules.{name}",
        name=name,
        value=repr(raw),
    )
    return None


def _is_int(raw: object) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)


def _parse_values(problems: ProblemList, raw: object) -> Values | None:
    if not isinstance(raw, Mapping):
        problems.add(
            "rules_values_shape",
            rule="R9.7",
            field="rules.values",
        )
        return None
    known = {"king", "queen", "diamond", "trick", "trix"}
    for key in sorted(set(raw) - known):
        problems.add(
            "rules_unknown_value",
            rule="R9.7",
            field=f"rules.values.{key}",
            name=key,
        )
    default = Values()
    numbers: dict[str, int] = {}
    for key in ("king", "queen", "diamond", "trick"):
        value = raw.get(key, getattr(default, key))
        if not _is_int(value) or not 0 <= value <= 10_000:
            problems.add(
                "rules_value_range",
                rule="R9.7",
                field=f"rules.values.{key}",
                name=key,
                value=repr(value),
                variant=key,
            )
        else:
            numbers[key] = value
    trix = raw.get("trix", list(default.trix))
    if (
        not isinstance(trix, list)
        or len(trix) != 4
        or not all(_is_int(v) and -10_000 <= v <= 10_000 for v in trix)
    ):
        problems.add(
            "rules_trix_values",
            rule="R9.7",
            field="rules.values.trix",
            value=repr(trix),
        )
        return None
    if len(numbers) < 4:
        return None
    return Values(trix=(trix[0], trix[1], trix[2], trix[3]), **numbers)


def _parse_king_order(problems: ProblemList, raw: object) -> tuple[int, int, int, int] | None:
    if raw is None:
        return None
    if isinstance(raw, list) and all(_is_int(s) for s in raw) and sorted(raw) == [0, 1, 2, 3]:
        return (raw[0], raw[1], raw[2], raw[3])
    problems.add(
        "rules_king_order",
        rule="R2",
        field="rules.king_order",
        value=repr(raw),
    )
    return None


def _parse_contract_order(problems: ProblemList, raw: object) -> tuple[Contract, ...] | None:
    if raw is None:
        return None
    names = [c.value for c in Contract]
    if isinstance(raw, list) and len(raw) == 5 and sorted(map(str, raw)) == sorted(names):
        return tuple(Contract(name) for name in raw)
    allowed = ", ".join(f'"{name}"' for name in names)
    problems.add(
        "rules_contract_order",
        rule="R2",
        field="rules.contract_order",
        value=repr(raw),
        allowed=allowed,
    )
    return None


def _parse_first_dealer(problems: ProblemList, raw: object) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= 3:
        return raw
    problems.add(
        "rules_first_dealer",
        rule="R2",
        field="rules.first_dealer",
        value=repr(raw),
    )
    return None


_ENUMS: dict[str, type[enum.Enum]] = {
    "doubled_self_capture": SelfCapture,
    "heart_lead": HeartLead,
    "first_lead": Starter,
    "trix_first": Starter,
    "combination": Combination,
    "kingdom_order": KingdomOrder,
    "revoke": RevokeRule,
    "trix_revoke": TrixRevoke,
    "tiebreak": Tiebreak,
    "dealer": Dealer,
    "trix_closed_suit": ClosedSuit,
}
_BOOLS = (
    "doubling",
    "penalty_discard",
    "partnership",
    "inverted",
    "redeal_long_hearts",
    "team_kingdoms",
)


def _parse_ruleset(data: object) -> RuleSet:
    if data is None:
        return RuleSet()
    if not isinstance(data, Mapping):
        raise MalformedError.one("rules_shape", rule="R9", field="rules")
    problems = ProblemList()
    known = {f.name for f in fields(RuleSet)}
    for key in sorted(set(data) - known, key=str):
        problems.add(
            "rules_unknown_field",
            rule="R9",
            field=f"rules.{key}",
            name=str(key),
        )
    parsed: dict[str, Any] = {}
    for name, kind in _ENUMS.items():
        if name in data:
            parsed[name] = _enum_field(problems, name, data[name], kind)
    for name in _BOOLS:
        if name in data:
            parsed[name] = _bool_field(problems, name, data[name])
    if "values" in data:
        parsed["values"] = _parse_values(problems, data["values"])
    if "king_order" in data:
        parsed["king_order"] = _parse_king_order(problems, data["king_order"])
    if "rounds" in data:
        if data["rounds"] in (1, 2) and _is_int(data["rounds"]):
            parsed["rounds"] = data["rounds"]
        else:
            problems.add(
                "rules_rounds",
                rule="R9.5",
                field="rules.rounds",
                value=repr(data["rounds"]),
            )
    if "first_dealer" in data:
        parsed["first_dealer"] = _parse_first_dealer(problems, data["first_dealer"])
    if "contract_order" in data:
        parsed["contract_order"] = _parse_contract_order(problems, data["contract_order"])
    if "kingdoms" in data:
        if data["kingdoms"] in (1, 4) and _is_int(data["kingdoms"]):
            parsed["kingdoms"] = data["kingdoms"]
        else:
            problems.add(
                "rules_kingdoms",
                rule="R2",
                field="rules.kingdoms",
                value=repr(data["kingdoms"]),
            )
    problems.raise_if_any(MalformedError)
    rules = RuleSet(**parsed)
    check_coherence(rules, problems)
    problems.raise_if_any(MalformedError)
    return rules
