"""A circle's names, members, colours and emoji, checked before anything is written.

Member names follow the same rules as players' names (any script, 1–40
characters, no control or direction characters, distinct ignoring case).

>>> clean_circle_name("  Thursday table ")
'Thursday table'
>>> clean_member_names(["Rana", " سامي "])
['Rana', 'سامي']
>>> clean_colour("#A0b1C2"), clean_colour("")
('#a0b1c2', None)
"""

from __future__ import annotations

import re
import unicodedata

from scorekeeper.rules.errors import IllegalError, Problem, ProblemList
from scorekeeper.store.circles.errors import CircleRefusal
from scorekeeper.store.circles.models import CIRCLE_NAME_LENGTH, EMOJI_LENGTH
from scorekeeper.store.input import BIDI_CONTROLS, check_distinct, clean_name, storable

MEMBERS_MAX = 64
"""Members of one circle: a club's worth."""
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def clean_circle_name(raw: object) -> str:
    """The circle's name, stripped: 1–60 characters of visible text."""
    if not isinstance(raw, str) or not storable(raw):
        raise CircleRefusal.one("circle_name_text", "name")
    name = unicodedata.normalize("NFC", raw.strip())
    if not name:
        raise CircleRefusal.one("circle_name_empty", "name")
    if len(name) > CIRCLE_NAME_LENGTH:
        raise CircleRefusal.one(
            "circle_name_length", "name", length=len(name), max=CIRCLE_NAME_LENGTH
        )
    if any(unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS for ch in name):
        raise CircleRefusal.one("circle_name_control", "name")
    return name


def clean_member_name(raw: object, index: int, field: str = "members") -> str:
    """One member's name, checked as a player's name (R1); the problem names ``field.index``."""
    problems = ProblemList()
    name = clean_name(problems, index, raw)
    if problems or name is None:
        raise IllegalError([_moved(p, f"{field}.{index}") for p in problems.problems])
    return name


def clean_member_names(raw: object, field: str = "members") -> list[str]:
    """A list of new members' names: each valid, none twice (ignoring case)."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MEMBERS_MAX:
        raise CircleRefusal.one("members_list", field, max=MEMBERS_MAX)
    problems = ProblemList()
    names: list[str | None] = []
    for index, item in enumerate(raw):
        one = ProblemList()
        names.append(clean_name(one, index, item))
        problems.problems.extend(_moved(p, f"{field}.{index}") for p in one.problems)
    check_distinct(problems, names, field)
    problems.raise_if_any(IllegalError)
    return [name for name in names if name is not None]


def _moved(problem: Problem, field: str) -> Problem:
    return Problem(problem.code, problem.message, problem.rule, field, problem.params)


def clean_colour(raw: object) -> str | None:
    """``#rrggbb`` in lower case, or None for no colour."""
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not COLOUR.fullmatch(raw):
        raise CircleRefusal.one("member_colour", "colour")
    return raw.lower()


def clean_emoji(raw: object) -> str | None:
    """A short symbol (an emoji, up to a few characters), or None."""
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not storable(raw):
        raise CircleRefusal.one("member_emoji", "emoji")
    text = raw.strip()
    bad = any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in BIDI_CONTROLS for ch in text)
    if not text or len(text) > EMOJI_LENGTH // 2 or bad:
        raise CircleRefusal.one("member_emoji", "emoji")
    return text


def name_key(name: str) -> str:
    """The name as the circle compares names: case-folded."""
    return name.casefold()
