"""A page form's write named by the phone: the ``entry_id`` field the offline script adds.

When a game is kept offline, its deal forms, undo and redeal are sent by the
offline script (static/offline/offline.js) with an ``entry_id`` made on the
phone. If the network fails before the answer comes, the same entry goes to
the outbox under the same id; whether or not the first copy reached the
server, it is written once. Without JavaScript the field is absent and the
write is unnamed, as before.
"""

from __future__ import annotations

from flask import Flask, flash, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.rules.errors import RulesError
from scorekeeper.store import games as services
from scorekeeper.store.input import parse_entry_id
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.errors import rollback

FIELD = "entry_id"


def form_entry_id() -> str | None:
    """The posted ``entry_id``, or None (absent, or not an id: the write stays unnamed)."""
    raw = request.form.get(FIELD, "")
    if not raw:
        return None
    try:
        return parse_entry_id(raw)
    except RulesError:
        return None


def already_written(done: services.AlreadyWritten) -> Response:
    """A page form sent again after its first copy was written: the game, as after it."""
    flash(_("This was already saved; it was not saved twice."), "success")
    return redirect(url_for("web.game", game_id=done.loaded.id))


def written_once(done: services.AlreadyWritten) -> Response:
    """The handler: nothing of the second copy is kept, and the page is the first's."""
    rollback()
    return already_written(done)


def register_errors(app: Flask) -> None:
    app.register_error_handler(services.AlreadyWritten, written_once)
