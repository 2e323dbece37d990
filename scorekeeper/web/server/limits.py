"""Rate limits (Flask-Limiter), one limiter per app, applied to routes by kind.

- **Writes**: every POST, PUT, PATCH or DELETE route, counted per client
  address and per game (``RATELIMIT_WRITES``, default 60 per minute); a route
  without a game (a new game, a check) is counted per address. Writes refused
  for their token are left to the token limit.
- **Token checks**: failed edit-token checks (401/403, and a join link that is
  wrong or for no game) are counted per client address *and game*
  (``RATELIMIT_TOKEN_CHECKS``, default 10 per minute). Past the limit a wrong
  token is answered 429 (:func:`token_refusal_past_limit`, from the one error
  path); the right token still works, from the same address too: behind a
  proxy every player may share one address, and a stranger's guesses must
  not lock the table out. Guessing gains nothing from this: a token is 256
  random bits.

Only a limit's own 429 says when to come back (``Retry-After``, the seconds left
in its window: :func:`seconds_to_retry`): Flask-Limiter's headers are off
(``RATELIMIT_HEADERS_ENABLED``), as they would add ``Retry-After`` to every
answer of a limited route (a 201 too) and overwrite the app's own (a 503's 2
seconds, a claim's) with the window's end.

Counters live in ``RATELIMIT_STORAGE_URI``: by default ``database://``, the
app's own database (:mod:`scorekeeper.store.rate_counters`), which every
gunicorn worker shares, so that the limits hold for the server as a whole
(``memory://`` would count per process). An in-memory SQLite database (one
process) counts in memory. ``RATELIMIT_ENABLED=0`` turns limits off; tests run
without them unless they ask. The limits are applied when the app is built,
to every route then registered, so a write route added later is limited too.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse

from scorekeeper.store import rate_counters
from scorekeeper.text.locale import lazy_gettext as _l

if TYPE_CHECKING:
    from flask import Flask

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TOKEN_ROUTES = frozenset({"web.join", "web.direct"})
"""Routes that check a token on a GET (the edit link, a club night's director link)."""
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


def refuses_token(status: int) -> bool:
    """Whether an answer refuses an edit token (it counts against the token limit).

    A join link for no game counts too: it is a guess like any other.
    """
    if request.endpoint in TOKEN_ROUTES and status == 404:
        return True
    return status in REFUSED and _has_game_route()


def token_refusal_past_limit(status: int) -> bool:
    """Count a refused token for this address and game; True once past the limit.

    Called only for refusals, so a right token is never counted nor held back.
    """
    app = current_app
    limiter: Limiter | None = app.extensions.get("scorekeeper_limiter")
    if limiter is None or not app.config.get("RATELIMIT_ENABLED") or not refuses_token(status):
        return False
    limit = parse(str(app.config["RATELIMIT_TOKEN_CHECKS"]))
    try:
        return not limiter.limiter.hit(limit, "token-checks", client_and_game())
    except Exception:  # a broken counter store must not break the game (as SWALLOW_ERRORS)
        return False


def seconds_to_retry(breach: RateLimitExceeded) -> int:
    """When the limit ``breach`` met lets this client in again: the seconds left in its
    window (at least 1); the whole window if the counter store cannot say."""
    limiter: Limiter | None = current_app.extensions.get("scorekeeper_limiter")
    window = breach.limit.limit.get_expiry()
    try:
        current = limiter.current_limit if limiter is not None else None
        if current is None or current.limit != breach.limit.limit:
            return window
        return max(1, min(window, math.ceil(current.reset_at - time.time())))
    except Exception:  # a broken counter store must not break the answer (as SWALLOW_ERRORS)
        return window


def _has_game_route() -> bool:
    return request.view_args is not None and "game_id" in request.view_args


def init_app(app: Flask) -> Limiter:
    """A limiter for ``app`` with the writes limit on its routes (and the token limit's store)."""
    if _in_memory_database(app) and _storage(app).startswith(f"{rate_counters.SCHEME}://"):
        app.config["RATELIMIT_STORAGE_URI"] = "memory://"  # one process: nothing to share
    limiter = Limiter(key_func=get_remote_address, app=app)
    app.extensions["scorekeeper_limiter"] = limiter
    writes = limiter.shared_limit(
        _setting("RATELIMIT_WRITES"),
        scope="writes",
        key_func=client_and_game,
        methods=sorted(WRITE_METHODS),
        error_message=lambda: str(WRITES_MESSAGE),  # in the request's language
        # A refused token is the token limit's to count: a stranger's wrong tokens must not
        # use up the writes of the players who share their address.
        deduct_when=lambda response: response.status_code not in REFUSED,
    )
    for endpoint, methods in _routes(app).items():
        if methods & WRITE_METHODS:
            view: Any = app.view_functions[endpoint]
            app.view_functions[endpoint] = writes(view)
    return limiter


def _storage(app: Flask) -> str:
    return str(app.config.get("RATELIMIT_STORAGE_URI") or "")


def _in_memory_database(app: Flask) -> bool:
    uri = str(app.config.get("SQLALCHEMY_DATABASE_URI") or "")
    return uri.startswith("sqlite") and (uri in ("sqlite://", "sqlite:///") or ":memory:" in uri)


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
