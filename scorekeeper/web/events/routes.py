"""Club nights on the pages: create one, its page (standings, rounds, the director's
controls), the director's link, table cards and results as PDF, and the standings board."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from flask import (
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.ruleset import KingdomOrder, RuleSet
from scorekeeper.store.events import changes as event_changes
from scorekeeper.store.events import controls as event_controls
from scorekeeper.store.events import services
from scorekeeper.store.events.input import parse_leaving_body
from scorekeeper.text.locale import (
    current_digits,
    current_locale,
    format_number,
    isolate,
    localize_digits,
)
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.access import (
    directing,
    edit_url,
    grant_director,
    held_token,
    remember_event,
    require_director,
)
from scorekeeper.web.blueprint import Page, bp
from scorekeeper.web.errors import rollback
from scorekeeper.web.events import new_night
from scorekeeper.web.events.confirm import (
    Question,
    close_question,
    confirmed,
    draw_question,
    leave_question,
    redraw_question,
    replace_question,
)
from scorekeeper.web.events.forms import NewEventForm
from scorekeeper.web.events.present import board_page, event_page
from scorekeeper.web.forms.rules import offer_rule_choices
from scorekeeper.web.language import per_render
from scorekeeper.web.paper import pdf
from scorekeeper.web.paper.pdf import requested_paper
from scorekeeper.web.paper.qr import qr_data_uri, qr_svg
from scorekeeper.web.server.fragments import cached


@bp.route("/events/new", methods=["GET", "POST"])
def new_event() -> Page:
    """The club night's settings, house rules and circle; creates it and makes this
    browser its director. A circle needs its edit rights (403 without, nothing written)."""
    form = NewEventForm()
    offer_rule_choices(form, [_("Seat %(n)s", n=format_number(seat + 1)) for seat in range(4)])
    status = 200
    if form.is_submitted():
        valid = form.validate_on_submit()
        circle, status = new_night.choose_circle(form)
        if new_night.showing_members() and status == 200:
            return new_night.page(form, circle, 200)
        if valid and status == 200:
            created = new_night.create_event(form)
            if created is not None:
                return created
        if status == 200:  # refused for another field: the circle's members stay ticked
            return new_night.page(form, circle, 422)
    elif request.args.get("circle"):
        form.circle.data = request.args["circle"]
        circle, status = new_night.choose_circle(form)
        return new_night.page(form, circle, status)
    return new_night.page(form, None, status)


@bp.get("/events/<event_id>")
def event(event_id: str) -> Page:
    """Standings and every round's tables; the director's controls for the director."""
    return event_page_for(event_id)


@bp.get("/events/<event_id>/live")
def event_live(event_id: str) -> Response:
    """The night's page for its own live updates (static/board.js takes its parts): 304
    while the night's version holds. The messages waiting for this browser's next page
    stay waiting: this is not that page."""
    version = services.event_version(event_id)
    if request.if_none_match.contains_weak(str(version)):
        response = Response(status=304)
    else:
        waiting = session.get("_flashes")
        response = make_response(event_page_for(event_id))
        if waiting:
            session["_flashes"] = waiting
    response.set_etag(str(version))
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def event_page_for(event_id: str, question: Question | None = None) -> Page:
    """The night's page; with ``question``, the director's confirmation step in place."""
    loaded = services.load_event(event_id)
    remember_event(event_id)
    role = directing(event_id)
    token = role.director_token if role else None
    return render_template(
        "events/event.html",
        page=event_page(loaded),
        director=token is not None,
        main_director=role is not None and not role.co_director,
        links=_table_links(loaded, token) if token else {},
        director_link=director_link(event_id, role),
        co_director=co_director_links(event_id, role),
        question=question,
        substitutes={r.number: substitutes(loaded, r.number) for r in loaded.drawn},
        leaving={r.number: leaving_choices(r) for r in loaded.drawn},
        late_members=new_night.late_members(loaded) if token else [],
    )


def co_director_links(
    event_id: str, role: event_controls.Directing | None
) -> dict[str, str] | None:
    """The co-director's link and its QR image, for the director only (None without one)."""
    if role is None or role.co_director:
        return None
    current = event_controls.current_co_director(event_id, role.director_token)
    if current is None:
        return None
    return {
        "url": url_for("web.direct", event_id=event_id, token=current.token, _external=True),
        "qr": url_for("web.event_link_qr", event_id=event_id, link="co_director", v=current.count),
    }


