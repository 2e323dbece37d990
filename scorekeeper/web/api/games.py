"""The games endpoints of the JSON API (API.md "Games"), mounted at /api/v1.

Thin: each view parses the request, calls :mod:`scorekeeper.store.games`, and
answers JSON. An engine refusal (``RulesError``: 422 / 409 with its
problems) is answered by the one error path (:mod:`scorekeeper.web.errors`);
the services' own errors by :func:`handle_error` here: unknown game or deal
-> 404, stale ``If-Match`` -> 412 (with the fresh game). Reads are open
to whoever knows the game's id; writes need ``Authorization: Bearer <token>``.
A game's version is its ETag: ``GET`` honours ``If-None-Match`` (304), and
``PUT`` / ``DELETE`` require ``If-Match`` (428 without it).

Every write may carry an ``entry_id`` (API.md "Exactly-once entries"; for the
undo, whose request has no body, as ``?entry_id=``): a repeat is answered
with what the first one wrote, the current game, and the same status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, request

from scorekeeper.store import games as services
from scorekeeper.store import live
from scorekeeper.store.games import game_state
from scorekeeper.store.input import (
    parse_deal_body,
    parse_entry_id,
    parse_new_game_body,
    parse_redeal_body,
    take_entry_id,
    take_position_and_time,
)
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.access import require_bearer
from scorekeeper.web.server.api_io import if_match, json_body, unchanged, with_etag

bp = Blueprint("api_games", __name__)

SOURCE = "api"


# --- headers -------------------------------------------------------------------------------


def _require_token(game_id: str) -> None:
    """401 without a bearer token, 403 with a wrong one, 404 for no such game."""
    require_bearer(
        lambda token: services.token_matches(game_id, token),
        lambda: services.game_exists(game_id),
        services.GameNotFound(game_id),
        _("This needs the game's edit token: Authorization: Bearer <token>."),
        _("This edit token does not belong to this game."),
    )


def _deal_written(
    write: Callable[[], tuple[services.LoadedGame, int]],
) -> tuple[dict[str, Any], services.LoadedGame, int]:
    """(the deal as scored, the game now, its number) of a deal write, first or repeated."""
    try:
        loaded, n = write()
    except services.AlreadyWritten as done:
        after = {k: v for k, v in (done.after or {}).items() if k != "kind"}
        return after, done.loaded, int(after["n"])
    return loaded.game.deals[n - 1].to_dict(), loaded, n


def _game_written(write: Callable[[], services.LoadedGame]) -> services.LoadedGame:
    """The game after a redeal or an undo, first or repeated."""
    try:
        return write()
    except services.AlreadyWritten as done:
        return done.loaded


def _query_entry_id() -> str | None:
    raw = request.args.get("entry_id")
    return None if raw is None else parse_entry_id(raw)


# --- views ---------------------------------------------------------------------------------


@bp.post("/games")
def create_game() -> Response:
    """Start a game: 201 with its id, its edit token (shown only now) and its state."""
    new = parse_new_game_body(json_body())
    loaded, token = services.create_game(new.players, new.first_king, new.rules)
    body = {"id": loaded.id, "edit_token": token, "game": game_state(loaded)}
    response = with_etag(body, loaded, 201)
    response.headers["Location"] = f"{request.script_root}/api/v1/games/{loaded.id}"
    return response


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    """The game's state; ``ETag`` carries its version, ``If-None-Match`` may answer 304.

    The 304 is decided from the version column alone, before the log is replayed.
    """
    not_modified = unchanged(lambda: live.game_version(game_id))
    if not_modified is not None:
        return not_modified
    loaded = services.load_game(game_id)
    return with_etag(game_state(loaded), loaded, 200)


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> Response:
    """Record the next deal: 201 with the deal as scored and the new state."""
    _require_token(game_id)
    expected = if_match(required=False)
    entry_id, body = take_entry_id(json_body())
    position, played_at, body = take_position_and_time(body)
    entry = parse_deal_body(body)
    deal, loaded, n = _deal_written(
        lambda: services.record_deal(
            game_id,
            entry,
            expected,
            source=SOURCE,
            entry_id=entry_id,
            position=position,
            played_at=played_at,
        ),
    )
    response = with_etag({"deal": deal, "game": game_state(loaded)}, loaded, 201)
    response.headers["Location"] = f"{request.script_root}/api/v1/games/{game_id}/deals/{n}"
    return response


@bp.get("/games/<game_id>/deals/<int:n>")
def get_deal(game_id: str, n: int) -> Response:
    """Extension: one deal as scored, with its history of revisions."""
    loaded = services.load_game(game_id)
    row = loaded.deal_row(n)
    revisions = [
        {
            "at": r.at.isoformat(),
            "action": r.action,
            "source": r.source,
            "version": r.version,
            "before": r.before,
            "after": r.after,
        }
        for r in services.deal_revisions(game_id, n)
    ]
    played = None if row.played_at is None else row.played_at.isoformat()
    body = {
        "deal": loaded.game.deals[n - 1].to_dict(),
        "played_at": played,
        "recorded_at": row.created_at.isoformat(),
        "revisions": revisions,
    }
    return with_etag(body, loaded, 200)


@bp.put("/games/<game_id>/deals/<int:n>")
def edit_deal(game_id: str, n: int) -> Response:
    """Replace deal ``n`` (``If-Match`` required); later deals are re-validated."""
    _require_token(game_id)
    expected = if_match(required=True)
    entry_id, body = take_entry_id(json_body())
    entry = parse_deal_body(body)
    deal, loaded, _n = _deal_written(
        lambda: (
            services.edit_deal(game_id, n, entry, expected, source=SOURCE, entry_id=entry_id),
            n,
        ),
    )
    return with_etag({"deal": deal, "game": game_state(loaded)}, loaded, 200)


@bp.delete("/games/<game_id>/deals/last")
def undo_last(game_id: str) -> Response:
    """Undo: remove the last deal (or redeal), ``If-Match`` required."""
    _require_token(game_id)
    expected = if_match(required=True)
    entry_id = _query_entry_id()
    loaded = _game_written(
        lambda: services.undo_last(game_id, expected, source=SOURCE, entry_id=entry_id)
    )
    return with_etag({"game": game_state(loaded)}, loaded, 200)


@bp.post("/games/<game_id>/redeals")
def record_redeal(game_id: str) -> Response:
    """Extension: record a redeal or misdeal (R8); no contract is used up."""
    _require_token(game_id)
    expected = if_match(required=False)
    entry_id, body = take_entry_id(json_body())
    _position, played_at, body = take_position_and_time(body)
    entry = parse_redeal_body(body)
    loaded = _game_written(
        lambda: services.record_redeal(
            game_id, entry, expected, source=SOURCE, entry_id=entry_id, played_at=played_at
        )
    )
    return with_etag({"redeal": entry.to_dict(), "game": game_state(loaded)}, loaded, 201)
