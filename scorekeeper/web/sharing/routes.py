"""Sharing a game between phones: the view link, the edit link, and revoking it.

- The **view link** is the game page's address: whoever has it can follow
  the game (the id is 96 random bits).
- The **edit link** ``/games/<id>/join/<token>`` carries the edit token.
  Opening it shows a confirmation page and grants nothing: a link on another
  site, or an image, must not be able to sign a browser into someone else's
  game. Its button posts (with the CSRF token) to the same address, which
  grants this browser edit rights and redirects to the game page, so the
  token leaves the address bar at once. The game's owner sees the edit link
  again on the game page, from the phone that created the game.
- The game's **owner** (the browser that created it) can revoke the edit
  links: the game gets a new token, shown on the page; every other phone,
  and every API client using the old token, is refused from then on.

Both links are shown as text (with a copy button when JavaScript runs) and
as QR codes drawn on the server by segno: SVG images (no script, no style)
at ``/games/<id>/qr/view.svg`` and ``/games/<id>/qr/edit.svg``. Encoding a
QR code costs more than the rest of the game page, so a phone fetches each
once and keeps it: the view link never changes, and the edit image's
address carries a tag of the edit link, which changes when it is replaced.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.store import games as services
from scorekeeper.store.tokens import looks_issued
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.access import (
    can_edit,
    edit_token,
    edit_url,
    grant_edit,
    grant_owner,
    is_owner,
    require_owner,
)
from scorekeeper.web.blueprint import bp, load_or_404
from scorekeeper.web.paper.qr import qr_svg

STALE_LINK = _l(
    "This edit link is no longer valid: the game's owner has replaced it. "
    "Ask for the new edit link, or follow the game with its view link."
)
MISTYPED_LINK = _l(
    "This edit link is not complete: a character is missing or was changed. "
    "Copy the whole link again, or scan its QR code."
)
NO_GAME = _l("There is no game at this address. Check the link, or start a new game.")
JOINED = _l("This phone can now enter deals for this game.")
NOT_SHOWN = _l("Only the phone that started this game shows its edit link.")
REVOKED = _l(
    "The old edit link no longer works: every other phone can now only follow the game. "
    "Share the new edit link below with those who should enter deals."
)


QR_CACHE = "private, max-age=31536000, immutable"
"""A QR image's address names its content (see the module doc): the phone keeps it."""


@dataclass(frozen=True)
class ShareLinks:
    """What the game page shows to share the game."""

    view_url: str
    view_qr: str
    """The address of the view link's QR image."""
    edit_url: str | None
    edit_qr: str | None
    owner: bool


@lru_cache(maxsize=256)
def link_tag(url: str) -> str:
    """A short tag naming ``url`` (not revealing it), to version the QR image's address."""
    return hashlib.sha256(url.encode()).hexdigest()[:16]


@bp.app_template_global("share_links")
def share_links(game_id: str) -> ShareLinks:
    """The view link for everyone; the edit link too for a browser that may edit."""
    view = url_for("web.game", game_id=game_id, _external=True)
    token = edit_token(game_id)
    edit = edit_url(game_id, token) if token else None
    return ShareLinks(
        view_url=view,
        view_qr=url_for("web.qr_code", game_id=game_id, link="view"),
        edit_url=edit,
        edit_qr=url_for("web.qr_code", game_id=game_id, link="edit", v=link_tag(edit))
        if edit
        else None,
        owner=is_owner(game_id),
    )


@bp.get("/games/<game_id>/qr/<any(view, edit):link>.svg")
def qr_code(game_id: str, link: str) -> Response:
    """The QR code of the game's view link, or of its edit link (for a phone that may edit)."""
    loaded = load_or_404(game_id)
    if link == "view":
        url = url_for("web.game", game_id=loaded.id, _external=True)
    else:
        token = edit_token(game_id)  # only the owner's phone shows the edit link
        if token is None:
            abort(403, description=NOT_SHOWN)
        url = edit_url(game_id, token)
    response = make_response(qr_svg(url))
    response.mimetype = "image/svg+xml"
    # The edit link's image is the token itself: kept by no cache.
    response.headers["Cache-Control"] = QR_CACHE if link == "view" else "no-store"
    return response


def _check_link(game_id: str, token: str) -> None:
    """404 for no game; 403 for a token that is not (or no longer) the game's, saying
    whether it was mistyped (its check fails) or replaced."""
    if not services.token_matches(game_id, token):
        if not services.game_exists(game_id):
            abort(404, description=NO_GAME)
        abort(403, description=STALE_LINK if looks_issued(token) else MISTYPED_LINK)


def _private(response: Response) -> Response:
    """The edit link's pages hold the token in their address: no cache, no Referer."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.route("/games/<game_id>/join/<token>", methods=["GET", "POST"])
def join(game_id: str, token: str) -> Response:
    """The edit link. GET: asks whether to join (grants nothing); POST (the page's button,
    with its CSRF token): grants this browser edit rights, then shows the game."""
    _check_link(game_id, token)
    if request.method == "GET":
        if can_edit(game_id):
            return _private(redirect(url_for("web.game", game_id=game_id)))
        loaded = load_or_404(game_id)
        page = render_template("sharing/join.html", loaded=loaded, token=token)
        return _private(make_response(page))
    grant_edit(game_id, token)
    flash(str(JOINED), "success")
    return _private(redirect(url_for("web.game", game_id=game_id), 303))


@bp.post("/games/<game_id>/revoke")
def revoke(game_id: str) -> Response:
    """The owner replaces the edit token: every other phone loses its edit rights."""
    if not services.game_exists(game_id):
        abort(404, description=NO_GAME)
    require_owner(game_id)
    token = services.replace_edit_token(game_id)
    grant_owner(game_id, token)
    flash(str(REVOKED), "success")
    return redirect(url_for("web.game", game_id=game_id, _anchor="share"))
