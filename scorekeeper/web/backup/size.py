"""How much a backup upload may send: the largest backup the app itself can write.

Every other request keeps ``MAX_CONTENT_LENGTH`` (256 KB); the two import routes take up to
:data:`~scorekeeper.store.backup_format.IMPORT_BYTES_MAX`, so that the export of any game
the app holds is restored again (and a larger file is still a 413). Set before any other
``before_request`` reads the body (the CSRF check reads the page's form).
"""

from __future__ import annotations

from flask import Flask, request

from scorekeeper.store.backup_format import IMPORT_BYTES_MAX

IMPORT_ENDPOINTS = frozenset({"web.import_page", "api_games.import_game"})


def init_app(app: Flask) -> None:
    """Register the limit ahead of every other ``before_request``."""
    app.before_request_funcs.setdefault(None, []).insert(0, _import_limit)


def _import_limit() -> None:
    if request.endpoint in IMPORT_ENDPOINTS:
        request.max_content_length = IMPORT_BYTES_MAX
