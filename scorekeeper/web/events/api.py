"""The club nights endpoints of the JSON API (API.md "Club nights"), mounted at /api/v1.

Thin, like :mod:`scorekeeper.web.api.games`: parse, call
:mod:`scorekeeper.store.events.services`, answer JSON; refusals go through the one
error path. Reads are open to whoever knows the event's id; the director's
writes need ``Authorization: Bearer <director token>`` (or the co-director's
token, which has the same rights but for giving or revoking the co-director's
link). A table's edit token edits only its own game (through the games
endpoints), never the event.
Holding a night for a circle needs the circle's edit token (its id, the
circle's view link, gives no right to write into it).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request

from scorekeeper.store.events import changes as event_changes
from scorekeeper.store.events import controls as event_controls
from scorekeeper.store.events import services
from scorekeeper.store.events.input import parse_leaving_body, parse_new_event_body
from scorekeeper.store.games import game_state
from scorekeeper.store.input import parse_deal_body
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.access import bearer_token, require_bearer, require_circle_token
from scorekeeper.web.events.present import event_json
from scorekeeper.web.server.api_io import if_match, json_body, unchanged, with_etag

bp = Blueprint("api_events", __name__)


def require_director(event_id: str) -> None:
    """401 without a bearer token, 403 with another one, 404 for no such event."""
    require_bearer(
        lambda token: services.director_matches(event_id, token),
        lambda: services.event_exists(event_id),
        services.EventNotFound(event_id),
        _("This needs the club night's director token: Authorization: Bearer <token>."),
        _("This token is not the director's token of this club night."),
    )


def acting_director_token(event_id: str) -> str:
    """The director's token behind the bearer's (a co-director's opens to it): tables'
    edit tokens derive from it. Call after :func:`require_director`."""
    role = event_controls.acting_token(event_id, bearer_token())
    if role is None:  # revoked between the two checks
        abort(403, description=_("This token is not the director's token of this club night."))
    return role.director_token


def require_main_director(event_id: str) -> str:
    """The director's own token (a co-director's is refused, 403)."""
    require_director(event_id)
    role = event_controls.acting_token(event_id, bearer_token())
    if role is None or role.co_director:
        abort(
            403,
            description=_(
                "Only the director (not a co-director) can give or revoke the co-director's link."
            ),
        )
    return role.director_token


def event_response(event: services.EventView, status: int = 200, **extra: Any) -> Response:
    response = jsonify({**extra, "event": event_json(event)} if extra else event_json(event))
    response.status_code = status
    response.set_etag(str(event.version))
    return response


@bp.post("/events")
def create_event() -> Response:
    """201 with the event's id, its director's token (shown only now) and the event.

    A night held for a circle (``"circle"``) writes into the circle (its tables'
    games, new members): it needs the circle's edit token as the bearer token
    (401 without, 403 with another; nothing is written)."""
    new = parse_new_event_body(json_body())
    if new.circle is not None:
        require_circle_token(new.circle)
    event, token = services.create_event(new)
    response = event_response(event, 201, id=event.id, director_token=token)
    response.headers["Location"] = f"{request.script_root}/api/v1/events/{event.id}"
    return response


@bp.get("/events/<event_id>")
def get_event(event_id: str) -> Response:
    """The event with its standings and every round's tables; 304 from the version alone."""
    not_modified = unchanged(lambda: services.event_version(event_id))
    if not_modified is not None:
        return not_modified
    return event_response(services.load_event(event_id))


@bp.post("/events/<event_id>/rounds")
def draw_round(event_id: str) -> Response:
    """Draw the next round: 201 with its tables, their games and edit tokens."""
    require_director(event_id)
    drawn = services.draw_next_round(event_id, acting_director_token(event_id))
    response = jsonify(drawn_json(drawn))
    response.status_code = 201
    return response


def drawn_json(drawn: services.DrawnRound) -> dict[str, Any]:
    """A drawn round's tables with their games' edit tokens (shown to the director)."""
    tables = [
        {
            "table": t.number,
            "players": list(t.players),
            "game": t.game_id,
            "edit_token": t.edit_token,
        }
        for t in drawn.tables
    ]
    return {
        "round": drawn.number,
        "seed": drawn.seed,
        "tables": tables,
        "sitting_out": list(drawn.sitting_out),
        "left_out": list(drawn.left_out),
        "still_playing": list(drawn.still_playing),
    }


