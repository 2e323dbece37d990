"""The JSON API (docs/API.md), mounted at /api/v1.

Every error under /api/ is answered in the API's error format, never HTML:
``{"ok": false, "errors": [{"rule": null, "field": null, "message": "..."}]}``.
Messages are in the request's language (``?lang=``, the ``lang`` cookie or
``Accept-Language``, as on the pages); ``code``, ``rule`` and ``field`` stay the same.
"""

from __future__ import annotations

import contextlib
from typing import Any, NoReturn

from flask import Blueprint, Response, abort, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper.extensions import db
from scorekeeper.rules.checks import CHECKS
from scorekeeper.rules.errors import RulesError
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import translate_error

bp = Blueprint("api", __name__)

API_PREFIX = "/api/"

# Werkzeug's stock descriptions talk to web developers; these talk to players.
MESSAGES = {
    400: _l("The request could not be understood."),
    401: _l("This needs the game's edit token."),
    403: _l("This edit token does not belong to this game."),
    404: _l("There is nothing at this address."),
    405: _l("This address does not accept %(method)s requests."),
    409: _l("This request conflicts with the game's current state."),
    412: _l("The game has changed since you loaded it; reload and try again."),
    413: _l("The request body is too large."),
    415: _l("The request body must be JSON."),
    422: _l("The request breaks a rule of the game."),
    429: _l("Too many requests from this address; wait a minute and try again."),
    500: _l("Something went wrong on our side; nothing was saved."),
}
OTHER = _l("This request could not be answered.")


def is_api_request() -> bool:
    """Whether the current request is for the JSON API (and wants JSON errors)."""
    return request.path.startswith(API_PREFIX)


def error_body(message: str, rule: str | None = None, field: str | None = None) -> dict[str, Any]:
    """One entry of the ``errors`` list."""
    return {"rule": rule, "field": field, "message": message}


def error_response(status: int, errors: list[dict[str, Any]]) -> tuple[Response, int]:
    """The API's error answer: ``{"ok": false, "errors": [...]}`` with ``status``."""
    return jsonify(ok=False, errors=errors), status


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 answer if it is anything else.

    The Content-Type is not required to be application/json. A body nested
    too deeply for the JSON decoder is a 400 as well, not a crash.
    """
    try:
        data = request.get_json(force=True, silent=True)
    except RecursionError:
        _bad_request(_("The request body is nested too deeply."))
    if not isinstance(data, dict):
        _bad_request(_("The request body must be a JSON object."))
    return data


def _bad_request(message: str) -> NoReturn:
    abort(400, description=message)


def _message(exc: HTTPException) -> str:
    code = exc.code or 500
    stock = type(exc).description
    if exc.description and exc.description != stock and code != 500:
        return str(exc.description)
    default = str(MESSAGES.get(code, OTHER))
    return default % {"method": request.method} if code == 405 else default


@bp.app_errorhandler(HTTPException)
def handle_http_exception(exc: HTTPException) -> WerkzeugResponse | HTTPException:
    """JSON for /api/ paths (routing errors included); the stock page elsewhere.

    Registered app-wide, because a 404 or 405 from routing happens before any
    blueprint is known. An HTML error handler registered elsewhere for a
    specific code must defer to this one when ``is_api_request()``.
    """
    if not is_api_request():
        return exc
    code = exc.code or 500
    if code >= 500:
        with contextlib.suppress(Exception):  # answer in JSON even if the DB is gone
            db.session.rollback()
    response = exc.get_response()  # keeps headers such as Allow
    body, _status = error_response(code, [error_body(_message(exc))])
    response.set_data(body.get_data())
    response.content_type = body.content_type
    return response


@bp.app_errorhandler(RulesError)
def handle_rules_error(error: RulesError) -> tuple[Response, int]:
    """The one place an engine refusal becomes an answer: its status, its problems.

    Pages catch ``RulesError`` themselves to show it beside the form fields, so
    one reaching this handler comes from the API; the session is rolled back
    because nothing of a refused request may be written.
    """
    with contextlib.suppress(Exception):
        db.session.rollback()
    return error_response(error.status, translate_error(error))  # in the request's language


@bp.post("/check/<kind>")
def check(kind: str) -> Response:
    """``/check/deal``, ``/check/play``, ``/check/redeal`` (API.md): the engine's checks."""
    run = CHECKS.get(kind)
    if run is None:
        allowed = ", ".join(sorted(CHECKS))
        message = _(
            "There is no “%(kind)s” check; use one of %(allowed)s.", kind=kind, allowed=allowed
        )
        abort(404, description=message)
    return jsonify(run(json_body()))
