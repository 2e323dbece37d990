"""Friendly HTML error pages; /api/ requests keep the API's JSON errors.

Handlers registered here for a specific status are more specific than the
API's app-wide ``HTTPException`` handler, so each one hands /api/ requests
back to it (``is_api_request()``).
"""

from __future__ import annotations

import contextlib

from flask import render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper.extensions import db
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.api import checks as api
from scorekeeper.web.blueprint import bp

TITLES = {
    400: _l("This form could not be used"),
    403: _l("This game is read-only here"),
    404: _l("Page not found"),
    405: _l("Not allowed here"),
    413: _l("Too much to send"),
    429: _l("Too many requests"),
    500: _l("Something went wrong"),
}
MESSAGES = {
    400: _l("The request could not be understood. Go back, reload the page and try again."),
    403: _l("You can follow this game, but you cannot change it from this browser."),
    404: _l("There is nothing at this address."),
    405: _l("This address cannot be used this way. Go back and use the buttons on the page."),
    413: _l("What was sent is far larger than any form of this app, so nothing was saved."),
    429: _l(
        "Too many requests came from this address in a short time. Wait a minute and try again."
    ),
    500: _l("Something went wrong on our side, and nothing was saved. Go back and try again."),
}
CSRF_MESSAGE = _l(
    "This form was sent without a valid security token (perhaps the page was open for "
    "too long, or cookies are off), so nothing was saved. Go back, reload the page and "
    "enter it again."
)
OTHER_TITLE = _l("This request could not be answered")
OTHER_MESSAGE = _l("This request could not be answered. Go back and try again.")


def _page(exc: HTTPException, message: object = None) -> tuple[str, int]:
    """The error page, in the request's language (Werkzeug's own words are not translated)."""
    code = exc.code or 500
    stock = type(exc).description
    text = message or (exc.description if exc.description != stock else None)
    return render_template(
        "error.html",
        code=code,
        title=str(TITLES.get(code, OTHER_TITLE)),
        message=str(text or MESSAGES.get(code, OTHER_MESSAGE)),
    ), code


@bp.app_errorhandler(CSRFError)
def csrf_error(exc: CSRFError) -> tuple[str, int] | WerkzeugResponse | HTTPException:
    if api.is_api_request():
        return api.handle_http_exception(exc)
    return _page(exc, CSRF_MESSAGE)


@bp.app_errorhandler(400)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
@bp.app_errorhandler(429)
def http_error(exc: HTTPException) -> tuple[str, int] | WerkzeugResponse | HTTPException:
    if api.is_api_request():
        return api.handle_http_exception(exc)
    return _page(exc)


@bp.app_errorhandler(500)
def server_error(exc: HTTPException) -> tuple[str, int] | WerkzeugResponse | HTTPException:
    if api.is_api_request():
        return api.handle_http_exception(exc)
    with contextlib.suppress(Exception):  # the page must render even if the DB is gone
        db.session.rollback()
    return _page(exc, MESSAGES[500])
