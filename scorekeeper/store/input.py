"""Request bodies to rules values: new games, deals and redeals (API.md "Games").

Shape only, as for forms (docs/STYLE.md §11): whether a deal is *legal* is the
engine's call when the services record it. Every refusal is a
:class:`~scorekeeper.rules.errors.RulesError` naming its field.

>>> clean_players([" Rana ", "Sami", "عمر", "Lina"])
['Rana', 'Sami', 'عمر', 'Lina']
>>> parse_deal_body({"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}).contracts
(<Contract.TRIX: 'trix'>,)
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.rules.captures import Captures, is_seat
from scorekeeper.rules.errors import IllegalError, MalformedError, ProblemList
from scorekeeper.rules.game_log import DealEntry, RedealEntry, entry_from_dict
from scorekeeper.rules.ruleset import KingdomOrder, RuleSet
from scorekeeper.rules.wire import json_object, only_keys, parse_contract_names
from scorekeeper.store.played import parse_played_at
from scorekeeper.store.positions import Position, parse_position

NAME_MAX = 40
NOTE_MAX = 200
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Unicode's Bidi_Control characters: in a name they would turn the sentences around it."""
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A write's id made by the phone (a ULID, a UUID): API.md "Exactly-once entries"."""
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
"""Characters that draw nothing although Unicode calls them letters or symbols."""
INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me"})
"""Format characters (U+200B…), spaces and lone combining marks: nothing to read alone."""


def storable(text: str) -> bool:
    """Whether ``text`` can be stored by every database: UTF-8 (no lone surrogate), no NUL.

    >>> storable("عمر ♥"), storable(chr(0xDFFF)), storable(chr(0))
    (True, False, False)
    """
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def unstorable_field(value: object, field: str = "") -> str | None:
    """The path (``players.2``, ``log.0.entry.note``) of the first text in a JSON value,
    key or string, that cannot be stored (:func:`storable`); None if all can."""
    if isinstance(value, str):
        return None if storable(value) else field
    items: list[tuple[object, object]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list | tuple):
        items = list(enumerate(value))
    for key, item in items:
        path = f"{field}.{key}" if field else str(key)
        if isinstance(key, str) and not storable(key):
            return field or "(key)"
        found = unstorable_field(item, path)
        if found is not None:
            return found
    return None


