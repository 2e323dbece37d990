"""The language, digits and theme switches, and what every page learns of them.

``/lang/<code>`` and ``/digits/<system>`` switch (a GET with a same-origin
``next``, or a POST with the CSRF token) and go back where the player was; an
explicit ``?lang=`` / ``?digits=`` is remembered in its cookie for a year.
The words themselves, and how the request's language is chosen, are in
:mod:`scorekeeper.text.locale`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, abort, has_request_context, redirect, request
from flask_babel import refresh
from jinja2 import pass_context
from jinja2.runtime import Context
from werkzeug.wrappers import Response

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.text.locale import (
    DEFAULT_LOCALE,
    DIGIT_SAMPLES,
    DIGITS_COOKIE,
    LANG_COOKIE,
    SUPPORTED_LOCALES,
    babel,
    bdi,
    current_digits,
    current_locale,
    format_number,
    isolate,
    localize_digits,
    ltr,
    select_locale,
    supported_digits,
    supported_locale,
    template_gettext,
    template_ngettext,
    text_direction,
)

COOKIE_MAX_AGE = 365 * 24 * 60 * 60
THEME_COOKIE = "theme"
THEMES = ("auto", "light", "dark")
"""``auto`` follows the phone's setting (``prefers-color-scheme``); the others override it."""


bp = Blueprint("i18n", __name__)


def per_render(function: Callable[..., str]) -> Callable[..., str]:
    """``function`` as a template filter that runs at every render.

    Jinja folds a filter applied to a constant (``{{ 13|num }}``) into the compiled
    template, and templates are compiled once per server, before any request. A filter
    that reads the request's language or digits must not be folded: it would print
    every page's number in the digits of the first render, whatever the reader chose.
    Jinja never folds a filter that asks for the render's context.
    """

    @pass_context
    def filter_(_context: Context, *args: Any, **kwargs: Any) -> str:
        return function(*args, **kwargs)

    return filter_


def init_app(app: Flask) -> None:
    """Flask-Babel with the catalogues in ``translations/``, the selector and the switch."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(PROJECT_ROOT / "translations"))
    babel.init_app(app, locale_selector=select_locale)
    # Jinja's "new style" gettext (placeholders filled and escaped by the call), with card
    # codes and signed numbers kept left to right inside right-to-left sentences
    # (isolate()). Installed as plain functions: Jinja's own wrappers add two calls
    # through the template context to each of the page's dozens of texts.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=template_gettext, ngettext=template_ngettext, newstyle=True
    )
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext)
    app.jinja_env.globals.update(ngettext=template_ngettext)
    app.jinja_env.filters.update(bdi=bdi, bidi=isolate, ltr=ltr, num=per_render(format_number))
    # A number typed in a box, shown again in the page's digits (the server reads either).
    app.jinja_env.filters.update(typed_digits=per_render(localize_digits))
    # Flask-Babel caches the locale on ``g``; a request that shares an app context
    # (tests, streamed responses) must still choose its own.
    app.before_request(refresh)
    app.register_blueprint(bp)
    app.context_processor(template_context)
    app.after_request(remember_choices)


def digits_url(system: str) -> str:
    """The switch to digits ``system`` (``latn`` or ``arab``), coming back to this page."""
    from flask import url_for

    return url_for("i18n.set_digits", system=system, next=_this_page())


def _this_page() -> str:
    """Where a switch comes back to: this page's path and query."""
    return request.full_path.rstrip("?") if has_request_context() else "/"


def language_url(code: str) -> str:
    """The switch to language ``code``, coming back to this page."""
    from flask import url_for

    return url_for("i18n.set_language", code=code, next=_this_page())


def template_context() -> dict[str, Any]:
    locale = current_locale()
    return {
        "current_locale": locale,
        "text_direction": text_direction(locale),
        "supported_locales": [
            {"code": code, "name": name} for code, name in SUPPORTED_LOCALES.items()
        ],
        "digits": current_digits(),
        "digit_samples": DIGIT_SAMPLES,
        "theme": current_theme(),
        "themes": THEMES,
        "theme_url": theme_url,
        "format_number": format_number,
        "language_url": language_url,
        "digits_url": digits_url,
    }


def remember_choices(response: Response) -> Response:
    """Keep an explicit ``?lang=`` / ``?digits=`` in its cookie; say what the page varies on."""
    lang = supported_locale(request.args.get("lang"))
    if lang and request.cookies.get(LANG_COOKIE) != lang:
        _set_cookie(response, LANG_COOKIE, lang)
    digits = supported_digits(request.args.get("digits"))
    if digits and request.cookies.get(DIGITS_COOKIE) != digits:
        _set_cookie(response, DIGITS_COOKIE, digits)
    if request.endpoint != "static":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def _set_cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        secure=request.is_secure,
        httponly=True,
    )


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else ``/`` (no open redirects).

    >>> [safe_next(t) for t in ("/games/x?y=1", "//evil.example", "https://evil.example/", None)]
    ['/games/x?y=1', '/', '/', '/']
    """
    if not target or any(ord(ch) < 32 for ch in target) or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        same = has_request_context() and parts.netloc == request.host
        if not same or parts.scheme not in ("http", "https"):
            return "/"
        target = parts.path + (f"?{parts.query}" if parts.query else "")
    if not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


def _back(name: str, value: str) -> Response:
    target = request.values.get("next") or request.referrer
    response = redirect(safe_next(target), 303 if request.method == "POST" else 302)
    _set_cookie(response, name, value)
    return response


@bp.route("/lang/<code>", methods=["GET", "POST"])
def set_language(code: str) -> Response:
    """Switch the language (remembered in the ``lang`` cookie) and go back to ``next``."""
    lang = supported_locale(code)
    if lang is None:
        abort(404)
    return _back(LANG_COOKIE, lang)


def current_theme() -> str:
    """The theme this browser chose (the ``theme`` cookie), ``auto`` if none."""
    chosen = request.cookies.get(THEME_COOKIE, "auto") if has_request_context() else "auto"
    return chosen if chosen in THEMES else "auto"


def theme_url(theme: str) -> str:
    """The switch to ``theme``, coming back to this page."""
    from flask import url_for

    return url_for("i18n.set_theme", theme=theme, next=_this_page())


@bp.route("/theme/<theme>", methods=["GET", "POST"])
def set_theme(theme: str) -> Response:
    """Switch between light, dark and the phone's own setting (the ``theme`` cookie)."""
    if theme not in THEMES:
        abort(404)
    return _back(THEME_COOKIE, theme)


@bp.route("/digits/<system>", methods=["GET", "POST"])
def set_digits(system: str) -> Response:
    """Switch the digits (``latn`` or ``arab``, the ``digits`` cookie) and go back to ``next``."""
    chosen = supported_digits(system)
    if chosen is None:
        abort(404)
    return _back(DIGITS_COOKIE, chosen)
