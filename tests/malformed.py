"""Malformed request bodies, made deterministically, for every JSON endpoint of docs/API.md.

Shared by the in-process fuzz (tests/security/test_fuzz.py) and the served one
(tests/server/test_served_fuzz.py). :data:`ENDPOINTS` lists every ``/api/v1``
route with a valid body or two; :func:`malformed_bodies` takes a valid body and
puts a value of the wrong JSON type at every level of it (a number where a list
belongs, a list where an object belongs, null, true, nesting, huge and unicode
text), removes each part, adds an unknown key, and sends things that are not
objects at all. The same seed gives the same bodies, so a failure is replayed
exactly. Placeholders in paths (``{game}``, ``{event}``…) are filled by the
harness, which also knows what ``auth`` means (a bearer token, a session).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, text

from scorekeeper.rules.ruleset import RuleSet


def nested(depth: int, leaf: Any = 1) -> Any:
    """A value ``depth`` levels deep, lists and objects alternating."""
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


WRONG_TYPES: list[tuple[str, Any]] = [
    ("number", 4),
    ("true", True),
    ("null", None),
    ("list", ["contracts"]),
    ("object", {"a": 1}),
    ("text", "x"),
]
"""A value of each JSON type: every part of a body gets each one that it is not."""
ODD_VALUES: list[tuple[str, Any]] = [
    ("float", 1.5),
    ("empty list", []),
    ("empty object", {}),
    ("huge text", "x" * 60_000),
    ("unicode", "\u202eعمر 🂡 e\u0301 \u200b"),
    ("nul", "a\x00b"),
    ("surrogate", "\udfff"),
    ("huge int", 2**64),
    ("deep", nested(30)),
]
"""Stranger values, taken in turn across a body's parts (so each lands at several depths)."""
NOT_OBJECTS: list[bytes] = [
    b"4", b"1.5", b"true", b"null", b'"x"', b"[]", b'["contracts"]', b"{", b"",
    b"\xff\xfe", b"[" * 5000, json.dumps(nested(40)).encode(),
]  # fmt: skip
"""Whole bodies that are not a JSON object (or not JSON at all)."""


def part_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a part of ``value`` (object keys and list indexes), the root first."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += part_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += part_paths(item, (*path, index))
    return found


def _with(base: Any, path: tuple[Any, ...], change: str, value: Any = None) -> Any:
    """A copy of ``base`` with the part at ``path`` replaced, deleted, or given a key."""
    copied = copy.deepcopy(base)
    *head, last = path
    parent = copied
    for step in head:
        parent = parent[step]
    if change == "replace":
        parent[last] = value
    elif change == "delete":
        del parent[last]
    else:
        parent[last] = {**parent[last], "unknown_key": value}
    return copied


def dumps(value: Any) -> bytes:
    """JSON as a client may send it: a lone surrogate spelled ``\\udfff`` is valid JSON."""
    return json.dumps(value).encode()


def malformed_bodies(base: dict[str, Any], depth: int = 99, odd: int = 1) -> list[bytes]:
    """Bodies built from ``base``: each part of it down to ``depth`` levels replaced by a value
    of every JSON type (deeper parts: one type, taken in turn), and by ``odd`` of the
    :data:`ODD_VALUES`; each part deleted; an unknown key in each object; and the bodies
    that are no object."""
    bodies: list[bytes] = list(NOT_OBJECTS)
    for index, path in enumerate(part_paths(base)[1:]):
        types = WRONG_TYPES if len(path) <= depth else [WRONG_TYPES[index % len(WRONG_TYPES)]]
        wrong = [*types, *(ODD_VALUES[(index + step) % len(ODD_VALUES)] for step in range(odd))]
        for _label, value in wrong:
            bodies.append(dumps(_with(base, path, "replace", value)))
        bodies.append(dumps(_with(base, path, "delete")))
    for path in part_paths(base):
        if path and isinstance(_at(base, path), dict):
            bodies.append(dumps(_with(base, path, "add", 1)))
    bodies.append(dumps({**base, "unknown_key": 1}))
    return bodies


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


# --- every JSON endpoint ------------------------------------------------------------------------

