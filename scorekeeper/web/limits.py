"""Rate limits (Flask-Limiter), one limiter per app, applied to routes by kind.

- **Writes**: every POST, PUT, PATCH or DELETE route, counted per client
  address and per game (``RATELIMIT_WRITES``, default 60 per minute); a route
  without a game (a new game, a check) is counted per address.
- **Token checks**: failed edit-token checks (401/403 from a write route, and a
  join link that is wrong or for no game) are counted per client address
  (``RATELIMIT_TOKEN_CHECKS``, default 10 per minute); past the limit, even
  the right token waits.

Counters live in ``RATELIMIT_STORAGE_URI`` (``memory://`` by default: one
set per process; several gunicorn workers need a shared store such as
``redis://…``). ``RATELIMIT_ENABLED=0`` turns limits off; tests run without
them unless they ask. The limits are applied when the app is built, to every
route then registered, so a write route added later is limited too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from scorekeeper.text.locale import lazy_gettext as _l

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TOKEN_ROUTES = frozenset({"web.join"})
"""Routes that check a token on a GET (the edit link)."""
REFUSED = frozenset({401, 403})

WRITES_MESSAGE = _l(
    "Too many changes from this address in a short time; wait a minute and try again. "
    "Nothing was saved."
)
TOKEN_MESSAGE = _l(
    "Too many attempts with a wrong edit link or token from this address; "
    "wait a minute and try again."
)


def client_and_game() -> str:
    """The limit key for writes: the client's address and the game (if any)."""
    game_id = (request.view_args or {}).get("game_id", "")
    return f"{get_remote_address()}|{game_id}"


def token_refused(response: Response) -> bool:
    """Whether a response refused an edit token (it counts against the token limit).

    A join link for no game counts too: it is a guess like any other.
    """
    if request.endpoint in TOKEN_ROUTES and response.status_code == 404:
        return True
    return response.status_code in REFUSED


def init_app(app: Flask) -> Limiter:
    """A limiter for ``app`` with the writes and token-check limits on its routes."""
    limiter = Limiter(key_func=get_remote_address, app=app)
    app.extensions["scorekeeper_limiter"] = limiter
    writes = limiter.shared_limit(
        _setting("RATELIMIT_WRITES"),
        scope="writes",
        key_func=client_and_game,
        methods=sorted(WRITE_METHODS),
        error_message=lambda: str(WRITES_MESSAGE),  # in the request's language
    )
    tokens = limiter.shared_limit(
        _setting("RATELIMIT_TOKEN_CHECKS"),
        scope="token-checks",
        deduct_when=token_refused,
        error_message=lambda: str(TOKEN_MESSAGE),
    )
    for endpoint, methods in _routes(app).items():
        view: Any = app.view_functions[endpoint]
        if methods & WRITE_METHODS:
            view = writes(view)
        if endpoint in TOKEN_ROUTES or (methods & WRITE_METHODS and _has_game(app, endpoint)):
            view = tokens(view)
        app.view_functions[endpoint] = view
    return limiter


def _setting(name: str) -> Callable[[], str]:
    def read() -> str:
        value: Any = current_app.config[name]
        return str(value)

    return read


def _routes(app: Flask) -> dict[str, set[str]]:
    """Every endpoint (static files aside) with the methods its rules accept."""
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint != "static":
            routes.setdefault(rule.endpoint, set()).update(rule.methods or ())
    return routes


def _has_game(app: Flask, endpoint: str) -> bool:
    return any("game_id" in rule.arguments for rule in app.url_map.iter_rules(endpoint))
