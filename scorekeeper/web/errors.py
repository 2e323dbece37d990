"""The one error path: every refusal becomes a page, or the API's JSON, here.

- **The engine refuses** (:class:`~scorekeeper.rules.errors.RulesError`): 422,
  or 409 for a move the game's state does not allow (:func:`status_of`; the
  engine's errors carry no HTTP status). Pages show the problems beside the
  form's fields (:func:`try_write`); the API lists them with their codes.
- **The store refuses**: no such game or deal (404), a stale version (412 in
  the API, with the game as it is now; 409 on a page, with what changed), a
  stored log the engine no longer replays (409). Worded by
  :mod:`scorekeeper.text.refusals`. No club night, circle or member: 404.
- **A circle refuses** (:class:`~scorekeeper.store.circles.errors.CircleRefusal`):
  422, or 409 for a conflict; pages that show a form again take its sentences
  from :func:`refusal_sentences`, the API lists them with their codes.
- **Failures that are not bugs**: a busy or unreachable database, a score
  sheet that cannot be rendered now (429 for one client, 503 for the server,
  with ``Retry-After``), and a claim beyond the claim pool's limits (429 for one
  client or game, 503 for the server).
- **HTTP errors** (404, 405, 413, 429, CSRF…): a friendly page in the
  request's language, or JSON under ``/api/``.

Every refusal rolls the session back once (:func:`rollback`): nothing of a
refused request is written. Under ``/api/`` every answer is the API's error
format, ``{"ok": false, "errors": [{"rule", "field", "message"…}]}``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from flask import Response, jsonify, render_template, request, url_for
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, TooManyRequests
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper.extensions import db
from scorekeeper.rules.errors import Problem, RulesError, StateError
from scorekeeper.store import games as services
from scorekeeper.store.circles.errors import CircleNotFound, CircleRefusal, MemberNotFound
from scorekeeper.store.events.services import EventNotFound
from scorekeeper.store.games import game_state
from scorekeeper.store.positions import PositionTaken
from scorekeeper.store.snapshot import (
    DealNotFound,
    GameNotFound,
    LoadedGame,
    StaleVersion,
    UnreplayableLog,
)
from scorekeeper.text import circles as circle_words
from scorekeeper.text import refusals
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import translate_error, translate_problems
from scorekeeper.web.server.fragments import ERROR_PAGE_KEY
from scorekeeper.web.server.limits import TOKEN_MESSAGE, seconds_to_retry, token_refusal_past_limit

if TYPE_CHECKING:
    from flask import Flask

log = logging.getLogger(__name__)

API_PREFIX = "/api/"
T = TypeVar("T")

# --- words -----------------------------------------------------------------------------------

# Werkzeug's stock descriptions talk to web developers; these talk to players.
PAGE_TITLES = {
    400: _l("This form could not be used"),
    403: _l("This game is read-only here"),
    404: _l("Page not found"),
    405: _l("Not allowed here"),
    413: _l("Too much to send"),
    429: _l("Too many requests"),
    500: _l("Something went wrong"),
}
PAGE_MESSAGES = {
    400: _l("The request could not be understood. Go back, reload the page and try again."),
    403: _l("You can follow this game, but you cannot change it from this browser."),
    404: _l("There is nothing at this address."),
    405: _l("This address cannot be used this way. Go back and use the buttons on the page."),
    413: _l("What was sent is far larger than any form of this app, so nothing was saved."),
    429: _l(
        "Too many requests came from this address in a short time. Wait a minute and try again."
    ),
    500: _l("Something went wrong on our side, and nothing was saved. Go back and try again."),
}
API_MESSAGES = {
    400: _l("The request could not be understood."),
    401: _l("This needs the game's edit token."),
    403: _l("This edit token does not belong to this game."),
    404: _l("There is nothing at this address."),
    405: _l("This address does not accept %(method)s requests."),
    409: _l("This request conflicts with the game's current state."),
    412: _l("The game has changed since you loaded it; reload and try again."),
    413: _l("The request body is too large."),
    415: _l("The request body must be JSON."),
    422: _l("The request breaks a rule of the game."),
    429: _l("Too many requests from this address; wait a minute and try again."),
    500: _l("Something went wrong on our side; nothing was saved."),
}
API_OTHER = _l("This request could not be answered.")
CSRF_MESSAGE = _l(
    "This form was sent without a valid security token (perhaps the page was open for "
    "too long, or cookies are off), so nothing was saved. Go back, reload the page and "
    "enter it again."
)
OTHER_TITLE = _l("This request could not be answered")
OTHER_MESSAGE = _l("This request could not be answered. Go back and try again.")
KEPT = _l("Nothing was saved. The scores shown are up to date, and what you entered is kept.")

RETRY_AFTER_SECONDS = 2
TOKEN_RETRY_SECONDS = 60
"""The token limit counts per minute."""
BUSY_TITLE = _l("The game is busy")
BUSY_MESSAGE = _l(
    "The game is busy: other phones are saving at this very moment. Nothing was saved; "
    "wait a second and send it again."
)
DOWN_TITLE = _l("The database is out of reach")
DOWN_MESSAGE = _l(
    "The score keeper cannot reach its database right now. Nothing was saved; "
    "try again in a moment."
)
UNREPLAYABLE_TITLE = _l("This game cannot be shown")
LOCK_WORDS = ("database is locked", "database is busy", "lock timeout", "deadlock", "lock_not")


def status_of(error: RulesError) -> int:
    """409 for a move the game's state does not allow (R2, R12…), 422 for the rest."""
    return 409 if isinstance(error, StateError) else 422


