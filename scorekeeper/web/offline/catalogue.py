"""The engine's message templates in one language, as JSON for the phone's worker.

The worker says a refusal with the very templates the server uses
(:mod:`scorekeeper.rules.sentences`), filled in by the same code
(:mod:`scorekeeper.web.offline.phone`); this gives it their translations: each
template's msgid with its text (a list of forms for a plural), and the
language's plural rule.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel.support import Translations

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.rules.sentences import JOINING, MESSAGES, Plural

DEFAULT_PLURAL = "(n != 1)"


@cache
def catalogue(language: str) -> dict[str, Any]:
    """``{"language", "plural", "messages": {msgid: text | [forms]}}`` (English: empty texts)."""
    translations = Translations.load(str(PROJECT_ROOT / "translations"), [language])
    found: dict[Any, str] = getattr(translations, "_catalog", {})
    texts: dict[str, Any] = {}
    for template in [*MESSAGES.values(), *JOINING]:
        if isinstance(template, Plural):
            keys = [(template.singular, i) for i in range(6)]
            forms = [found[key] for key in keys if key in found]
            if forms:
                texts[template.singular] = forms
        elif found.get(template):
            texts[template] = found[template]
    return {"language": language, "plural": plural_rule(translations), "messages": texts}


def plural_rule(translations: object) -> str:
    """The C expression of the catalogue's ``Plural-Forms`` header (``(n != 1)`` if none)."""
    header = getattr(translations, "_info", {}).get("plural-forms", "")
    _, _, rule = header.partition("plural=")
    return rule.strip().rstrip(";") or DEFAULT_PLURAL
