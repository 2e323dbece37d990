"""The dispute desk's pages: its index and the card-by-card check of a deal.

The check works on its own (``/disputes/play``), for the deal about to be
entered in a game (``/games/<id>/check``) and for a recorded deal
(``/games/<id>/deals/<n>/check``). It is a GET form: the typed record is in
the address, so a ruling can be shared with the table. The views are thin:
:mod:`~scorekeeper.web.disputes.play` reads the form and asks the engine
(``check_play``); a phone with edit rights can then apply the check to the
deal (``services.edit_deal``) or record it (``services.record_deal``), both
with ``source="check"``, so the deal's history says where it came from.
Redeal checks and claims are in :mod:`~scorekeeper.web.disputes.claims`.
"""

from __future__ import annotations

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from scorekeeper.rules.contracts import ALL_CONTRACTS
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import Dealer, RuleSet
from scorekeeper.store import games as services
from scorekeeper.text.disputes import gettext
from scorekeeper.text.messages import translate_problems
from scorekeeper.web.access import can_edit, known_games, require_edit
from scorekeeper.web.blueprint import Page, bp, load_or_404
from scorekeeper.web.disputes.input import (
    PLAY_SWITCHES,
    TRIX_SWITCHES,
    Entered,
    rules_with_switches,
)
from scorekeeper.web.disputes.picker import picker_state
from scorekeeper.web.disputes.play import Judgement, judge
from scorekeeper.web.disputes.record import Desk, play_field, read_record
from scorekeeper.web.errors import Refused, try_write
from scorekeeper.web.forms import seat_or_none

SWITCHES = PLAY_SWITCHES + TRIX_SWITCHES


# --- where the desk is used ------------------------------------------------------------------


def default_names() -> tuple[str, ...]:
    return tuple(gettext("Player %(number)d", number=seat + 1) for seat in range(4))


def known_game_choices() -> list[tuple[str, str]]:
    """(id, players) of the games this browser knows, to take their rules and names."""
    in_progress, finished = services.list_games(limit=20, ids=known_games())
    return [(g.id, " · ".join(g.players)) for g in [*in_progress, *finished]]


def standalone_desk(entered: Entered, switches: tuple[str, ...]) -> Desk:
    """No game: the standard rules, or those of a game this browser knows, and house rules."""
    source = entered.text("game")
    rules, names = RuleSet(), default_names()
    if source:
        if source in known_games() and services.game_exists(source):
            loaded = services.load_game(source)
            rules, names = loaded.rules, tuple(loaded.players)
        else:
            entered.add("game", gettext("Choose one of the listed games, or the standard rules."))
    return Desk(rules_with_switches(entered, rules, switches), names)


def game_desk(loaded: services.LoadedGame) -> Desk:
    """The deal about to be entered: the game's rules, names, king and open contracts."""
    game = loaded.game
    choices = game.available_contracts or ALL_CONTRACTS
    king = None if game.needs_king else game.current_king
    dealer = None if loaded.rules.dealer is Dealer.KING else game.current_dealer
    names = tuple(loaded.players)
    return Desk(loaded.rules, names, loaded, king=king, dealer=dealer, choices=choices)


def deal_desk(loaded: services.LoadedGame, n: int) -> Desk:
    """A recorded deal: its contracts, king and dealer are known."""
    deal = next((d for d in loaded.game.deals if d.n == n), None)
    if deal is None:
        abort(404, description=gettext("This game has no deal %(n)d.", n=n))
    names = tuple(loaded.players)
    contracts, king, dealer = deal.contracts, deal.king, deal.dealer
    return Desk(loaded.rules, names, loaded, n=n, contracts=contracts, king=king, dealer=dealer)


# --- the index -------------------------------------------------------------------------------


@bp.get("/disputes")
def disputes() -> str:
    """The three tools, each with a paragraph on when to use it."""
    return render_template("disputes/index.html", loaded=None)


@bp.get("/games/<game_id>/disputes")
def game_disputes(game_id: str) -> str:
    """The same, for a game: its rules and players' names are used."""
    return render_template("disputes/index.html", loaded=load_or_404(game_id))


# --- the card-by-card check ------------------------------------------------------------------


@bp.get("/disputes/play")
def check_play() -> Page:
    """A deal checked card by card without a game."""
    entered = Entered(request.args)
    return _play_page(standalone_desk(entered, SWITCHES), entered)


@bp.get("/games/<game_id>/check")
def check_next_deal(game_id: str) -> Page:
    """The deal being played, checked before it is entered."""
    return _play_page(game_desk(load_or_404(game_id)), Entered(request.args))


@bp.get("/games/<game_id>/deals/<int:n>/check")
def check_deal(game_id: str, n: int) -> Page:
    """A recorded deal, checked card by card."""
    return _play_page(deal_desk(load_or_404(game_id), n), Entered(request.args))


@bp.get("/disputes/play/state")
def play_state() -> Response:
    """The picker's question after each card: whose turn, his cards, which are legal."""
    entered = Entered(request.args)
    return _state(standalone_desk(entered, SWITCHES), entered)


@bp.get("/games/<game_id>/check/state")
def next_deal_state(game_id: str) -> Response:
    return _state(game_desk(load_or_404(game_id)), Entered(request.args))


@bp.get("/games/<game_id>/deals/<int:n>/check/state")
def deal_state(game_id: str, n: int) -> Response:
    return _state(deal_desk(load_or_404(game_id), n), Entered(request.args))


