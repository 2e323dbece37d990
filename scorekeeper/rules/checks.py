"""The JSON checks of API.md as plain functions: dict in, dict out.

These are what ``POST /api/v1/check/…`` and ``scorekeeper check FILE.json``
answer. They parse the wire format into engine values, ask the engine, and
format its answer; every refusal is a :class:`RulesError`.

>>> check_deal({"contracts": ["king"], "king": 0,
...             "captures": {"king_of_hearts": {"taker": 2, "doubled_by": 1}}})
{'ok': True, 'scores': [0, 75, -150, 0], 'total': -75, 'expected_total': -75}
>>> check_redeal({"contract": "king", "hand": ["KH", "2S", "3S", "4S", "5S", "6S", "7S",
...               "8S", "9S", "TS", "2C", "3C", "4C"]})["eligible"]
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorekeeper.rules import claims
from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import IllegalError, RulesError, part
from scorekeeper.rules.redeal import check_redeal as redeal_verdict
from scorekeeper.rules.ruleset import Dealer, RuleSet
from scorekeeper.rules.scoring import check_contracts, expected_total, score_deal
from scorekeeper.rules.tricks import replay_tricks
from scorekeeper.rules.trix import replay_trix
from scorekeeper.rules.wire import (
    only_keys,
    optional_seat,
    parse_card_list,
    parse_contract_names,
    parse_hands,
    parse_names,
    parse_plays,
    parse_seat,
    parse_tricks,
    required,
)

JSON = dict[str, Any]


def check_deal(body: Mapping[str, Any]) -> JSON:
    """``POST /api/v1/check/deal``: score a deal's captures (R3–R7, R11)."""
    only_keys(body, {"rules", "contracts", "king", "captures", "names"})
    rules = RuleSet.from_dict(body.get("rules"))
    contracts = parse_contracts(rules, body.get("contracts"))
    if "king" in body:
        parse_seat(body["king"], "king")
    captures = Captures.from_dict(required(body, "captures"))
    names = parse_names(body.get("names"))
    scores = score_deal(rules, contracts, captures, names)
    return {
        "ok": True,
        "scores": list(scores),
        "total": sum(scores),
        "expected_total": expected_total(rules, contracts, captures),
    }


def check_play(body: Mapping[str, Any]) -> JSON:
    """``POST /api/v1/check/play``: replay a deal card by card and rule on its first violation."""
    keys = {"rules", "contracts", "king", "dealer", "hands", "doubled", "tricks", "plays", "names"}
    only_keys(body, keys)
    rules = RuleSet.from_dict(body.get("rules"))
    contracts = parse_contracts(rules, body.get("contracts"))
    king = parse_seat(required(body, "king"), "king")
    names = parse_names(body.get("names"))
    dealer = parse_dealer(rules, body, king, names)
    hands = parse_hands(body["hands"]) if body.get("hands") is not None else None
    void = False
    if contracts == (Contract.TRIX,):
        plays = parse_plays(required(body, "plays"))
        trix = replay_trix(rules, dealer, plays, hands, names)
        replay: Any = trix
        void = trix.void
    else:
        tricks = parse_tricks(required(body, "tricks"))
        doubled = parse_card_list(body.get("doubled") or [], "doubled")
        replay = replay_tricks(rules, contracts, dealer, tricks, hands, doubled, names=names)
    scores = (
        None if replay.ruled is None else list(score_deal(rules, contracts, replay.ruled, names))
    )
    return {
        "ok": True,
        "legal": not replay.violations,
        "void": void,
        "violations": [v.as_dict() for v in replay.violations],
        "captures": replay.captures.to_dict(),
        "scores": scores,
        "ruling": replay.ruling,
    }


def check_redeal(body: Mapping[str, Any]) -> JSON:
    """``POST /api/v1/check/redeal``: may this hand ask for a redeal (R8)?"""
    only_keys(body, {"rules", "contract", "hand"})
    rules = RuleSet.from_dict(body.get("rules"))
    contract = Contract.parse(required(body, "contract"))
    hand = parse_card_list(required(body, "hand"), "hand")
    verdict = redeal_verdict(rules, contract, hand)
    return {
        "ok": True,
        "eligible": verdict.eligible,
        "reason": verdict.reason,
        "code": verdict.code,
    }


def check_claim(body: Mapping[str, Any]) -> JSON:
    """``POST /api/v1/check/claim``: see :func:`scorekeeper.rules.claims.check_claim`."""
    return claims.check_claim(body)


CHECKS: dict[str, Callable[[Mapping[str, Any]], JSON]] = {
    "deal": check_deal,
    "play": check_play,
    "redeal": check_redeal,
    "claim": check_claim,
}
"""Every check by the last part of its URL."""


def guess_kind(body: Mapping[str, Any]) -> str:
    """Which check a body is for, from its keys (the CLI's default)."""
    if "hand" in body:
        return "redeal"
    if "claim" in body:
        return "claim"
    if "tricks" in body or "plays" in body:
        return "play"
    return "deal"


def error_body(error: RulesError) -> JSON:
    """The API's error object for an engine error."""
    return {"ok": False, "errors": [p.as_dict() for p in error.problems]}


# --- parsing the wire format -------------------------------------------------------------


def parse_contracts(rules: RuleSet, raw: object) -> tuple[Contract, ...]:
    """A list of contract names, checked against R9.6 (combinations)."""
    return check_contracts(rules, parse_contract_names(raw))


def parse_dealer(
    rules: RuleSet, body: Mapping[str, Any], king: int, names: Sequence[str] | None = None
) -> int:
    """Who dealt (default: the king); the first lead and first Trix turn count from him (R2).

    Under the default dealer rule the king deals, so another dealer is refused.
    """
    dealer = optional_seat(body, "dealer")
    if dealer is None:
        return king
    if rules.dealer is Dealer.KING and dealer != king:
        who = names or [f"seat {s}" for s in range(4)]
        raise IllegalError.one(
            "dealer_not_king",
            rule="R2",
            field="dealer",
            king=king,
            dealer=dealer,
            king_name=who[king] if names else part("word.seat", seat=king),
            dealer_name=who[dealer] if names else part("word.seat", seat=dealer),
        )
    return dealer
