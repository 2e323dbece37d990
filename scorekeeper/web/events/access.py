"""Who directs a club night from this browser: the director's token, sealed in the session.

The browser that creates the event holds it at once; another opens the
director's link (``/events/<id>/direct/<token>``) and confirms. The token is
kept sealed (:func:`scorekeeper.web.sharing.access.seal`), because the
director's pages derive each table's edit link from it.
"""

from __future__ import annotations

from flask import abort, session

from scorekeeper.store import events as services
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.sharing.access import seal, unseal

DIRECTING = "event_seals"
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
