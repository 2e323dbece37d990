"""Work each worker would otherwise repeat at its first requests, done once before the fork.

gunicorn loads the app in its master (``preload_app``) and forks the workers from
it: whatever the master has compiled or loaded, every worker has from its first
request, sharing the memory. Left to the workers, each compiled every template at
its first pages (about 0.8 s of CPU each, measured), all at once when a club night's
phones connect, and the tables' deals waited behind it. No database is touched
here: connections must not cross the fork.
"""

from __future__ import annotations

from flask import Flask
from flask_babel import force_locale, get_translations
from sqlalchemy.orm import configure_mappers

from scorekeeper.text.circles import decimal_number, grouped_number
from scorekeeper.text.locale import SUPPORTED_LOCALES

TEMPLATE_SUFFIXES = (".html", ".svg", ".txt", ".xml")


def warm_up(app: Flask) -> int:
    """Compile every page template, load every language and set up the database
    models' mappers (SQLAlchemy does it at the first query); the number of templates."""
    compiled = compile_templates(app)
    load_languages(app)
    configure_mappers()
    return compiled


def compile_templates(app: Flask) -> int:
    """Every template in Jinja's cache, compiled (it is large enough to keep them all)."""
    env = app.jinja_env
    names = env.list_templates(filter_func=lambda name: name.endswith(TEMPLATE_SUFFIXES))
    if env.cache is not None and getattr(env.cache, "capacity", len(names)) < len(names):
        raise RuntimeError(f"Jinja's template cache holds fewer than the {len(names)} templates")
    for name in names:
        env.get_template(name)
    return len(names)


def load_languages(app: Flask) -> None:
    """Each language's catalogue (Flask-Babel keeps it) and its number formats (Babel's
    locale data, kept by Babel)."""
    with app.test_request_context():
        for code in SUPPORTED_LOCALES:
            with force_locale(code):
                get_translations()  # not the request's memo: each language's own
            grouped_number(1234, code, "latn")
            decimal_number(0.5, code, "latn")
