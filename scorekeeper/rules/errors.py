"""Errors of the rules engine, split by cause (docs/STYLE.md §4).

Every error carries one or more :class:`Problem` values: the rule number
(``R11``), the field the problem concerns (``captures.diamonds``), a stable
``code`` with its ``params`` (so a web layer can translate it), and a plain
English sentence a player at the table understands.

>>> err = IllegalError.one("diamonds_sum", "Diamonds must add up to 13.", rule="R11",
...                        field="captures.diamonds", total=12)
>>> err.problems[0].as_dict()["rule"], str(err)
('R11', 'Diamonds must add up to 13.')

Messages as templates
---------------------
The English ``message`` can be rebuilt from a template with ``params``, so the
web layer can say it in another language (``scorekeeper.text.messages``). The rules:

* The template's key is :attr:`Problem.key`: the ``code``, or
  ``code.variant`` when one code has several sentence shapes (``bad_seat.king``,
  ``bad_seat.taker``); ``params["variant"]`` names the shape. Codes never change.
* ``params`` holds every value the sentence shows, ready for display: names
  (``player="Sami"``, never a seat number the reader must look up), cards
  as people write them (``card="K♥"``), numbers as ints, raw JSON as
  ``value=repr(raw)``. Data for programs (seats, wire values) may sit beside them.
* A piece with words in it is never English text in ``params``: it is a
  :func:`part` (a sub-sentence with its own key and params: a contract's name,
  ``seat 2``, ``3 spades``) or a :func:`joined` list (``a, b and c``).

>>> p = Problem("bad_seat", "The king must be a seat 0–3, not 7.", "R1", "king",
...             {"variant": "king", "value": "7"})
>>> p.key
'bad_seat.king'
>>> joined("and", [part("contract.king"), part("contract.trix")])["items"][1]
{'part': 'contract.trix', 'params': {}}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


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
        variant = self.params.get("variant")
        return f"{self.code}.{variant}" if variant else self.code


def part(key: str, **params: Any) -> dict[str, Any]:
    """A piece of a message with words in it, for a problem's ``params``.

    It is rendered from its own template ``key`` with ``params``, in the
    reader's language: ``part("seat", seat=2)`` is "seat 2".
    """
    return {"part": key, "params": params}


def joined(how: str, items: Iterable[Any]) -> dict[str, Any]:
    """Items (text or :func:`part` values) joined for a problem's ``params``.

    ``how`` is ``"and"`` (``a, b and c``), ``"comma"`` (``a, b, c``) or
    ``"plus"`` (``a + b``, for the contracts of a combination).
    """
    return {"join": how, "items": list(items)}


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
        cls,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        field: str | None = None,
        **params: Any,
    ) -> RulesError:
        """An error with a single problem."""
        return cls([Problem(code, message, rule, field, params)])

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
        self,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        field: str | None = None,
        **params: Any,
    ) -> None:
        self.problems.append(Problem(code, message, rule, field, params))

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
