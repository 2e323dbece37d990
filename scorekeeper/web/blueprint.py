"""The pages' blueprint, ``web``: every feature package adds its routes to it.

One blueprint keeps the endpoint names (``web.game``, ``web.new_deal``…) and
so every URL and ``url_for`` unchanged, whichever package a route lives in;
:mod:`scorekeeper.web.routes` imports them all.
"""

from __future__ import annotations

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

from scorekeeper.store.input import NAME_MAX, NOTE_MAX
from scorekeeper.web import fragments

bp = Blueprint("web", __name__)


@bp.record_once
def _configure(state: BlueprintSetupState) -> None:
    # A deal form can stay open on a phone for a whole game (hours); the CSRF
    # token is still bound to the session, so it need not also expire after 1 hour.
    state.app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    # The limits the store checks, so that the forms' maxlength says the same.
    state.app.jinja_env.globals.update(NAME_MAX=NAME_MAX, NOTE_MAX=NOTE_MAX)
    fragments.init_app(state.app)  # rendered pieces of pages, kept between requests
