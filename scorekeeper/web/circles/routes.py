"""The circles' pages: create one, its table, a player's page, new and attached games,
its links (view, edit, QR), and its exports (CSV, backup).

Reads need the circle's id (its view link); every change needs this browser
to hold the circle's current edit token (:mod:`.access`). A game started
here gets its own edit token, given to this browser as the game's owner.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games
from scorekeeper.store.circles import backup as circle_backup
from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleRefusal
from scorekeeper.store.circles.ratings import display_number
from scorekeeper.store.circles.stats import running_totals
from scorekeeper.text import circles as words
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import contract_label
from scorekeeper.web import access
from scorekeeper.web.access import can_edit, grant_owner, known_games
from scorekeeper.web.blueprint import bp
from scorekeeper.web.circles import (
    charts,
    ladder,  # noqa: F401  (the season ladder's routes)
)
from scorekeeper.web.circles import pdf as circle_pdf  # noqa: F401  (the PDF's route)
from scorekeeper.web.circles.exports import circle_csv
from scorekeeper.web.circles.present import member_state, table_view
from scorekeeper.web.errors import refusal_sentences
from scorekeeper.web.paper.qr import qr_svg
from scorekeeper.web.server.api_io import json_file

CREATED = _l("The circle is ready. Share its edit link with whoever records games.")
JOINED = _l("This phone can now start games in this circle.")
REVOKED = _l("The old edit link of the circle no longer works; share the new one below.")
ATTACHED = _l("The game is now part of the circle.")
DETACHED = _l("The game is no longer part of the circle.")
JOIN_LINK = re.compile(r"/games/([A-Za-z0-9_-]{1,64})/join/([A-Za-z0-9_-]{20,100})")


def _checkbox(name: str) -> bool:
    return request.form.get(name) in ("on", "1", "true", "y")


# --- creating and finding circles -----------------------------------------------------------


@bp.route("/circles", methods=["GET", "POST"])
def circles() -> Response | str | tuple[str, int]:
    """The circles this browser knows, and a new circle: a name, members, ratings or not."""
    problems: list[str] = []
    if request.method == "POST":
        members = [n for n in request.form.getlist("members") if n.strip()]
        try:
            circle, token = services.create_circle(
                request.form.get("name", ""), members, _checkbox("ratings"), _short_rules()
            )
        except (CircleRefusal, RulesError) as error:
            problems = refusal_sentences(error)
        else:
            access.grant_circle(circle.id, token)
            flash(str(CREATED), "success")
            return redirect(url_for("web.circle", circle_id=circle.id), 303)
    known = []
    for circle_id in access.known_circles():
        try:
            known.append(services.load_circle(circle_id))
        except services.CircleNotFound:
            continue
    page = render_template("circles/index.html", known=known, problems=problems, form=request.form)
    return (page, 422) if problems else page


def _short_rules() -> RuleSet:
    return RuleSet(kingdoms=1) if request.form.get("kingdoms") == "1" else RuleSet()


@bp.get("/circles/<circle_id>")
def circle(circle_id: str) -> str:
    """The circle's table (ranked, ratings), its games, and its links."""
    data = services.load_circle(circle_id)
    access.remember_circle(circle_id)
    period = _period()
    token = access.circle_token(circle_id)
    recent = services.linked_games(data, limit=30)
    summaries = {
        s.id: s for part in games.list_games(ids=[g.game_id for g in recent]) for s in part
    }
    return render_template(
        "circles/circle.html",
        circle=data,
        table=table_view(data, period),
        period=period,
        periods=words.PERIODS,
        recent=[(g, summaries.get(g.game_id)) for g in recent],
        edit_url=url_for("web.circle_join", circle_id=circle_id, token=token, _external=True)
        if token
        else None,
        view_url=url_for("web.circle", circle_id=circle_id, _external=True),
        can_edit=token is not None,
    )


def _period() -> str:
    period = request.args.get("period", "all")
    return period if period in services.PERIODS else "all"


@bp.get("/circles/<circle_id>/qr/<any(view, edit):link>.svg")
def circle_qr(circle_id: str, link: str) -> Response:
    """The QR code of the circle's view link, or of its edit link (for a phone that may edit)."""
    services.load_circle(circle_id)
    if link == "view":
        url = url_for("web.circle", circle_id=circle_id, _external=True)
    else:
        token = access.circle_token(circle_id)
        if token is None:
            abort(403, description=str(access.CIRCLE_READ_ONLY))
        url = url_for("web.circle_join", circle_id=circle_id, token=token, _external=True)
    response = make_response(qr_svg(url))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "no-store" if link == "edit" else "private, max-age=3600"
    return response


