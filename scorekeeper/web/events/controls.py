"""The director's ways back on the pages: reopen a closed night, undo a round's draw, the
director's and co-director's links (with their QR codes), and this browser's club nights.

Undoing a draw and revoking the co-director's link ask first
(:mod:`scorekeeper.web.events.confirm`); reopening throws nothing away.
"""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from scorekeeper.rules.errors import RulesError
from scorekeeper.store.events import controls as event_controls
from scorekeeper.store.events import services as services
from scorekeeper.store.events.lists import list_events
from scorekeeper.text.locale import format_number
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.access import (
    directing,
    held_token,
    known_events,
    require_director,
    require_main_director,
)
from scorekeeper.web.blueprint import Page, bp
from scorekeeper.web.events.confirm import confirmed, revoke_question, undo_draw_question
from scorekeeper.web.events.routes import _refused, event_page_for
from scorekeeper.web.paper.qr import qr_svg


@bp.get("/events")
def events_list() -> str:
    """The club nights this browser directs or opened, most recent first."""
    ids = known_events()
    return render_template(
        "events/index.html",
        nights=list_events(ids),
        directs=lambda event_id: held_token(event_id) is not None,
    )


@bp.post("/events/<event_id>/reopen")
def reopen_club_night(event_id: str) -> Page:
    require_director(event_id)
    event_controls.reopen_event(event_id)
    flash(_("The club night is open again: its tables play on and rounds can be drawn."), "success")
    return redirect(url_for("web.event", event_id=event_id))


@bp.post("/events/<event_id>/rounds/<int:number>/undo")
def undo_event_draw(event_id: str, number: int) -> Page:
    """Undo the last round's draw while none of its tables has a deal (asks first)."""
    require_director(event_id)
    loaded = services.load_event(event_id)
    if not confirmed() and 1 <= number <= len(loaded.drawn):
        return event_page_for(event_id, undo_draw_question(loaded, number))
    try:
        event_controls.undo_draw(event_id, number)
    except RulesError as error:
        return _refused(event_id, error)
    flash(
        _("The draw of round %(n)s is undone: draw it again when ready.", n=format_number(number)),
        "success",
    )
    return redirect(url_for("web.event", event_id=event_id))


@bp.post("/events/<event_id>/co-director")
def give_co_director(event_id: str) -> Page:
    """A new co-director's link (the previous one stops working)."""
    token = require_main_director(event_id)
    event_controls.give_co_director(event_id, token)
    flash(
        _(
            "Here is the co-director's link: whoever opens it has the director's rights on "
            "this night, until you revoke it."
        ),
        "success",
    )
    return redirect(url_for("web.event", event_id=event_id, _anchor="co-director"))


@bp.post("/events/<event_id>/co-director/revoke")
def revoke_co_director(event_id: str) -> Page:
    require_main_director(event_id)
    if not confirmed():
        return event_page_for(event_id, revoke_question(services.load_event(event_id)))
    event_controls.revoke_co_director(event_id)
    flash(_("The co-director's link no longer works."), "success")
    return redirect(url_for("web.event", event_id=event_id, _anchor="co-director"))


@bp.get("/events/<event_id>/qr/<any(direct, co_director):link>.svg")
def event_link_qr(event_id: str, link: str) -> Response:
    """The QR code of this device's director's link, or of the co-director's link (for the
    director). Never kept by a cache: the image is the token itself."""
    if link == "direct":
        role, token = directing(event_id), held_token(event_id)
        if role is None or token is None:
            abort(403)
    else:
        current = event_controls.current_co_director(event_id, require_main_director(event_id))
        if current is None:
            abort(404)
        token = current.token
    url = url_for("web.direct", event_id=event_id, token=token, _external=True)
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response
