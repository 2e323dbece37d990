"""Who directs a club night from this browser: the director's token, sealed in the session.

The browser that creates the event holds it at once; another opens the
director's link (``/events/<id>/direct/<token>``) and confirms, on any device.
The co-director's link works the same way and gives the same rights, but for
giving or revoking that link. The token is kept sealed
(:func:`scorekeeper.web.sharing.access.seal`), because the director's pages
derive each table's edit link from it; the session is made permanent (a year
past the last visit), so closing the browser does not end the role.

This browser's club nights (directed or opened) are remembered too, for the
home page and ``/events``: ids only, like the games it knows.
"""

from __future__ import annotations

from flask import abort, request, session

from scorekeeper.store.events import controls as event_controls
from scorekeeper.store.events import services
from scorekeeper.store.events.controls import Directing
from scorekeeper.store.events.results import DIRECTOR_SOURCE
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.sharing.access import seal, unseal

DIRECTING = "event_seals"
SEEN_EVENTS = "seen_events"
DIRECTS_KEY = "scorekeeper.directs_game"
ROLES_KEY = "scorekeeper.event_roles"
REMEMBERED = 6
"""Club nights directed from one browser: about 150 bytes each in the cookie."""
SEEN = 20
"""Club nights listed for one browser: about 20 bytes each."""
NOT_DIRECTOR = _l(
    "Only the director of this club night can do this: open the director's link on this "
    "device first."
)
NOT_MAIN_DIRECTOR = _l(
    "Only the director (not a co-director) can give or revoke the co-director's link."
)


def grant_director(event_id: str, token: str) -> None:
    kept = [pair for pair in session.get(DIRECTING, []) if pair[0] != event_id]
    session[DIRECTING] = [[event_id, seal(token)], *kept][:REMEMBERED]
    session.permanent = True
    remember_event(event_id)


def remember_event(event_id: str) -> None:
    """Put ``event_id`` first among the club nights this browser knows."""
    seen = [e for e in session.get(SEEN_EVENTS, []) if isinstance(e, str)]
    if seen[:1] != [event_id]:
        session[SEEN_EVENTS] = [event_id, *(e for e in seen if e != event_id)][:SEEN]
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
        event_id = services.event_of_game(game_id)
        answers[game_id] = event_id is not None and director_token(event_id) is not None
    return answers[game_id]


def page_source(game_id: str) -> str:
    """How a write from the pages is logged: the director's, or the table's own ("page")."""
    return DIRECTOR_SOURCE if directs_game(game_id) else "page"
