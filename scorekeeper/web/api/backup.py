"""Backups in the JSON API: ``GET /games/<id>/export`` and ``POST /games/import``.

Routes of the games blueprint (:mod:`scorekeeper.web.api.games`), so its error
handlers apply: an unknown game is a 404; a file the import refuses is a 422
in the API's error format, naming the field (``log.7.entry.captures``).
"""

from __future__ import annotations

from flask import Response, jsonify, request

from scorekeeper.store import backup
from scorekeeper.store.games import game_state
from scorekeeper.web.api.games import bp
from scorekeeper.web.server.api_io import json_body


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    """The game's backup file (format ``scorekeeper.game`` version 1)."""
    response = jsonify(backup.export_game(game_id))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/import")
def import_game() -> tuple[Response, int]:
    """Restore a backup as a new game: 201 with its id, its new edit token and its state."""
    loaded, token = backup.import_game(json_body())
    response = jsonify(id=loaded.id, edit_token=token, game=game_state(loaded))
    response.set_etag(str(loaded.version))
    response.headers["Location"] = f"{request.script_root}/api/v1/games/{loaded.id}"
    return response, 201
