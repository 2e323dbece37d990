"""``GET /games/<id>/version`` and ``/stream``: how static/live.js keeps a page up to date.

The page listens to the stream (server-sent events: each new version as it is
recorded) and polls the version only where streams are unavailable.

An unchanged game costs a 304 decided from the version column alone; a
changed one answers a small JSON object (version, deals played, and one
sentence saying what the last write did), never the whole game.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from scorekeeper.store import live
from scorekeeper.store.snapshot import Change, GameNotFound
from scorekeeper.text import history
from scorekeeper.web.blueprint import bp
from scorekeeper.web.errors import refusal_text
from scorekeeper.web.live import streams

NO_CACHE = "no-cache, private"


@bp.get("/games/<game_id>/version")
def game_version(game_id: str) -> Response | tuple[Response, int]:
    """304 if ``If-None-Match`` holds the current version, else the live state (JSON)."""
    try:
        current = live.game_version(game_id)
        if request.if_none_match.contains_weak(str(current)):
            return _not_modified(current)
        state = live.live_state(game_id)
    except GameNotFound as missing:
        body = {
            "ok": False,
            "errors": [{"rule": None, "field": None, "message": refusal_text(missing)}],
        }
        return jsonify(body), 404
    response = jsonify(
        version=state.version,
        deals_played=state.deals_played,
        finished=state.finished,
        change=None if state.change is None else change_sentence(state.names, state.change),
    )
    response.set_etag(str(state.version))
    response.headers["Cache-Control"] = NO_CACHE
    return response


@bp.get("/games/<game_id>/stream")
def game_stream(game_id: str) -> Response:
    """The game's versions as server-sent events, for static/live.js (see
    :mod:`scorekeeper.web.live.streams`); an unknown game is a 404."""
    return streams.version_stream("game", game_id, live.game_version(game_id))


def change_sentence(names: list[str], change: Change) -> str:
    """One sentence for another phone's write, naming the deal's king and contract.

    >>> deal = {"kind": "deal", "n": 7, "king": 1, "contracts": ["king"]}
    >>> change_sentence(["Rana", "Sami", "Omar", "Lina"], Change("record", None, deal))
    "Deal 7 was recorded meanwhile: \\u2068Sami\\u2069's King of Hearts."
    """
    return history.change_sentence(
        names, change.action, change.before, change.after, history.MEANWHILE
    )


def _not_modified(version: int) -> Response:
    response = Response(status=304)
    response.set_etag(str(version))
    response.headers["Cache-Control"] = NO_CACHE
    return response
