"""The translation catalogues: complete, up to date with the sources, placeholders intact.

``test_every_msgid_is_translated`` fails until the translators have filled in
every ``msgstr`` of every language ("a test fails on a missing one").
The other tests hold at any time: the ``.pot`` is what ``scripts/extract_messages.sh``
extracts from the sources now, every ``.po`` has every msgid, and a translation
keeps the placeholders of its source text.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.text.messages import MESSAGES, Plural

LANGUAGES = ["ar", "es", "it", "pt", "ru"]
TRANSLATIONS = PROJECT_ROOT / "translations"
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "_l": None, "lazy_gettext": None}
"""What scripts/extract_messages.sh gives pybabel (-k N_ -k _l -k lazy_gettext)."""
METHODS = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{n\}")


@cache
def catalog(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def template() -> Catalog:
    return catalog(TRANSLATIONS / "messages.pot")


def po(language: str) -> Catalog:
    return catalog(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")


def msgids(messages: Catalog) -> set[str]:
    return {_first(m.id) for m in messages if m.id}


def _first(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def _strings(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def test_the_template_has_every_text_of_the_sources() -> None:
    """``messages.pot`` is up to date: run ``bash scripts/extract_messages.sh`` if not."""
    extracted = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            PROJECT_ROOT, METHODS, OPTIONS, KEYWORDS
        )
    }
    pot = msgids(template())
    assert not extracted - pot, f"not in messages.pot: {sorted(extracted - pot)[:10]}"
    assert not pot - extracted, f"stale in messages.pot: {sorted(pot - extracted)[:10]}"
    assert len(pot) > 700  # pages, forms, sheets and the engine's catalogue


def test_the_engine_catalogue_is_extracted() -> None:
    pot = msgids(template())
    for key, text in MESSAGES.items():
        assert (text.singular if isinstance(text, Plural) else text) in pot, key


def test_contract_names_carry_the_names_players_say() -> None:
    """The translators see the contracts' Arabic names and their transliterations."""
    notes = {
        "King of Hearts": ("شيخ الكبة", "Sheikh Koobbah"),
        "Queens": ("بنات", "Banat"),
        "Diamonds": ("ديناري", "Dinari"),
        "Collections": ("لطوش", "Ltoosh"),
        "Trix": ("تركس", "Trix"),
    }
    for msgid, words in notes.items():
        message = template()[msgid]
        assert message is not None, msgid
        comment = " ".join(message.auto_comments)
        assert comment.startswith("Translators:") and all(w in comment for w in words), msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_po_has_every_msgid(language: str) -> None:
    assert msgids(template()) <= msgids(po(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language: str) -> None:
    """A filled-in translation uses the same ``%(name)s`` (and ``{n}``) as its source."""
    wrong = []
    for message in po(language):
        if not message.id:
            continue
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        wanted = set().union(*(set(PLACEHOLDER.findall(s)) for s in sources))
        for text in filter(None, _strings(message)):
            found = set(PLACEHOLDER.findall(text))
            # A plural form may leave the number out ("one card"); nothing may be added.
            if found - wanted or (isinstance(message.id, str) and found != wanted):
                wrong.append(_first(message.id))
    assert not wrong, f"{language}: placeholders changed in {wrong[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_msgid_is_translated(language: str) -> None:
    """Every text of the app has a translation in ``language``, none of them fuzzy.

    Fails until the translators have filled in the catalogue.
    """
    catalogue = po(language)
    missing = []
    for msgid in sorted(msgids(template())):
        message = catalogue.get(msgid)
        if message is None or message.fuzzy or not all(_strings(message)):
            missing.append(msgid)
    assert not missing, (
        f"{language}: {len(missing)} of {len(msgids(template()))} texts have no translation "
        f"(or a fuzzy one), e.g. {missing[:5]}"
    )
