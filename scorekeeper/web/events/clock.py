"""The round clock on the director's page: how long a round should take (the board
counts each round down from its draw and warns near the end), or no clock."""

from __future__ import annotations

from flask import flash, redirect, request, url_for

from scorekeeper.rules.errors import RulesError
from scorekeeper.store.events import clock
from scorekeeper.text.locale import format_number, latin_digits, ngettext
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.access import require_director
from scorekeeper.web.blueprint import Page, bp
from scorekeeper.web.events.routes import _refused
from scorekeeper.web.forms import WHOLE_NUMBER


@bp.post("/events/<event_id>/clock")
def set_event_clock(event_id: str) -> Page:
    """Set the round's length in minutes (empty: no round clock)."""
    require_director(event_id)
    typed = str(request.form.get("round_minutes", "")).strip()
    latin = latin_digits(typed)
    if typed and not WHOLE_NUMBER.fullmatch(latin):
        return _not_a_number(event_id, typed)
    try:
        minutes = clock.parse_round_minutes(latin)
        clock.set_round_clock(event_id, minutes)
    except RulesError as error:
        return _refused(event_id, error)
    if minutes is None:
        flash(_("The round clock is off."), "success")
    else:
        flash(
            ngettext(
                "A round lasts %(num)s minute: the board counts it down from the draw.",
                "A round lasts %(num)s minutes: the board counts it down from the draw.",
                minutes,
                num=format_number(minutes),
            ),
            "success",
        )
    return redirect(url_for("web.event", event_id=event_id, _anchor="round-clock"))


def _not_a_number(event_id: str, typed: str) -> Page:
    """The event page again, saying the box's text is no number (nothing was saved)."""
    field = _("Minutes a round (empty: no round clock)")
    flash(_("%(field)s: “%(text)s” is not a whole number.", field=field, text=typed), "error")
    return redirect(url_for("web.event", event_id=event_id, _anchor="round-clock"))