def refusal_text(error: Exception) -> str:
    """A refusal of the store in the reader's words."""
    if isinstance(error, StaleVersion):
        changes = [(c.action, c.before, c.after) for c in error.changes]
        version = error.loaded.version
        return refusals.stale(error.loaded.players, error.expected, version, changes, error.race)
    if isinstance(error, DealNotFound):
        return refusals.deal_not_found(error.n, error.deals_played)
    if isinstance(error, UnreplayableLog):
        return refusals.unreplayable(error.position, error.error.problems)
    return refusals.game_not_found()


def refusal_sentences(error: Exception) -> list[str]:
    """A circle's or the engine's refusal as sentences for a page (the session rolled back)."""
    rollback()
    if isinstance(error, CircleRefusal):
        return [circle_words.refusal(p.code, p.params) for p in error.problems]
    if isinstance(error, RulesError):
        return translate_problems(error.problems)
    return [str(error)]


def stale_page_text(stale: StaleVersion) -> str:
    """A stale version said on a page: what the other phones did meanwhile."""
    changes = [(c.action, c.before, c.after) for c in stale.changes]
    return refusals.stale_on_page(stale.loaded.players, changes, stale.race)


def stale_messages(stale: StaleVersion, then: object = KEPT) -> list[str]:
    """What a page says when a write meets a newer version: what changed, then what to do."""
    return [stale_page_text(stale), str(then)]


# --- the one rollback ------------------------------------------------------------------------


def rollback() -> None:
    """Nothing of a refused request is written (and the answer never depends on the DB)."""
    with contextlib.suppress(Exception):
        db.session.rollback()


# --- pages: a write that may be refused ------------------------------------------------------


class VersionedForm(Protocol):
    """A page form that carries the game's version and shows problems beside its fields."""

    @property
    def version(self) -> Any: ...

    def add_problems(self, problems: Iterable[Problem]) -> None: ...


@dataclass(frozen=True)
class Refused:
    """A page's write was refused: show the page again, over ``loaded``, with ``messages``."""

    loaded: LoadedGame
    status: int
    messages: list[str] = field(default_factory=list)
    stale: bool = False
    """Someone else wrote first: ``loaded`` is the game as it is now."""


def try_write(
    write: Callable[[], T],
    loaded: LoadedGame,
    add_problems: Callable[[Sequence[Problem]], None],
    then: object = KEPT,
) -> T | Refused:
    """Run ``write``; a refusal comes back as :class:`Refused` (the session rolled back).

    A stale version: the page is shown over the game as it is now, saying what
    changed (409). An engine refusal: ``add_problems`` puts its problems beside
    the fields, with its status (:func:`status_of`).
    """
    try:
        return write()
    except StaleVersion as stale:
        rollback()
        return Refused(stale.loaded, 409, stale_messages(stale, then), stale=True)
    except RulesError as error:
        rollback()
        add_problems(error.problems)
        return Refused(loaded, status_of(error))


