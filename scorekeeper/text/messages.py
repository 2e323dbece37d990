"""The engine's messages in the reader's language.

Every :class:`~scorekeeper.rules.errors.Problem` carries a ``code`` and the
``params`` its English sentence shows (the conventions are in
:mod:`scorekeeper.rules.errors`). The templates are the engine's own, written
once in :mod:`scorekeeper.rules.sentences` (:data:`MESSAGES`, by
:attr:`Problem.key <scorekeeper.rules.errors.Problem.key>`: the code, or
``code.variant``), where the engine renders its English ``message`` from them;
this module says them with the request's translations (:func:`translate_problem`),
its digits and its names set apart.

A problem whose English message is not its template's (one that the store or the
web layer worded itself, with no template) is shown in the engine's English
rather than as a wrong sentence.

>>> from scorekeeper.rules.errors import Problem
>>> p = Problem.of("bad_seat", rule="R1", field="king", value="7", variant="king")
>>> p.message
'The king must be a seat 0–3, not 7.'
>>> translate_problem(p)  # outside a request: English
'The king must be a seat 0–3, not 7.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import Problem, RulesError
from scorekeeper.rules.sentences import (
    CONTRACT_NAMES,
    ENGLISH,
    MESSAGES,
    N_,
    NAME_PARAMS,
    PROBLEMS,
    WORDS,
    Plural,
    Template,
    Translations,
    english,
    isolating,
)
from scorekeeper.rules.sentences import render as render_in

__all__ = [
    "CONTRACT_LABELS",
    "ENGLISH",
    "MESSAGES",
    "N_",
    "NAME_PARAMS",
    "PROBLEMS",
    "WORDS",
    "Plural",
    "Template",
    "Translations",
    "contract_label",
    "current_translations",
    "describe_contracts",
    "english",
    "render",
    "seats_from_one",
    "translate_error",
    "translate_problem",
    "translate_problem_dict",
    "translate_problems",
    "with_names_isolated",
]

CONTRACT_LABELS: dict[Contract, str] = {c: CONTRACT_NAMES[c.value] for c in Contract}
"""The contracts' names (msgids), by contract."""


class _Digits:
    """Numbers in ``digits`` (``latn``, ``arab``), as :class:`~.sentences.Numbers` says."""

    def __init__(self, digits: str) -> None:
        self.digits = digits

    def template(self, text: str) -> str:
        # Imported here, as current_translations is: no cycle.
        from scorekeeper.text.locale import WHOLE_NUMBER_SLOT, localize_sentence

        return localize_sentence(WHOLE_NUMBER_SLOT.sub(r"%(\1)s", text), self.digits)

    def number(self, value: int) -> str:
        from scorekeeper.text.locale import format_number  # as current_translations: no cycle

        return format_number(value, self.digits)


def render(
    key: str, params: Mapping[str, Any], translations: Translations, digits: str | None = None
) -> str:
    """The template ``key`` in ``translations``' language, filled with ``params``; with
    ``digits`` (``latn``, ``arab``), its numbers are written as people read them there
    (``format_number``: ١٢, a real minus sign).

    Raise ``KeyError`` (unknown key, missing param), ``TypeError`` or
    ``ValueError`` (a param of the wrong kind) rather than guess.
    """
    return render_in(key, params, translations, _Digits(digits) if digits is not None else None)


def with_names_isolated(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with each name set apart (FSI … PDI), so that no name reorders its sentence."""
    from scorekeeper.text.locale import isolate_name  # as current_translations: no cycle

    return isolating(params, isolate_name)


def current_translations() -> Translations:
    """The request's translations (English outside a request), looked up once per request."""
    from scorekeeper.text.locale import translations as request_translations

    translations: Translations = request_translations()
    return translations


SEAT_NUMBER = re.compile(r"\b[Ss]eat %\((\w+)\)d")
"""A seat's number in a template ("seat %(seat)d's hand")."""


def seats_from_one(key: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with the seats the template numbers counted 1–4, as people count them
    (the engine and the API count 0–3).

    >>> seats_from_one("hands_overlap", {"card": "QS", "seat": 0, "other": 3})
    {'card': 'QS', 'seat': 1, 'other': 4}
    """
    template = MESSAGES[key]
    text = template if isinstance(template, str) else template.singular + template.plural
    seats = set(SEAT_NUMBER.findall(text))
    return {
        name: value + 1 if name in seats and type(value) is int else value
        for name, value in params.items()
    }


def translate_problem(
    problem: Problem, translations: Translations | None = None, for_people: bool = True
) -> str:
    """The problem's message in the request's language (or in ``translations``); seats are
    numbered 1–4 unless ``for_people`` is false (the API's messages keep its 0–3).

    Falls back to the engine's English ``message`` when the code has no
    template, when its params do not rebuild the English message, or when
    the translation cannot be filled in; a missing translation is English.
    """
    try:
        if english(problem.key, problem.params) != problem.message:
            return problem.message
        params = with_names_isolated(problem.params)
        digits = None
        if for_people:
            from scorekeeper.text.locale import current_digits  # as current_translations

            params = seats_from_one(problem.key, params)
            digits = current_digits()
        return render(problem.key, params, translations or current_translations(), digits)
    except (KeyError, TypeError, ValueError):
        return problem.message


def translate_error(error: RulesError) -> list[dict[str, Any]]:
    """The API's error objects (``rule``, ``field``, ``message``, ``code``), translated."""
    return [translate_problem_dict(p) for p in error.problems]


def translate_problem_dict(problem: Problem) -> dict[str, Any]:
    return {**problem.as_dict(), "message": translate_problem(problem, for_people=False)}


def translate_problems(problems: Iterable[Problem]) -> list[str]:
    """Each problem's message, translated (for a page's list of errors)."""
    return [translate_problem(p) for p in problems]


def contract_label(contract: Contract | str) -> str:
    """A contract's name in the request's language: ``King of Hearts``, ``شيخ الكبة``."""
    chosen = contract if isinstance(contract, Contract) else Contract(contract)
    return current_translations().gettext(CONTRACT_LABELS[chosen])


def describe_contracts(contracts: Iterable[Contract | str]) -> str:
    """Contracts named for people, in the request's language: ``King of Hearts + Queens``."""
    return " + ".join(contract_label(c) for c in contracts)
