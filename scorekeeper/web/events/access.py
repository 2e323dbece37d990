"""Who directs a club night from this browser: the director's token, sealed in the session.

The browser that creates the event holds it at once; another opens the
director's link (``/events/<id>/direct/<token>``) and confirms. The token is
kept sealed (:func:`scorekeeper.web.sharing.access.seal`), because the
director's pages derive each table's edit link from it.
"""

from __future__ import annotations

from flask import abort, request, session

from scorekeeper.store.events import services
from scorekeeper.store.events.results import DIRECTOR_SOURCE
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.sharing.access import seal, unseal

DIRECTING = "event_seals"
DIRECTS_KEY = "scorekeeper.directs_game"
REMEMBERED = 6
NOT_DIRECTOR = _l(
    "Only the director of this club night can do this: open the director's link on this "
    "device first."
)


def grant_director(event_id: str, token: str) -> None:
    kept = [pair for pair in session.get(DIRECTING, []) if pair[0] != event_id]
    session[DIRECTING] = [[event_id, seal(token)], *kept][:REMEMBERED]


def director_token(event_id: str) -> str | None:
    """This browser's director token for the event, if it holds the current one."""
    for kept_id, sealed in session.get(DIRECTING, []):
        if kept_id == event_id:
            token = unseal(sealed)
            if token and services.director_matches(event_id, token):
                return token
    return None


def require_director(event_id: str) -> str:
    token = director_token(event_id)
    if token is None:
        abort(403, description=str(NOT_DIRECTOR))
    return token


def directs_game(game_id: str) -> bool:
    """Whether this browser directs the club night whose table plays ``game_id``.

    Only the director's own proof counts (the token sealed by the director's link), never a
    table's edit link. A browser directing nothing asks the database nothing.
    """
    if not session.get(DIRECTING):
        return False
    answers: dict[str, bool] = request.environ.setdefault(DIRECTS_KEY, {})
    if game_id not in answers:
        event_id = services.event_of_game(game_id)
        answers[game_id] = event_id is not None and director_token(event_id) is not None
    return answers[game_id]


def page_source(game_id: str) -> str:
    """How a write from the pages is logged: the director's, or the table's own ("page")."""
    return DIRECTOR_SOURCE if directs_game(game_id) else "page"
