"""Games: start one, its page (the scoreboard), redeals and undo."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, make_response, redirect, render_template, url_for

from scorekeeper.rules.contracts import ALL_CONTRACTS
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.store.events import services as event_services
from scorekeeper.store.rematches import start_rematch
from scorekeeper.store.tokens import new_edit_token
from scorekeeper.text.locale import format_number, isolate_name
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import describe_contracts
from scorekeeper.web.access import (
    can_edit,
    directs_game,
    grant_edit,
    grant_owner,
    is_owner,
    page_source,
    remember_seen,
    require_edit,
    seal,
    unseal,
)
from scorekeeper.web.blueprint import Page, bp, load_or_404
from scorekeeper.web.deals.forms import RedealForm, UndoForm, redeal_choices
from scorekeeper.web.errors import Refused, try_form_write
from scorekeeper.web.forms.rules import (
    ALL_PRESETS,
    COMMON_SWITCHES,
    SWITCHES,
    offer_rule_choices,
    preset_switch_values,
)
from scorekeeper.web.games.new_game_form import NewGameForm
from scorekeeper.web.games.present import (
    EntryRef,
    build_board,
    describe_entry,
    played_grid,
    rematch_start,
)
from scorekeeper.web.offline.kept import with_version
from scorekeeper.web.offline.page_writes import form_entry_id


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Page:
    """Four names, the 7♥ holder and the house rules; creates the game and grants edit rights."""
    form = NewGameForm()
    default_labels = [_("Player %(number)s", number=format_number(seat + 1)) for seat in range(4)]
    offer_rule_choices(form, default_labels)
    if form.validate_on_submit():
        created = _create(form)
        if created is not None:
            loaded, token = created
            grant_owner(loaded.id, token)
            flash(_("The game has started. Good luck!"), "success")
            return redirect(url_for("web.game", game_id=loaded.id))
    status = 422 if form.is_submitted() else 200
    return render_template(
        "games/new_game.html",
        form=form,
        recent_names=services.recent_player_names(),
        presets=list(ALL_PRESETS),
        preset_values=preset_switch_values(),
        common=COMMON_SWITCHES,
        more=[name for name in SWITCHES if name not in COMMON_SWITCHES],
        defaults=RuleSet(),
    ), status


def _create(form: NewGameForm) -> tuple[services.LoadedGame, str] | None:
    """Create the game, or put the engine's problems on the form and return None."""
    try:
        data = form.rules_dict()
        if form.all_errors:  # e.g. a fixed order with no order chosen
            return None
        rules = RuleSet.from_dict(data)
        return services.create_game(form.player_names(), form.king_seat(), rules)
    except RulesError as err:
        form.add_problems(err.problems)
        return None


@bp.get("/games/<game_id>")
def game(game_id: str) -> Page:
    """The scoreboard, and the controls to enter deals for those who may edit."""
    loaded = load_or_404(game_id)
    remember_seen(game_id)
    return with_version(make_response(_render_game(loaded)), loaded.version)


