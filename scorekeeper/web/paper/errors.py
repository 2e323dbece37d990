"""A score sheet that cannot be rendered now: its refusal, as a page."""

from __future__ import annotations

import logging

from flask import Flask

from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.errors import Answer, error_page
from scorekeeper.web.paper.renderer import RETRY_AFTER_SECONDS as SHEET_RETRY_SECONDS
from scorekeeper.web.paper.renderer import SheetUnavailable

log = logging.getLogger(__name__)

SHEET_TITLE = _l("The sheet is not ready")
SHEET_MESSAGES = {
    "client": _l(
        "Sheets asked for from this address are being prepared right now. Your game is "
        "safe; wait for them, then ask for this one again."
    ),
    "busy": _l(
        "Many score sheets are being prepared right now. Your game is safe; "
        "try the sheet again in a few seconds."
    ),
    "timeout": _l(
        "The score sheet took too long to prepare and was stopped. Your game is safe; "
        "try again in a minute."
    ),
    "failed": _l("The score sheet could not be prepared. Your game is safe; try again."),
}


def sheet_unavailable(error: SheetUnavailable) -> Answer:
    """429 + ``Retry-After`` when this client's renders are all taken; 503 + ``Retry-After``
    when no render slot came free in time, or the render was cut off."""
    status = 429 if error.reason == "client" else 503
    log.warning("%d (sheet %s)", status, error.reason)
    headers = {"Retry-After": str(SHEET_RETRY_SECONDS), "Cache-Control": "no-store"}
    message = SHEET_MESSAGES.get(error.reason, SHEET_MESSAGES["failed"])
    return error_page(status, SHEET_TITLE, message), status, headers


def register_errors(app: Flask) -> None:
    app.register_error_handler(SheetUnavailable, sheet_unavailable)