def _judge(desk: Desk, entered: Entered) -> Judgement | None:
    """The engine's judgement of the typed record, or None with the problems on ``entered``."""
    record = read_record(entered, desk)
    if record is None:
        return None
    try:
        return judge(record)
    except RulesError as error:
        entered.add_problems(error.problems, play_field)
        return None


def _play_page(
    desk: Desk,
    entered: Entered,
    judgement: Judgement | None = None,
    message: list[str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    if judgement is None and entered.has("check") and entered.ok:
        judgement = _judge(desk, entered)
    if status == 200 and not entered.ok:
        status = 422
    return render_template(
        "disputes/play.html",
        desk=desk,
        loaded=desk.loaded,
        names=desk.names,
        entered=entered,
        judgement=judgement,
        editable=desk.loaded is not None and can_edit(desk.loaded.id),
        games=known_game_choices() if desk.loaded is None else [],
        switches=SWITCHES if desk.loaded is None else (),
        urls=_play_urls(desk),
        message=message,
    ), status


def _play_urls(desk: Desk) -> dict[str, str]:
    """Where the form goes, where the picker asks, where "Apply" posts."""
    if desk.loaded is None:
        return {"form": url_for("web.check_play"), "state": url_for("web.play_state")}
    game_id = desk.loaded.id
    if desk.n is None:
        return {
            "form": url_for("web.check_next_deal", game_id=game_id),
            "state": url_for("web.next_deal_state", game_id=game_id),
            "apply": url_for("web.record_check", game_id=game_id),
        }
    return {
        "form": url_for("web.check_deal", game_id=game_id, n=desk.n),
        "state": url_for("web.deal_state", game_id=game_id, n=desk.n),
        "apply": url_for("web.apply_check", game_id=game_id, n=desk.n),
    }


def _state(desk: Desk, entered: Entered) -> Response:
    record = read_record(entered, desk, need_play=False)
    if record is None:
        return _state_errors(entered.all_errors)
    try:
        return jsonify({"ok": True, **picker_state(record)})
    except RulesError as error:
        return _state_errors(translate_problems(error.problems))


def _state_errors(errors: list[str]) -> Response:
    response = jsonify({"ok": False, "errors": errors})
    response.status_code = 422
    return response


# --- applying a check to the game ------------------------------------------------------------


def _version() -> int | None:
    raw = request.form.get("version", "")
    return int(raw) if raw.isdigit() else None


@bp.post("/games/<game_id>/deals/<int:n>/check/apply")
def apply_check(game_id: str, n: int) -> Page:
    """Fill deal ``n``'s captures from the check (edit rights; the deal's history notes it)."""
    loaded = load_or_404(game_id)
    require_edit(game_id)
    desk, entered = deal_desk(loaded, n), posted()
    recorded = loaded.deal_row(n).entry
    assert isinstance(recorded, DealEntry)  # rows with a deal number are deals
    judgement, entry = _checked_entry(desk, entered, recorded.king)
    if entry is None:
        return _play_page(desk, entered, judgement)
    if recorded == entry:
        flash(gettext("Deal %(n)d already matches this check; nothing changed.", n=n), "success")
        return redirect(url_for("web.deal", game_id=game_id, n=n))
    version = _version()
    outcome = try_write(
        lambda: services.edit_deal(game_id, n, entry, version, source="check"),
        loaded,
        lambda problems: entered.add_problems(problems, lambda path: ""),
    )
    if isinstance(outcome, Refused):
        fresh = deal_desk(outcome.loaded, n)
        return _play_page(fresh, entered, judgement, outcome.messages, outcome.status)
    flash(gettext("Deal %(n)d now follows the card-by-card check.", n=n), "success")
    return redirect(url_for("web.deal", game_id=game_id, n=n))


@bp.post("/games/<game_id>/check/record")
def record_check(game_id: str) -> Page:
    """Record the deal being played from its check (edit rights)."""
    loaded = load_or_404(game_id)
    require_edit(game_id)
    desk, entered = game_desk(loaded), posted()
    king = seat_or_none(entered.text("king")) if loaded.game.needs_king else None
    judgement, entry = _checked_entry(desk, entered, king)
    if entry is None:
        return _play_page(desk, entered, judgement)
    version = _version()
    outcome = try_write(
        lambda: services.record_deal(game_id, entry, version, source="check"),
        loaded,
        lambda problems: entered.add_problems(problems, lambda path: ""),
    )
    if isinstance(outcome, Refused):
        fresh = game_desk(outcome.loaded)
        return _play_page(fresh, entered, judgement, outcome.messages, outcome.status)
    _, n = outcome
    flash(gettext("Deal %(n)d recorded from the card-by-card check.", n=n), "success")
    # The top of the game page: what was recorded, whose turn it is, the next contracts.
    return redirect(url_for("web.game", game_id=game_id))


def posted() -> Entered:
    """The posted record, read as a check (so the page shows the check again on a refusal)."""
    values = MultiDict(request.form)
    values["check"] = "1"
    return Entered(values)


def _checked_entry(
    desk: Desk, entered: Entered, king: int | None
) -> tuple[Judgement | None, DealEntry | None]:
    """The check and the deal it gives, or None with the reason on ``entered``."""
    judgement = _judge(desk, entered)
    if judgement is None:
        return None, None
    entry = judgement.entry(king)
    if entry is None:
        entered.add(
            "", gettext("Only a finished deal can be recorded: enter all 13 tricks or every play.")
        )
    return judgement, entry
