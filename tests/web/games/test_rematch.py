"""At game over: "Rematch with the same players", a POST (with CSRF) that starts a new
game with the same seats and rules, the next player first king (R2), and takes this
browser to it with edit rights."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.common import C, D, K, Q, T
from tests.web.pages import NAMES, html, new_game
from tests.web.sheets.conftest import deal_for


def finish(game_id: str) -> None:
    """Record the 20 deals of the game (through the services)."""
    for k in range(4):
        king = services.load_game(game_id).game.current_king
        assert king is not None
        for contract in (K, Q, D, C, T):
            services.record_deal(game_id, deal_for(contract, king, k))
    assert services.load_game(game_id).game.finished


def test_r2_a_rematch_keeps_seats_and_rules_and_the_next_player_is_king(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, first_king=3, preset="complex")
    finish(game_id)
    over = html(client.get(f"/games/{game_id}"))
    assert 'data-testid="rematch"' in over
    assert "Same seats and house rules; Rana is the first king." in over
    response = client.post(f"/games/{game_id}/rematch")
    assert response.status_code == 302
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert new_id != game_id
    old, new = services.load_game(game_id), services.load_game(new_id)
    assert new.players == old.players == NAMES
    assert new.rules == old.rules and new.rules.combination.value == "any"
    assert new.first_king == 0 and new.game.current_king == 0  # after seat 3, seat 0
    assert new.game.deals_played == 0
    page = html(client.get(f"/games/{new_id}"))
    assert "The rematch has started: \u2068Rana\u2069 is the first king." in page  # isolated
    assert client.get(f"/games/{new_id}/deals/new?contracts=king").status_code == 200


def test_r2_under_an_agreed_order_the_rematch_turns_the_order(client: FlaskClient) -> None:
    rules = RuleSet.from_dict({"kingdom_order": "custom", "king_order": [2, 0, 3, 1]})
    custom, token = services.create_game(NAMES, 2, rules)
    client.get(f"/games/{custom.id}/join/{token}")
    client.post(f"/games/{custom.id}/join/{token}")
    finish(custom.id)
    new_id = client.post(f"/games/{custom.id}/rematch").headers["Location"].rsplit("/", 1)[-1]
    new = services.load_game(new_id)
    assert new.first_king == 0 and new.rules.king_order == (0, 3, 1, 2)


def test_a_game_not_over_has_no_rematch(client: FlaskClient) -> None:
    game_id = new_game(client)
    assert 'data-testid="rematch"' not in html(client.get(f"/games/{game_id}"))
    response = client.post(f"/games/{game_id}/rematch")
    assert response.status_code == 409
    assert "This game is not over yet" in html(response)


def test_a_follower_cannot_start_a_rematch(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    finish(game_id)
    follower = app.test_client()
    assert 'data-testid="rematch"' not in html(follower.get(f"/games/{game_id}"))
    assert follower.post(f"/games/{game_id}/rematch").status_code == 403


def test_a_rematch_without_the_csrf_token_is_refused(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    with app.app_context():
        from scorekeeper.extensions import db

        db.create_all()
        client = app.test_client()
        page = html(client.get("/games/new"))
        token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
        data = {f"players-{i}": name for i, name in enumerate(NAMES)}
        data |= {"first_king": "0", "preset": "standard", "csrf_token": token}
        game_id = client.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[-1]
        finish(game_id)
        assert client.post(f"/games/{game_id}/rematch").status_code == 400
        over = html(client.get(f"/games/{game_id}"))
        token = over.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
        response = client.post(f"/games/{game_id}/rematch", data={"csrf_token": token})
        assert response.status_code == 302
        db.session.remove()
        db.drop_all()


def test_r2_a_rematch_is_made_once_for_a_second_tap_and_a_second_phone(
    client: FlaskClient, app: Flask
) -> None:
    """The finished game remembers its rematch: tapping Rematch again, or on another phone
    that may edit the game, opens the same new game, editable there too."""
    game_id = new_game(client)
    finish(game_id)
    first = client.post(f"/games/{game_id}/rematch").headers["Location"]
    assert client.post(f"/games/{game_id}/rematch").headers["Location"] == first
    new_id = first.rsplit("/", 1)[-1]
    other = app.test_client()
    token = services.replace_edit_token(game_id)  # the other phone joins with the edit link
    other.post(f"/games/{game_id}/join/{token}")
    response = other.post(f"/games/{game_id}/rematch")
    assert response.status_code == 302
    assert response.headers["Location"] == first
    assert other.get(f"/games/{new_id}/deals/new?contracts=king").status_code == 200
    reader = app.test_client()
    assert reader.post(f"/games/{game_id}/rematch").status_code == 403