def try_form_write(
    write: Callable[[], T], form: VersionedForm, loaded: LoadedGame, then: object = KEPT
) -> T | Refused:
    """:func:`try_write` for a page form: on a stale version it takes the current version."""
    outcome = try_write(write, loaded, form.add_problems, then)
    if isinstance(outcome, Refused) and outcome.stale:
        form.version.data = outcome.loaded.version
    return outcome


# --- the API's error format ------------------------------------------------------------------


def is_api_request() -> bool:
    """Whether the current request is for the JSON API (and wants JSON errors)."""
    return request.path.startswith(API_PREFIX)


def error_body(message: str, rule: str | None = None, field: str | None = None) -> dict[str, Any]:
    """One entry of the ``errors`` list."""
    return {"rule": rule, "field": field, "message": message}


def error_response(status: int, errors: list[dict[str, Any]]) -> tuple[Response, int]:
    """The API's error answer: ``{"ok": false, "errors": [...]}`` with ``status``."""
    return jsonify(ok=False, errors=errors), status


def _with_game(response: Response, game_id: object) -> Response:
    """A 409 in the API carries the game as it is now, so the phone can catch up."""
    try:
        loaded = services.load_game(game_id) if isinstance(game_id, str) else None
    except (GameNotFound, UnreplayableLog):
        loaded = None
    if loaded is None:
        return response
    answer = jsonify({**response.get_json(), "game": game_state(loaded)})
    answer.set_etag(str(loaded.version))
    return answer


# --- handlers --------------------------------------------------------------------------------

Answer = tuple[Response | str, int] | tuple[Response | str, int, dict[str, str]]


def error_page(code: int, title: object, message: object) -> str:
    request.environ[ERROR_PAGE_KEY] = True  # its address may be made up: keep none of it
    return render_template(
        "layout/error.html",
        code=code,
        title=str(title),
        message=str(message),
        game_url=_game_of_this_page(),
    )


def _game_of_this_page() -> str | None:
    """The game page to go back to, when the refused address belongs to a game that exists."""
    game_id = (request.view_args or {}).get("game_id")
    if not isinstance(game_id, str) or not _exists(game_id):
        return None
    return url_for("web.game", game_id=game_id)


def _exists(game_id: str) -> bool:
    try:
        return services.game_exists(game_id)
    except Exception:  # the page must render even if the database is gone
        rollback()
        return False


def _http_message(exc: HTTPException) -> str:
    code = exc.code or 500
    stock = type(exc).description
    if exc.description and exc.description != stock and code != 500:
        return str(exc.description)
    default = str(API_MESSAGES.get(code, API_OTHER))
    return default % {"method": request.method} if code == 405 else default


def http_error(exc: HTTPException) -> WerkzeugResponse | Answer:
    """Any HTTP error (routing's 404 and 405 included): JSON under /api/, a page elsewhere.

    A refused edit token past the token limit becomes a 429 (:mod:`scorekeeper.web.server.limits`):
    counted here, where every refusal passes, so that a right token is never held back.
    """
    if token_refusal_past_limit(exc.code or 500):
        exc = TooManyRequests(str(TOKEN_MESSAGE), retry_after=TOKEN_RETRY_SECONDS)
    if isinstance(exc, RateLimitExceeded):  # the only Retry-After the limiter gives
        exc.retry_after = seconds_to_retry(exc)
    code = exc.code or 500
    if code >= 500:
        rollback()
    if is_api_request():
        response = exc.get_response()  # keeps headers such as Allow
        body, _status = error_response(code, [error_body(_http_message(exc))])
        response.set_data(body.get_data())
        response.content_type = body.content_type
        return response
    if isinstance(exc, CSRFError):
        return error_page(code, PAGE_TITLES.get(code, OTHER_TITLE), CSRF_MESSAGE), code
    stock = type(exc).description
    own = exc.description if exc.description != stock and code != 500 else None
    message = own or PAGE_MESSAGES.get(code, OTHER_MESSAGE)
    retry = getattr(exc, "retry_after", None)
    headers = {"Retry-After": str(retry)} if isinstance(retry, int) else {}
    return error_page(code, PAGE_TITLES.get(code, OTHER_TITLE), message), code, headers


