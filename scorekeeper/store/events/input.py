"""Request bodies of club nights to values: a new event (API.md "Club nights").

Shape only; every refusal is a :class:`~scorekeeper.rules.errors.RulesError`
naming its field, and nothing is saved.

>>> new = parse_new_event_body({"name": "Thursday", "players": ["A", "B", "C", "D"]})
>>> new.rounds, new.round_kind, new.scoring, new.places, new.rules.kingdoms
(3, 'game', 'totals', (3, 2, 1, 0), 4)
>>> parse_new_event_body({"name": "T", "players": ["A", "B", "C", "D"],
...                       "round": "kingdom"}).rules.kingdoms
1
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.errors import IllegalError, MalformedError, ProblemList
from scorekeeper.rules.events import rotations
from scorekeeper.rules.events.draw import DrawMethod
from scorekeeper.rules.events.standings import (
    DEFAULT_PLACES,
    Byes,
    Ranking,
    Scoring,
    check_places,
)
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.wire import only_keys
from scorekeeper.store.input import check_distinct, check_storable, clean_name

EVENT_FIELDS = {
    "name", "players", "rules", "rounds", "round", "scoring", "places", "partnership", "seed",
    "circle", "byes", "bye_points", "ranking", "draw",
}  # fmt: skip
BYE_POINTS_MAX = 10_000
EVENT_NAME_MAX = 80
PLAYERS_MAX = 1000
ROUNDS_MAX = 50
SEED_MAX = 2**31 - 1
ROUND_KINDS = ("game", "kingdom")


@dataclass(frozen=True)
class NewEvent:
    """What ``POST /events`` asks for."""

    name: str
    players: list[str]
    rules: RuleSet
    rounds: int
    round_kind: str
    scoring: str
    places: tuple[int, int, int, int]
    partnership: bool
    seed: int
    circle: str | None
    byes: str = Byes.AVERAGE.value
    """What a round sat out is worth: ``average`` (the default), ``fixed`` or ``none``."""
    bye_points: int = 0
    """A bye's points under ``fixed``."""
    ranking: str = Ranking.POINTS.value
    draw: str = DrawMethod.AVOID_REPEATS.value
    """How rounds are drawn: ``avoid_repeats`` (the default), ``swiss`` or ``rotation``."""


def parse_new_event_body(body: Mapping[str, Any]) -> NewEvent:
    """The new event, its defaults filled in: 3 whole games scored by totals, a random seed."""
    only_keys(body, EVENT_FIELDS, "a new event")
    check_storable(dict(body))
    partnership = _flag(body.get("partnership", False), "partnership")
    round_kind = _choice(body.get("round", "game"), "round", ROUND_KINDS)
    circle = body.get("circle")
    if circle is not None and not isinstance(circle, str):
        raise MalformedError.one("event_circle", field="circle")
    players = clean_event_players(body.get("players", [] if circle else None))
    return NewEvent(
        name=clean_event_name(body.get("name")),
        players=players,
        rules=event_rules(body.get("rules"), partnership, round_kind),
        rounds=_whole(body.get("rounds", 3), "rounds", 1, ROUNDS_MAX),
        round_kind=round_kind,
        scoring=_choice(body.get("scoring", Scoring.TOTALS.value), "scoring", _scorings()),
        places=check_places(body.get("places", list(DEFAULT_PLACES))),
        partnership=partnership,
        seed=_whole(body.get("seed", secrets.randbelow(1_000_000)), "seed", 0, SEED_MAX),
        circle=circle,
        byes=_choice(body.get("byes", Byes.AVERAGE.value), "byes", tuple(b.value for b in Byes)),
        bye_points=_whole(body.get("bye_points", 0), "bye_points", -BYE_POINTS_MAX, BYE_POINTS_MAX),
        ranking=_choice(
            body.get("ranking", Ranking.POINTS.value), "ranking", tuple(r.value for r in Ranking)
        ),
        draw=draw_method(body.get("draw", DrawMethod.AVOID_REPEATS.value), players, circle),
    )