@bp.post("/events/<event_id>/rounds/<int:number>/replace")
def replace_player(event_id: str, number: int) -> Response:
    """Extension: ``{"player", "substitute"}``: a player leaves in the middle of round
    ``number`` and the substitute takes his seat (the table's game goes on)."""
    require_director(event_id)
    player, substitute = parse_leaving_body(json_body(), substitute=True)
    return event_response(event_changes.replace_player(event_id, number, player, substitute))


@bp.post("/events/<event_id>/rounds/<int:number>/redraw")
def redraw_round(event_id: str, number: int) -> Response:
    """Extension: ``{"player"}``: a player leaves and the tables of round ``number`` that
    have not started are drawn again without him; the answer lists those tables."""
    require_director(event_id)
    player, _none = parse_leaving_body(json_body(), substitute=False)
    drawn = event_changes.redraw(event_id, number, player, acting_director_token(event_id))
    event = services.load_event(event_id)
    return event_response(event, 200, **drawn_json(drawn))


@bp.post("/events/<event_id>/rounds/<int:number>/lock")
def lock_round(event_id: str, number: int) -> Response:
    """Extension: lock a round (``{"locked": false}`` unlocks it)."""
    require_director(event_id)
    body = json_body() if request.get_data() else {}
    locked = body.get("locked", True)
    if not isinstance(locked, bool):
        abort(400, description=_("“locked” must be true or false."))
    return event_response(services.lock_round(event_id, number, locked))


@bp.post("/events/<event_id>/close")
def close_event(event_id: str) -> Response:
    """Extension: close the event."""
    require_director(event_id)
    return event_response(services.close_event(event_id))


@bp.post("/events/<event_id>/reopen")
def reopen_event(event_id: str) -> Response:
    """Extension: a closed event is open again (200 the event; an open one is left as is)."""
    require_director(event_id)
    return event_response(event_controls.reopen_event(event_id))


@bp.post("/events/<event_id>/rounds/<int:number>/undo")
def undo_draw(event_id: str, number: int) -> Response:
    """Extension: undo the last round's draw while none of its tables has a deal."""
    require_director(event_id)
    return event_response(event_controls.undo_draw(event_id, number))


@bp.post("/events/<event_id>/co-director")
def give_co_director(event_id: str) -> Response:
    """Extension: a new co-director's token (201); the previous one stops working."""
    token = require_main_director(event_id)
    co_token = event_controls.give_co_director(event_id, token)
    return event_response(services.load_event(event_id), 201, co_director_token=co_token)


@bp.delete("/events/<event_id>/co-director")
def revoke_co_director(event_id: str) -> Response:
    """Extension: the co-director's token stops working (200 the event)."""
    require_main_director(event_id)
    return event_response(event_controls.revoke_co_director(event_id))


@bp.post("/events/<event_id>/players")
def add_player(event_id: str) -> Response:
    """Extension: a late arrival ``{"name": …}``, or a player who left and is back, drawn
    from the next round on."""
    require_director(event_id)
    name = json_body().get("name")
    return event_response(services.add_player(event_id, name), 201)  # type: ignore[arg-type]


@bp.post("/events/<event_id>/players/leave")
def player_leaves(event_id: str) -> Response:
    """Extension: ``{"name": …}`` leaves; he is drawn no more from the next round on."""
    require_director(event_id)
    name = json_body().get("name")
    return event_response(services.player_leaves(event_id, str(name)))


@bp.put("/events/<event_id>/games/<table_game>/deals/<int:n>")
def correct_deal(event_id: str, table_game: str, n: int) -> Response:
    """Extension: the director corrects a table's deal (``If-Match`` the game's version)."""
    require_director(event_id)
    expected = if_match(required=True)
    entry = parse_deal_body(json_body())
    loaded = services.correct_deal(event_id, table_game, n, entry, expected)
    deal = loaded.game.deals[n - 1].to_dict()
    return with_etag({"deal": deal, "game": game_state(loaded)}, loaded, 200)
