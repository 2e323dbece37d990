#!/usr/bin/env bash
# Extract every translatable text (Python: gettext, lazy_gettext, N_() and the engine's
# sentences in scorekeeper/rules/sentences.py; the Jinja templates) into translations/messages.pot,
# with the "Translators:" comments, then add the new msgids to each language's .po
# (msgstr left empty for the translators; no fuzzy guesses).
#   bash scripts/extract_messages.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV="${VENV:-.venv}"
"$VENV/bin/pybabel" extract -F babel.cfg -k N_ -k _l -k lazy_gettext -c "Translators:" \
    --project=scorekeeper --version="$("$VENV/bin/python" -c \
        'import importlib.metadata as m; print(m.version("scorekeeper"))')" \
    --sort-by-file -o translations/messages.pot .
"$VENV/bin/pybabel" update -d translations -i translations/messages.pot --no-fuzzy-matching
