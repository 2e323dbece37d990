"""Languages and digits: Flask-Babel's words, the locale selector and how numbers read.

The language of a request is, in order: an explicit ``?lang=xx`` (then
remembered in the ``lang`` cookie for a year), the ``lang`` cookie, the best
match of the browser's ``Accept-Language`` among :data:`SUPPORTED_LOCALES`
(``ar-JO`` → ``ar``, ``pt-BR`` → ``pt``), else English. The switches
(``/lang/<code>``, ``/digits/<system>``) are in :mod:`scorekeeper.web.language`.

Digits are a separate setting (``?digits=``, the ``digits`` cookie,
``/digits/<system>``): ``latn`` (0123, the default in every language) or
``arab`` (Arabic-Indic ٠١٢٣). Western digits are the default in Arabic too:
they are what Levantine players' phones type into the score fields and what
the card ranks (2–10) are printed with, so a score sheet that shows the same
digits as the keyboard and the cards reads as one; players used to ٠١٢٣ on
paper switch once and the cookie keeps it.

Templates get ``current_locale``, ``text_direction`` (``rtl`` for Arabic),
``supported_locales`` (code and native name), ``digits``,
``format_number(n)``, ``language_url(code)`` and ``digits_url(system)``
(:func:`scorekeeper.web.language.template_context`).

Right to left, card codes (``K♥``, ``10♦``) and signed numbers (``−75``,
``+200``) would be reordered by the bidi algorithm inside Arabic sentences
(``75−``, ``♥K``); :func:`isolate` keeps each of them left to right with
Unicode isolates (LRI … PDI). The templates' ``_()`` and ``ngettext()`` apply
it to every translated sentence, the ``score`` filter to every score, and the
``bidi`` filter to sentences made in Python (flash messages, errors). Players'
names are user data: templates set them apart with the ``bdi`` filter
(``<bdi>Rana</bdi>``), so a name never reorders the sentence around it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from flask import has_request_context, request
from flask_babel import Babel, get_locale, get_translations
from flask_babel.speaklater import LazyString
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

SUPPORTED_LOCALES: dict[str, str] = {
    "en": "English",
    "ar": "العربية",
    "es": "Español",
    "it": "Italiano",
    "pt": "Português",
    "ru": "Русский",
}
"""Each language the app speaks, by code, with its name in that language; English first."""

DEFAULT_LOCALE = "en"
RTL_LOCALES = frozenset({"ar"})
DIGIT_SYSTEMS = ("latn", "arab")
"""``latn``: 0123456789; ``arab``: Arabic-Indic ٠١٢٣٤٥٦٧٨٩ (CLDR numbering system names)."""
DEFAULT_DIGITS = "latn"

LANG_COOKIE = "lang"
DIGITS_COOKIE = "digits"

_ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
MINUS = "−"
"""A real minus sign (U+2212) in both digit systems: CLDR's Arabic ALM + hyphen-minus reads
as a dash on a score sheet; scores are isolated left to right (:func:`isolate`), so the
sign stays before the digits."""
DIGIT_SAMPLES = {"latn": "0123", "arab": "٠١٢٣"}
"""How each digit system shows itself in the digits switch."""

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
BIDI_CONTROLS = str.maketrans(
    dict.fromkeys(
        map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    )
)
"""Unicode's Bidi_Control characters, dropped from a name before it is isolated: a PDI
inside the name would close its isolate early (new names cannot hold them; older ones may)."""
"""Unicode's LEFT-TO-RIGHT ISOLATE, FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE."""
_LEFT_TO_RIGHT = re.compile(
    r"(?<![0-9A-Za-z٠-٩♠♥♦♣])"
    r"(?:(?:10|[2-9TJQKA])[♠♥♦♣]|[−+](?:[0-9٠-٩][0-9٠-٩.,٫٬]*|[.٫][0-9٠-٩]+))"
)
"""Card codes (K♥, 10♦) and signed numbers, in either digits (−75, +200, −١٢٠, +.75).

Not inside a Latin word or number ("AK♥" is no card, the "0♦" of "10♦" neither), but
right after an Arabic letter: Arabic joins "and" and "to" to the next word ("وA♥",
"لـK♥"), and such a card, not isolated, would read "♥A"."""

T = TypeVar("T")

babel = Babel()


def gettext(message: str, /, **variables: Any) -> str:
    """``message`` in the request's language (Flask-Babel's ``gettext``, typed), its own
    numbers in the request's digits (:func:`localize_sentence`).

    The catalogue is looked up once per request (:func:`translations`).
    """
    text = localize_sentence(str(translations().ugettext(message)))
    if not variables:
        return text
    text, variables = whole_numbers_in_digits(text, variables)
    return text % variables


def ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> str:
    """The form of the message for ``num`` in the request's language (``%(num)d`` is ``num``)."""
    variables.setdefault("num", num)
    text = localize_sentence(str(translations().ungettext(singular, plural, num)))
    text, variables = whole_numbers_in_digits(text, variables)
    return text % variables


