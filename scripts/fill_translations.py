"""Fill the catalogues' empty msgstrs from a JSON file of translations.

    .venv/bin/python scripts/fill_translations.py new.json
    .venv/bin/pybabel compile -f -d translations

The file maps each msgid to its texts, ``{"msgid": {"ar": "…", "es": "…", …}}`` (a
plural msgid maps each language to a list, one text per plural form). Run
``bash scripts/extract_messages.sh`` first, so that the new msgids are in the .po
files; the msgids still untranslated are listed, per language, at the end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

LANGUAGES = ("ar", "es", "it", "pt", "ru")
ROOT = Path(__file__).resolve().parent.parent


def fill(language: str, texts: dict[str, dict[str, object]]) -> list[str]:
    """Write ``texts`` into one language's catalogue; return the msgids still empty."""
    path = ROOT / "translations" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    missing = []
    for message in catalogue:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        given = texts.get(key, {}).get(language)
        if given is not None:
            message.string = tuple(given) if isinstance(message.id, tuple) else given
        elif not message.string or (isinstance(message.string, tuple) and not all(message.string)):
            missing.append(key)
    with path.open("wb") as handle:
        write_po(handle, catalogue, width=76)
    return missing


def main(files: list[str]) -> int:
    texts: dict[str, dict[str, object]] = {}
    for name in files:
        texts.update(json.loads(Path(name).read_text(encoding="utf-8")))
    untranslated = {language: fill(language, texts) for language in LANGUAGES}
    for language, missing in untranslated.items():
        for key in missing:
            print(f"{language}: untranslated: {key!r}")
    return 1 if any(untranslated.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