def draw_method(raw: object, players: list[str], circle: str | None) -> str:
    """One of :class:`DrawMethod`; a fixed rotation needs 8, 12 or 16 players (a circle's
    night, whose players are its members, is checked when it is created)."""
    method = _choice(raw, "draw", tuple(m.value for m in DrawMethod))
    if method == DrawMethod.ROTATION.value and (players or circle is None):
        check_rotation_size(len(players))
    return method


def check_rotation_size(count: int) -> None:
    """A fixed rotation exists for 8, 12 and 16 players only."""
    if count not in rotations.SIZES:
        raise IllegalError.one(
            "event_rotation_size",
            field="draw",
            count=count,
        )


def _scorings() -> tuple[str, ...]:
    return tuple(s.value for s in Scoring)


def clean_event_name(raw: object) -> str:
    """1–80 characters of text, stripped."""
    name = unicodedata.normalize("NFC", raw.strip()) if isinstance(raw, str) else ""
    if not name or len(name) > EVENT_NAME_MAX or any(ord(ch) < 32 for ch in name):
        raise IllegalError.one(
            "event_name",
            field="name",
            max=EVENT_NAME_MAX,
        )
    return name


def clean_event_players(raw: object) -> list[str]:
    """The players present: names as for a game (each 1–40 characters), distinct."""
    if not isinstance(raw, list) or len(raw) > PLAYERS_MAX:
        raise IllegalError.one(
            "event_players",
            field="players",
            max=PLAYERS_MAX,
        )
    problems = ProblemList()
    names = [clean_name(problems, index, name) for index, name in enumerate(raw)]
    check_distinct(problems, names)
    problems.raise_if_any(IllegalError)
    return [name or "" for name in names]


def event_rules(raw: object, partnership: bool, round_kind: str) -> RuleSet:
    """The tables' rule set: partnerships as the event says; one kingdom under ``kingdom``."""
    rules = RuleSet.from_dict(raw)
    given = raw if isinstance(raw, Mapping) else {}
    if "partnership" in given and rules.partnership != partnership:
        raise IllegalError.one(
            "event_rules_partnership",
            field="rules.partnership",
        )
    wanted = 1 if round_kind == "kingdom" else rules.kingdoms
    if "kingdoms" in given and rules.kingdoms != wanted:
        raise IllegalError.one(
            "event_rules_kingdoms",
            field="rules.kingdoms",
        )
    return RuleSet.from_dict({**rules.to_dict(), "partnership": partnership, "kingdoms": wanted})


def _flag(raw: object, field: str) -> bool:
    if not isinstance(raw, bool):
        raise MalformedError.one("event_flag", field=field, what=field)
    return raw


def _whole(raw: object, field: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise MalformedError.one(
            "event_number",
            field=field,
            what=field,
            low=low,
            high=high,
        )
    return raw


def _choice(raw: object, field: str, allowed: tuple[str, ...]) -> str:
    if raw not in allowed:
        raise MalformedError.one(
            "event_choice",
            field=field,
            what=field,
            allowed=", ".join(f"“{a}”" for a in allowed),
        )
    return str(raw)


def parse_leaving_body(body: Mapping[str, Any], *, substitute: bool) -> tuple[str, str]:
    """``{"player": …, "substitute": …}`` (a replacement) or ``{"player": …}`` (a re-draw):
    the names as given ("" for no substitute)."""
    fields = {"player", "substitute"} if substitute else {"player"}
    only_keys(body, fields, "a player who leaves")
    names = [_name_text(body.get(field), field) for field in sorted(fields)]
    return names[0], names[1] if substitute else ""


def _name_text(raw: object, field: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise MalformedError.one(
            "event_name_needed",
            field=field,
            what=field,
        )
    return raw.strip()
