"""The pages' blueprint, ``web``: every feature package adds its routes to it.

One blueprint keeps the endpoint names (``web.game``, ``web.new_deal``…) and
so every URL and ``url_for`` unchanged, whichever package a route lives in;
:mod:`scorekeeper.web.routes` imports them all.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from flask import Blueprint, abort, g
from flask.blueprints import BlueprintSetupState
from werkzeug.wrappers import Response

from scorekeeper.store.game_store import heads_remembered
from scorekeeper.store.input import NAME_MAX, NOTE_MAX
from scorekeeper.store.tokens import is_game_id
from scorekeeper.web.server import fragments

bp = Blueprint("web", __name__)

Page = str | tuple[str, int] | Response
"""What a page view returns: its HTML, the HTML with a status, or a response (a redirect)."""


@bp.record_once
def _configure(state: BlueprintSetupState) -> None:
    # A deal form can stay open on a phone for a whole game (hours); the CSRF
    # token is still bound to the session, so it need not also expire after 1 hour.
    state.app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    # The limits the store checks, so that the forms' maxlength says the same.
    state.app.jinja_env.globals.update(NAME_MAX=NAME_MAX, NOTE_MAX=NOTE_MAX)
    fragments.init_app(state.app)  # rendered pieces of pages, kept between requests


@bp.app_url_value_preprocessor
def _refuse_impossible_ids(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """An address whose game id cannot exist (a NUL, a surrogate, too long) is a 404
    before any view runs, so that no query ever carries it."""
    if values and "game_id" in values and not is_game_id(values["game_id"]):
        abort(404)


@bp.before_app_request
def _remember_heads() -> None:
    """A request reads each game's head once, however many times its views ask."""
    g.request_scope = ExitStack()
    g.request_scope.enter_context(heads_remembered())


@bp.teardown_app_request
def _forget_heads(_error: BaseException | None) -> None:
    scope = g.pop("request_scope", None)
    if scope is not None:
        scope.close()
