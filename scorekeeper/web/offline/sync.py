"""``POST /api/v1/games/<id>/sync``: one entry of a phone's outbox, written exactly once.

The app's own pages sync what was entered offline here. They hold no edit
token (:mod:`scorekeeper.web.access`): this route takes the browser's
edit rights from its session cookie, so unlike the rest of the API it is
protected against cross-site requests by the CSRF token (``X-CSRFToken``).

Body: ``{"entry_id", "action": "record" | "redeal" | "edit" | "undo", "entry"?,
"n"?, "version"?, "position"?, "played_at"?}``; every entry carries its id (API.md
"Exactly-once entries"), so a retry after a lost answer is answered again and written once.
A ``record`` or ``redeal`` is checked at its new place in the log (another
phone may have written meanwhile). A ``record`` that names the ``position`` it was
typed for (``{"n", "king"}``) is refused (409 ``deal_already_recorded`` or
``position_moved``, with the other entry) when another phone took that position,
never recorded as the next deal by itself; ``played_at`` is the phone's clock at
Save (API.md "One deal, one position", "Time played"). A repeat is answered as the first
copy was, with ``"repeat": true``. An ``edit`` or ``undo`` names the version
it was made against and is refused (412) if the game moved since. Answers and
refusals are the API's (errors through :mod:`scorekeeper.web.errors`). A redeal
may also be a Trix deal void for a closed suit (``"reason": "closed_suit"``), as
the game page's redeal form offers under that house rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, abort, jsonify

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.events.tables import first_king_needed
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.wire import json_object
from scorekeeper.store import games as services
from scorekeeper.store.input import (
    parse_deal_body,
    parse_entry_id,
    parse_redeal_body,
    take_position_and_time,
)
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.access import require_edit
from scorekeeper.web.server.api_io import json_body

bp = Blueprint("offline_api", __name__)
SOURCE = "offline"
ACTIONS = ("record", "redeal", "edit", "undo")


@bp.post("/games/<game_id>/sync")
def sync(game_id: str) -> Response:
    """Write one outbox entry; the answer of ``POST …/deals`` (or the redeal, edit, undo)."""
    if not services.game_exists(game_id):
        raise services.GameNotFound(game_id)
    require_edit(game_id)
    body = json_body()
    entry_id = parse_entry_id(body.get("entry_id"))
    action = body.get("action")
    if action not in ACTIONS:
        abort(400, description=_("Unknown action: use record, redeal, edit or undo."))
    status, answer, loaded = _write(game_id, action, entry_id, body)
    response = jsonify({**answer, "game": services.game_state(loaded)})
    response.status_code = status
    response.set_etag(str(loaded.version))
    return response


def _write(
    game_id: str, action: str, entry_id: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any], services.LoadedGame]:
    try:
        position, played_at, _rest = take_position_and_time(body)
        if action == "record":
            entry = parse_deal_body(body.get("entry"), "entry")
            if entry.king is None:
                _refuse_unnamed_first_king(game_id)
            loaded, n = services.record_deal(
                game_id, entry, None, SOURCE, entry_id, position=position, played_at=played_at
            )
            return 201, {"deal": loaded.game.deals[n - 1].to_dict()}, loaded
        if action == "redeal":
            redeal = _redeal(body.get("entry"))
            loaded = services.record_redeal(
                game_id, redeal, None, SOURCE, entry_id, played_at=played_at
            )
            return 201, {"redeal": redeal.to_dict()}, loaded
        version = _version(body)
        if action == "edit":
            n = _deal_number(body)
            entry = parse_deal_body(body.get("entry"), "entry")
            loaded = services.edit_deal(game_id, n, entry, version, SOURCE, entry_id)
            return 200, {"deal": loaded.game.deals[n - 1].to_dict()}, loaded
        loaded = services.undo_last(game_id, version, SOURCE, entry_id)
        return 200, {}, loaded
    except services.AlreadyWritten as done:
        return _repeat(done)


def _refuse_unnamed_first_king(game_id: str) -> None:
    """A club night's table's first deal must say who was dealt the 7♥, as the deal form
    asks (R2); the page's outbox never sends one without (the engine on the phone asks)."""
    if services.asks_first_king(services.load_game(game_id)):
        raise first_king_needed()


def _repeat(done: services.AlreadyWritten) -> tuple[int, dict[str, Any], services.LoadedGame]:
    """The answer the first copy of this entry got (its deal as then scored), marked
    ``"repeat": true``: its ``game`` is the game now, which may have moved past the entry
    (a phone must not take that version for an undo queued behind it)."""
    after = {k: v for k, v in (done.after or {}).items() if k != "kind"}
    if done.action == "record":
        return 201, {"deal": after, "repeat": True}, done.loaded
    if done.action == "redeal":
        redeal = {k: v for k, v in after.items() if k != "n"}
        return 201, {"redeal": redeal, "repeat": True}, done.loaded
    answer = {"deal": after} if done.action == "edit" else {}
    return 200, {**answer, "repeat": True}, done.loaded


def _redeal(raw: object) -> RedealEntry:
    """The API's redeal, or a Trix deal void for a closed suit (``"reason": "closed_suit"``,
    R7), which the game page's redeal form also offers; the engine checks the house rule."""
    body = dict(json_object(raw, "entry"))
    reason = body.pop("reason", None)
    redeal = parse_redeal_body(body, "entry")
    if reason is None:
        return redeal
    if reason != "closed_suit":
        abort(400, description=_("A redeal's reason can only be a closed suit (closed_suit)."))
    return replace(redeal, contract=Contract.TRIX, reason="closed_suit")


def _version(body: dict[str, Any]) -> int:
    version = body.get("version")
    if type(version) is not int or version < 1:
        abort(400, description=_("A correction or an undo names the game's version it changes."))
    return version


def _deal_number(body: dict[str, Any]) -> int:
    n = body.get("n")
    if type(n) is not int or n < 1:
        abort(400, description=_("A correction names the deal it changes (n)."))
    return n
