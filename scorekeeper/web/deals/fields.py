"""What only the deal forms use: the trick-count field, the queens' field prefixes,
the Trix places' and the note's messages (the shared fields are :mod:`scorekeeper.web.forms`)."""

from __future__ import annotations

from typing import Any

from wtforms import IntegerField

from scorekeeper.store.input import NOTE_MAX
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.forms import whole_number

NOTE_TOO_LONG = _l("A note can have at most %(max)s characters.", max=NOTE_MAX)

QUEEN_KEYS = ("qs", "qh", "qd", "qc")
"""Form field prefixes of Q♠ Q♥ Q♦ Q♣, in the engine's suit order."""
TRIX_PLACE_MISSING = (
    _l("Choose who went out first."),
    _l("Choose who went out second."),
    _l("Choose who went out third."),
    _l("Choose who was left with cards."),
)


class CountField(IntegerField):
    """A count 0–13 in a numeric text box; blank means 0 (and stays blank when shown again).

    Latin, Arabic-Indic and Eastern Arabic-Indic digits read alike (``latin_digits``); any
    other character, other scripts' digits included, is the field's error.
    """

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = whole_number(text) if text else None
        if text and self.data is None:
            raise ValueError(
                _("“%(text)s” is not a number; enter a whole number from 0 to 13.", text=text)
            )
