"""The new club night page's circle: a night held for a circle needs the circle's edit
rights, as the API asks for the circle's edit token.

The director chooses one of the circles this browser may edit (it holds the circle's
current edit token, sealed in its session: :mod:`scorekeeper.web.circles.access`), or
pastes the circle's edit link, which gives this browser those rights as opening the link
would. Without them the page refuses (403) and nothing is written. The chosen circle's
members are listed to tick at the door; other names are typed.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import request

from scorekeeper.store.circles import services as circles
from scorekeeper.store.circles.errors import CircleNotFound
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.circles import access
from scorekeeper.web.events.forms import NewEventForm

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
        found = EDIT_LINK.search(urlsplit(pasted).path)
        if found is None:
            form.add_error(
                "circle_link",
                _("This is not a circle's edit link: copy it from the circle's page."),
            )
            return None, 422
        circle_id, token = found.groups()
        if not circles.token_matches(circle_id, token):
            form.add_error("circle_link", str(access.READ_ONLY))
            return None, 403
        access.grant(circle_id, token)
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