def _render_game(
    loaded: services.LoadedGame,
    redeal_form: RedealForm | None = None,
    message: list[str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """The game page; ``redeal_form`` when a redeal was refused (shown with its errors).

    Without one, the page shows a blank redeal form from its choices alone
    (``redeal_choices``), rendered once per set of contracts left.
    """
    game = loaded.game
    if redeal_form is not None:
        redeal_form.configure(loaded.players, game.available_contracts, game.rules)
    board = build_board(game, loaded.log)
    return render_template(
        "games/game.html",
        loaded=loaded,
        game=game,
        names=loaded.players,
        board=board,
        played=played_grid(board.kingdoms),
        rematch_king=rematch_start(loaded.rules, loaded.first_king)[0],
        all_contracts=ALL_CONTRACTS,
        editable=can_edit(loaded.id),
        directing=directs_game(loaded.id),
        table=event_services.table_notes(loaded),
        redeal_form=redeal_form,
        redeal_choices=redeal_choices,
        message=message,
    ), status


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> Page:
    """A new game with the same players in the same seats and the same rules; the next
    player is first king (R2). This browser may edit it.

    Made once: a second tap, or another phone that may edit the finished game, lands on
    the same rematch (``store.rematches``) and may edit it too.
    """
    loaded = load_or_404(game_id)
    require_edit(game_id)
    if not loaded.game.finished:
        abort(409, description=_("This game is not over yet: a rematch starts when it is."))
    if event_services.event_of_game(game_id) is not None:
        abort(
            409,
            description=_("A club night's table has no rematch: its night draws the next round."),
        )
    first_king, rules = rematch_start(loaded.rules, loaded.first_king)
    token = new_edit_token()
    made = start_rematch(game_id, list(loaded.players), first_king, rules, token, seal(token))
    rematch_token = token if made.created else unseal(made.sealed_token)
    if rematch_token is not None:  # None: sealed under an older secret key
        if is_owner(game_id) or made.created:
            grant_owner(made.game_id, rematch_token)
        else:
            grant_edit(made.game_id, rematch_token)
    flash(
        _(
            "The rematch has started: %(name)s is the first king. Good luck!",
            name=isolate_name(loaded.players[first_king]),
        ),
        "success",
    )
    return redirect(url_for("web.game", game_id=made.game_id))


@bp.post("/games/<game_id>/redeals")
def record_redeal(game_id: str) -> Page:
    """A redeal (R8) or misdeal: it uses up no contract (R2)."""
    loaded = load_or_404(game_id)
    require_edit(game_id)
    game = loaded.game
    form = RedealForm().configure(loaded.players, game.available_contracts, game.rules)
    played = form.played()
    if not form.validate():
        return _render_game(loaded, form, status=422)
    entry, version = form.to_entry(), form.version.data
    outcome = try_form_write(
        lambda: services.record_redeal(
            game_id, entry, version, page_source(game_id), form_entry_id(), played_at=played
        ),
        form,
        loaded,
    )
    if isinstance(outcome, Refused):
        return _render_game(outcome.loaded, form, outcome.messages, outcome.status)
    if form.kind.data == "misdeal":
        flash(
            _("Misdeal recorded: the same dealer deals again. No contract was used up."), "success"
        )
    elif form.kind.data == "closed_suit":
        flash(
            _("Recorded: the Trix deal is void and is dealt again. Trix is not used up."), "success"
        )
    else:
        flash(_("Redeal recorded: the king chooses a contract again. None was used up."), "success")
    return redirect(url_for("web.game", game_id=game_id))


@bp.route("/games/<game_id>/undo", methods=["GET", "POST"])
def undo(game_id: str) -> Page:
    """Undo the last entry of the log, after a confirmation (works without JavaScript)."""
    loaded = load_or_404(game_id)
    require_edit(game_id)
    form = UndoForm(data={"version": loaded.version})
    if not form.is_submitted() or form.confirm.data != "yes":
        return _render_undo(loaded, form)  # the confirmation step (without JavaScript)
    if not form.validate():
        return _render_undo(loaded, form, status=422)
    version = form.version.data
    outcome = try_form_write(
        lambda: services.undo_last(game_id, version, page_source(game_id), form_entry_id()),
        form,
        loaded,
        then=_("Nothing was undone."),
    )
    if isinstance(outcome, Refused):
        return _render_undo(outcome.loaded, form, outcome.messages, outcome.status)
    last = loaded.log[-1] if loaded.log else None
    flash(undone_message(describe_entry(last.entry, last.n) if last else None), "success")
    return redirect(url_for("web.game", game_id=game_id))


def undone_message(entry: EntryRef | None) -> str:
    """What the game page says after an undo: ``Undone: deal 7: King of Hearts.``"""
    if entry is None:
        return _("Undone: the last entry.")
    if entry.kind == "misdeal":
        return _("Undone: a misdeal.")
    if entry.kind == "redeal":
        return _("Undone: a redeal.")
    contracts = describe_contracts(entry.contracts)
    return _("Undone: deal %(n)s: %(contracts)s.", n=format_number(entry.n), contracts=contracts)


def _render_undo(
    loaded: services.LoadedGame, form: UndoForm, message: list[str] | None = None, status: int = 200
) -> tuple[str, int]:
    last: Any = loaded.log[-1] if loaded.log else None
    return render_template(
        "games/undo.html",
        loaded=loaded,
        names=loaded.players,
        form=form,
        last=last,
        last_entry=describe_entry(last.entry, last.n) if last else None,
        message=message,
    ), status
