"""Reading the dispute desk's forms: typed cards, seats and house rules, errors by field.

The dispute pages work without JavaScript: cards are typed into text boxes
(``KH 10D 2C …``, one line per trick or per hand) and seats are chosen in
selects. :class:`Entered` reads such a form (``request.args`` or
``request.form``) field by field; whatever is wrong is kept as a message for
the field it concerns, so the page shows it next to that field and keeps
everything that was typed. The tap-based card picker (``static/picker.js``)
fills the very same fields.

>>> entered = Entered({"hand": "KH 10d 2♣", "tricks": "2C 5C\\nXX"})
>>> [str(c) for c in entered.cards("hand")]
['KH', 'TD', '2C']
>>> [[str(c) for c in line] for line in entered.card_lines("tricks")]
[['2C', '5C']]
>>> entered.errors["tricks"]
['Line 2: “XX” is not a card (write e.g. KH, 10D, 10♦).']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper.rules.cards import Card
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, Problem, RulesError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.text.disputes import gettext
from scorekeeper.text.locale import latin_digits
from scorekeeper.text.messages import translate_problem, translate_problems
from scorekeeper.web.forms.rules import BOOL_SWITCHES, SWITCHES

SEPARATORS = re.compile(r"[\s,;]+")
DECIMAL = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
"""A number as the desk's boxes take it, in Latin digits (after ``latin_digits``)."""
PASS_WORDS = frozenset({"pass", "p", "-", "—", "x"})
"""What a Trix pass may be typed as."""
TEXT_MAX = 2_000
"""No honest field of these forms is longer (a whole deal is about 160 characters)."""
PLAY_SWITCHES = ("first_lead", "heart_lead", "penalty_discard", "doubling", "revoke")
TRIX_SWITCHES = ("trix_first", "trix_revoke")
REDEAL_SWITCHES = ("redeal_long_hearts",)
CLAIM_SWITCHES = ("heart_lead", "penalty_discard", "doubling", "inverted")


def tokens(text: str) -> list[str]:
    """The words of a typed line: cards separated by spaces, commas or semicolons."""
    return [t for t in SEPARATORS.split(text.strip()) if t]


def card_text(cards: Iterable[Card | None]) -> str:
    """Cards as the form shows them again: ``KH TD pass 2C``."""
    return " ".join("pass" if c is None else str(c) for c in cards)


class Entered:
    """One dispute form as sent: its values, and the problems found, by field.

    ``errors`` maps a field's name (``hands-2``, ``tricks``, ``king``) to its
    messages; ``""`` holds the problems of the form as a whole.
    """

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = values
        self.errors: dict[str, list[str]] = {}

    # --- reading ---------------------------------------------------------------------------

    def text(self, name: str) -> str:
        """A field's text, stripped ("" when absent or not text)."""
        raw = self.values.get(name)
        return raw.strip()[:TEXT_MAX] if isinstance(raw, str) else ""

    def all(self, name: str) -> list[str]:
        """Every value of a repeated field (checkboxes)."""
        getlist = getattr(self.values, "getlist", None)
        raw = getlist(name) if getlist else [self.values.get(name)]
        return [v.strip() for v in raw if isinstance(v, str) and v.strip()]

    def has(self, name: str) -> bool:
        return bool(self.text(name))

    def cards(self, name: str) -> list[Card]:
        """The cards typed in field ``name``; a word that is not a card is reported there."""
        return self._cards(name, tokens(self.text(name)), None)

    def card_lines(self, name: str) -> list[list[Card]]:
        """One list of cards per non-blank line of ``name`` (tricks); errors name the line."""
        lines = [line for line in self.text(name).splitlines() if line.strip()]
        found = [self._cards(name, tokens(line), i + 1) for i, line in enumerate(lines)]
        return [cards for cards in found if cards]

    def plays(self, name: str) -> list[Card | None]:
        """Trix turns: cards, and ``pass`` (also ``p`` or ``-``) as None."""
        out: list[Card | None] = []
        for word in tokens(self.text(name)):
            if word.lower() in PASS_WORDS:
                out.append(None)
            else:
                out.extend(self._cards(name, [word], None))
        return out

    def seat(self, name: str, missing: str | None = None) -> int | None:
        """A seat chosen in a select (``"0"``–``"3"``); ``missing`` is said when none was."""
        raw = self.text(name)
        if raw in ("0", "1", "2", "3"):
            return int(raw)
        if raw or missing:
            self.add(name, missing or gettext("Choose one of the four players."))
        return None

    def number(
        self, name: str, low: float, high: float, message: str, default: float | None = None
    ) -> float | None:
        """A number from ``low`` to ``high`` (``message`` when it is not one)."""
        raw = latin_digits(self.text(name))
        if not raw:
            return default
        # Only Latin digits after latin_digits: float() alone would take any script's digits,
        # and "nan", "inf" and "1_0" too.
        value = float(raw) if DECIMAL.fullmatch(raw) else float("nan")
        if not low <= value <= high:  # NaN fails too
            self.add(name, message)
            return None
        return value

    def contract(self, name: str, allowed: Sequence[Contract]) -> Contract | None:
        """One of ``allowed`` contracts, chosen in a select."""
        raw = self.text(name)
        chosen = next((c for c in allowed if c.value == raw), None)
        if chosen is None:
            self.add(name, gettext("Choose the contract that was announced."))
        return chosen

    # --- problems --------------------------------------------------------------------------

    def add(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def add_problems(self, problems: Iterable[Problem], field_for: Any) -> None:
        """The engine's problems, translated, at the field ``field_for(path)`` names."""
        for problem in problems:
            self.add(field_for(problem.field), translate_problem(problem))

    def errors_of(self, name: str) -> list[str]:
        return self.errors.get(name, [])

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def all_errors(self) -> list[str]:
        return [m for messages in self.errors.values() for m in messages]

    def _cards(self, name: str, words: list[str], line: int | None) -> list[Card]:
        out: list[Card] = []
        for word in words:
            try:
                out.append(Card.parse(word))
            except MalformedError as error:
                message = translate_problems(error.problems)[0]
                if line is not None:
                    message = gettext("Line %(line)d: %(message)s", line=line, message=message)
                self.add(name, message)
        return out


# --- house rules ---------------------------------------------------------------------------


def switch_value(name: str, value: str) -> object:
    """A switch's form value as the rule set's JSON value."""
    return value == "on" if name in BOOL_SWITCHES else value


def rules_with_switches(entered: Entered, base: RuleSet, names: Sequence[str]) -> RuleSet:
    """``base`` with the house rules chosen on the form (a blank select keeps ``base``'s)."""
    data = base.to_dict()
    for name in names:
        value = entered.text(name)
        if not value:
            continue
        if value not in SWITCHES[name]:
            entered.add(name, gettext("Choose one of the listed options."))
            continue
        data[name] = switch_value(name, value)
    try:
        return RuleSet.from_dict(data)
    except RulesError as error:
        entered.add_problems(error.problems, lambda path: "")
        return base