def lazy_gettext(message: str, /, **variables: Any) -> Any:
    """A message translated when it is shown (for texts set at import time)."""
    return LazyString(gettext, message, **variables)


@pass_eval_context
def template_gettext(context: EvalContext, message: str, /, **variables: Any) -> str:
    """``_("…", name=…)`` in templates: translated, its numbers in the page's digits,
    isolated, then filled in (escaped)."""
    text = isolate(localize_sentence(translations().ugettext(message)))
    text, variables = whole_numbers_in_digits(text, variables)
    return (Markup(text) if context.autoescape else text) % variables


@pass_eval_context
def template_ngettext(
    context: EvalContext, singular: str, plural: str, num: int, /, **variables: Any
) -> str:
    """``ngettext(…)`` in templates: the form for ``num`` (``%(num)s``), filled in likewise."""
    variables.setdefault("num", num)
    text = isolate(localize_sentence(translations().ungettext(singular, plural, num)))
    text, variables = whole_numbers_in_digits(text, variables)
    return (Markup(text) if context.autoescape else text) % variables


# --- choosing ----------------------------------------------------------------------------


def supported_locale(code: object) -> str | None:
    """``code`` as a supported locale (``pt-BR`` → ``pt``), or None.

    >>> supported_locale("pt_BR"), supported_locale("AR"), supported_locale("fr")
    ('pt', 'ar', None)
    """
    if not isinstance(code, str):
        return None
    primary = code.strip().replace("_", "-").split("-")[0].lower()
    return primary if primary in SUPPORTED_LOCALES else None


def select_locale() -> str:
    """The request's language: ``?lang``, then the cookie, then ``Accept-Language``, then en."""
    if not has_request_context():
        return DEFAULT_LOCALE
    chosen = supported_locale(request.args.get("lang")) or supported_locale(
        request.cookies.get(LANG_COOKIE)
    )
    if chosen:
        return chosen
    best = request.accept_languages.best_match(list(SUPPORTED_LOCALES))
    return best or DEFAULT_LOCALE


