"""The sentences of circles: refusals, a rating in words, the periods of the statistics."""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal

from scorekeeper.text.locale import current_digits, current_locale, format_number, isolate_name
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l

PERIODS = {
    "month": _l("This month"),
    "year": _l("This year"),
    "all": _l("All time"),
}
CERTAINTY = {
    "settling": _l("still settling"),
    "fair": _l("fairly sure"),
    "settled": _l("settled"),
}


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def grouped_number(value: int, locale: str | None = None, digits: str | None = None) -> str:
    """A large number with the language's thousands separator, in the chosen digits.

    >>> grouped_number(1240, "en", "latn"), grouped_number(1240, "ru", "latn")
    ('1,240', '1\xa0240')
    >>> grouped_number(1240, "ar", "arab"), grouped_number(-1240, "it", "latn")
    ('١٬٢٤٠', '−1.240')
    """
    system = digits or current_digits()
    language = locale or current_locale()
    numbering = "arab" if system == "arab" and language == "ar" else "latn"
    text = format_decimal(abs(value), locale=language, numbering_system=numbering)
    if system == "arab":
        text = text.translate(ARABIC_INDIC)
    return format_number(-1, system)[:-1] + text if value < 0 else text


def decimal_number(value: float, locale: str | None = None, digits: str | None = None) -> str:
    """A small decimal (cards taken per deal) with the language's decimal mark, two places
    at most.

    >>> decimal_number(1.25, "en", "latn"), decimal_number(4.0, "ru", "latn")
    ('1.25', '4')
    >>> decimal_number(0.5, "ar", "arab")
    '٠٫٥'
    """
    system = digits or current_digits()
    language = locale or current_locale()
    numbering = "arab" if system == "arab" and language == "ar" else "latn"
    text = format_decimal(value, format="#,##0.##", locale=language, numbering_system=numbering)
    return text.translate(ARABIC_INDIC) if system == "arab" else text


def rating_words(number: int, certainty: str) -> str:
    """A rating as one number with its uncertainty: "about 1,240, still settling"."""
    return _(
        "about %(number)s, %(certainty)s",
        number=grouped_number(number),
        certainty=str(CERTAINTY.get(certainty, CERTAINTY["settling"])),
    )


def circle_not_found() -> str:
    return _("There is no circle at this address; check the link.")


def member_not_found() -> str:
    return _("This circle has no such player; check the link.")


def refusal(code: str, params: dict[str, Any]) -> str:
    """One problem of a circle request, in the reader's words."""
    name = isolate_name(str(params.get("name", "")))
    words = {
        "circle_name_text": lambda: _("The circle's name must be text."),
        "circle_name_empty": lambda: _("Give the circle a name."),
        "circle_name_length": lambda: _(
            "The circle's name is %(length)s characters long; use at most %(max)s.",
            length=format_number(params.get("length")),
            max=format_number(params.get("max")),
        ),
        "circle_name_control": lambda: _(
            "The circle's name contains a control or text-direction character; type it without."
        ),
        "members_list": lambda: _(
            "List the members' names (at most %(max)s).", max=format_number(params.get("max"))
        ),
        "members_full": lambda: _(
            "A circle has at most %(max)s members: this one has %(count)s, "
            "and this would add %(adding)s.",
            max=format_number(params.get("max")),
            count=format_number(params.get("count")),
            adding=format_number(params.get("adding")),
        ),
        "member_colour": lambda: _("A colour is written like #1e88e5."),
        "member_emoji": lambda: _("An emoji is one short symbol, such as 🂡."),
        "member_exists": lambda: _("The circle already has a player called %(name)s.", name=name),
        "member_unknown": lambda: _("That player is not a member of this circle."),
        "member_twice": lambda: _("Each seat needs a different player."),
        "seats_count": lambda: _("Say who sat at each of the four seats."),
        "game_in_circle": lambda: (
            _("This game is already in this circle.")
            if params.get("same")
            else _("This game already belongs to another circle.")
        ),
        "game_not_in_circle": lambda: _("This game is not in this circle."),
        "game_link": lambda: _(
            "Paste the game's edit link (it ends with /join/ and a long code), "
            "or pick one of your games."
        ),
        "backup_circle": lambda: _("This file is not a circle's backup."),
        "ratings_flag": lambda: _("“ratings” must be true or false."),
        "unknown_field": lambda: _(
            "A circle has a name, members, ratings and rules; nothing else can be sent."
        ),
    }
    make = words.get(code)
    return make() if make else _("This request could not be answered.")
