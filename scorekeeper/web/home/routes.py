"""The home page and the in-app help."""

from __future__ import annotations

from flask import render_template

from scorekeeper.store import games as services
from scorekeeper.store.events.lists import list_events
from scorekeeper.web.access import can_edit, held_token, known_events, known_games
from scorekeeper.web.blueprint import bp

HOME_NIGHTS = 6
"""Club nights on the home page; ``/events`` lists them all."""


@bp.get("/")
def index() -> str:
    """New game, then this browser's club nights, its games in progress and its finished
    games.

    Only games this browser created, joined or opened are listed: a game's id
    is what lets people read it, so the home page never shows other tables' games.
    """
    in_progress, finished = services.list_games(ids=known_games())
    return render_template(
        "home/index.html",
        in_progress=in_progress,
        finished=finished,
        can_edit=can_edit,
        nights=list_events(known_events()[:HOME_NIGHTS]),
        directs=lambda event_id: held_token(event_id) is not None,
    )


@bp.get("/help")
def help_page() -> str:
    """How to use the app, and the rules (R1–R12) with every house rule in plain words."""
    return render_template("home/help.html")
