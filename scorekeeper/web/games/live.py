"""``GET /games/<id>/version``: what static/live.js polls to keep a page up to date.

An unchanged game costs a 304 decided from the version column alone; a
changed one answers a small JSON object (version, deals played, and one
sentence saying what the last write did), never the whole game.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from scorekeeper.store import live
from scorekeeper.store.snapshot import GameNotFound
from scorekeeper.web.blueprint import bp

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
        body = {"ok": False, "errors": [{"rule": None, "field": None, "message": str(missing)}]}
        return jsonify(body), 404
    response = jsonify(state.to_dict())
    response.set_etag(str(state.version))
    response.headers["Cache-Control"] = NO_CACHE
    return response


def _not_modified(version: int) -> Response:
    response = Response(status=304)
    response.set_etag(str(version))
    response.headers["Cache-Control"] = NO_CACHE
    return response
