"""Errors of the rules engine, split by cause (docs/STYLE.md §4).

Every error carries one or more :class:`Problem` values: the rule number
(``R11``), the field the problem concerns (``captures.diamonds``), a stable
``code`` with its ``params`` (so a web layer can translate it), and a plain
English sentence a player at the table understands, rendered from the code's
template in :mod:`scorekeeper.rules.sentences`.

>>> err = IllegalError.one("diamonds_sum", rule="R11", field="captures.diamonds",
...                        total=12, listed=joined("comma", ["5", "7", "0", "0"]))
>>> err.problems[0].as_dict()["rule"], str(err)
('R11', 'Diamonds must add up to 13; these add up to 12 (5, 7, 0, 0).')

Messages as templates
---------------------
A call site never writes English: it gives the ``code``, the rule, the field
and the ``params``, and the constructors (:meth:`RulesError.one`,
:meth:`ProblemList.add`, :meth:`Problem.of`) fill in the template of
:mod:`scorekeeper.rules.sentences` to make the ``message``; the web layer fills
in the same template in another language (:mod:`scorekeeper.text.messages`).
The rules:

* The template's key is :attr:`Problem.key`: the ``code``, or
  ``code.variant`` when one code has several sentence shapes (``bad_seat.king``,
  ``bad_seat.taker``); ``params["variant"]`` names the shape. Where the shape
  depends on the data (a plural, a claim's ``you`` or ``claim`` wording), the call
  site chooses the variant. Codes never change.
* ``params`` holds every value the sentence shows, ready for display: names
  (``player="Sami"``, never a seat number the reader must look up), cards
  as people write them (``card="K♥"``), numbers as ints, raw JSON as
  ``value=repr(raw)``. Data for programs (seats, wire values) may sit beside them.
* A piece with words in it is never English text in ``params``: it is a
  :func:`part` (a sub-sentence with its own key and params: a contract's name,
  ``seat 2``, ``3 spades``) or a :func:`joined` list (``a, b and c``).

A new code needs its template in :mod:`scorekeeper.rules.sentences` first: a
key without one is a ``KeyError`` when the problem is made.

>>> p = Problem.of("bad_seat", rule="R1", field="king", variant="king", value="7")
>>> p.key, p.message
('bad_seat.king', 'The king must be a seat 0–3, not 7.')
>>> joined("and", [part("contract.king"), part("contract.trix")])["items"][1]
{'part': 'contract.trix', 'params': {}}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.sentences import english, joined, part

__all__ = [
    "IllegalError",
    "MalformedError",
    "Problem",
    "ProblemList",
    "RulesError",
    "StateError",
    "join_words",
    "joined",
    "part",
]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, in words and in data."""

    code: str
    message: str
    rule: str | None = None
    field: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The API's error object (``rule``, ``field``, ``message``), plus ``code``."""
        return {"rule": self.rule, "field": self.field, "message": self.message, "code": self.code}

    @property
    def key(self) -> str:
        """The message template's key: ``code``, or ``code.variant`` (see the module doc)."""
        return template_key(self.code, self.params)

    @classmethod
    def of(
        cls, code: str, *, rule: str | None = None, field: str | None = None, **params: Any
    ) -> Problem:
        """The problem, its ``message`` rendered from the template of its key."""
        return cls.from_params(code, rule, field, params)

    @classmethod
    def from_params(
        cls, code: str, rule: str | None, field: str | None, params: dict[str, Any]
    ) -> Problem:
        """:meth:`of` with the params as one dict (any names, even ``rule`` or ``field``)."""
        return cls(code, english(template_key(code, params), params), rule, field, params)


def template_key(code: str, params: dict[str, Any]) -> str:
    """``code``, or ``code.variant`` when ``params`` name a variant."""
    variant = params.get("variant")
    return f"{code}.{variant}" if variant else code


class RulesError(Exception):
    """Base class: something the engine refuses, with every problem it found.

    The engine knows nothing of HTTP: the web layer maps each kind to a status
    (:func:`scorekeeper.web.errors.status_of`).
    """

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("a RulesError needs at least one problem")
        super().__init__(" ".join(p.message for p in self.problems))

    @classmethod
    def one(
        cls, code: str, *, rule: str | None = None, field: str | None = None, **params: Any
    ) -> RulesError:
        """An error with a single problem, its message rendered from its template."""
        return cls([Problem.of(code, rule=rule, field=field, **params)])

    def at(self, prefix: str) -> RulesError:
        """The same error with every field prefixed (``hands`` -> ``play.hands``)."""
        moved = [
            Problem(
                p.code, p.message, p.rule, f"{prefix}.{p.field}" if p.field else prefix, p.params
            )
            for p in self.problems
        ]
        return type(self)(moved)


class MalformedError(RulesError):
    """The input is not of the right shape: not a card, not a seat, a wrong type."""


class IllegalError(RulesError):
    """The input is well formed but breaks a rule of the game (R-numbered)."""


class StateError(RulesError):
    """The input conflicts with the game's state: a repeated contract (R2), a finished game."""


class ProblemList:
    """Collects problems so that one validation reports all of them at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(
        self, code: str, *, rule: str | None = None, field: str | None = None, **params: Any
    ) -> None:
        """One more problem, its message rendered from its template."""
        self.problems.append(Problem.of(code, rule=rule, field=field, **params))

    def extend(self, error: RulesError) -> None:
        self.problems.extend(error.problems)

    def raise_if_any(self, kind: type[RulesError] = IllegalError) -> None:
        if self.problems:
            raise kind(self.problems)

    def __bool__(self) -> bool:
        return bool(self.problems)


def join_words(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> join_words(["Rana"]), join_words(["Rana", "Sami", "Omar"])
    ('Rana', 'Rana, Sami and Omar')
    """
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