QUEENS = {q: {"taker": i, "doubled_by": None} for i, q in enumerate(("QS", "QH", "QD", "QC"))}
KING_DEAL = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": 2}}}
QUEENS_DEAL = {"contracts": ["queens"], "captures": {"queens": QUEENS}}
FULL_DEAL = {
    "contracts": ["king", "queens", "diamonds", "collections"],
    "king": 0,
    "captures": {
        "king_of_hearts": {"taker": 2, "doubled_by": 1},
        "queens": QUEENS,
        "diamonds": [3, 4, 6, 0],
        "tricks": [2, 5, 6, 0],
        "trix_order": [2, 0, 3, 1],
    },
}
"""Every capture key, so that the wrong values reach each one's parsing."""
REDEAL = {"kind": "redeal", "seat": 1, "contract": "trix", "note": "seven hearts"}
FULL_RULES = {**RuleSet().to_dict(), "kingdom_order": "custom", "king_order": [2, 0, 3, 1]}
PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
NEW_GAME = {"players": PLAYERS, "first_king": 1, "rules": FULL_RULES}
NEW_EVENT = {
    "name": "Thursday", "players": [*PLAYERS, "Nour"], "rules": {"doubling": True}, "rounds": 3,
    "round": "game", "scoring": "places", "places": [3, 2, 1, 0], "partnership": False,
    "seed": 42,
}  # fmt: skip
HAND = ["2S", "2H", "2D", "2C", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"]
CLAIM = {
    "rules": {}, "contracts": ["collections"], "king": 0, "doubled": [],
    "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
    "current_trick": [], "leader": 0, "claim": {"seat": 0, "min_score": 0},
}  # fmt: skip
TRIX_CLAIM = {
    "rules": {}, "contracts": ["trix"], "king": 0, "to_play": 1, "out": [],
    "layout": {"S": ["8S", "JS"]},
    "hands": {"0": ["2S"], "1": ["QS"], "2": ["KS"], "3": ["AS"]},
    "claim": {"seat": 1, "min_score": 0},
}  # fmt: skip
PLAY = {
    "rules": {}, "contracts": ["diamonds"], "king": 1, "dealer": 1, "doubled": [],
    "tricks": [["2C", "5C", "KC", "3C"]], "plays": ["JH", "pass"],
}  # fmt: skip


@dataclass(frozen=True)
class Endpoint:
    """One JSON route: its method, its path (placeholders filled by the harness), who may
    call it (``auth``: None, ``game``, ``director``, ``circle`` or ``session``) and valid
    bodies to break (none: the body is not read, and random bytes are sent instead)."""

    method: str
    path: str
    auth: str | None = None
    bodies: list[dict[str, Any]] = field(default_factory=list)
    if_match: bool = False

    @property
    def writes(self) -> bool:
        """Whether the route may write at all (the checks and the reads never do)."""
        return self.method != "GET" and "/check/" not in self.path

    @property
    def rule(self) -> str:
        """The route as Flask spells it, to compare with the app's URL map."""
        return (
            self.path.replace("{game}", "<game_id>")
            .replace("{table_game}", "<table_game>")
            .replace("{event}", "<event_id>")
            .replace("{circle}", "<circle_id>")
            .replace("{member}", "<int:member_id>")
            .replace("/rounds/1/", "/rounds/<int:number>/")
            .replace("/deals/1", "/deals/<int:n>")
            .replace("/check/" + self.path.rsplit("/", 1)[-1], "/check/<kind>")
        )


ENDPOINTS: list[Endpoint] = [
    Endpoint("POST", "/api/v1/check/deal", None, [{"rules": FULL_RULES, **FULL_DEAL}]),
    Endpoint("POST", "/api/v1/check/play", None, [PLAY]),
    Endpoint(
        "POST", "/api/v1/check/redeal", None, [{"rules": {}, "contract": "trix", "hand": HAND}]
    ),
    Endpoint("POST", "/api/v1/check/claim", None, [CLAIM, TRIX_CLAIM]),
    Endpoint("POST", "/api/v1/games", None, [NEW_GAME]),
    Endpoint("GET", "/api/v1/games/{game}"),
    Endpoint("GET", "/api/v1/games/{game}/deals/1"),
    Endpoint("POST", "/api/v1/games/{game}/deals", "game", [QUEENS_DEAL, FULL_DEAL]),
    Endpoint("PUT", "/api/v1/games/{game}/deals/1", "game", [KING_DEAL], if_match=True),
    Endpoint("DELETE", "/api/v1/games/{game}/deals/last", "game", if_match=True),
    Endpoint("POST", "/api/v1/games/{game}/redeals", "game", [REDEAL]),
    Endpoint(
        "POST",
        "/api/v1/games/{game}/sync",
        "session",
        [
            {"entry_id": "e1", "action": "record", "entry": FULL_DEAL},
            {"entry_id": "e2", "action": "redeal", "entry": {**REDEAL, "reason": "closed_suit"}},
            {"entry_id": "e3", "action": "edit", "n": 1, "version": 2, "entry": KING_DEAL},
            {"entry_id": "e4", "action": "undo", "version": 2},
        ],
    ),
    Endpoint("GET", "/api/v1/games/{game}/export"),
    Endpoint("POST", "/api/v1/games/import", None, [{"backup": "filled by the harness"}]),
    Endpoint("POST", "/api/v1/events", None, [NEW_EVENT, {**NEW_EVENT, "circle": "{circle}"}]),
    Endpoint("GET", "/api/v1/events/{event}"),
    Endpoint("POST", "/api/v1/events/{event}/rounds", "director"),
    Endpoint("POST", "/api/v1/events/{event}/rounds/1/lock", "director", [{"locked": False}]),
    Endpoint("POST", "/api/v1/events/{event}/players", "director", [{"name": "Hadi"}]),
    Endpoint("POST", "/api/v1/events/{event}/players/leave", "director", [{"name": "Nour"}]),
    Endpoint(
        "PUT", "/api/v1/events/{event}/games/{table_game}/deals/1", "director", [KING_DEAL], True
    ),
    Endpoint(
        "POST",
        "/api/v1/events/{event}/rounds/1/replace",
        "director",
        [{"player": "Rana", "substitute": "Hadi"}],
    ),
    Endpoint("POST", "/api/v1/events/{event}/rounds/1/redraw", "director", [{"player": "Rana"}]),
    Endpoint("POST", "/api/v1/events/{event}/co-director", "director"),
    Endpoint("DELETE", "/api/v1/events/{event}/co-director", "director"),
    Endpoint("POST", "/api/v1/events/{event}/rounds/1/undo", "director"),
    Endpoint(  # a closed event refuses the rest, until it is opened again
        "POST", "/api/v1/events/{event}/close", "director"
    ),
    Endpoint("POST", "/api/v1/events/{event}/reopen", "director"),
    Endpoint(
        "POST",
        "/api/v1/circles",
        None,
        [{"name": "Friday club", "members": PLAYERS, "ratings": True, "rules": {}}],
    ),
    Endpoint("GET", "/api/v1/circles/{circle}"),
    Endpoint("POST", "/api/v1/circles/{circle}/games", "circle", [NEW_GAME]),
    Endpoint("GET", "/api/v1/circles/{circle}/members/{member}"),
]


def fill(value: Any, places: dict[str, str]) -> Any:
    """``value`` with ``"{name}"`` strings replaced from ``places`` (a backup: the whole file)."""
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return places.get(value[1:-1], value)
    if isinstance(value, dict):
        if value == {"backup": "filled by the harness"}:
            return places["backup"]
        return {k: fill(v, places) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, places) for v in value]
    return value


