"""Deals: enter one, look at one (with its revisions), correct one."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game import DealEntry, DealRecord
from scorekeeper.rules.ruleset import Dealer
from scorekeeper.store import games as services
from scorekeeper.text.locale import format_number
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.access import can_edit, page_source, require_edit
from scorekeeper.web.blueprint import Page, bp, load_or_404
from scorekeeper.web.deals.forms import DealForm, deal_form_data, make_deal_form
from scorekeeper.web.deals.same_deal import position_data, render_same_deal, taken_or
from scorekeeper.web.errors import Refused, refusal_text, try_form_write
from scorekeeper.web.games.present import build_board, combinable, parse_contracts, revision_views
from scorekeeper.web.offline.page_writes import form_entry_id

BAD_CONTRACTS = _l(
    "This address names a contract that does not exist. Choose one on the game page."
)


def _contracts_from_query(default: tuple[Contract, ...] = ()) -> tuple[Contract, ...]:
    contracts = parse_contracts(request.args.getlist("contracts"))
    if contracts is None:
        abort(400, description=BAD_CONTRACTS)
    return contracts or default


@bp.route("/games/<game_id>/deals/new", methods=["GET", "POST"])
def new_deal(game_id: str) -> Page:
    """A form made for the chosen contract(s): ``?contracts=queens`` (POST to the same URL)."""
    loaded = load_or_404(game_id)
    require_edit(game_id)
    contracts = _contracts_from_query()
    if not contracts:
        return _render_picker(loaded)
    game = loaded.game
    needs_king = game.needs_king or services.asks_first_king(loaded)
    form = make_deal_form(
        contracts, loaded.rules, loaded.players, needs_king, data=position_data(loaded)
    )
    if not form.is_submitted():
        _precheck(form, loaded)
        return _render_deal(loaded, form)
    played = form.played()
    if not form.validate():
        return _render_deal(loaded, form, status=422)
    entry, version = form.to_entry(), form.version.data
    outcome = try_form_write(
        lambda: taken_or(
            lambda: services.record_deal(
                game_id,
                entry,
                expected_version=version,
                source=page_source(game_id),
                entry_id=form_entry_id(),
                position=form.position(),
                played_at=played,
            )
        ),
        form,
        loaded,
    )
    if isinstance(outcome, services.PositionTaken):
        # Never turned into the next deal's form: the scorer says whether it is the same deal.
        return render_same_deal(outcome, form, contracts)
    if isinstance(outcome, Refused):
        return _render_deal(outcome.loaded, form, outcome.messages, outcome.status)
    _loaded, n = outcome
    recorded = _(
        "Deal %(n)s recorded: %(contracts)s.", n=format_number(n), contracts=form.contract_text
    )
    flash(recorded, "success")
    # The top of the game page: what was recorded, whose turn it is, the next contracts.
    return redirect(url_for("web.game", game_id=game_id))


def _precheck(form: DealForm, loaded: services.LoadedGame) -> None:
    """Before anything is typed, say so if the contract cannot be played now (R2, R12)."""
    try:
        loaded.game.verify(DealEntry(form.contracts, Captures()))
    except RulesError as err:
        form.add_problems(p for p in err.problems if p.field in (None, "contracts"))


def _render_picker(loaded: services.LoadedGame) -> tuple[str, int]:
    """No contract chosen yet: the contract buttons, and combinations under R9.6."""
    game = loaded.game
    return render_template(
        "deals/deal_picker.html",
        loaded=loaded,
        names=loaded.players,
        contracts=game.available_contracts,
        combinable=combinable(loaded.rules, game.available_contracts),
    ), 200


def _render_deal(
    loaded: services.LoadedGame,
    form: DealForm,
    message: list[str] | None = None,
    status: int = 200,
    n: int | None = None,
) -> tuple[str, int]:
    game = loaded.game
    king = None if n is None and "seven" in form.sections else _deal_king(loaded, n)
    contracts = ",".join(c.value for c in form.contracts)
    if n:
        action = url_for("web.edit_deal", game_id=loaded.id, n=n, contracts=contracts)
    else:
        action = url_for("web.new_deal", game_id=loaded.id, contracts=contracts)
    return render_template(
        "deals/deal_form.html",
        loaded=loaded,
        game=game,
        names=loaded.players,
        form=form,
        king=king,
        dealer=_deal_dealer(loaded, n),
        n=n,
        next_deal=n or game.deals_played + 1,
        board=build_board(game, loaded.log),
        message=message,
        action=action,
    ), status


def _deal_king(loaded: services.LoadedGame, n: int | None) -> int | None:
    if n is None:
        return loaded.game.current_king
    deal = _deal_record(loaded, n)
    return deal.king if deal else None


def _deal_dealer(loaded: services.LoadedGame, n: int | None) -> int | None:
    """Who deals (or dealt) this deal when R2's dealer rules make him not the king; else None."""
    if n is None:
        return None if loaded.rules.dealer is Dealer.KING else loaded.game.current_dealer
    deal = _deal_record(loaded, n)
    return deal.dealer if deal else None


def _deal_record(loaded: services.LoadedGame, n: int) -> DealRecord | None:
    return next((d for d in loaded.game.deals if d.n == n), None)


def _log_row(loaded: services.LoadedGame, n: int) -> services.LogRow:
    try:
        return loaded.deal_row(n)
    except services.DealNotFound as missing:
        abort(404, description=refusal_text(missing))


@bp.get("/games/<game_id>/deals/<int:n>")
def deal(game_id: str, n: int) -> str:
    """One deal: what each player took, the scores, and every change made to it."""
    loaded = load_or_404(game_id)
    row = _log_row(loaded, n)
    return render_template(
        "deals/deal.html",
        loaded=loaded,
        names=loaded.players,
        deal=_deal_record(loaded, n),
        row=row,
        revisions=revision_views(services.deal_revisions(game_id, n)),
        editable=can_edit(game_id),
    )


@bp.route("/games/<game_id>/deals/<int:n>/edit", methods=["GET", "POST"])
def edit_deal(game_id: str, n: int) -> Page:
    """Correct deal ``n``; the service re-validates every later deal and refuses a break."""
    loaded = load_or_404(game_id)
    require_edit(game_id)
    entry = _log_row(loaded, n).entry
    assert isinstance(entry, DealEntry)  # rows with a deal number are deals
    contracts = _contracts_from_query(entry.contracts)
    data = deal_form_data(entry, loaded.version) if contracts == entry.contracts else {}
    data["version"] = loaded.version
    form = make_deal_form(
        contracts, loaded.rules, loaded.players, entry.king is not None, data=data
    )
    if not form.is_submitted():
        return _render_deal(loaded, form, n=n)
    if not form.validate():
        return _render_deal(loaded, form, status=422, n=n)
    entry, version = form.to_entry(), form.version.data
    outcome = try_form_write(
        lambda: services.edit_deal(
            game_id, n, entry, version, page_source(game_id), form_entry_id()
        ),
        form,
        loaded,
    )
    if isinstance(outcome, Refused):
        return _render_deal(outcome.loaded, form, outcome.messages, outcome.status, n=n)
    corrected = _(
        "Deal %(n)s corrected: %(contracts)s. Every later deal still adds up.",
        n=format_number(n),
        contracts=form.contract_text,
    )
    flash(corrected, "success")
    # The top of the game page: what was recorded, whose turn it is, the next contracts.
    return redirect(url_for("web.game", game_id=game_id))
