"""Small helpers shared by the page views: loading a game, template filters."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import abort, current_app
from markupsafe import Markup, escape

from scorekeeper.rules.contracts import Contract
from scorekeeper.store import games as services
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
from scorekeeper.web.blueprint import bp
from scorekeeper.web.games.present import RED, SYMBOLS
from scorekeeper.web.language import per_render

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
