"""A claim the pool cannot judge now: its refusal, as a page or as the API's JSON."""

from __future__ import annotations

import logging

from flask import Flask

from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.disputes.pool import ClaimUnavailable
from scorekeeper.web.errors import Answer, error_body, error_page, error_response, is_api_request

log = logging.getLogger(__name__)

CLAIM_TITLE = _l("The claim cannot be judged now")
CLAIM_MESSAGES = {
    "client": _l(
        "Claims sent from this address are already being judged. Nothing was decided; "
        "wait for their answers, then send this claim again."
    ),
    "game": _l(
        "A claim for this game is already being judged. Nothing was decided; "
        "wait for its answer, then send this claim again."
    ),
    "busy": _l(
        "Every place for judging claims is taken right now. Nothing was decided; "
        "send the claim again in a few seconds."
    ),
    "cancelled": _l("The claim was stopped before it was judged. Nothing was decided."),
    "failed": _l("The claim could not be judged. Nothing was decided; try again."),
}


def claim_unavailable(error: ClaimUnavailable) -> Answer:
    """429 when this client or game has a claim in the pool, 503 when the server is full;
    ``Retry-After`` is the pool's own (when a place should come free)."""
    status = 429 if error.reason in ("client", "game") else 503
    log.warning("%d (claim %s)", status, error.reason)
    headers = {"Retry-After": str(error.retry_after), "Cache-Control": "no-store"}
    message = str(CLAIM_MESSAGES.get(error.reason, CLAIM_MESSAGES["failed"]))
    if is_api_request():
        body, _status = error_response(status, [error_body(message)])
        return body, status, headers
    return error_page(status, CLAIM_TITLE, message), status, headers


def register_errors(app: Flask) -> None:
    app.register_error_handler(ClaimUnavailable, claim_unavailable)
