"""Who may change what: sealed tokens, edit rights, directing a club night, bearer tokens.

Every right a page or the API checks is here, shared by every feature package:

- **sealing** (:func:`seal`, :func:`unseal`): a token kept in the session cookie is
  encrypted and authenticated, never readable;
- **a game's edit rights** (:func:`can_edit`, :func:`require_edit`, :func:`require_owner`),
  kept in the session as a reference to the game's token, or its sealed token;
- **directing a club night** (:func:`directing`, :func:`require_director`,
  :func:`directs_game`): the director's token, sealed in the session;
- **a circle's edit rights** (:func:`circle_token`, :func:`require_circle_edit`): its
  token sealed in the session;
- **the API's bearer tokens** (:func:`bearer_token`, :func:`require_bearer`,
  :func:`require_circle_token`): ``Authorization: Bearer <token>``, 401 without, 403 with
  another.

A game's, a circle's and a club night's rights are kept apart: none gives another,
but for the director's, which covers the games of the night's tables.

**A game.**
A browser may edit a game while its session holds a proof of the game's
current edit token: the browser that created the game gets it at once,
another phone by opening the game's edit link and confirming
(:mod:`scorekeeper.web.sharing.routes`). When the owner replaces the token
(revokes the edit links), every other phone's edit rights end with its next
request: each proof is checked against the game's stored hash.

Flask's session is a signed cookie, not an encrypted one: whoever sees the
cookie can read it. So it never holds an edit token in readable form:

- ``edit_refs``: the games this browser joined, most recent first, each with
  a *reference* to the token it was given (a prefix of the token's SHA-256,
  the hash the database keeps): enough to tell whether the token is still
  current, useless as a token (the API wants the token itself);
- ``own_seals``: the games this browser created (only they may revoke), most
  recent first, each with its token *sealed* (:func:`seal`), so that the
  owner's game page can show the edit link again from this phone;
- ``seen_games``: the games this browser opened (the home page lists only
  games it knows, so that no one learns another table's game id).

Created and joined games are kept in separate lists: joining other tables'
games never pushes out the games this browser created (and with them the
owner's edit and revoke rights). Only the most recent of each are
remembered, to keep the cookie small. The cookie lasts a year after the
last visit (``PERMANENT_SESSION_LIFETIME``): it is sent again when it changes, and
otherwise at most once a day (``renewed``), not with every page (:func:`renew_daily`).

**A club night.** The browser that creates the event holds the director's token at once;
another opens the director's link (``/events/<id>/direct/<token>``) and confirms, on any
device. The co-director's link works the same way and gives the same rights, but for
giving or revoking that link. The token is kept sealed, because the director's pages
derive each table's edit link from it; the session is made permanent (a year past the
last visit), so closing the browser does not end the role. This browser's club nights
(directed or opened) are remembered too, for the home page and ``/events``: ids only,
like the games it knows.

**A circle.** Like a game's owner, a browser that created a circle, or opened its edit
link and confirmed, keeps the circle's edit token sealed in the session cookie, so that
the circle page can show the edit link again. Each proof is checked against the circle's
stored hash: replacing the token ends every other browser's rights at its next request.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from datetime import UTC, datetime

from cryptography.fernet import Fernet, InvalidToken
from flask import Response, abort, current_app, request, session, url_for

from scorekeeper.store import games as services
from scorekeeper.store.circles import services as circles
from scorekeeper.store.circles.errors import CircleNotFound
from scorekeeper.store.events import controls as event_controls
from scorekeeper.store.events import services as events
from scorekeeper.store.events.controls import Directing
from scorekeeper.store.events.results import DIRECTOR_SOURCE
from scorekeeper.store.tokens import hash_token
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.blueprint import bp

EDIT_REFS = "edit_refs"
OWN_SEALS = "own_seals"
SEEN_GAMES = "seen_games"
RENEWED = "renewed"
OLD_EDIT_TOKENS = "edit_tokens"
"""Sessions written before tokens were sealed held them in clear (with ``edit_games``
and ``own_games``): converted on their next request (:func:`upgrade_old_session`)."""
REMEMBERED = 20
"""Joined (and seen) games remembered per browser: about 40 bytes each in the cookie."""
OWNED = 12
"""Created games remembered per browser: about 160 bytes each in the cookie."""
REF_LENGTH = 16
"""Hex digits of the token's hash kept as its reference (64 bits)."""
READ_ONLY = _l(
    "You can follow this game's scores, but this phone cannot change them: "
    "open the game's edit link on this phone to enter deals."
)
RIGHTS_KEY = "scorekeeper.edit_rights"
NOT_OWNER = _l("Only the phone that started this game can replace its edit link.")

