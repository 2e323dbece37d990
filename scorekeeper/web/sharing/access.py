"""Who may change a game from this browser: edit tokens kept in the session.

A browser may edit a game while its session holds the game's current edit
token: the browser that created the game gets it at once, another phone by
opening the game's edit link (:mod:`scorekeeper.web.sharing.routes`). Every check
compares the held token with the hash stored on the game (constant time), so
when the owner replaces the token (revokes the edit links), every other
phone's edit rights end with its next request.

The session (a signed, HttpOnly cookie, kept for a month) holds:

- ``edit_games``: ids of the games this browser can edit, most recent first;
- ``edit_tokens``: their edit tokens (to check them, and to show the edit link);
- ``own_games``: the games this browser created (only they may revoke);
- ``seen_games``: the games this browser opened (the home page lists only
  games it knows, so that no one learns another table's game id).

Only the most recent games are remembered, to keep the cookie small. The
cookie lasts a month after the last visit: it is sent again when it changes,
and otherwise at most once a day (``renewed``), not with every page
(:func:`renew_daily`; ``SESSION_REFRESH_EACH_REQUEST`` is off).
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Response, abort, request, session

from scorekeeper.store import games as services
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.blueprint import bp

EDIT_GAMES = "edit_games"
EDIT_TOKENS = "edit_tokens"
OWN_GAMES = "own_games"
SEEN_GAMES = "seen_games"
RENEWED = "renewed"
REMEMBERED = 20
"""Games remembered per browser and per list: about 70 bytes each in the cookie."""
READ_ONLY = _l(
    "You can follow this game's scores, but this phone cannot change them: "
    "open the game's edit link on this phone to enter deals."
)
RIGHTS_KEY = "scorekeeper.edit_rights"
NOT_OWNER = _l("Only the phone that started this game can replace its edit link.")


@bp.after_app_request
def renew_daily(response: Response) -> Response:
    """Send a remembered browser's cookie again once a day, so that it lasts a month past
    the last visit, without a multi-kilobyte ``Set-Cookie`` on every page."""
    if session.accessed and session.permanent:
        today = datetime.now(UTC).date().isoformat()
        if session.get(RENEWED) != today:
            session[RENEWED] = today
    return response


def _remember(key: str, game_id: str) -> list[str]:
    """Put ``game_id`` first in the session list ``key`` (if not already first)."""
    games = [g for g in session.get(key, []) if isinstance(g, str)]
    if games[:1] != [game_id]:
        games = [game_id, *(x for x in games if x != game_id)][:REMEMBERED]
        session[key] = games
    return games


def grant_edit(game_id: str, token: str) -> None:
    """Give this browser edit rights for ``game_id`` with ``token`` (most recent first)."""
    games = _remember(EDIT_GAMES, game_id)
    tokens = dict(session.get(EDIT_TOKENS, {}))
    tokens[game_id] = token
    session[EDIT_TOKENS] = {x: tokens[x] for x in games if x in tokens}
    session.permanent = True
    _rights()[game_id] = True


def mark_owner(game_id: str) -> None:
    """Remember that this browser created ``game_id``."""
    _remember(OWN_GAMES, game_id)
    session.permanent = True


def remember_seen(game_id: str) -> None:
    """Remember that this browser opened ``game_id`` (for its home page)."""
    _remember(SEEN_GAMES, game_id)


def known_games() -> list[str]:
    """The games this browser can edit or has opened."""
    games = [*session.get(EDIT_GAMES, []), *session.get(SEEN_GAMES, [])]
    return list(dict.fromkeys(g for g in games if isinstance(g, str)))


def held_token(game_id: str) -> str | None:
    """The edit token the session holds for ``game_id``, checked or not."""
    tokens = session.get(EDIT_TOKENS, {})
    token = tokens.get(game_id) if isinstance(tokens, dict) else None
    return token if isinstance(token, str) else None


def _rights() -> dict[str, bool]:
    """This request's answers, so that a page asks the database once per game.

    Kept in the request's environ, not in ``g``: an app context (and its ``g``)
    may outlive one request, as in tests.
    """
    rights: dict[str, bool] = request.environ.setdefault(RIGHTS_KEY, {})
    return rights


def can_edit(game_id: str) -> bool:
    """Whether this browser holds the game's current edit token."""
    rights = _rights()
    if game_id not in rights:
        token = held_token(game_id)
        rights[game_id] = token is not None and services.token_matches(game_id, token)
    return rights[game_id]


def edit_token(game_id: str) -> str | None:
    """The edit token this browser holds for ``game_id``, if it is still valid."""
    return held_token(game_id) if can_edit(game_id) else None


def is_owner(game_id: str) -> bool:
    """Whether this browser created ``game_id`` (and still holds its edit token)."""
    return game_id in session.get(OWN_GAMES, []) and can_edit(game_id)


def require_edit(game_id: str) -> None:
    """Refuse (403) a write from a browser without edit rights for ``game_id``."""
    if not can_edit(game_id):
        abort(403, description=READ_ONLY)


def require_owner(game_id: str) -> None:
    """Refuse (403) what only the game's creator may do."""
    if not is_owner(game_id):
        abort(403, description=NOT_OWNER)
