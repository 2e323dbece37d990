"""Rendered pieces of pages kept between requests: ``{% call cached(...) %}…{% endcall %}``.

A game page is mostly things that did not change since the last deal: the
rows of the deals already played, the house rules, the share links, the
redeal form. Each of those is rendered once and kept under a key naming
everything it shows; recording a deal then renders only what is new (its
row, the totals, whose turn it is).

The key is the caller's (for a deal row: the game, the deal's number, its
contracts and scores) plus what every fragment depends on: the request's
language and digits, and the app's script root (links). A fragment must
not show anything that is not in its key — no CSRF token, no version, no
per-browser right — those stay outside the ``call`` block.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from flask import current_app, request
from flask.sansio.app import App
from markupsafe import Markup

from scorekeeper.store.cache import LRUCache
from scorekeeper.text.locale import current_digits, current_locale
from scorekeeper.web.language import current_theme

EXTENSION = "scorekeeper.fragments"
SIZE = 4096
"""Fragments kept per process: most are under 1 KB (a deal row), a kingdom about 4 KB,
so a few megabytes at most; enough for a few hundred games in play at once."""
LONGEST_KEY_TEXT = 300
"""Longer texts in a key (addresses anyone can make up) are not cached."""


class FragmentCache(LRUCache[Hashable, Markup]):
    """Rendered HTML by key (see the module doc), and the rule texts by language."""

    def __init__(self, size: int = SIZE) -> None:
        super().__init__(size)
        self.modules: dict[Hashable, Any] = {}
        """Template modules by (template, language, digits): see :func:`rule_texts`."""

    def get_or_render(self, key: Hashable, render: Callable[[], str]) -> Markup:
        return self.get_or_make(key, lambda: Markup(render()))

    def clear(self) -> None:
        super().clear()
        self.modules.clear()


def fragment_cache(app: App | None = None) -> FragmentCache:
    """The app's cache (each app its own: tests run many apps in one process)."""
    target = app or current_app
    cache: FragmentCache = target.extensions[EXTENSION]
    return cache


UNCACHED = object()
"""A key part that means "render this, but do not keep it"."""
ERROR_PAGE_KEY = "scorekeeper.error_page"


def this_address() -> object:
    """This page's path and query as a key part, or :data:`UNCACHED` for an address anyone
    can make up: a query string, an address no route knows, an error page (a game id that
    does not exist). Only real pages are kept, so made-up addresses cannot evict them."""
    if request.query_string or request.endpoint is None or request.environ.get(ERROR_PAGE_KEY):
        return UNCACHED
    return request.full_path


def cached(*key: Any, caller: Callable[[], str]) -> Markup:
    """The ``call`` block's HTML for ``key`` in this request's language and digits.

    Lists in the key (the players' names) count by their content. A key with a
    very long text in it (an odd address), or :data:`UNCACHED`, is rendered but not kept.
    """
    parts: list[Any] = []
    for part in key:
        if part is UNCACHED:
            return Markup(caller())
        if isinstance(part, str):
            if len(part) > LONGEST_KEY_TEXT:
                return Markup(caller())
        elif isinstance(part, list):
            part = tuple(part)
        parts.append(part)
    cache, where = _request_setting()
    return cache.get_or_render((where, *parts), caller)


def _request_setting() -> tuple[FragmentCache, tuple[str, ...]]:
    """The app's cache and what every fragment of this request depends on (asked once)."""
    environ = request.environ
    setting: tuple[FragmentCache, tuple[str, ...]] | None = environ.get(SETTING_KEY)
    if setting is None:
        # The header's theme switch shows the theme: one of three, whatever the cookie says.
        where = (current_locale(), current_digits(), request.script_root, current_theme())
        setting = environ[SETTING_KEY] = (fragment_cache(), where)
    return setting


SETTING_KEY = "scorekeeper.fragments"


def rule_texts() -> Any:
    """``templates/_rules.html`` as a module (``RULE_TEXT``, ``PRESET_TEXT``, …) in this language.

    Its dictionaries hold every house rule's words (about a hundred messages);
    they are translated once per language and digits, not on every page.
    """
    modules = fragment_cache().modules
    key = ("layout/rules.html", current_locale(), current_digits())
    texts = modules.get(key)
    if texts is None:
        texts = modules[key] = current_app.jinja_env.get_template("layout/rules.html").make_module()
    return texts


def init_app(app: App) -> None:
    app.extensions[EXTENSION] = FragmentCache()
    app.jinja_env.globals.update(cached=cached, rule_texts=rule_texts, this_address=this_address)
