"""Reading JSON bodies: the small checks every request and stored entry shares.

Each failure is a :class:`MalformedError` naming the field, so a web layer can
show it beside the right input.

>>> parse_seat(2, "king")
2
>>> json_object(5, "entry")
Traceback (most recent call last):
...
scorekeeper.rules.errors.MalformedError: “entry” must be a JSON object, not a number.
>>> only_keys({"king": 0, "dealer": 1}, {"king"}, "a deal")
Traceback (most recent call last):
...
scorekeeper.rules.errors.MalformedError: “dealer” is not a field of a deal; use king.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.rules.captures import is_seat
from scorekeeper.rules.cards import CARD_BY_TEXT, Card
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, ProblemList, RulesError


def json_kind(raw: object) -> str:
    """What a JSON value is, in words: "a number", "a list", "text"…

    >>> json_kind(True), json_kind(1.5), json_kind(["x"]), json_kind(None)
    ('true or false', 'a number', 'a list', 'null')
    """
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return "true or false"
    if isinstance(raw, int | float):
        return "a number"
    if isinstance(raw, str):
        return "text"
    if isinstance(raw, list | tuple):
        return "a list"
    return "an object" if isinstance(raw, Mapping) else type(raw).__name__


def json_object(raw: object, field: str) -> Mapping[str, Any]:
    """``raw`` when it is a JSON object; otherwise 422 naming ``field``.

    Every parser that reads an object's keys takes it through here (or a typed
    equivalent) first, so a number, a list or ``true`` where an object belongs is
    a refusal naming the field, never a crash further in.
    """
    if isinstance(raw, Mapping):
        return raw
    raise _wrong_type(raw, field, "object")


def json_list(raw: object, field: str) -> list[Any]:
    """``raw`` when it is a JSON list; otherwise 422 naming ``field``."""
    if isinstance(raw, list | tuple):
        return list(raw)
    raise _wrong_type(raw, field, "list")


def _wrong_type(raw: object, field: str, wanted: str) -> RulesError:
    kind = json_kind(raw)
    return MalformedError.one(
        "json_type",
        field=field,
        name=field,
        kind=kind,
        variant=wanted,
    )


def only_keys(body: Mapping[str, Any], allowed: set[str], what: str = "this request") -> None:
    """Refuse unknown fields, listing the known ones (API.md: never silently ignored)."""
    problems = ProblemList()
    for key in sorted(str(k) for k in body if k not in allowed):
        problems.add(
            "unknown_field",
            field=key,
            name=key,
            allowed=", ".join(sorted(allowed)),
            variant=what.replace(" ", "_"),
        )
    problems.raise_if_any(MalformedError)


def parse_seat(raw: object, field: str, what: str | None = None) -> int:
    """A seat 0–3 (R1); ``what`` names it in the message (default: the field)."""
    if not is_seat(raw):
        raise MalformedError.one(
            "bad_seat",
            rule="R1",
            field=field,
            value=repr(raw),
            name=field,
            **({"what": what, "variant": "what"} if what else {}),
        )
    assert isinstance(raw, int)
    return raw


def optional_seat(body: Mapping[str, Any], key: str, what: str | None = None) -> int | None:
    """``body[key]`` as a seat, or None when absent or null."""
    raw = body.get(key)
    return None if raw is None else parse_seat(raw, key, what)


def parse_contract_names(raw: object) -> tuple[Contract, ...]:
    """The announced contract(s), by name; a single name is accepted too (R2)."""
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise MalformedError.one(
            "contracts_shape",
            rule="R2",
            field="contracts",
        )
    parsed = []
    for index, text in enumerate(raw):
        try:
            parsed.append(Contract.parse(text))
        except MalformedError as error:
            raise error.at(f"contracts.{index}") from None
    return tuple(parsed)


def required(body: Mapping[str, Any], key: str, **where: Any) -> Any:
    """``body[key]``, or a "missing" error (``where``: more params, such as a variant)."""
    if body.get(key) is None:
        raise MalformedError.one("missing_field", field=key, **{"name": key, **where})
    return body[key]


# --- cards, hands, tricks and plays ---------------------------------------------------------


def parse_card_list(raw: object, field: str) -> list[Card]:
    if not isinstance(raw, list):
        raise MalformedError.one(
            "cards_shape",
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
                rule="R1",
                field="hands",
                variant="seats",
            )
        raw = [raw.get(s, raw.get(int(s))) for s in "0123"]
    if not isinstance(raw, list) or len(raw) != 4:
        raise MalformedError.one("hands_shape", rule="R1", field="hands")
    return [parse_card_list(hand, f"hands.{seat}") for seat, hand in enumerate(raw)]


def parse_tricks(raw: object) -> list[list[Card]]:
    if not isinstance(raw, list):
        raise MalformedError.one(
            "tricks_shape",
            rule="R10",
            field="tricks",
        )
    return [parse_card_list(trick, f"tricks.{i}") for i, trick in enumerate(raw)]


def parse_plays(raw: object) -> list[Card | None]:
    """Trix turns (API.md ``plays``): cards and ``"pass"``; errors at ``plays.N``."""
    if not isinstance(raw, list):
        raise MalformedError.one("plays_shape", rule="R7", field="plays")
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
        rule="R1",
        field="names",
    )


def _card(raw: object, field: str) -> Card:
    try:
        return Card.parse(raw)  # type: ignore[arg-type]
    except MalformedError as error:
        raise error.at(field) from None
