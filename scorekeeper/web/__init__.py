"""The HTML pages (blueprint ``web``): home, games, deals, help and error pages.

Views are thin (STYLE.md §11): a form checks the shape of what was typed,
:mod:`scorekeeper.services` loads the game, asks the rules engine and
writes, and the view redirects (post/redirect/get) or shows the form again
with the engine's problems next to the right fields.
"""

from __future__ import annotations

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

bp = Blueprint("web", __name__)

from scorekeeper.web import backup, fragments, live  # noqa: E402,F401  (routes: backups, live)


@bp.record_once
def _configure(state: BlueprintSetupState) -> None:
    # A deal form can stay open on a phone for a whole game (hours); the CSRF
    # token is still bound to the session, so it need not also expire after 1 hour.
    state.app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    fragments.init_app(state.app)  # rendered pieces of pages, kept between requests


from scorekeeper.web import (  # noqa: E402,F401  (routes; dispute_*: the dispute desk)
    deals,
    dispute_claims,
    disputes,
    errors,
    games,
    pages,
    sharing,
)
