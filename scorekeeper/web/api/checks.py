"""The API's checks without a game (API.md ``POST /api/v1/check/<kind>``), and reading
a request's JSON body and an uploaded JSON file (bearer tokens are
:mod:`scorekeeper.web.access`'s).

A claim (``check/claim``) is searched outside the request thread, in the claim
pool, within its limits (a 429 or 503 beyond them).

Every error under /api/ is answered in the API's error format by the one error
path (:mod:`scorekeeper.web.errors`), in the request's language (``?lang=``, the
``lang`` cookie or ``Accept-Language``); ``code``, ``rule`` and ``field`` stay the same.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from flask import Blueprint, Response, abort, jsonify, request

from scorekeeper.rules.checks import CHECKS
from scorekeeper.store.input import check_storable
from scorekeeper.text.disputes import claim_sentence
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.disputes import pool
from scorekeeper.web.server import workers

bp = Blueprint("api", __name__)


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 answer if it is anything else.

    The Content-Type is not required to be application/json. A body nested
    too deeply for the JSON decoder is a 400 as well, not a crash.
    """
    try:
        data = request.get_json(force=True, silent=True)
    except RecursionError:
        data = None
        too_deep = True
    else:
        too_deep = nesting(data) > MAX_NESTING
    if too_deep:  # no request needs it, and a solver process could not decode it again
        _bad_request(_("The request body is nested too deeply."))
    if not isinstance(data, dict):
        _bad_request(_("The request body must be a JSON object."))
    check_storable(data)  # JSON may spell a lone surrogate (\udfff) or a NUL: 422, naming it
    return data


MAX_NESTING = 32
"""Levels of lists and objects a request may nest (the deepest one the API reads has 4;
a circle's backup file, 10)."""


def json_file(raw: bytes) -> object:
    """An uploaded file's JSON (a backup); :class:`ValueError` when it is not JSON in UTF-8,
    or nests deeper than :data:`MAX_NESTING` (too deep for the decoder, or for the checks
    that walk it, is refused like any file that is not a backup: never a crash)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError("not JSON in UTF-8") from None
    if nesting(data) > MAX_NESTING:
        raise ValueError("nested too deeply")
    return data


def nesting(data: object) -> int:
    """How deeply lists and objects nest in ``data``, counted without recursion.

    >>> nesting(1), nesting([]), nesting({"a": [[1], {"b": []}]})
    (0, 1, 4)
    """
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth)
            stack.extend((item, depth + 1) for item in value)
    return deepest


def judge_claim(body: dict[str, Any]) -> dict[str, Any]:
    """A claim is searched in the claim pool (:mod:`scorekeeper.web.disputes.pool`) while this
    thread waits; a client that closes its connection stops the search."""
    sock = request.environ.get("gunicorn.socket")
    wanted = workers.peer_still_there(sock) if sock is not None else None
    return pool.judge(body, pool.app_limits(), pool.client_address(), wanted)


def _bad_request(message: str) -> NoReturn:
    abort(400, description=message)


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
    body = json_body()
    answer = judge_claim(body) if kind == "claim" else run(body)
    if "verdict" in answer:  # a claim's sentence, like every other message: the reader's language
        answer["message"] = claim_sentence(answer["verdict"])
    return jsonify(answer)
