"""How much a backup upload may send: the largest backup the app itself can write.

Every other request keeps ``MAX_CONTENT_LENGTH`` (256 KiB). The two import routes take up to
:data:`~scorekeeper.store.backup_format.IMPORT_BYTES_MAX`, so that the export of any game
the app holds is restored again, and the circle restore up to
:data:`~scorekeeper.store.circles.backup.RESTORE_BYTES_MAX`, which follows from the games a
circle's backup holds; a larger file is still a 413. Each limit is known twice: to the
body-first middleware (:func:`scorekeeper.web.server.bodies.set_route_limit`), which reads the body
whole, within its deadline, before the request takes a work slot, and to Flask
(``request.max_content_length``), set before any other ``before_request`` reads the body
(the CSRF check reads the page's form).
"""

from __future__ import annotations

from flask import Flask, request

from scorekeeper.store.backup_format import IMPORT_BYTES_MAX
from scorekeeper.store.circles.backup import RESTORE_BYTES_MAX
from scorekeeper.web.server import bodies

UPLOAD_LIMITS = {
    "web.import_page": IMPORT_BYTES_MAX,
    "api_games.import_game": IMPORT_BYTES_MAX,
    "web.circle_restore": RESTORE_BYTES_MAX,
}
"""The routes that take a backup, by endpoint, and the most bytes each reads."""


def init_app(app: Flask) -> None:
    """Register the limits: with the middleware, and ahead of every other ``before_request``."""
    for endpoint, limit in UPLOAD_LIMITS.items():
        assert endpoint in app.view_functions, endpoint  # a renamed route keeps its limit
        bodies.set_route_limit(app, endpoint, limit)
    app.before_request_funcs.setdefault(None, []).insert(0, _upload_limit)


def _upload_limit() -> None:
    limit = UPLOAD_LIMITS.get(request.endpoint or "")
    if limit is not None:
        request.max_content_length = limit