def director_link(event_id: str, role: event_controls.Directing | None) -> str | None:
    """The link this device directs with: the director's, or the co-director's own."""
    if role is None:
        return None
    return url_for("web.direct", event_id=event_id, token=held_token(event_id), _external=True)


def leaving_choices(drawn: services.EventRoundView) -> dict[str, list[str]]:
    """Who may leave mid-round: ``playing`` (replaceable: his game is not over) and
    ``waiting`` (at a table not started, which can be drawn again)."""
    return {
        "playing": [n for t in drawn.tables if not t.finished for n in t.players],
        "waiting": [n for t in drawn.tables if t.deals == 0 for n in t.players],
    }


def substitutes(event: services.EventView, number: int) -> list[str]:
    """Who can take a leaver's seat in round ``number``: those sitting it out and the late
    arrivals (a new name is welcome too)."""
    drawn = event.drawn[number - 1]
    later = [p.name for p in event.players if p.left_round is None and p.joined_round > number]
    return [*drawn.sitting_out, *later]


def _table_links(event: services.EventView, token: str) -> dict[str, str]:
    """Each table's edit link, derived from the director's token."""
    return {
        table.game_id: edit_url(table.game_id, services.table_token(token, table.game_id))
        for drawn in event.drawn
        for table in drawn.tables
    }


@bp.route("/events/<event_id>/direct/<token>", methods=["GET", "POST"])
def direct(event_id: str, token: str) -> Page:
    """The director's link: confirm, then this browser directs the event."""
    loaded = services.load_event(event_id)
    if not services.director_matches(event_id, token):
        return render_template("events/direct.html", page=event_page(loaded), valid=False), 403
    if request.method == "POST":
        grant_director(event_id, token)
        return redirect(url_for("web.event", event_id=event_id))
    return render_template("events/direct.html", page=event_page(loaded), valid=True)


@bp.post("/events/<event_id>/draw")
def draw_event_round(event_id: str) -> Page:
    """Draw the next round, once confirmed (the question names the tables still playing)."""
    token = require_director(event_id)
    if not confirmed():
        return event_page_for(event_id, draw_question(services.load_event(event_id)))
    try:
        drawn = services.draw_next_round(event_id, token)
    except RulesError as error:
        return _refused(event_id, error)
    flash(_("Round %(n)s is drawn (seed %(seed)s).", n=drawn.number, seed=drawn.seed), "success")
    return redirect(url_for("web.event", event_id=event_id))


@bp.post("/events/<event_id>/rounds/<int:number>/lock")
def lock_event_round(event_id: str, number: int) -> Page:
    require_director(event_id)
    locked = request.form.get("locked", "yes") == "yes"
    try:
        services.lock_round(event_id, number, locked)
    except RulesError as error:
        return _refused(event_id, error)
    return redirect(url_for("web.event", event_id=event_id))


@bp.post("/events/<event_id>/close")
def close_club_night(event_id: str) -> Page:
    require_director(event_id)
    if not confirmed():
        return event_page_for(event_id, close_question(services.load_event(event_id)))
    services.close_event(event_id)
    flash(_("The club night is closed; its results are final."), "success")
    return redirect(url_for("web.event", event_id=event_id))


@bp.post("/events/<event_id>/players")
def add_event_player(event_id: str) -> Page:
    require_director(event_id)
    name = request.form.get("name", "")
    back = services.load_event(event_id).player_who_left(name)
    try:
        services.add_player(event_id, name)
    except RulesError as error:
        return _refused(event_id, error)
    if back is not None:
        flash(
            _("%(player)s is back: drawn again from the next round on.", player=isolate(back.name)),
            "success",
        )
    else:
        flash(_("The new player is drawn from the next round on."), "success")
    return redirect(url_for("web.event", event_id=event_id))