def _all_storable(value: object) -> bool:
    """Whether every text in a JSON value can be stored, decided in one pass of the C JSON
    encoder; False sends the caller to :func:`unstorable_field` for the exact path."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return False
    if "\\u0000" in text:  # how the encoder writes a NUL (or a key holding one)
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_storable(value: object, field: str = "") -> None:
    """Refuse (422, naming the field) a value holding text no database can store."""
    if _all_storable(value):  # the common case, at C speed: every request body passes here
        return
    where = unstorable_field(value, field)
    if where is not None:
        raise MalformedError.one(
            "text_unstorable",
            field=where,
            name=where,
        )


@dataclass(frozen=True)
class NewGame:
    """What ``POST /games`` asks for."""

    players: list[str]
    first_king: int
    rules: RuleSet


def clean_players(raw: object) -> list[str]:
    """Four names, stripped and NFC-normalised, 1–40 characters, distinct ignoring case (R1).

    Any script is welcome; control characters are not. Every problem is
    reported at once, each on its own field (``players.2``).
    """
    if not isinstance(raw, list | tuple) or len(raw) != 4:
        count = len(raw) if isinstance(raw, list | tuple) else None
        raise IllegalError.one(
            "players_count",
            rule="R1",
            field="players",
            count=count,
            variant="listed" if count is not None else "not_listed",
        )
    problems = ProblemList()
    names = [clean_name(problems, seat, name) for seat, name in enumerate(raw)]
    check_distinct(problems, names)
    problems.raise_if_any(IllegalError)
    return [name or "" for name in names]


def clean_name(problems: ProblemList, seat: int, raw: object) -> str | None:
    """One player's name (R1), stripped and NFC-normalised, or None when it is refused.

    Each refusal is added to ``problems`` on the field ``players.<seat>``
    (callers that check other lists move it); checking that the four names
    differ is the caller's part.
    """
    field = f"players.{seat}"
    if not isinstance(raw, str):
        problems.add(
            "player_name",
            rule="R1",
            field=field,
            seat=seat,
            number=seat + 1,
            variant="not_text",
        )
        return None
    if not storable(raw):
        problems.add(
            "text_unstorable",
            field=field,
            name=field,
        )
        return None
    name = unicodedata.normalize("NFC", raw.strip())
    if not name:
        problems.add(
            "player_name",
            rule="R1",
            field=field,
            seat=seat,
            number=seat + 1,
        )
        return None
    if len(name) > NAME_MAX:
        problems.add(
            "player_name_length",
            rule="R1",
            field=field,
            length=len(name),
            seat=seat,
            number=seat + 1,
            max=NAME_MAX,
        )
        return None
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        problems.add(
            "player_name_control",
            rule="R1",
            field=field,
            seat=seat,
            number=seat + 1,
        )
        return None
    return _check_visible(problems, seat, name)


def _check_visible(problems: ProblemList, seat: int, name: str) -> str | None:
    """Refuse a name that shows nothing, or that would turn its sentences around."""
    field = f"players.{seat}"
    if any(ch in BIDI_CONTROLS for ch in name):
        problems.add(
            "player_name_bidi",
            rule="R1",
            field=field,
            seat=seat,
            number=seat + 1,
        )
        return None
    if all(_invisible(ch) for ch in name):
        problems.add(
            "player_name_invisible",
            rule="R1",
            field=field,
            seat=seat,
            number=seat + 1,
        )
        return None
    return name


def _invisible(ch: str) -> bool:
    return ch in BLANK_LETTERS or unicodedata.category(ch) in INVISIBLE_CATEGORIES


def check_distinct(
    problems: ProblemList, names: Sequence[str | None], field: str = "players"
) -> None:
    """Refuse (R1) every name already given earlier in ``names``, ignoring case, on the
    field ``<field>.<index>``; names already refused (None) are skipped."""
    seen: set[str] = set()
    for seat, name in enumerate(names):
        if name is None:
            continue
        if name.casefold() in seen:
            problems.add(
                "player_name_twice",
                rule="R1",
                field=f"{field}.{seat}",
                name=name,
            )
        seen.add(name.casefold())


def parse_new_game_body(body: Mapping[str, Any]) -> NewGame:
    """``{"players": [...4], "first_king": s, "rules": {...}}``.

    ``rules`` defaults to the standard rule set; ``first_king`` (the seat
    dealt the 7♥ on the first deal, R2) defaults to seat 0, or to the first
    seat of a custom kingdom order.
    """
    only_keys(body, {"players", "first_king", "rules"}, "a new game")
    players = clean_players(body.get("players"))
    rules = RuleSet.from_dict(body.get("rules"))
    first_king = body.get("first_king")
    if first_king is None:
        custom = rules.kingdom_order is KingdomOrder.CUSTOM and rules.king_order
        first_king = rules.king_order[0] if custom and rules.king_order else 0
    return NewGame(players, _seat(first_king, "first_king", "first_king"), rules)


def parse_deal_body(raw: object, field: str = "body") -> DealEntry:
    """``{"contracts": [...], "captures": {...}, "king": s?}`` to a :class:`DealEntry`.

    Checks the shape (known contracts, seats, counts); the engine checks the
    rest, combinations (R9.6) included, when the deal is recorded with the
    game's rules. ``raw`` is anything JSON gives (``field`` names it when it is
    not an object: the offline outbox's ``entry``).
    """
    body = json_object(raw, field)
    only_keys(body, {"contracts", "captures", "king"}, "a deal")
    contracts = parse_contract_names(body.get("contracts"))
    if body.get("captures") is None:
        raise MalformedError.one(
            "missing_field",
            rule="R11",
            field="captures",
            name="captures",
            variant="captures",
        )
    captures = Captures.from_dict(body["captures"])
    king = body.get("king")
    if king is not None:
        king = _seat(king, "king", "king")
    return DealEntry(contracts, captures, king)


def take_entry_id(body: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """(the body's ``entry_id`` or None, the body without it); 422 for a malformed id.

    >>> take_entry_id({"entry_id": "01HZX3-a_b", "contracts": ["trix"]})
    ('01HZX3-a_b', {'contracts': ['trix']})
    >>> take_entry_id({"contracts": ["trix"]})[0] is None
    True
    """
    rest = {k: v for k, v in body.items() if k != "entry_id"}
    if "entry_id" not in body:
        return None, rest
    return parse_entry_id(body["entry_id"]), rest


def take_position_and_time(
    body: Mapping[str, Any],
) -> tuple[Position | None, datetime | None, dict[str, Any]]:
    """(the body's ``position``, its ``played_at``, the body without them); 422 if malformed.

    Both are optional (API.md "One deal, one position" and "Time played"): a client
    that sends neither is served as before.

    >>> position, played, rest = take_position_and_time(
    ...     {"position": {"n": 3, "king": 0}, "played_at": "2026-12-03T21:42:05+03:00",
    ...      "contracts": ["trix"]})
    >>> position.n, played.hour, rest
    (3, 21, {'contracts': ['trix']})
    """
    rest = {k: v for k, v in body.items() if k not in ("position", "played_at")}
    position = parse_position(body["position"]) if body.get("position") is not None else None
    raw = body.get("played_at")
    return position, None if raw is None else parse_played_at(raw), rest


def parse_entry_id(raw: object) -> str:
    """An entry id: 1–64 letters, digits, ``-`` or ``_`` (422 otherwise)."""
    if isinstance(raw, str) and ENTRY_ID.fullmatch(raw):
        return raw
    shown = repr(raw) if len(repr(raw)) <= 80 else repr(raw)[:77] + "…"
    raise MalformedError.one(
        "bad_entry_id",
        field="entry_id",
        value=shown,
    )


def parse_redeal_body(raw: object, field: str = "body") -> RedealEntry:
    """``{"kind": "redeal"|"misdeal", "seat": s?, "contract": c?, "note": "..."?}`` (R8);
    ``raw`` is anything JSON gives, as for :func:`parse_deal_body`."""
    body = json_object(raw, field)
    only_keys(body, {"kind", "seat", "contract", "note"}, "a redeal")
    if body.get("kind") is None:
        raise MalformedError.one(
            "missing_field",
            rule="R8",
            field="kind",
            name="kind",
            variant="kind",
        )
    note = body.get("note")
    check_storable(note, "note")
    if isinstance(note, str) and len(note) > NOTE_MAX:
        raise MalformedError.one(
            "note_length",
            rule="R8",
            field="note",
            length=len(note),
            max=NOTE_MAX,
        )
    cleaned = {k: v for k, v in body.items() if not (k == "note" and v is None)}
    entry = entry_from_dict(cleaned)
    assert isinstance(entry, RedealEntry)  # "kind" is present
    return entry


def _seat(raw: object, field: str, variant: str) -> int:
    """A seat 0–3; ``variant`` names it in its template key (``bad_seat.input_king``)."""
    if not is_seat(raw):
        raise MalformedError.one(
            "bad_seat",
            rule="R1",
            field=field,
            value=repr(raw),
            variant=f"input_{variant}",
        )
    assert isinstance(raw, int)
    return raw
