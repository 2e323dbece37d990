"""Who may change a circle from this browser: its token sealed in the session.

Like a game's owner (:mod:`scorekeeper.web.sharing.access`), a browser that
created a circle, or opened its edit link and confirmed, keeps the circle's
edit token *sealed* (encrypted and authenticated) in the session cookie, so
that the circle page can show the edit link again. Each proof is checked
against the circle's stored hash: replacing the token ends every other
browser's rights at its next request. A game's rights and a circle's are
kept apart: neither gives the other.
"""

from __future__ import annotations

from flask import abort, request, session

from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleNotFound
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.api.checks import require_bearer
from scorekeeper.web.sharing.access import seal, unseal

CIRCLE_SEALS = "circle_seals"
SEEN_CIRCLES = "seen_circles"
REMEMBERED = 8
"""Circles remembered per browser (about 160 bytes each in the cookie)."""
RIGHTS_KEY = "scorekeeper.circle_rights"
READ_ONLY = _l(
    "You can look at this circle, but this phone cannot change it: "
    "open the circle's edit link on this phone first."
)


def _pairs() -> list[tuple[str, str]]:
    raw = session.get(CIRCLE_SEALS, [])
    pairs = raw if isinstance(raw, list) else []
    return [
        (p[0], p[1])
        for p in pairs
        if isinstance(p, list | tuple) and len(p) == 2 and all(isinstance(x, str) for x in p)
    ]


def grant(circle_id: str, token: str) -> None:
    """This browser may change the circle (and shows its edit link)."""
    kept = [[c, s] for c, s in _pairs() if c != circle_id]
    session[CIRCLE_SEALS] = [[circle_id, seal(token)], *kept][:REMEMBERED]
    session.permanent = True
    _rights()[circle_id] = True


def remember_seen(circle_id: str) -> None:
    """Remember a circle this browser opened (its home page lists it)."""
    seen = [c for c in session.get(SEEN_CIRCLES, []) if isinstance(c, str)]
    if seen[:1] != [circle_id]:
        session[SEEN_CIRCLES] = [circle_id, *(c for c in seen if c != circle_id)][:REMEMBERED]


def known_circles() -> list[str]:
    """The circles this browser created, joined or opened."""
    seen = [c for c in session.get(SEEN_CIRCLES, []) if isinstance(c, str)]
    return list(dict.fromkeys([*(c for c, _s in _pairs()), *seen]))


def _rights() -> dict[str, bool]:
    rights: dict[str, bool] = request.environ.setdefault(RIGHTS_KEY, {})
    return rights


def circle_token(circle_id: str) -> str | None:
    """The circle's edit token, when this browser holds its current one."""
    token = unseal(dict(_pairs()).get(circle_id))
    if token is None:
        return None
    rights = _rights()
    if circle_id not in rights:
        rights[circle_id] = services.token_matches(circle_id, token)
    return token if rights[circle_id] else None


def can_edit_circle(circle_id: str) -> bool:
    return circle_token(circle_id) is not None


def require_circle_edit(circle_id: str) -> None:
    """Refuse (403) a change from a browser without the circle's current token."""
    if not can_edit_circle(circle_id):
        abort(403, description=str(READ_ONLY))


# --- the API: the circle's edit token as a bearer token ---------------------------------------


def require_circle_token(circle_id: str) -> None:
    """401 without a bearer token, 403 with one that is not this circle's, 404 for no circle."""
    require_bearer(
        lambda token: services.token_matches(circle_id, token),
        lambda: services.circle_exists(circle_id),
        CircleNotFound(circle_id),
        _("This needs the circle's edit token: Authorization: Bearer <token>."),
        _("This edit token does not belong to this circle."),
    )