def requests_of(
    endpoint: Endpoint, places: dict[str, Any], depth: int = 99, odd: int = 1
) -> Iterator[tuple[str, str, bytes | None]]:
    """(method, path, body) for every malformed body of ``endpoint``; a route that reads no
    body gets the bodies that are no object (it must ignore them, or refuse them)."""
    path = endpoint.path.format(**{k: v for k, v in places.items() if isinstance(v, str)})
    if not endpoint.bodies:
        for body in NOT_OBJECTS[:4]:
            yield endpoint.method, path, body
        return
    for base in endpoint.bodies:
        for body in malformed_bodies(fill(base, places), depth, odd):
            yield endpoint.method, path, body


# --- what a refused request must leave as it was ------------------------------------------------

UNWRITTEN_TABLES = {"rate_counters"}
"""Tables a refused request may change: the rate limiter counts refusals too."""


def fingerprint(connection: Connection) -> tuple[int, ...]:
    """Every table's row count and the sum of every version: changed by any write at all."""
    from scorekeeper.extensions import db  # the app's tables, for their names

    parts = []
    for name, table in sorted(db.metadata.tables.items()):
        if name in UNWRITTEN_TABLES:
            continue
        parts.append(f"(SELECT count(*) FROM {name})")
        if "version" in table.c:
            parts.append(f"(SELECT coalesce(sum(version), 0) FROM {name})")
    row = connection.execute(text("SELECT " + ", ".join(parts))).one()
    return tuple(int(value) for value in row)
