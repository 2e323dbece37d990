"""Reading JSON bodies: the small checks every request and stored entry shares.

Each failure is a :class:`MalformedError` naming the field, so a web layer can
show it beside the right input.

>>> parse_seat(2, "king")
2
>>> only_keys({"king": 0, "dealer": 1}, {"king"}, "a deal")
Traceback (most recent call last):
...
scorekeeper.rules.errors.MalformedError: “dealer” is not a field of a deal; use king.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.captures import is_seat
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, ProblemList


def only_keys(body: Mapping[str, Any], allowed: set[str], what: str = "this request") -> None:
    """Refuse unknown fields, listing the known ones (API.md: never silently ignored)."""
    problems = ProblemList()
    for key in sorted(str(k) for k in body if k not in allowed):
        problems.add(
            "unknown_field",
            f"“{key}” is not a field of {what}; use " + ", ".join(sorted(allowed)) + ".",
            field=key,
            name=key,
            allowed=", ".join(sorted(allowed)),
            variant=what.replace(" ", "_"),
        )
    problems.raise_if_any(MalformedError)


def parse_seat(raw: object, field: str, what: str | None = None) -> int:
    """A seat 0–3 (R1); ``what`` names it in the message (default: the field)."""
    if not is_seat(raw):
        who = what or f"“{field}”"
        raise MalformedError.one(
            "bad_seat",
            f"{who} must be a seat from 0 to 3, not {raw!r}.",
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
            '“contracts” must list the contract(s) announced, e.g. ["king"].',
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


def required(body: Mapping[str, Any], key: str, message: str | None = None, **where: Any) -> Any:
    """``body[key]``, or a "missing" error (``message`` says what to give)."""
    if body.get(key) is None:
        raise MalformedError.one(
            "missing_field", message or f"“{key}” is missing.", field=key, **{"name": key, **where}
        )
    return body[key]
