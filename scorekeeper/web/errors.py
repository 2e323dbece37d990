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

from scorekeeper import api
from scorekeeper.extensions import db
from scorekeeper.web import bp

TITLES = {
    400: "This form could not be used",
    403: "This game is read-only here",
    404: "Page not found",
    405: "Not allowed here",
    413: "Too much to send",
    429: "Too many requests",
    500: "Something went wrong",
}
MESSAGES = {
    400: "The request could not be understood. Go back, reload the page and try again.",
    403: "You can follow this game, but you cannot change it from this browser.",
    404: "There is nothing at this address.",
    405: "This address cannot be used this way. Go back and use the buttons on the page.",
    413: "What was sent is far larger than any form of this app, so nothing was saved.",
    429: "Too many requests came from this address in a short time. Wait a minute and try again.",
    500: "Something went wrong on our side, and nothing was saved. Go back and try again.",
}
CSRF_MESSAGE = (
    "This form was sent without a valid security token (perhaps the page was open for "
    "too long, or cookies are off), so nothing was saved. Go back, reload the page and "
    "enter it again."
)


def _page(exc: HTTPException, message: str | None = None) -> tuple[str, int]:
    code = exc.code or 500
    stock = type(exc).description
    text = message or (exc.description if exc.description != stock else None)
    return render_template(
        "error.html",
        code=code,
        title=TITLES.get(code, exc.name),
        message=text or MESSAGES.get(code, exc.name + "."),
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
