"""Polls answered 304 before the app runs, while what they follow has not changed.

Every phone at a table polls its game's version every 1.5 s, and boards poll
their club night: most of the requests a busy server gets. Through Flask each
costs a request context, the session cookie, the language, the security
headers. This WSGI middleware recognises the poll addresses, reads the version
(:func:`scorekeeper.store.versions.current_version`: one indexed lookup) and,
when ``If-None-Match`` still holds it, answers the bodiless 304 itself. Any
other request, a changed version or an unknown id goes to the app as before, so
the answers are the same, only cheaper.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from werkzeug.http import parse_etags

from scorekeeper.extensions import db
from scorekeeper.store.versions import current_version
from scorekeeper.web.server.hardening import SECURITY_HEADERS

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy.engine import Engine

POLLS = [
    (re.compile(r"/games/([A-Za-z0-9_-]{1,64})/version"), "game"),
    (re.compile(r"/api/v1/games/([A-Za-z0-9_-]{1,64})"), "game"),
    (re.compile(r"/events/([A-Za-z0-9_-]{1,64})/board/live"), "event"),
    (re.compile(r"/api/v1/events/([A-Za-z0-9_-]{1,64})"), "event"),
]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Unchanged:
    """The middleware: a 304 for an unchanged poll, everything else to ``wsgi``."""

    def __init__(self, app: Flask, wsgi: WSGIApp) -> None:
        self.app = app
        self.wsgi = wsgi
        self._engine: Engine | None = None

    def engine(self) -> Engine:
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        return self._engine

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        version = self._unchanged(environ)
        if version is None:
            return self.wsgi(environ, start_response)
        headers = [("ETag", f'"{version}"'), ("Cache-Control", "no-cache, private")]
        headers += list(SECURITY_HEADERS.items())
        start_response("304 NOT MODIFIED", headers)
        return [b""]

    def _unchanged(self, environ: dict[str, Any]) -> int | None:
        """The version, if this is a poll whose ``If-None-Match`` still holds it."""
        given = environ.get("HTTP_IF_NONE_MATCH")
        if not given or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        path = environ.get("PATH_INFO", "")
        for pattern, kind in POLLS:
            match = pattern.fullmatch(path)
            if match:
                try:
                    version = current_version(self.engine(), kind, match.group(1))
                except Exception:  # the app answers (and words) whatever went wrong
                    return None
                if version is not None and parse_etags(given).contains_weak(str(version)):
                    return version
                return None
        return None


def init_app(app: Flask) -> None:
    app.wsgi_app = Unchanged(app, app.wsgi_app)  # type: ignore[method-assign]