@bp.route("/circles/<circle_id>/join/<token>", methods=["GET", "POST"])
def circle_join(circle_id: str, token: str) -> Response | str:
    """The circle's edit link: GET asks, POST (the button) grants this browser the rights."""
    if not services.token_matches(circle_id, token):
        if not services.circle_exists(circle_id):
            raise services.CircleNotFound(circle_id)
        abort(403, description=str(access.CIRCLE_READ_ONLY))
    if request.method == "GET":
        circle = services.load_circle(circle_id)
        page = make_response(render_template("circles/join.html", circle=circle, token=token))
        page.headers["Cache-Control"] = "no-store"
        page.headers["Referrer-Policy"] = "no-referrer"
        return page
    access.grant_circle(circle_id, token)
    flash(str(JOINED), "success")
    return redirect(url_for("web.circle", circle_id=circle_id), 303)


@bp.post("/circles/<circle_id>/revoke")
def circle_revoke(circle_id: str) -> Response:
    """Replace the circle's edit token: every other phone loses its rights over the circle."""
    services.load_circle(circle_id)
    access.require_circle_edit(circle_id)
    access.grant_circle(circle_id, services.replace_edit_token(circle_id))
    flash(str(REVOKED), "success")
    return redirect(url_for("web.circle", circle_id=circle_id, _anchor="share"), 303)


@bp.post("/circles/<circle_id>/settings")
def circle_settings(circle_id: str) -> Response:
    """Keep ratings or stop keeping them."""
    services.load_circle(circle_id)
    access.require_circle_edit(circle_id)
    services.set_ratings(circle_id, _checkbox("ratings"))
    return redirect(url_for("web.circle", circle_id=circle_id), 303)


# --- games of the circle ---------------------------------------------------------------------


@bp.route("/circles/<circle_id>/games/new", methods=["GET", "POST"])
def circle_new_game(circle_id: str) -> Response | str | tuple[str, int]:
    """Start a game: each seat a member (big buttons) or a new name; the usual house rules."""
    data = services.load_circle(circle_id)
    access.require_circle_edit(circle_id)
    usual = data.usual_rules()
    problems: list[str] = []
    if request.method == "POST":
        names = [_seat_name(data, seat) for seat in range(4)]
        rules = usual.with_changes(kingdoms=1) if request.form.get("kingdoms") == "1" else usual
        if request.form.get("kingdoms") == "4":
            rules = usual.with_changes(kingdoms=4)
        try:
            first_king = int(request.form.get("first_king", "0"))
            loaded, token = services.start_game(circle_id, names, first_king % 4, rules)
        except (CircleRefusal, RulesError, ValueError) as error:
            problems = refusal_sentences(error)
        else:
            grant_owner(loaded.id, token)
            return redirect(url_for("web.game", game_id=loaded.id), 303)
    page = render_template(
        "circles/new_game.html", circle=data, usual=usual, problems=problems, form=request.form
    )
    return (page, 422) if problems else page


def _seat_name(data: services.CircleData, seat: int) -> str:
    """A seat's player: the new name typed for it, else the member picked."""
    typed = request.form.get(f"new-{seat}", "").strip()
    if typed:
        return typed
    picked = request.form.get(f"seat-{seat}", "")
    if picked.isdigit():
        try:
            return data.member(int(picked)).name
        except services.MemberNotFound:
            return ""
    return ""


@bp.route("/circles/<circle_id>/attach", methods=["GET", "POST"])
def circle_attach(circle_id: str) -> Response | str | tuple[str, int]:
    """Attach an existing game: pick it (or paste its edit link), then confirm each name."""
    data = services.load_circle(circle_id)
    access.require_circle_edit(circle_id)
    game_id, problems = _game_to_attach()
    loaded = None
    if game_id and not problems:
        try:
            loaded = games.load_game(game_id)
        except games.GameNotFound:
            problems.append(words.refusal("game_link", {}))
    if loaded is not None and request.method == "POST" and request.form.get("confirm"):
        choices = [_choice(request.form.get(f"member-{s}", "")) for s in range(4)]
        try:
            services.attach_game(circle_id, loaded.id, choices)
        except (CircleRefusal, RulesError) as error:
            problems = refusal_sentences(error)
        else:
            flash(str(ATTACHED), "success")
            return redirect(url_for("web.circle", circle_id=circle_id), 303)
    mine = [g for part in games.list_games(ids=known_games()) for g in part]
    linked = services.games_in_circles([g.id for g in mine])
    candidates = [g for g in mine if g.id not in linked and can_edit(g.id)]
    page = render_template(
        "circles/attach.html",
        circle=data,
        loaded=loaded,
        candidates=candidates,
        problems=problems,
        link=request.values.get("link", ""),
    )
    return (page, 422) if problems else page