@bp.post("/events/<event_id>/players/leave")
def event_player_leaves(event_id: str) -> Page:
    """A player goes home between rounds: drawn no more from the next round on."""
    require_director(event_id)
    name = request.form.get("name", "")
    if not confirmed():
        return event_page_for(event_id, leave_question(services.load_event(event_id), name))
    try:
        services.player_leaves(event_id, name)
    except RulesError as error:
        return _refused(event_id, error)
    flash(_("%(player)s is not drawn from the next round on.", player=isolate(name)), "success")
    return redirect(url_for("web.event", event_id=event_id))


@bp.post("/events/<event_id>/rounds/<int:number>/replace")
def replace_event_player(event_id: str, number: int) -> Page:
    """A player leaves mid-round: the substitute the director chose takes his seat."""
    require_director(event_id)
    player, substitute = request.form.get("player", ""), request.form.get("substitute", "")
    if not confirmed():
        loaded = services.load_event(event_id)
        if 1 <= number <= len(loaded.drawn) and substitute.strip():
            return event_page_for(
                event_id, replace_question(loaded, number, player, substitute.strip())
            )
    try:
        leaving, name = parse_leaving_body(
            {"player": player, "substitute": substitute}, substitute=True
        )
        event_changes.replace_player(event_id, number, leaving, name)
    except RulesError as error:
        return _refused(event_id, error)
    flash(
        _(
            "%(substitute)s takes the seat of %(player)s; the table plays on.",
            substitute=isolate(name),
            player=isolate(leaving),
        ),
        "success",
    )
    return redirect(url_for("web.event", event_id=event_id, _anchor=f"round-{number}"))


@bp.post("/events/<event_id>/rounds/<int:number>/redraw")
def redraw_event_round(event_id: str, number: int) -> Page:
    """A player leaves mid-round: the tables not started are drawn again without him."""
    token = require_director(event_id)
    if not confirmed():
        loaded = services.load_event(event_id)
        if 1 <= number <= len(loaded.drawn):
            player = request.form.get("player", "")
            return event_page_for(event_id, redraw_question(loaded, number, player))
    try:
        leaving, _none = parse_leaving_body(
            {"player": request.form.get("player", "")}, substitute=False
        )
        drawn = event_changes.redraw(event_id, number, leaving, token)
    except RulesError as error:
        return _refused(event_id, error)
    flash(
        _(
            "Round %(n)s is drawn again without %(player)s (seed %(seed)s): print the new "
            "tables' cards.",
            n=format_number(number),
            player=isolate(leaving),
            seed=drawn.seed,
        ),
        "success",
    )
    return redirect(url_for("web.event", event_id=event_id, _anchor=f"round-{number}"))


def _refused(event_id: str, error: RulesError) -> Page:
    """The event page again, with the engine's reasons (nothing was saved)."""
    from scorekeeper.text.messages import translate_problems

    rollback()
    for message in translate_problems(error.problems):
        flash(message, "error")
    return redirect(url_for("web.event", event_id=event_id))


@bp.get("/events/<event_id>/board")
def event_board(event_id: str) -> Page:
    """The standings board for a screen: large type, no controls, updated live."""
    loaded = services.load_event(event_id)
    return render_template(
        "events/board.html",
        page=board_page(loaded),
        server_now_ms=int(time.time() * 1000),
    )


@bp.get("/events/<event_id>/board/live")
def event_board_live(event_id: str) -> Page | Response:
    """The board's content for static/board.js: 304 while the event's version holds."""
    version = services.event_version(event_id)
    if request.if_none_match.contains_weak(str(version)):
        response = Response(status=304)
    else:
        html = cached(
            "event-board",
            event_id,
            version,
            caller=lambda: render_template(
                "events/_board.html", page=board_page(services.load_event(event_id))
            ),
        )
        response = Response(html)
    response.set_etag(str(version))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/events/<event_id>/tables/<game_id>/qr.svg")
