"""Who may change a game from this browser: edit rights kept in the session, never a token.

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
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import UTC, datetime

from cryptography.fernet import Fernet, InvalidToken
from flask import Response, abort, current_app, request, session

from scorekeeper.store import games as services
from scorekeeper.store.tokens import hash_token
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


# --- the session's lists ---------------------------------------------------------------------


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
    # Imported here: the club nights' access module builds on this one.
    from scorekeeper.web.events.access import directs_game

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