def _game_to_attach() -> tuple[str, list[str]]:
    """The game picked (one this browser may edit) or pasted as its edit link, and what is
    wrong: the circle's rights give none over a game, and a link must hold its token."""
    game_id = request.values.get("game", "")
    pasted = request.values.get("link", "")
    link = JOIN_LINK.search(pasted)
    if link and games.token_matches(link.group(1), link.group(2)):
        return link.group(1), []
    if pasted or (game_id and not can_edit(game_id)):
        return game_id, [words.refusal("game_link", {})]
    return game_id, []


def _choice(raw: str) -> int | None:
    return int(raw) if raw.isdigit() else None


@bp.post("/circles/<circle_id>/games/<game_id>/detach")
def circle_detach(circle_id: str, game_id: str) -> Response:
    """Take a game out of the circle (the game itself stays); ratings follow."""
    services.load_circle(circle_id)
    access.require_circle_edit(circle_id)
    services.detach_game(circle_id, game_id)  # a refusal: the error path's page
    flash(str(DETACHED), "success")
    return redirect(url_for("web.circle", circle_id=circle_id), 303)


# --- a player's page ------------------------------------------------------------------------


@bp.get("/circles/<circle_id>/members/<int:member_id>")
def circle_member(circle_id: str, member_id: int) -> str:
    """A player's statistics (this month, this year, all time) and charts."""
    data = services.load_circle(circle_id)
    member = data.member(member_id)  # MemberNotFound: 404
    period = _period()
    stats = member_state(data, member_id, period)
    return render_template(
        "circles/member.html",
        circle=data,
        member=member,
        stats=stats,
        period=period,
        periods=words.PERIODS,
        charts=member_charts(data, member_id, stats),
        decimal=words.decimal_number,
    )


def member_charts(
    data: services.CircleData, member_id: int, stats: dict[str, Any]
) -> dict[str, str]:
    """The player's SVG charts: running total, rating over time, points per contract."""
    totals = running_totals(services.member_results(data, member_id))
    out = {"running": charts.line_svg([0, *totals], label=str(_l("Running total")))}
    history = services.rating_history(data, member_id) if data.ratings else []
    if stats.get("rating") and history:
        values = [display_number(mu) for _s, mu, _sigma in history]
        band = [40 * sigma for _s, _mu, sigma in history]
        out["rating"] = charts.line_svg(values, band, label=str(_l("Rating")))
    bars = [(contract_label(c)[:3], row["average"]) for c, row in stats["per_contract"].items()]
    out["contracts"] = charts.bars_svg(bars, label=str(_l("Points per deal, by contract")))
    return out


# --- exports --------------------------------------------------------------------------------


@bp.get("/circles/<circle_id>/export.csv")
def circle_export_csv(circle_id: str) -> Response:
    """One row per finished game, one column per member."""
    data = services.load_circle(circle_id)
    response = make_response(circle_csv(data))
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = f'attachment; filename="circle-{circle_id}.csv"'
    return response


@bp.get("/circles/<circle_id>/backup.json")
def circle_export_backup(circle_id: str) -> Response:
    """The circle and its games, in the backup format (restorable as a new circle)."""
    services.load_circle(circle_id)
    body = json.dumps(circle_backup.export_circle(circle_id), ensure_ascii=False, indent=1)
    response = make_response(body)
    response.mimetype = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="circle-{circle_id}.json"'
    return response


@bp.route("/circles/restore", methods=["GET", "POST"])
def circle_restore() -> Response | str | tuple[str, int]:
    """Restore a circle's backup file as a new circle (new links; its games new games)."""
    problems: list[str] = []
    if request.method == "POST":
        upload = request.files.get("file")
        try:
            data = json_file(upload.read()) if upload else None
            circle_id, token = circle_backup.import_circle(data)
        except (CircleRefusal, RulesError) as error:
            problems = refusal_sentences(error)
        except ValueError:  # not JSON, or nested too deep
            problems = [words.refusal("backup_circle", {})]
        else:
            access.grant_circle(circle_id, token)
            flash(str(CREATED), "success")
            return redirect(url_for("web.circle", circle_id=circle_id), 303)
    page = render_template("circles/restore.html", problems=problems)
    return (page, 422) if problems else page