def event_table_qr(event_id: str, game_id: str) -> Response:
    """A table's edit link as a QR code, for the director's page."""
    token = require_director(event_id)
    loaded = services.load_event(event_id)
    if loaded.table_of_game(game_id) is None:
        abort(404)
    url = edit_url(game_id, services.table_token(token, game_id))
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


def points_filter(value: float | None) -> str:
    """Standings points in the chosen digits: ``2.5``, ``−90``, kept left to right."""
    if value is None:
        return ""
    if float(value).is_integer():
        return isolate(format_number(int(value)))
    text = localize_digits(f"{abs(value):g}")
    return isolate(("−" if value < 0 else "") + text)


bp.add_app_template_filter(per_render(points_filter), "points")


def _pdf(data: bytes, name: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


def _night_pdf(
    event: services.EventView, what: tuple[object, ...], render: Callable[[], str]
) -> bytes:
    """A night's PDF, rendered once per version of its data (every change bumps it) and
    kept in the sheets' cache with what else changes it: ``what``, paper, language, digits.
    """
    paper = requested_paper()
    key = ("event", event.id, event.version, *what, paper, current_locale(), current_digits())
    cache: pdf.PdfCache = current_app.extensions["pdf_cache"]
    return cache.get_or_render(key, lambda: pdf.html_to_pdf(render(), paper))


@bp.get("/events/<event_id>/cards.pdf")
def event_cards(event_id: str) -> Response:
    """The table cards of a round (the last drawn, or ``?round=n``), for the director."""
    token = require_director(event_id)
    loaded = services.load_event(event_id)
    if not loaded.drawn:
        abort(404)
    number = request.args.get("round", type=int) or len(loaded.drawn)
    if not 1 <= number <= len(loaded.drawn):
        abort(404)

    def html() -> str:
        cards = [_card(loaded, table, token) for table in loaded.drawn[number - 1].tables]
        return render_template("events/sheets/cards.html", page=event_page(loaded), cards=cards)

    # The cards' QR codes are how the players join, so without PUBLIC_URL they carry the
    # host the director reached the server by (only the director can ask, so no stranger
    # can force a render with another host); the host is then part of the key.
    host = "" if current_app.config.get("PUBLIC_URL") else request.host_url
    what = ("cards", number, host)
    return _pdf(_night_pdf(loaded, what, html), f"tables-round-{number}.pdf")


def _card(
    event: services.EventView, table: services.EventTableView, token: str
) -> dict[str, object]:
    game_token = services.table_token(token, table.game_id)
    url = pdf.public_url("web.join", own_host=True, game_id=table.game_id, token=game_token)
    return {
        "table": table.number,
        "round": table.round,
        "players": table.players,
        "url": url,
        "qr": qr_data_uri(url),
        "first_king": first_king_text(event.rules, table.players),
    }


def first_king_text(rules: RuleSet, players: Sequence[str]) -> str:
    """Who is the first king, as far as the card can know it (R2): the player dealt the 7♥
    on the first deal, unknown until then, unless an agreed kingdom order fixes him."""
    if rules.kingdom_order is KingdomOrder.CUSTOM and rules.king_order:
        order = [isolate(players[seat]) for seat in rules.king_order]
        return _(
            "Kings in the agreed order (R2): %(names)s. %(first)s is the first king.",
            names=" → ".join(order),
            first=order[0],
        )
    if rules.kingdom_order is KingdomOrder.SEVEN_OF_HEARTS:
        return _(
            "First king: whoever is dealt the 7♥ on the first deal; each later kingdom goes "
            "to whoever is dealt the 7♥ on its first deal (R2). Enter who it was with the "
            "first deal."
        )
    return _(
        "First king: whoever is dealt the 7♥ on the first deal (R2); the kingdom then passes "
        "to the right, in the seat order above. Enter who it was with the first deal."
    )
