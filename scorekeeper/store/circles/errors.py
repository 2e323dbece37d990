"""What the circle services refuse, with the facts (worded by :mod:`scorekeeper.text.circles`)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any


class CircleNotFound(LookupError):
    """No circle has this id (404)."""

    def __init__(self, circle_id: str) -> None:
        super().__init__(f"no circle {circle_id!r}")
        self.circle_id = circle_id


class MemberNotFound(LookupError):
    """The circle has no member with this id (404)."""

    def __init__(self, member_id: object) -> None:
        super().__init__(f"no member {member_id!r}")
        self.member_id = member_id


@dataclass(frozen=True)
class CircleProblem:
    """One thing wrong with a request: a code, the field, and the facts for the sentence."""

    code: str
    field: str | None = None
    params: dict[str, Any] = dataclass_field(default_factory=dict)


class CircleRefusal(ValueError):
    """A circle request that cannot be done (422; 409 for ``conflict``); nothing is written."""

    def __init__(self, problems: list[CircleProblem], conflict: bool = False) -> None:
        super().__init__("; ".join(p.code for p in problems))
        self.problems = problems
        self.status = 409 if conflict else 422

    @classmethod
    def one(cls, code: str, field: str | None = None, **params: Any) -> CircleRefusal:
        return cls([CircleProblem(code, field, params)])