def rules_error(error: RulesError) -> Answer:
    """An engine refusal no view showed beside its form: the API's, or a plain page."""
    rollback()
    status = status_of(error)
    if not is_api_request():
        messages = " ".join(item["message"] for item in translate_error(error))
        return error_page(status, OTHER_TITLE, messages), status
    response, _status = error_response(status, translate_error(error))
    if isinstance(error, PositionTaken):  # the other entry, for the phone's "the same deal?"
        response = jsonify({**response.get_json(), **error.details()})
    if isinstance(error, StateError):
        response = _with_game(response, (request.view_args or {}).get("game_id"))
    return response, status


def store_refusal(error: LookupError | StaleVersion) -> Answer:
    """No such game or deal (404); a stale version (412 in the API, 409 on a page)."""
    rollback()
    message = refusal_text(error)
    if isinstance(error, StaleVersion):
        if is_api_request():
            response = jsonify(
                ok=False,
                errors=[error_body(message, field="If-Match")],
                game=game_state(error.loaded),
            )
            response.set_etag(str(error.loaded.version))
            return response, 412
        return error_page(409, OTHER_TITLE, stale_page_text(error)), 409
    if is_api_request():
        return error_response(404, [error_body(message)])
    return error_page(404, PAGE_TITLES[404], message), 404


def lookup_not_found(error: EventNotFound | CircleNotFound | MemberNotFound) -> Answer:
    """404: no club night, circle or circle member at this address."""
    rollback()
    if isinstance(error, EventNotFound):
        message = refusals.event_not_found()
    elif isinstance(error, MemberNotFound):
        message = circle_words.member_not_found()
    else:
        message = circle_words.circle_not_found()
    if is_api_request():
        return error_response(404, [error_body(message)])
    return error_page(404, PAGE_TITLES[404], message), 404


def circle_refusal(error: CircleRefusal) -> Answer:
    """A circle's refusal no page showed beside its form: the API's error list, or a page."""
    rollback()
    if not is_api_request():
        return error_page(
            error.status, OTHER_TITLE, " ".join(refusal_sentences(error))
        ), error.status
    problems = [
        {**error_body(circle_words.refusal(p.code, p.params), field=p.field), "code": p.code}
        for p in error.problems
    ]
    return error_response(error.status, problems)


def unreplayable(error: UnreplayableLog) -> Answer:
    """409: the stored game is refused by the current engine; nothing was written."""
    rollback()
    log.error("game %s: %s", error.game_id, error)
    message = refusal_text(error)
    field = "rules" if error.position is None else f"log.{error.position}"
    if is_api_request():
        return error_response(409, [error_body(message, field=field)])
    return error_page(409, UNREPLAYABLE_TITLE, message), 409


def is_lock_error(error: Exception) -> bool:
    """Whether a database error is a lock that timed out (as opposed to a database down)."""
    if isinstance(error, PoolTimeout):
        return True
    text = str(getattr(error, "orig", None) or error).lower()
    return any(word in text for word in LOCK_WORDS)


def database_busy(error: Exception) -> Answer:
    """503 + ``Retry-After``: the write waited too long for its lock, or the database is down."""
    rollback()
    busy = is_lock_error(error)
    log.warning("503 (%s): %s", "busy" if busy else "database unreachable", error)
    message = str(BUSY_MESSAGE if busy else DOWN_MESSAGE)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    if is_api_request():
        body, status = error_response(503, [error_body(message)])
        return body, status, headers
    return error_page(503, BUSY_TITLE if busy else DOWN_TITLE, message), 503, headers


def init_app(app: Flask) -> None:
    """Register the handlers of every refusal the engine and the store make (app-wide: a
    routing 404 happens before any blueprint). A feature's own refusals (a sheet, a claim,
    a stream, a page write) are registered by the feature (``register_errors``)."""
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(RulesError, rules_error)
    for refusal in (GameNotFound, DealNotFound, StaleVersion):
        app.register_error_handler(refusal, store_refusal)
    for lookup in (EventNotFound, CircleNotFound, MemberNotFound):
        app.register_error_handler(lookup, lookup_not_found)
    app.register_error_handler(CircleRefusal, circle_refusal)
    app.register_error_handler(UnreplayableLog, unreplayable)
    app.register_error_handler(OperationalError, database_busy)
    app.register_error_handler(PoolTimeout, database_busy)
