"""Failures that are not bugs, answered clearly instead of as a 500.

- **The database is busy** (SQLite still locked after its busy timeout,
  PostgreSQL lock or deadlock timeouts, a full connection pool, a database
  that is briefly down): 503 with ``Retry-After``. The request's transaction
  was rolled back, so nothing was written and the same request can simply
  be sent again.
- **A score sheet that cannot be rendered now** (every render slot of the
  server busy, or a render cut off at its time limit:
  :mod:`scorekeeper.web.sheets.renderer`): 503 with ``Retry-After``.
- **A stored log that no longer replays** under the current rules engine
  (:class:`~scorekeeper.store.snapshot.UnreplayableLog`): 409, naming the entry. The
  game is left as it is and can still be exported.

Both are JSON under ``/api/`` (the API's error format) and an error page
elsewhere.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from flask import render_template
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from scorekeeper.extensions import db
from scorekeeper.store.snapshot import UnreplayableLog
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.api import checks as api
from scorekeeper.web.sheets.renderer import RETRY_AFTER_SECONDS as SHEET_RETRY_SECONDS
from scorekeeper.web.sheets.renderer import SheetUnavailable

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2
BUSY_MESSAGE = _l(
    "The game is busy: other phones are saving at this very moment. Nothing was saved; "
    "wait a second and send it again."
)
DOWN_MESSAGE = _l(
    "The score keeper cannot reach its database right now. Nothing was saved; "
    "try again in a moment."
)
BUSY_TITLE = _l("The game is busy")
DOWN_TITLE = _l("The database is out of reach")
UNREPLAYABLE_TITLE = _l("This game cannot be shown")
SHEET_TITLE = _l("The sheet is not ready")
SHEET_MESSAGES = {
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
LOCK_WORDS = ("database is locked", "database is busy", "lock timeout", "deadlock", "lock_not")


def init_app(app: Flask) -> None:
    """Register the handlers on ``app``."""
    app.register_error_handler(OperationalError, database_busy)
    app.register_error_handler(PoolTimeout, database_busy)
    app.register_error_handler(UnreplayableLog, unreplayable)
    app.register_error_handler(SheetUnavailable, sheet_unavailable)


def is_lock_error(error: Exception) -> bool:
    """Whether a database error is a lock that timed out (as opposed to a database down)."""
    if isinstance(error, PoolTimeout):
        return True
    text = str(getattr(error, "orig", None) or error).lower()
    return any(word in text for word in LOCK_WORDS)


def database_busy(error: Exception) -> Response | tuple[Response | str, int, dict[str, str]]:
    """503 + ``Retry-After``: the write waited too long for its lock, or the database is down."""
    _rollback()
    busy = is_lock_error(error)
    log.warning("503 (%s): %s", "busy" if busy else "database unreachable", error)
    message = str(BUSY_MESSAGE if busy else DOWN_MESSAGE)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    if api.is_api_request():
        body, status = api.error_response(503, [api.error_body(message)])
        return body, status, headers
    title = str(BUSY_TITLE if busy else DOWN_TITLE)
    return _page(503, title, message), 503, headers


def sheet_unavailable(error: SheetUnavailable) -> tuple[str, int, dict[str, str]]:
    """503 + ``Retry-After``: no render slot came free in time, or the render was cut off."""
    log.warning("503 (sheet %s)", error.reason)
    headers = {"Retry-After": str(SHEET_RETRY_SECONDS), "Cache-Control": "no-store"}
    message = str(SHEET_MESSAGES.get(error.reason, SHEET_MESSAGES["failed"]))
    return _page(503, str(SHEET_TITLE), message), 503, headers


def unreplayable(error: UnreplayableLog) -> tuple[Response | str, int]:
    """409: the stored game is refused by the current engine; nothing was written."""
    _rollback()
    log.error("game %s: %s", error.game_id, error.__cause__ or error)
    field = "rules" if error.position is None else f"log.{error.position}"
    if api.is_api_request():
        return api.error_response(409, [api.error_body(str(error), field=field)])
    return _page(409, str(UNREPLAYABLE_TITLE), str(error)), 409


def _page(code: int, title: str, message: str) -> str:
    return render_template("error.html", code=code, title=title, message=message)


def _rollback() -> None:
    with contextlib.suppress(Exception):  # the answer must not depend on the database
        db.session.rollback()
