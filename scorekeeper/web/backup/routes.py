"""Backups on the pages: download a game's JSON, and restore one as a new game.

``GET /games/<id>/export.json`` is open to whoever may read the game (its
id). ``/games/import`` takes a backup file (form upload, CSRF-protected),
checks it and replays it through the rules engine, and creates a **new**
game; this browser gets edit rights for it and owns it (it may revoke its
links). A refused file changes nothing and the form says why.
"""

from __future__ import annotations

import json

from flask import abort, flash, redirect, render_template, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from werkzeug.wrappers import Response

from scorekeeper.rules.errors import RulesError
from scorekeeper.store import backup
from scorekeeper.store.snapshot import GameNotFound
from scorekeeper.text.locale import format_number, ngettext
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import translate_problems
from scorekeeper.web.access import grant_owner
from scorekeeper.web.blueprint import NOT_FOUND, Page, bp
from scorekeeper.web.server.api_io import json_file

NOT_JSON = _l("This file is not a scorekeeper backup: it is not JSON (UTF-8).")
NO_FILE = _l("Choose the backup file (.json) to restore.")


class ImportForm(FlaskForm):  # type: ignore[misc]
    """One file; the CSRF token comes from Flask-WTF."""

    backup = FileField()


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    """The game's backup file, as a download."""
    try:
        data = backup.export_game(game_id)
    except GameNotFound:
        abort(404, description=NOT_FOUND)
    body = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    response = Response(body, mimetype="application/json")
    stamp = data["exported_at"][:10]
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-{stamp}-{game_id}.json"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/games/import", methods=["GET", "POST"])
def import_page() -> Page:
    """The upload form; on success, the new game's page (post/redirect/get)."""
    form = ImportForm()
    if not form.validate_on_submit():
        status = 400 if form.is_submitted() else 200
        return _render(form, list(form.errors.get("csrf_token", [])), status)
    data, problem = _read(form)
    if problem:
        return _render(form, [problem], 422)
    try:
        loaded, token = backup.import_game(data)
    except RulesError as error:
        return _render(form, translate_problems(error.problems), 422)
    grant_owner(loaded.id, token)  # the restored game is this browser's: it may revoke its links
    played = loaded.game.deals_played
    restored = ngettext(
        "Game restored from its backup as a new game (%(count)s deal). "
        "The original game, if it still exists, is unchanged.",
        "Game restored from its backup as a new game (%(count)s deals). "
        "The original game, if it still exists, is unchanged.",
        played,
        count=format_number(played),
    )
    flash(restored, "success")
    return redirect(url_for("web.game", game_id=loaded.id))


def _read(form: ImportForm) -> tuple[object, str | None]:
    """The uploaded file's JSON, or the sentence saying why it cannot be read."""
    upload = form.backup.data
    if upload is None or not getattr(upload, "filename", ""):
        return None, str(NO_FILE)
    try:
        return json_file(upload.read()), None
    except ValueError:
        return None, str(NOT_JSON)


def _render(form: ImportForm, problems: list[str], status: int) -> tuple[str, int]:
    return render_template("backup/import.html", form=form, problems=problems), status
