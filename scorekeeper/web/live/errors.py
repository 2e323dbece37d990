"""A live page with no stream slot left: the 503 its script falls back to polling on."""

from __future__ import annotations

from flask import Flask

from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.errors import Answer, error_body, error_response
from scorekeeper.web.live.streams import StreamsFull

STREAMS_RETRY_SECONDS = 30
STREAMS_MESSAGE = _l(
    "This server follows as many pages live as it can; this page checks for changes "
    "every few seconds instead."
)


def streams_full(_error: StreamsFull) -> Answer:
    """503 + ``Retry-After``: every stream slot of this worker is taken (the page polls)."""
    headers = {"Retry-After": str(STREAMS_RETRY_SECONDS), "Cache-Control": "no-store"}
    body, status = error_response(503, [error_body(str(STREAMS_MESSAGE))])
    return body, status, headers


def register_errors(app: Flask) -> None:
    app.register_error_handler(StreamsFull, streams_full)
