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

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.cards import CARD_BY_TEXT, Card
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, ProblemList, RulesError
from scorekeeper.rules.redeal import check_redeal as redeal_verdict
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import check_contracts, expected_total, score_deal
from scorekeeper.rules.tricks import replay_tricks
from scorekeeper.rules.trix import replay_trix
from scorekeeper.rules.wire import only_keys, parse_contract_names, parse_seat, required

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
    only_keys(body, {"rules", "contracts", "king", "hands", "doubled", "tricks", "plays", "names"})
    rules = RuleSet.from_dict(body.get("rules"))
    contracts = parse_contracts(rules, body.get("contracts"))
    king = parse_seat(required(body, "king"), "king")
    hands = parse_hands(body["hands"]) if body.get("hands") is not None else None
    names = parse_names(body.get("names"))
    if contracts == (Contract.TRIX,):
        plays = parse_plays(required(body, "plays"))
        replay: Any = replay_trix(rules, king, plays, hands, names)
    else:
        tricks = parse_tricks(required(body, "tricks"))
        doubled = parse_cards(body.get("doubled") or [], "doubled")
        replay = replay_tricks(rules, contracts, king, tricks, hands, doubled, names=names)
    scores = (
        None if replay.ruled is None else list(score_deal(rules, contracts, replay.ruled, names))
    )
    return {
        "ok": True,
        "legal": not replay.violations,
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
    hand = parse_cards(required(body, "hand"), "hand")
    verdict = redeal_verdict(rules, contract, hand)
    return {
        "ok": True,
        "eligible": verdict.eligible,
        "reason": verdict.reason,
        "code": verdict.code,
    }


def check_claim(body: Mapping[str, Any]) -> JSON:
    """``POST /api/v1/check/claim``: see :func:`scorekeeper.rules.claims.check_claim`."""
    from scorekeeper.rules.claims import (
        check_claim as run,  # imported late: claims uses this module's parsers
    )

    return run(body)


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


def parse_cards(raw: object, field: str) -> list[Card]:
    if not isinstance(raw, list):
        raise MalformedError.one(
            "cards_shape",
            f'“{field}” must be a list of cards such as ["KH", "10D"].',
            field=field,
            name=field,
        )
    lookup = CARD_BY_TEXT.get
    cards = [lookup(text) if isinstance(text, str) else None for text in raw]
    if None in cards:  # some need real parsing, or are not cards at all
        return [_card(text, f"{field}.{i}") for i, text in enumerate(raw)]
    return cards  # type: ignore[return-value]


def parse_hands(raw: object) -> list[list[Card]]:
    """Four hands, as ``{"0": [...], …, "3": [...]}`` or a list of four lists."""
    if isinstance(raw, Mapping):
        keys = {str(k) for k in raw}
        if keys != {"0", "1", "2", "3"}:
            raise MalformedError.one(
                "hands_shape",
                "“hands” must give the hands of seats 0, 1, 2 and 3.",
                rule="R1",
                field="hands",
                variant="seats",
            )
        raw = [raw.get(s, raw.get(int(s))) for s in "0123"]
    if not isinstance(raw, list) or len(raw) != 4:
        raise MalformedError.one(
            "hands_shape", "“hands” must give the four players' hands.", rule="R1", field="hands"
        )
    return [parse_cards(hand, f"hands.{seat}") for seat, hand in enumerate(raw)]


def parse_tricks(raw: object) -> list[list[Card]]:
    if not isinstance(raw, list):
        raise MalformedError.one(
            "tricks_shape",
            "“tricks” must be a list of tricks, each the cards in play order, leader first.",
            rule="R10",
            field="tricks",
        )
    return [parse_cards(trick, f"tricks.{i}") for i, trick in enumerate(raw)]


def parse_plays(raw: object) -> list[Card | None]:
    """Trix turns (API.md ``plays``): cards and ``"pass"``; errors at ``plays.N``."""
    if not isinstance(raw, list):
        message = '“plays” must be a list of cards and "pass".'
        raise MalformedError.one("plays_shape", message, rule="R7", field="plays")
    problems, out = ProblemList(), list[Card | None]()
    for turn, text in enumerate(raw):
        if isinstance(text, str) and text.strip().lower() == "pass":
            out.append(None)
            continue
        try:
            out.append(Card.parse(text))
        except MalformedError as error:
            problems.extend(error.at(f"plays.{turn}"))
    problems.raise_if_any(MalformedError)
    return out


def parse_names(raw: object) -> Sequence[str] | None:
    if raw is None:
        return None
    if isinstance(raw, list) and len(raw) == 4 and all(isinstance(n, str) and n for n in raw):
        return raw
    raise MalformedError.one(
        "names_shape",
        "“names” must list the four players' names in seat order.",
        rule="R1",
        field="names",
    )


def _card(raw: object, field: str) -> Card:
    try:
        return Card.parse(raw)  # type: ignore[arg-type]
    except MalformedError as error:
        raise error.at(field) from None
