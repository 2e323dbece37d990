"""What the pages' forms share: :class:`ProblemsForm`, its fields, the seat helpers.

The forms check shape and ranges only (docs/STYLE.md §11); each lives in its
feature package (the deal forms and their fields are :mod:`scorekeeper.web.deals`).

Whether an entry is *right* (13 diamonds, a permutation, an unplayed
contract) is the rules engine's call; these forms only check that every
answer was given in the right shape, turn it into rules objects
(``to_entry()``, ``to_rules()``) and put the engine's problems back next to
the field they concern (``add_problems()``).

Messages are whole sentences, translated (``lazy_gettext`` where they are set
at import time); the engine's problems are said in the request's language by
:func:`scorekeeper.text.messages.translate_problem`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from babel import support
from flask_wtf import FlaskForm
from wtforms import Field, FieldList, IntegerField, StringField
from wtforms.i18n import messages_path
from wtforms.validators import Optional, StopValidation
from wtforms.widgets import HiddenInput, TextInput

from scorekeeper.rules.errors import Problem
from scorekeeper.text.locale import current_locale, format_number, latin_digits, localize_digits
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import translate_problem

SEATS = ("0", "1", "2", "3")
WHOLE_NUMBER = re.compile(r"[-+]?[0-9]+")
"""A whole number in Latin digits (after ``latin_digits``); a sign is for the range to refuse."""
NUMBER_BOX = {"inputmode": "numeric", "data-number": True, "autocomplete": "off"}
"""A number box's attributes: text with a numeric keyboard, since a type=number box refuses ٥
in Chromium (static/app.js shows the page's digits in ``data-number`` boxes, sends Latin)."""


def whole_number(typed: str) -> int | None:
    """A whole number typed in Latin, Arabic-Indic or Eastern Arabic-Indic digits, or None
    for anything else (other scripts' digits included, which ``int`` alone would take).

    >>> whole_number("١٢"), whole_number("۱۲"), whole_number("12"), whole_number("1٢x")
    (12, 12, 12, None)
    """
    latin = latin_digits(typed)
    return int(latin) if WHOLE_NUMBER.fullmatch(latin) else None


def strip(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


def seat_or_none(value: object) -> int | None:
    """``"2"`` -> 2; anything that is not a seat -> None."""
    return int(value) if isinstance(value, str) and value in SEATS else None


def seat_choices(names: Sequence[str], blank: Any = None) -> list[tuple[str, str]]:
    """Radio/select choices of the four seats, labelled with the players' names."""
    choices = [(str(seat), name) for seat, name in enumerate(names)]
    return [("", blank), *choices] if blank is not None else choices


class ChoiceField(StringField):
    """A radio group or select that the templates render; the form checks its value.

    ``choices`` are (value, label) pairs, set per form (labels are the
    players' names). Unlike WTForms' own choice fields, nothing here refuses
    a value: each form's ``validate()`` does, with a message in plain words.
    """

    def __init__(self, *args: Any, choices: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices: list[tuple[str, str]] = list(choices)


class WholeNumberField(IntegerField):
    """A whole number in a number box (``NUMBER_BOX``), shown in the page's digits; blank is
    None, for the validators.

    Latin, Arabic-Indic and Eastern Arabic-Indic digits read alike (``latin_digits``); any
    other text, other scripts' digits included, is the field's error, naming its label
    (checked at validation, so a label set after the form is built is the one said).
    """

    widget = TextInput()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["render_kw"] = {**NUMBER_BOX, **(kwargs.get("render_kw") or {})}
        super().__init__(*args, **kwargs)
        self.typed = ""

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.typed = str(valuelist[0]).strip() if valuelist else ""
        self.data = whole_number(self.typed)

    def _value(self) -> str:
        # In the page's digits, as the game forms' number boxes are (their ``|num``): the box
        # reads right before app.js runs, or without it, and is read back either way.
        if self.raw_data:
            return localize_digits(self.typed)
        return format_number(self.data)

    def pre_validate(self, form: Any) -> None:
        if self.typed and self.data is None:
            raise StopValidation(
                _(
                    "%(field)s: “%(text)s” is not a whole number.",
                    field=self.label.text,
                    text=self.typed,
                )
            )


VERSION_MAX = 2**31 - 1
"""Far beyond any game's version, and within every database's integers."""


class VersionField(IntegerField):
    """The game's version a page was shown at (hidden): a whole number the database can hold.

    Anything else (a damaged page, or a number past 64 bits) is the field's error,
    never a value sent on to the database.
    """

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = None
        if not text:
            return
        if not (text.isascii() and text.isdigit() and int(text) <= VERSION_MAX):
            raise ValueError(_("This page is damaged or out of date: reload it and try again."))
        self.data = int(text)


@cache
def wtforms_messages(locale: str) -> support.NullTranslations:
    """WTForms' own messages ("Not a valid integer value.") in ``locale``, loaded once.

    Flask-WTF reads this catalogue from disk on every request that builds a form.
    """
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


class ProblemsForm(FlaskForm):  # type: ignore[misc]
    """A form that can show the engine's problems next to its fields."""

    class Meta(FlaskForm.Meta):  # type: ignore[misc]
        def get_translations(self, form: Any) -> support.NullTranslations:
            return wtforms_messages(current_locale())

    version = VersionField(widget=HiddenInput(), validators=[Optional()])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group_errors: dict[str, list[str]] = {}
        """Errors of a group of inputs (``diamonds``) or of the whole form (``""``)."""

    def field_for(self, path: str | None) -> str:
        """The form field or group a problem's ``field`` path belongs to ("" = the form)."""
        return ""

    def add_error(self, target: str, message: str) -> None:
        """Attach ``message`` to field ``target`` (``players-2`` works too), or to a group."""
        field = self._lookup(target)
        if field is not None:
            field.errors = [*field.errors, message]
        else:
            self.group_errors.setdefault(target, []).append(message)

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.add_error(self.field_for(problem.field), translate_problem(problem))

    def errors_of(self, target: str) -> list[str]:
        """Every error to show at ``target``: the field's own and its group's."""
        field = self._lookup(target)
        own = list(field.errors) if field is not None and not isinstance(field, FieldList) else []
        return own + self.group_errors.get(target, [])

    @property
    def all_errors(self) -> list[str]:
        """Every message, for the summary at the top of a form."""
        out: list[str] = []
        for field in self:
            errors = field.errors
            if isinstance(field, FieldList):
                errors = [e for entry in field.entries for e in entry.errors]
            out.extend(e for e in errors if isinstance(e, str))
        for messages in self.group_errors.values():
            out.extend(messages)
        return out

    def _lookup(self, target: str) -> Field | None:
        name, _dash, index = target.partition("-")
        field: Field | None = self._fields.get(name)
        if isinstance(field, FieldList) and index.isdigit() and int(index) < len(field.entries):
            entry: Field = field.entries[int(index)]
            return entry
        return None if isinstance(field, FieldList) or field is None else field
