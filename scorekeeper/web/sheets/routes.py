"""Printed sheets (blueprint ``export``): a game's score sheet and the blank sheet, as PDF.

- ``GET /games/<id>/sheet.pdf?paper=a4|letter``: the score sheet of a game in
  progress or finished, for whoever knows the game id (like the game page).
- ``GET /sheets/blank.pdf?players=Rana,Sami,Omar,Lina&paper=…``: a sheet to
  fill in with a pen.

Views are thin: :func:`scorekeeper.store.games.load_game` replays the game once,
:func:`scorekeeper.web.sheets.content.build_sheet` prepares the content and
:mod:`scorekeeper.web.sheets.pdf` renders it. A game's PDF is cached by (id, version,
paper, language, digits), each checked (an unknown paper is a 400, an unknown language
or digits the default: :func:`scorekeeper.text.locale.current_locale`), and carries an
ETag that names the same, so ``If-None-Match`` gets a 304 only for the same sheet in
the same language. The host is no part of it: the sheet's link and QR code start
with ``PUBLIC_URL`` (:func:`scorekeeper.web.paper.pdf.public_url`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from urllib.parse import quote

from flask import Response, abort, current_app, request
from werkzeug.routing import BuildError

from scorekeeper.store import games as services
from scorekeeper.store.input import NAME_MAX
from scorekeeper.text.locale import current_digits, current_locale, format_number
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.paper.pdf import app_cache, bp, public_url, requested_paper
from scorekeeper.web.sheets import pdf
from scorekeeper.web.sheets.content import build_sheet

SHEET_FORMAT = "s2"
"""Bumped when the sheet's layout changes, so that old ETags stop matching."""
NOT_FOUND = _l("There is no game at this address; check the link.")


def _game_url(game_id: str) -> str:
    """The game's read-only page as the sheet prints it (for the QR code)."""
    try:
        return public_url("web.game", game_id=game_id)
    except BuildError:  # the pages blueprint is not there (a trimmed-down app)
        return str(current_app.config.get("PUBLIC_URL") or "") + f"/games/{quote(game_id)}"


def _slug(name: str, seat: int) -> str:
    """A name for a file name: ASCII letters and digits joined by dashes (``p1`` if none)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug or f"p{seat + 1}"


def _utf8_slug(name: str) -> str:
    return re.sub(r"[\W_]+", "-", name.lower()).strip("-")


def sheet_filename(players: Sequence[str], date: str) -> tuple[str, str]:
    """(ASCII file name, UTF-8 file name) of a game's sheet: ``trix-rana-sami-omar-lina-DATE.pdf``.

    >>> sheet_filename(["Rana", "Sami", "Omar", "Lina"], "2025-05-01")[0]
    'trix-rana-sami-omar-lina-2025-05-01.pdf'
    """
    ascii_name = "-".join(_slug(n, s) for s, n in enumerate(players))
    utf8_name = "-".join(_utf8_slug(n) or f"p{s + 1}" for s, n in enumerate(players))
    return f"trix-{ascii_name}-{date}.pdf", f"trix-{utf8_name}-{date}.pdf"


def _pdf_response(data: bytes, filename: tuple[str, str]) -> Response:
    response = Response(data, mimetype="application/pdf")
    disposition = f'inline; filename="{filename[0]}"'
    if filename[1] != filename[0]:  # names in other scripts (RFC 6266)
        disposition += f"; filename*=UTF-8''{quote(filename[1])}"
    response.headers["Content-Disposition"] = disposition
    return response


@bp.get("/games/<game_id>/sheet.pdf")
def sheet(game_id: str) -> Response:
    """The game's score sheet; 304 if the caller's copy is current."""
    paper = requested_paper()
    try:
        loaded = services.load_game(game_id)
    except services.GameNotFound:
        abort(404, description=NOT_FOUND)
    locale, digits = current_locale(), current_digits()
    etag = f"{loaded.version}-{paper}-{locale}-{digits}-{SHEET_FORMAT}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        game_url = _game_url(game_id)
        key = (loaded.id, loaded.version, paper, locale, digits)
        data = app_cache().get_or_render(
            key, lambda: pdf.render_sheet(build_sheet(loaded), paper, game_url)
        )
        names = sheet_filename(loaded.players, loaded.created_at.strftime("%Y-%m-%d"))
        response = _pdf_response(data, names)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"  # the game may change: always revalidate
    return response


def _blank_players() -> list[str]:
    """The optional ``players`` list: up to four names of NAME_MAX characters at most; else 400."""
    raw = request.args.get("players", "")
    if not raw.strip():
        return []
    names = [name.strip() for name in raw.split(",")]
    if len(names) > 4:
        message = _(
            "A sheet has four players; %(count)s names were given.", count=format_number(len(names))
        )
        abort(400, description=message)
    for name in names:
        if len(name) > NAME_MAX:
            message = _(
                "“%(name)s…” is too long: a name has at most %(max)s characters.",
                name=name[:20],
                max=format_number(NAME_MAX),
            )
            abort(400, description=message)
        if any(unicodedata.category(ch).startswith("C") for ch in name):
            abort(400, description=_("Names cannot contain control characters."))
    return names


@bp.get("/sheets/blank.pdf")
def blank() -> Response:
    """A blank score sheet for a table with no phone, optionally with the players' names.

    Without names it is kept (one per paper, language and digits); with names it is
    rendered each time and never kept: names are endless, and each new set kept would
    push a game's sheet out of the cache. Such renders count against the client's share
    (:mod:`scorekeeper.web.paper.renderer`), like any other.
    """
    paper = requested_paper()
    players = _blank_players()
    if players:
        data = pdf.render_blank(players, paper)
    else:
        key = ("blank", paper, current_locale(), current_digits())
        data = app_cache().get_or_render(key, lambda: pdf.render_blank(players, paper))
    names = [_slug(n, s) for s, n in enumerate(players) if n]
    filename = "-".join(["trix-blank", *names]) + ".pdf"
    response = _pdf_response(data, (filename, filename))
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
