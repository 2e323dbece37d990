"""The circles endpoints of the JSON API (API.md "Circles"), mounted at /api/v1.

Reads are open to whoever knows the circle's id; writes need the circle's
edit token (``Authorization: Bearer <token>``), never a game's.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleRefusal
from scorekeeper.store.games import game_state
from scorekeeper.store.input import parse_new_game_body
from scorekeeper.web.access import require_circle_token
from scorekeeper.web.circles.present import circle_state, member_state
from scorekeeper.web.server.api_io import json_body

bp = Blueprint("api_circles", __name__)

CIRCLE_KEYS = {"name", "members", "ratings", "rules"}


@bp.post("/circles")
def create_circle() -> Response:
    """A new circle: 201 with its id, its edit token (shown only now) and the circle."""
    body = json_body()
    unknown = sorted(set(body) - CIRCLE_KEYS)
    if unknown:
        raise CircleRefusal.one("unknown_field", unknown[0])
    ratings = body.get("ratings", False)
    if not isinstance(ratings, bool):
        raise CircleRefusal.one("ratings_flag", "ratings")
    rules = RuleSet.from_dict(body.get("rules"))
    circle, token = services.create_circle(body.get("name"), body.get("members"), ratings, rules)
    response = jsonify({"id": circle.id, "edit_token": token, "circle": circle_state(circle)})
    response.status_code = 201
    response.headers["Location"] = f"{request.script_root}/api/v1/circles/{circle.id}"
    return response


@bp.get("/circles/<circle_id>")
def get_circle(circle_id: str) -> Response:
    """The circle: its members (games, wins, rating) and its games."""
    circle = services.load_circle(circle_id)
    return jsonify(circle_state(circle))


@bp.post("/circles/<circle_id>/games")
def start_game(circle_id: str) -> Response:
    """A game of the circle: players are members' names (a new name, a new member)."""
    require_circle_token(circle_id)
    new = parse_new_game_body(json_body())
    loaded, token = services.start_game(circle_id, new.players, new.first_king, new.rules)
    response = jsonify({"id": loaded.id, "edit_token": token, "game": game_state(loaded)})
    response.status_code = 201
    response.set_etag(str(loaded.version))
    response.headers["Location"] = f"{request.script_root}/api/v1/games/{loaded.id}"
    return response


@bp.get("/circles/<circle_id>/members/<int:member_id>")
def member(circle_id: str, member_id: int) -> Response:
    """A member's statistics; ``?period=month|year|all`` (all by default)."""
    circle = services.load_circle(circle_id)
    circle.member(member_id)  # MemberNotFound: 404
    period = _period()
    body: dict[str, Any] = member_state(circle, member_id, period)
    return jsonify(body)


def _period() -> str:
    period = request.args.get("period", "all")
    return period if period in services.PERIODS else "all"
