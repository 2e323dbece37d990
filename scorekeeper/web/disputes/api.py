"""The API's checks without a game (API.md ``POST /api/v1/check/<kind>``): the dispute
desk's rulings (a deal, a play, a redeal, a claim) for any program.

A claim (``check/claim``) is searched outside the request thread, in the claim
pool, within its limits (a 429 or 503 beyond them).

Every error under /api/ is answered in the API's error format by the one error
path (:mod:`scorekeeper.web.errors`), in the request's language (``?lang=``, the
``lang`` cookie or ``Accept-Language``); ``code``, ``rule`` and ``field`` stay the same.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request

from scorekeeper.rules.checks import CHECKS
from scorekeeper.text.disputes import claim_sentence
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.disputes import pool
from scorekeeper.web.server import workers
from scorekeeper.web.server.api_io import json_body

bp = Blueprint("api", __name__)


def judge_claim(body: dict[str, Any]) -> dict[str, Any]:
    """A claim is searched in the claim pool (:mod:`scorekeeper.web.disputes.pool`) while this
    thread waits; a client that closes its connection stops the search."""
    sock = request.environ.get("gunicorn.socket")
    wanted = workers.peer_still_there(sock) if sock is not None else None
    return pool.judge(body, pool.app_limits(), pool.client_address(), wanted)


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