DIRECTING = "event_seals"
SEEN_EVENTS = "seen_events"
DIRECTS_KEY = "scorekeeper.directs_game"
ROLES_KEY = "scorekeeper.event_roles"
EVENTS_DIRECTED = 6
"""Club nights directed from one browser: about 150 bytes each in the cookie."""
EVENTS_SEEN = 20
"""Club nights listed for one browser: about 20 bytes each."""
NOT_DIRECTOR = _l(
    "Only the director of this club night can do this: open the director's link on this "
    "device first."
)
NOT_MAIN_DIRECTOR = _l(
    "Only the director (not a co-director) can give or revoke the co-director's link."
)

CIRCLE_SEALS = "circle_seals"
SEEN_CIRCLES = "seen_circles"
CIRCLES_REMEMBERED = 8
"""Circles remembered per browser (about 160 bytes each in the cookie)."""
CIRCLE_RIGHTS_KEY = "scorekeeper.circle_rights"
CIRCLE_READ_ONLY = _l(
    "You can look at this circle, but this phone cannot change it: "
    "open the circle's edit link on this phone first."
)


# --- sealing the owner's token ---------------------------------------------------------------


def _sealer() -> Fernet:
    """Authenticated encryption (the ``cryptography`` library's Fernet: AES-CBC with an
    HMAC), under a key derived from the app's secret key."""
    secret = str(current_app.secret_key or "").encode()
    key = hmac.new(secret, b"scorekeeper: edit-token seal", hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(token: str) -> str:
    """``token`` encrypted: unreadable, and unforgeable, to whoever sees the cookie."""
    return _sealer().encrypt(token.encode()).decode("ascii")


def unseal(sealed: object) -> str | None:
    """The token :func:`seal` sealed, or None for anything else."""
    if not isinstance(sealed, str):
        return None
    try:
        return _sealer().decrypt(sealed.encode("ascii")).decode()
    except (InvalidToken, UnicodeError):
        return None


def token_ref(token: str) -> str:
    """The session's reference to a joined game's token: a prefix of its stored hash."""
    return hash_token(token)[:REF_LENGTH]


# --- a game's edit rights --------------------------------------------------------------------


@bp.after_app_request
def renew_daily(response: Response) -> Response:
    """Send a remembered browser's cookie again once a day, so that it lasts a year past
    the last visit, without a multi-kilobyte ``Set-Cookie`` on every page."""
    if session.accessed and session.permanent:
        today = datetime.now(UTC).date().isoformat()
        if session.get(RENEWED) != today:
            session[RENEWED] = today
    return response


@bp.after_app_request
def no_store_for_editors(response: Response) -> Response:
    """A page shown to a phone that may edit can show the edit link (the game page, deal
    forms, undo): no cache (shared, or on the phone's disk) keeps it."""
    if any(_rights().values()) and response.mimetype in ("text/html", "image/svg+xml"):
        response.headers["Cache-Control"] = "no-store"
    return response


def _pairs(key: str) -> list[tuple[str, str]]:
    """The session's list ``key`` of (game id, value) pairs, whatever the cookie held."""
    raw = session.get(key, [])
    pairs = raw if isinstance(raw, list) else []
    return [
        (p[0], p[1])
        for p in pairs
        if isinstance(p, list | tuple) and len(p) == 2 and all(isinstance(x, str) for x in p)
    ]


def _put_first(key: str, game_id: str, value: str, most: int) -> None:
    kept = [[g, v] for g, v in _pairs(key) if g != game_id]
    session[key] = [[game_id, value], *kept][:most]
    session.permanent = True


def _remember(key: str, game_id: str) -> list[str]:
    """Put ``game_id`` first in the session list ``key`` (if not already first)."""
    games = [g for g in session.get(key, []) if isinstance(g, str)]
    if games[:1] != [game_id]:
        games = [game_id, *(x for x in games if x != game_id)][:REMEMBERED]
        session[key] = games
    return games


def grant_edit(game_id: str, token: str) -> None:
    """Give this browser edit rights for ``game_id`` (a joined game): keeps a reference."""
    if game_id not in _owned():
        _put_first(EDIT_REFS, game_id, token_ref(token), REMEMBERED)
    else:
        _put_first(OWN_SEALS, game_id, seal(token), OWNED)
    _rights()[game_id] = True


def grant_owner(game_id: str, token: str) -> None:
    """This browser created ``game_id`` (or replaced its token): it may edit and revoke,
    and shows the edit link again (sealed token)."""
    _put_first(OWN_SEALS, game_id, seal(token), OWNED)
    session[EDIT_REFS] = [[g, r] for g, r in _pairs(EDIT_REFS) if g != game_id]
    _rights()[game_id] = True


def remember_seen(game_id: str) -> None:
    """Remember that this browser opened ``game_id`` (for its home page)."""
    _remember(SEEN_GAMES, game_id)


def known_games() -> list[str]:
    """The games this browser created, joined or opened."""
    games = [*_owned(), *(g for g, _r in _pairs(EDIT_REFS)), *session.get(SEEN_GAMES, [])]
    return list(dict.fromkeys(g for g in games if isinstance(g, str)))


def _owned() -> dict[str, str]:
    return dict(_pairs(OWN_SEALS))


def owner_token(game_id: str) -> str | None:
    """The edit token this browser sealed for a game it created, checked or not."""
    return unseal(_owned().get(game_id))


def _rights() -> dict[str, bool]:
    """This request's answers, so that a page asks the database once per game.

    Kept in the request's environ, not in ``g``: an app context (and its ``g``)
    may outlive one request, as in tests.
    """
    rights: dict[str, bool] = request.environ.setdefault(RIGHTS_KEY, {})
    return rights


def can_edit(game_id: str) -> bool:
    """Whether this browser holds a proof of the game's current edit token, or directs the
    club night whose table plays the game (its writes are then logged as the director's)."""
    rights = _rights()
    if game_id not in rights:
        token = owner_token(game_id)
        if token is not None:
            rights[game_id] = services.token_matches(game_id, token)
        else:
            ref = dict(_pairs(EDIT_REFS)).get(game_id)
            rights[game_id] = ref is not None and services.token_ref_matches(game_id, ref)
        rights[game_id] = rights[game_id] or directs_game(game_id)
    return rights[game_id]


def edit_token(game_id: str) -> str | None:
    """The edit token, for the owner's page to show the edit link (None for others)."""
    return owner_token(game_id) if can_edit(game_id) else None


def edit_url(game_id: str, token: str) -> str:
    """The absolute edit link of a game: whoever opens it may edit the game."""
    return url_for("web.join", game_id=game_id, token=token, _external=True)


def is_owner(game_id: str) -> bool:
    """Whether this browser created ``game_id`` (and still holds its edit token)."""
    return game_id in _owned() and can_edit(game_id)


def require_edit(game_id: str) -> None:
    """Refuse (403) a write from a browser without edit rights for ``game_id``."""
    if not can_edit(game_id):
        abort(403, description=READ_ONLY)


def require_owner(game_id: str) -> None:
    """Refuse (403) what only the game's creator may do."""
    if not is_owner(game_id):
        abort(403, description=NOT_OWNER)


@bp.before_app_request
def upgrade_old_session() -> None:
    """A cookie from before tokens were sealed: seal or reference its tokens, then drop them."""
    if OLD_EDIT_TOKENS not in session:
        return
    tokens = session.pop(OLD_EDIT_TOKENS)
    owned = session.pop("own_games", [])
    session.pop("edit_games", None)
    if not isinstance(tokens, dict):
        return
    for game_id, token in reversed(list(tokens.items())):
        if isinstance(game_id, str) and isinstance(token, str):
            if isinstance(owned, list) and game_id in owned:
                _put_first(OWN_SEALS, game_id, seal(token), OWNED)
            else:
                _put_first(EDIT_REFS, game_id, token_ref(token), REMEMBERED)


# --- directing a club night ------------------------------------------------------------------


def grant_director(event_id: str, token: str) -> None:
    kept = [pair for pair in session.get(DIRECTING, []) if pair[0] != event_id]
    session[DIRECTING] = [[event_id, seal(token)], *kept][:EVENTS_DIRECTED]
    session.permanent = True
    remember_event(event_id)


def remember_event(event_id: str) -> None:
    """Put ``event_id`` first among the club nights this browser knows."""
    seen = [e for e in session.get(SEEN_EVENTS, []) if isinstance(e, str)]
    if seen[:1] != [event_id]:
        session[SEEN_EVENTS] = [event_id, *(e for e in seen if e != event_id)][:EVENTS_SEEN]
        session.permanent = True


def known_events() -> list[str]:
    """The club nights this browser directs or opened, most recent first."""
    directed = [pair[0] for pair in session.get(DIRECTING, []) if isinstance(pair, list)]
    seen = [e for e in session.get(SEEN_EVENTS, []) if isinstance(e, str)]
    return list(dict.fromkeys(e for e in [*directed, *seen] if isinstance(e, str)))


def held_token(event_id: str) -> str | None:
    """The token this browser was given for the event (the director's or a co-director's),
    checked or not: for the page to show the link it directs with."""
    for kept_id, sealed in session.get(DIRECTING, []):
        if kept_id == event_id:
            return unseal(sealed)
    return None


def directing(event_id: str) -> Directing | None:
    """What this browser is on the event: director, co-director, or nothing (None).

    Asked once per request and event (a page asks it for every table it links)."""
    roles: dict[str, Directing | None] = request.environ.setdefault(ROLES_KEY, {})
    if event_id not in roles:
        token = held_token(event_id)
        roles[event_id] = event_controls.acting_token(event_id, token) if token else None
    return roles[event_id]


def director_token(event_id: str) -> str | None:
    """The director's token this browser acts with (a co-director's included), if any."""
    role = directing(event_id)
    return None if role is None else role.director_token


def require_director(event_id: str) -> str:
    token = director_token(event_id)
    if token is None:
        abort(403, description=str(NOT_DIRECTOR))
    return token


def require_main_director(event_id: str) -> str:
    """The director's own token: what only the director, not a co-director, may do."""
    role = directing(event_id)
    if role is None:
        abort(403, description=str(NOT_DIRECTOR))
    if role.co_director:
        abort(403, description=str(NOT_MAIN_DIRECTOR))
    return role.director_token


def directs_game(game_id: str) -> bool:
    """Whether this browser directs the club night whose table plays ``game_id``.

    Only the director's own proof counts (the token sealed by the director's link), never a
    table's edit link. A browser directing nothing asks the database nothing.
    """
    if not session.get(DIRECTING):
        return False
    answers: dict[str, bool] = request.environ.setdefault(DIRECTS_KEY, {})
    if game_id not in answers:
        event_id = events.event_of_game(game_id)
        answers[game_id] = event_id is not None and director_token(event_id) is not None
    return answers[game_id]


def page_source(game_id: str) -> str:
    """How a write from the pages is logged: the director's, or the table's own ("page")."""
    return DIRECTOR_SOURCE if directs_game(game_id) else "page"


# --- a circle's edit rights -----------------------------------------------------------------


def grant_circle(circle_id: str, token: str) -> None:
    """This browser may change the circle (and shows its edit link)."""
    kept = [[c, s] for c, s in _pairs(CIRCLE_SEALS) if c != circle_id]
    session[CIRCLE_SEALS] = [[circle_id, seal(token)], *kept][:CIRCLES_REMEMBERED]
    session.permanent = True
    _circle_rights()[circle_id] = True


def remember_circle(circle_id: str) -> None:
    """Remember a circle this browser opened (its home page lists it)."""
    seen = [c for c in session.get(SEEN_CIRCLES, []) if isinstance(c, str)]
    if seen[:1] != [circle_id]:
        session[SEEN_CIRCLES] = [circle_id, *(c for c in seen if c != circle_id)][
            :CIRCLES_REMEMBERED
        ]


def known_circles() -> list[str]:
    """The circles this browser created, joined or opened."""
    seen = [c for c in session.get(SEEN_CIRCLES, []) if isinstance(c, str)]
    return list(dict.fromkeys([*(c for c, _s in _pairs(CIRCLE_SEALS)), *seen]))


def _circle_rights() -> dict[str, bool]:
    rights: dict[str, bool] = request.environ.setdefault(CIRCLE_RIGHTS_KEY, {})
    return rights


def circle_token(circle_id: str) -> str | None:
    """The circle's edit token, when this browser holds its current one."""
    token = unseal(dict(_pairs(CIRCLE_SEALS)).get(circle_id))
    if token is None:
        return None
    rights = _circle_rights()
    if circle_id not in rights:
        rights[circle_id] = circles.token_matches(circle_id, token)
    return token if rights[circle_id] else None


def can_edit_circle(circle_id: str) -> bool:
    return circle_token(circle_id) is not None


def require_circle_edit(circle_id: str) -> None:
    """Refuse (403) a change from a browser without the circle's current token."""
    if not can_edit_circle(circle_id):
        abort(403, description=str(CIRCLE_READ_ONLY))


# --- the API: bearer tokens ------------------------------------------------------------------


def bearer_token() -> str:
    """The token of ``Authorization: Bearer <token>``, or "" without one."""
    header = request.headers.get("Authorization", "")
    scheme, _space, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def require_bearer(
    matches: Callable[[str], bool],
    exists: Callable[[], bool],
    not_found: Exception,
    needed: str,
    wrong: str,
) -> None:
    """Go on with the right bearer token; else ``not_found`` (a game, circle or club night
    that does not exist: 404, whatever the token), 401 ``needed`` without a token, 403
    ``wrong`` with another one."""
    token = bearer_token()
    if token and matches(token):
        return
    if not exists():
        raise not_found
    if not token:
        abort(401, description=needed)
    abort(403, description=wrong)


def require_circle_token(circle_id: str) -> None:
    """401 without a bearer token, 403 with one that is not this circle's, 404 for no circle."""
    require_bearer(
        lambda token: circles.token_matches(circle_id, token),
        lambda: circles.circle_exists(circle_id),
        CircleNotFound(circle_id),
        _("This needs the circle's edit token: Authorization: Bearer <token>."),
        _("This edit token does not belong to this circle."),
    )
