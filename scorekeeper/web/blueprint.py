"""The pages' blueprint, ``web``: every feature package adds its routes to it.

One blueprint keeps the endpoint names (``web.game``, ``web.new_deal``…) and
so every URL and ``url_for`` unchanged, whichever package a route lives in;
:func:`scorekeeper.create_app` imports them all. Here too: what every page view
shares (loading a game or a 404, the ``Page`` type) and the templates' filters.
"""

from __future__ import annotations

from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, current_app, g
from flask.blueprints import BlueprintSetupState
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from scorekeeper.rules.contracts import Contract
from scorekeeper.store import games as services
from scorekeeper.store.game_store import heads_remembered
from scorekeeper.store.input import NAME_MAX, NOTE_MAX
from scorekeeper.store.tokens import is_game_id
from scorekeeper.text.cards import card_name, card_names
from scorekeeper.text.locale import (
    bdi,
    format_number,
    isolate,
    localize_digits,
    ltr,
)
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import describe_contracts
from scorekeeper.text.rule_words import contract_list
from scorekeeper.web.language import per_render
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


# --- what every page view shares, and the templates' filters ---------------------------

SYMBOLS = {
    Contract.KING: "K♥",
    Contract.QUEENS: "Q",
    Contract.DIAMONDS: "♦",
    Contract.COLLECTIONS: "▤",
    Contract.TRIX: "♠♥♦♣",
}
"""A short mark per contract: K♥; a queen; a diamond; a pile of tricks; Trix's four suit
rows (never a bare "J", which reads as the Arabic letter ل)."""
RED = frozenset({Contract.KING, Contract.DIAMONDS})

NOT_FOUND = _l("There is no game at this address. Check the link, or start a new game.")


def load_or_404(game_id: str) -> services.LoadedGame:
    """The game replayed from its log (one load per request), or a 404 page."""
    try:
        return services.load_game(game_id)
    except services.GameNotFound:
        abort(404, description=NOT_FOUND)


def score_filter(value: int | None) -> str:
    """A score in the chosen digits, with a real minus sign, kept left to right: ``−75``."""
    return isolate(format_number(value))


bp.add_app_template_filter(per_render(score_filter), "score")


@bp.app_template_filter("card_name")
def card_name_filter(card: str) -> str:
    """``Q♠`` said in words, for a screen reader: ``queen of spades``."""
    return card_name(card)


bp.add_app_template_global(card_names, "card_names")


@bp.app_template_filter("symbol")
def symbol_filter(contract: Contract) -> str:
    return SYMBOLS[contract]


@bp.app_template_filter("red")
def red_filter(contract: Contract) -> bool:
    return contract in RED


@bp.app_template_filter("contracts")
def contracts_filter(contracts: Any) -> str:
    """Contracts (or their values) named for people, translated: ``King of Hearts + Queens``."""
    return describe_contracts(c if isinstance(c, Contract) else Contract(c) for c in contracts)


@bp.app_template_filter("contract_list")
def contract_list_filter(contracts: Any) -> str:
    """Contracts listed in their order, translated: ``Trix, Queens, King of Hearts``."""
    return contract_list(contracts)


def when_filter(moment: datetime | None) -> Markup:
    """A moment as ``<time>``: ``2025-05-01 21:07 UTC`` (left to right), which
    ``static/app.js`` turns into the phone's own time zone and the page's language."""
    if moment is None:
        return Markup("")
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    shown = ltr(localize_digits(utc.strftime("%Y-%m-%d %H:%M UTC")))
    return Markup('<time datetime="{}" data-local-time>{}</time>').format(utc.isoformat(), shown)


bp.add_app_template_filter(per_render(when_filter), "when")


@bp.app_template_filter("names")
def names_filter(names: Any, separator: str = " & ") -> Markup:
    """Players' names joined, each set apart (``<bdi>``): ``Rana & Omar``."""
    return escape(separator).join(bdi(name) for name in names)


@bp.app_template_filter("seat_names")
def seat_names_filter(seats: Any, names: Any) -> list[str]:
    """Seats as the players' names: ``[0, 2]|seat_names(names)``."""
    return [names[seat] for seat in seats]


@bp.app_template_global("has_endpoint")
def has_endpoint(name: str) -> bool:
    """Whether the app serves ``name`` (the PDF sheet lives in its own blueprint)."""
    return name in current_app.view_functions
