"""The new club night page's circle: a night held for a circle needs the circle's edit
rights, as the API asks for the circle's edit token.

The director chooses one of the circles this browser may edit (it holds the circle's
current edit token, sealed in its session: :mod:`scorekeeper.web.access`), or
pastes the circle's edit link, which gives this browser those rights as opening the link
would. Without them the page refuses (403) and nothing is written. The chosen circle's
members are listed to tick at the door; other names are typed.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store.circles import services as circles
from scorekeeper.store.circles.errors import CircleNotFound
from scorekeeper.store.events import services
from scorekeeper.store.events.input import parse_new_event_body
from scorekeeper.text.locale import gettext as _
from scorekeeper.web import access
from scorekeeper.web.access import grant_director
from scorekeeper.web.errors import rollback
from scorekeeper.web.events.forms import COMMON_NIGHT_SWITCHES, NIGHT_SWITCHES, NewEventForm
from scorekeeper.web.forms.rules import ALL_PRESETS, preset_switch_values

EDIT_LINK = re.compile(r"/circles/([A-Za-z0-9_-]{1,64})/join/([A-Za-z0-9_-]{1,200})/?$")
SHOW_MEMBERS = "members"
"""The ``step`` of the form's "Show its members" button: choose the circle, create nothing."""


def editable_circles() -> list[circles.CircleData]:
    """The circles this browser may change, to offer on the page."""
    found = []
    for circle_id in access.known_circles():
        if not access.can_edit_circle(circle_id):
            continue
        try:
            found.append(circles.load_circle(circle_id))
        except CircleNotFound:
            continue
    return found


def choose_circle(form: NewEventForm) -> tuple[circles.CircleData | None, int]:
    """The circle the night is held for (None: no circle), and the page's status: 200,
    403 (no rights over it: the reason is on the form) or 422 (a link that is none)."""
    pasted = (form.circle_link.data or "").strip()
    if pasted:
        try:
            found = EDIT_LINK.search(urlsplit(pasted).path)
        except ValueError:  # not even a URL ("http://[")
            found = None
        if found is None:
            form.add_error(
                "circle_link",
                _("This is not a circle's edit link: copy it from the circle's page."),
            )
            return None, 422
        circle_id, token = found.groups()
        if not circles.token_matches(circle_id, token):
            form.add_error("circle_link", str(access.CIRCLE_READ_ONLY))
            return None, 403
        access.grant_circle(circle_id, token)
        form.circle.data, form.circle_link.data = circle_id, ""
    circle_id = (form.circle.data or "").strip()
    if not circle_id:
        return None, 200
    if not access.can_edit_circle(circle_id):
        form.add_error(
            "circle",
            _(
                "This phone cannot hold a night for this circle: paste the circle's edit "
                "link, or open it on this phone first."
            ),
        )
        return None, 403
    circle = circles.load_circle(circle_id)
    form.members.choices = [(m.name, m.name) for m in circle.members]
    return circle, 200


def showing_members() -> bool:
    """The director asked to see the chosen circle's members (nothing is created)."""
    return request.form.get("step") == SHOW_MEMBERS


def create_event(form: NewEventForm) -> Response | None:
    """Create the night from the form, or put the engine's problems on it (None)."""
    try:
        event, token = services.create_event(parse_new_event_body(form.body()))
    except RulesError as error:
        rollback()
        form.add_problems(error.problems)
        return None
    grant_director(event.id, token)
    flash(
        _(
            "The club night is ready. Keep its director's link below (copy it, or "
            "scan it with another phone): it gives the director's role back on any "
            "device. Then draw the first round."
        ),
        "success",
    )
    return redirect(url_for("web.event", event_id=event.id, _anchor="director-link"))


def page(form: NewEventForm, circle: circles.CircleData | None, status: int) -> tuple[str, int]:
    return render_template(
        "events/new_event.html",
        form=form,
        circle=circle,
        circles=editable_circles(),
        presets=list(ALL_PRESETS),
        preset_values=preset_switch_values(),
        common=COMMON_NIGHT_SWITCHES,
        more=[name for name in NIGHT_SWITCHES if name not in COMMON_NIGHT_SWITCHES],
        defaults=RuleSet(),
    ), status


def late_members(event: services.EventView) -> list[str]:
    """A circle's night: the circle's members not yet in it, offered for a late arrival."""
    if event.circle_id is None:
        return []
    here = {p.name.casefold() for p in event.players}
    try:
        members = circles.load_circle(event.circle_id).members
    except CircleNotFound:
        return []
    return [m.name for m in members if m.name.casefold() not in here]