def _memo(key: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per request: a page asks for its language hundreds of times."""
    memo: dict[str, Any] = request.environ.setdefault(MEMO_KEY, {})
    try:
        return memo[key]  # type: ignore[no-any-return]
    except KeyError:
        value = memo[key] = compute()
        return value


MEMO_KEY = "scorekeeper.text.locale"


def translations() -> Any:
    """Flask-Babel's catalogue for this request (looked up once per request)."""
    if not has_request_context():
        return get_translations()
    return _memo("translations", get_translations)


def current_locale() -> str:
    """The language of this request (``en`` outside one)."""
    if not has_request_context():
        return DEFAULT_LOCALE
    return _memo("locale", _locale_of_request)


def _locale_of_request() -> str:
    locale = get_locale()
    return DEFAULT_LOCALE if locale is None else supported_locale(str(locale)) or DEFAULT_LOCALE


def text_direction(locale: str | None = None) -> str:
    """``rtl`` for Arabic, else ``ltr``."""
    return "rtl" if (locale or current_locale()) in RTL_LOCALES else "ltr"


def supported_digits(system: object) -> str | None:
    return system if isinstance(system, str) and system in DIGIT_SYSTEMS else None


def current_digits() -> str:
    """``?digits``, then the ``digits`` cookie, then :data:`DEFAULT_DIGITS` (see the module doc)."""
    if not has_request_context():
        return DEFAULT_DIGITS
    return _memo("digits", _digits_of_request)


def _digits_of_request() -> str:
    return (
        supported_digits(request.args.get("digits"))
        or supported_digits(request.cookies.get(DIGITS_COOKIE))
        or DEFAULT_DIGITS
    )


def format_number(value: int | None, digits: str | None = None) -> str:
    """A number for people: a real minus sign, in the chosen digits; ``""`` for None.

    >>> format_number(-75, "latn"), format_number(-120, "arab"), format_number(None)
    ('−75', '−١٢٠', '')
    """
    if value is None:
        return ""
    system = digits or current_digits()
    text = str(abs(value))
    if system == "arab":
        text = text.translate(_ARABIC_INDIC)
    return MINUS + text if value < 0 else text


def isolate(text: str) -> str:
    """In right-to-left pages, card codes and signed numbers isolated left to right.

    ``Markup`` stays ``Markup`` (the isolates are not HTML); other pages get ``text`` as is.

    >>> isolate("K♥ −75") == "K♥ −75"  # outside a request: left to right
    True
    """
    if not text or text_direction() != "rtl":
        return text
    isolated = _LEFT_TO_RIGHT.sub(lambda m: LRI + m.group(0) + PDI, str(text))
    return Markup(isolated) if isinstance(text, Markup) else isolated


def ltr(text: str) -> str:
    """A whole run kept left to right (a date, an id) when the page is right to left."""
    return f"{LRI}{text}{PDI}" if text and text_direction() == "rtl" else text


def isolate_name(name: str) -> str:
    """A name inside a plain-text sentence, isolated (FSI … PDI), in every language: an
    Arabic name reorders the numbers after it in an English sentence too.

    For sentences that are not HTML (flash messages, the live banner's JSON, the API's
    messages); in templates use the ``bdi`` filter.

    >>> isolate_name("\u202eSami") == FSI + "Sami" + PDI
    True
    """
    return f"{FSI}{str(name).translate(BIDI_CONTROLS)}{PDI}"


def bdi(value: object) -> Markup:
    """A name (user data) set apart from the sentence around it: ``<bdi>Rana</bdi>``.

    >>> bdi("<Sami>")
    Markup('<bdi>&lt;Sami&gt;</bdi>')
    """
    return Markup("<bdi>%s</bdi>") % escape(value)


_TYPED_DIGITS = str.maketrans(
    {
        **{0x0660 + d: str(d) for d in range(10)},
        **{0x06F0 + d: str(d) for d in range(10)},
        0x066B: ".",  # ARABIC DECIMAL SEPARATOR
        0x2212: "-",  # MINUS SIGN, as the pages write it
    }
)


def latin_digits(text: str) -> str:
    """A number as typed, in the digits Python and the engine read: Arabic-Indic (U+0660–0669)
    and Eastern Arabic-Indic (U+06F0–06F9, Persian and Urdu keyboards) digits become 0–9, the
    Arabic decimal separator ٫ a point and a real minus sign a hyphen-minus. Any other
    character is kept, for the caller to refuse (``int()`` alone would take other scripts'
    digits too). The phone does the same (static/app.js ``latinDigits``).

    >>> latin_digits("١٣"), latin_digits("۱۲"), latin_digits("−٠٫٧٥"), latin_digits("12")
    ('13', '12', '-0.75', '12')
    """
    return text.translate(_TYPED_DIGITS)


WHOLE_NUMBER_SLOT = re.compile(r"%\((\w+)\)d")
"""A sentence's whole-number slot (``%(count)d``); its name is group 1."""


def whole_numbers_in_digits(text: T, variables: dict[str, Any]) -> tuple[T, dict[str, Any]]:
    """A sentence's whole-number slots (``%(count)d``) and their values in the request's
    digits (``format_number``), so that "Player %(number)d" reads "اللاعب ١" under the
    Arabic-Indic setting; in Latin digits, and for any other slot, nothing changes.

    >>> whole_numbers_in_digits("Trick %(n)d of %(of)s", {"n": 3, "of": 13})
    ('Trick %(n)d of %(of)s', {'n': 3, 'of': 13})
    """
    if current_digits() != "arab":
        return text, variables
    names = {
        name
        for name in WHOLE_NUMBER_SLOT.findall(str(text))
        if isinstance(variables.get(name), int) and not isinstance(variables[name], bool)
    }
    if not names:
        return text, variables

    def slot(match: re.Match[str]) -> str:
        return f"%({match.group(1)})s" if match.group(1) in names else match.group(0)

    shown = {k: format_number(v) if k in names else v for k, v in variables.items()}
    found = WHOLE_NUMBER_SLOT.sub(slot, str(text))
    return (Markup(found) if isinstance(text, Markup) else found), shown  # type: ignore[return-value]


def localize_digits(text: str, digits: str | None = None) -> str:
    """``text`` with its digits in the chosen system (dates, times).

    >>> localize_digits("2025-05-01", "arab")
    '٢٠٢٥-٠٥-٠١'
    """
    return text.translate(_ARABIC_INDIC) if (digits or current_digits()) == "arab" else text


_SENTENCE_NUMBER = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:+-]+|[A-Za-z_%#][A-Za-z0-9_.]*[A-Za-z0-9_]"
    r"|[0-9]+(?=[A-Za-z♠♥♦♣])|(?P<number>[0-9]+)"
)
"""A number on its own (``number``), else what stays as it is: an ISO time, a word that holds
digits (R9.7, U+202E, #1e88e5), a card's rank or an ordinal (10♦, 10D, 1st)."""


def localize_sentence(text: str, digits: str | None = None) -> str:
    """The numbers a sentence writes itself ("seats 1 and 3", "add up to 13") in the chosen
    digits; rule numbers (R9.7), cards (10♦, 10D) and other words that hold digits are kept.
    Fill the sentence in afterwards: its values are the caller's to format (``format_number``).

    >>> localize_sentence("Seats 1 و3, 10♦ and KH 10D (R9.7): %(count)s/13", "arab")
    'Seats ١ و٣, 10♦ and KH 10D (R9.7): %(count)s/١٣'
    >>> localize_sentence("Seats 1 and 3", "latn")
    'Seats 1 and 3'
    """
    if not text or (digits or current_digits()) != "arab":
        return text

    def one(match: re.Match[str]) -> str:
        number = match.group("number")
        return match.group(0) if number is None else number.translate(_ARABIC_INDIC)

    localized = _SENTENCE_NUMBER.sub(one, str(text))
    return Markup(localized) if isinstance(text, Markup) else localized


# --- remembering -------------------------------------------------------------------------
