"""The JSON claim check (API.md ``POST /api/v1/check/claim``): JSON in, JSON out.

A claim: from this position, seat ``seat`` makes sure of at least
``min_score`` points from the rest of the deal, whatever the others do, all
hands known (double-dummy), the three others acting together against him.
"0 in Collections" is "I take no more tricks", "0 in King of Hearts" is "I
won't take the K♥", "200 in Trix" is "I go out first".

* :func:`solve_claim` (trick contracts, :mod:`.search`) and
  :func:`solve_trix_claim` (Trix, :mod:`.trix`) take bit sets and card
  indices and return a :class:`ClaimResult`;
* :func:`check_claim` is ``POST /api/v1/check/claim``: JSON in, JSON out. The
  ruling comes as soon as the claim is decided: the exact value is then sought
  for ``exact_time_limit`` seconds at most (default :data:`DEFAULT_EXACT_LIMIT`),
  and is ``null`` with ``guaranteed_known`` false when it was not found by then.

>>> answer = check_claim({"contracts": ["collections"], "king": 0,
...     "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
...     "current_trick": [], "leader": 0, "claim": {"seat": 0, "min_score": 0},
...     "names": ["Rana", "Sami", "Omar", "Lina"]})
>>> answer["holds"], answer["guaranteed"], answer["guaranteed_known"], answer["line"]
(True, 0, True, [])
>>> answer["message"]
'The claim holds: Rana can make sure of at least 0 from here (the claimant takes no more \
tricks whatever the others do).'
>>> answer = check_claim({"contracts": ["collections"], "king": 0,
...     "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
...     "current_trick": [], "leader": 0, "claim": {"seat": 1, "min_score": 0}})
>>> answer["holds"], answer["guaranteed"], answer["line"][:4], answer["message"]
(False, -30, ['2S', 'KS', 'JS', '9S'], 'The claim fails: the others can hold seat 1 to −30; \
see the line.')
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from scorekeeper.rules.cards import ALL_CARDS, KING_OF_HEARTS, Card, hand_mask
from scorekeeper.rules.claims.core import (
    DEFAULT_EXACT_LIMIT,
    DEFAULT_TIME_LIMIT,
    MAX_TIME_LIMIT,
    ClaimResult,
)
from scorekeeper.rules.claims.position import (
    check_doubled,
    check_trick_position,
    check_trix_position,
)
from scorekeeper.rules.claims.search import solve_claim
from scorekeeper.rules.claims.trix import solve_trix_claim
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, part
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import check_contracts
from scorekeeper.rules.trix import Layout
from scorekeeper.rules.wire import (
    parse_card_list,
    parse_contract_names,
    parse_hands,
    parse_names,
    parse_seat,
    required,
)

__all__ = ["ClaimResult", "check_claim", "solve_claim", "solve_trix_claim"]

JSON = dict[str, Any]


class _Search(NamedTuple):
    """When the search stops: at ``deadline`` (``time.monotonic()``), and ``exact`` seconds
    after the claim is decided."""

    deadline: float
    exact: float


_COMMON = {
    "rules",
    "contracts",
    "king",
    "dealer",
    "hands",
    "claim",
    "time_limit",
    "exact_time_limit",
    "names",
}
_TRICK_ONLY = {"doubled", "current_trick", "leader", "hearts_broken"}
_TRIX_ONLY = {"layout", "to_play", "out"}


def check_claim(body: Mapping[str, Any]) -> JSON:
    """``POST /api/v1/check/claim``: does the claim hold, what is guaranteed, a defeating line."""
    rules = RuleSet.from_dict(body.get("rules"))
    contracts = check_contracts(rules, parse_contract_names(required(body, "contracts")))
    trix = contracts == (Contract.TRIX,)
    _only_keys(body, _COMMON | (_TRIX_ONLY if trix else _TRICK_ONLY), trix)
    if body.get("king") is not None:
        parse_seat(body["king"], "king")
    if body.get("dealer") is not None:  # the position gives who leads or plays: only checked
        parse_seat(body["dealer"], "dealer")
    seat, min_score = _claim(required(body, "claim"))
    limit = _time_limit(body.get("time_limit"))
    exact = _exact_time_limit(body.get("exact_time_limit"))
    names = parse_names(body.get("names"))
    hands = _hand_masks(parse_hands(required(body, "hands")))
    search = _Search(time.monotonic() + limit, exact)
    if trix:
        result = _trix(rules, body, hands, seat, min_score, search, names)
    else:
        result = _tricks(rules, contracts, body, hands, seat, min_score, search, names)
    who = names[seat] if names else f"seat {seat}"
    verdict, english = claim_verdict(result, rules, contracts, who, min_score, limit, hands)
    return {
        "ok": True,
        "holds": result.holds,
        "guaranteed": result.guaranteed,
        "guaranteed_known": result.exact_known,
        "line": ["pass" if c is None else str(ALL_CARDS[c]) for c in result.line],
        "decided": result.decided,
        "nodes": result.nodes,
        "message": english,
        "verdict": verdict,
    }


def _tricks(
    rules: RuleSet,
    contracts: tuple[Contract, ...],
    body: Mapping[str, Any],
    hands: list[int],
    seat: int,
    min_score: int,
    search: _Search,
    names: Sequence[str] | None,
) -> ClaimResult:
    trick = [c.index for c in parse_card_list(body.get("current_trick") or [], "current_trick")]
    leader = parse_seat(required(body, "leader"), "leader")
    broken = body.get("hearts_broken", False)
    if not isinstance(broken, bool):
        raise MalformedError.one(
            "bad_hearts_broken", rule="R3", field="hearts_broken", value=repr(broken)
        )
    doubled = check_doubled(rules, contracts, parse_card_list(body.get("doubled") or [], "doubled"))
    check_trick_position(rules, contracts, hands, trick, leader, broken, names)
    deadline, exact = search
    return solve_claim(
        rules,
        contracts,
        0,
        hands,
        trick,
        leader,
        doubled,
        seat,
        min_score,
        broken,
        deadline,
        exact_seconds=exact,
    )


def _trix(
    rules: RuleSet,
    body: Mapping[str, Any],
    hands: list[int],
    seat: int,
    min_score: int,
    search: _Search,
    names: Sequence[str] | None,
) -> ClaimResult:
    layout = Layout.from_dict(required(body, "layout"))
    out = _out(body.get("out") or [])
    over = len(out) == 3
    to_play = 0 if over and body.get("to_play") is None else _to_play(body)
    check_trix_position(hands, layout.played, to_play, out, names)
    if over:  # the deal is over: the places are known
        order = [*out, next(s for s in range(4) if s not in out)]
        award = rules.sign * rules.values.trix[order.index(seat)]
        return ClaimResult(award >= min_score, award, [], True, 0)
    deadline, exact = search
    return solve_trix_claim(
        rules, layout, hands, to_play, out, seat, min_score, deadline, exact_seconds=exact
    )


def _to_play(body: Mapping[str, Any]) -> int:
    return parse_seat(required(body, "to_play"), "to_play")


def claim_verdict(
    result: ClaimResult,
    rules: RuleSet,
    contracts: tuple[Contract, ...],
    who: str,
    min_score: int,
    limit: float,
    hands: list[int],
) -> tuple[dict[str, Any], str]:
    """The verdict as a message part (its words in every language: ``rules/sentences.py``'s
    ``claim.*`` templates) and as one plain English sentence for the table.

    >>> claim_verdict(ClaimResult(None, None, [], False), RuleSet(), (Contract.KING,),
    ...               "Sami", 0, 20.0, [0, 0, 0, 0])[1]
    'Not decided in time (20 s): no ruling.'
    """
    if not result.decided:
        seconds = f"{limit:g}"
        return part(
            "claim.undecided", seconds=seconds
        ), f"Not decided in time ({seconds} s): no ruling."
    g = result.guaranteed
    if result.holds:
        why, why_text = _reason(rules, contracts, min_score, hands, g)
        verdict = part("claim.holds", player=who, claimed=min_score, why=why)
        at_least = _num(min_score)
        english = f"The claim holds: {who} can make sure of at least {at_least} from here "
        english += f"({why_text})."
        return verdict, english
    if g is None:
        english = (
            f"The claim fails: the others can keep {who} below {_num(min_score)}; see the line."
        )
        return part("claim.fails_below", player=who, claimed=min_score), english
    english = f"The claim fails: the others can hold {who} to {_num(g)}; see the line."
    return part("claim.fails", player=who, score=g), english


_REASONS = {
    "claim.why.no_tricks": "the claimant takes no more tricks whatever the others do",
    "claim.why.no_king": "the claimant does not take the K♥ whatever the others do",
    "claim.why.first_out": "the claimant goes out first whatever the others do",
    "claim.why.whatever": "whatever the others do",
}


def _reason(
    rules: RuleSet, contracts: tuple[Contract, ...], min_score: int, hands: list[int], g: int | None
) -> tuple[dict[str, Any], str]:
    """Why a claim holds, in the everyday words of the usual claims when they apply."""
    normal = not rules.inverted
    key = "claim.why.whatever"
    if contracts == (Contract.COLLECTIONS,) and min_score == 0 and normal:
        key = "claim.why.no_tricks"
    elif contracts == (Contract.KING,) and min_score == 0 and normal and _king_in_play(hands):
        key = "claim.why.no_king"
    elif contracts == (Contract.TRIX,) and min_score == rules.sign * rules.values.trix[0]:
        key = "claim.why.first_out"
    elif g is not None:
        return part("claim.why.best", score=g), f"best play gives the claimant {_num(g)}"
    return part(key), _REASONS[key]


def _king_in_play(hands: list[int]) -> bool:
    return any(h & KING_OF_HEARTS.bit for h in hands)


def _num(n: int) -> str:
    return str(n).replace("-", "−")


# --- reading the body ------------------------------------------------------------------------


def _claim(raw: object) -> tuple[int, int]:
    if not isinstance(raw, Mapping):
        raise MalformedError.one("claim_shape", field="claim")
    seat = parse_seat(raw.get("seat"), "claim.seat")
    score = raw.get("min_score")
    if not isinstance(score, int) or isinstance(score, bool) or abs(score) > 1_000_000:
        raise MalformedError.one("bad_min_score", field="claim.min_score", value=repr(score))
    return seat, score


def _time_limit(raw: object) -> float:
    if raw is None:
        return DEFAULT_TIME_LIMIT
    ok = isinstance(raw, int | float) and not isinstance(raw, bool)
    if not ok or not 0 < raw <= MAX_TIME_LIMIT:  # type: ignore[operator]
        raise MalformedError.one("bad_time_limit", field="time_limit", value=repr(raw))
    return float(raw)  # type: ignore[arg-type]


def _exact_time_limit(raw: object) -> float:
    if raw is None:
        return DEFAULT_EXACT_LIMIT
    ok = isinstance(raw, int | float) and not isinstance(raw, bool)
    if not ok or not 0 <= raw <= MAX_TIME_LIMIT:  # type: ignore[operator]
        raise MalformedError.one("bad_exact_time_limit", field="exact_time_limit", value=repr(raw))
    return float(raw)  # type: ignore[arg-type]


def _out(raw: object) -> list[int]:
    if not isinstance(raw, list):
        raise MalformedError.one("out_shape", rule="R7", field="out")
    return [parse_seat(s, f"out.{i}") for i, s in enumerate(raw)]


def _hand_masks(hands: list[list[Card]]) -> list[int]:
    masks = [hand_mask(hand) for hand in hands]
    for seat, (hand, mask) in enumerate(zip(hands, masks, strict=True)):
        if mask.bit_count() != len(hand):
            card = next(c for i, c in enumerate(hand) if c in hand[:i])
            params = {"card": card.pretty, "seat": seat}
            raise MalformedError.one(
                "card_twice_in_hand", rule="R1", field=f"hands.{seat}", **params
            )
    return masks


def _only_keys(body: Mapping[str, Any], allowed: set[str], trix: bool) -> None:
    for key in sorted(str(k) for k in body):
        if key in allowed or body[key] in (None, []):
            continue
        params: dict[str, Any] = {"name": key}
        if key in _TRICK_ONLY | _TRIX_ONLY:
            kind, other = ("Trix", "trick contracts") if trix else ("trick contracts", "Trix")
            params["variant"] = "trick_field_in_trix" if trix else "trix_field_in_tricks"
        else:
            params |= {"allowed": ", ".join(sorted(allowed)), "variant": "a_claim"}
        raise MalformedError.one("unknown_field", field=key, **params)
