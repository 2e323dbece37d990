"""The circles' pages: create, share, start a game, a player's page, the table, exports."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient

from scorekeeper.store.circles import services
from tests.web.circles.test_api import DEALS, bearer

NAMES = ["Rana", "Sami", "Omar", "Lina"]


def create(client: FlaskClient, ratings: bool = True) -> str:
    form = {"name": "Thursday", "members": ["Rana", "Sami", "Omar", "Lina"], "kingdoms": "1"}
    if ratings:
        form["ratings"] = "on"
    response = client.post("/circles", data=form)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[-1]


def start_game(client: FlaskClient, circle_id: str) -> str:
    members = services.load_circle(circle_id).members
    form = {f"seat-{s}": str(members[s].id) for s in range(4)} | {
        "kingdoms": "1",
        "first_king": "0",
    }
    response = client.post(f"/circles/{circle_id}/games/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_create_a_circle_in_a_few_taps_and_see_its_links(client: FlaskClient) -> None:
    assert client.get("/circles").status_code == 200
    circle_id = create(client)
    page = client.get(f"/circles/{circle_id}").get_data(as_text=True)
    assert "Thursday" in page and f"/circles/{circle_id}/join/" in page  # the edit link
    assert client.get(f"/circles/{circle_id}/qr/edit.svg").mimetype == "image/svg+xml"
    assert "Thursday" in client.get("/circles").get_data(as_text=True)


def test_a_bad_circle_form_is_shown_again_with_its_problem(client: FlaskClient) -> None:
    response = client.post("/circles", data={"name": "", "members": ["Rana"]})
    assert response.status_code == 422 and "Give the circle a name." in response.get_data(
        as_text=True
    )


def test_another_browser_sees_the_circle_but_cannot_change_it(client: FlaskClient, app) -> None:
    circle_id = create(client)
    other = app.test_client()
    page = other.get(f"/circles/{circle_id}").get_data(as_text=True)
    assert "/join/" not in page
    assert other.get(f"/circles/{circle_id}/games/new").status_code == 403
    assert other.post(f"/circles/{circle_id}/revoke").status_code == 403
    assert other.post(f"/circles/{circle_id}/settings").status_code == 403
    assert other.get(f"/circles/{circle_id}/attach").status_code == 403
    assert other.get(f"/circles/{circle_id}/qr/edit.svg").status_code == 403


def test_the_edit_link_grants_rights_after_confirming_and_revoking_ends_them(
    client: FlaskClient, app
) -> None:
    circle_id = create(client)
    page = client.get(f"/circles/{circle_id}").get_data(as_text=True)
    link = re.search(r"/circles/[^/]+/join/[A-Za-z0-9_-]+", page).group(0)
    other = app.test_client()
    assert other.get(link).status_code == 200
    assert other.get(f"/circles/{circle_id}/games/new").status_code == 403  # GET grants nothing
    assert other.post(link).status_code == 303
    assert other.get(f"/circles/{circle_id}/games/new").status_code == 200
    assert client.post(f"/circles/{circle_id}/revoke").status_code == 303
    assert other.get(f"/circles/{circle_id}/games/new").status_code == 403
    assert other.get(link).status_code == 403


def test_a_games_edit_rights_give_none_over_its_circle(client: FlaskClient, app) -> None:
    circle_id = create(client)
    game_id = start_game(client, circle_id)
    other = app.test_client()
    from tests.common import owner_token

    token = owner_token(client, game_id)
    other.post(f"/games/{game_id}/join/{token}")
    assert other.get(f"/circles/{circle_id}/games/new").status_code == 403


def test_a_game_started_from_the_circle_page_and_the_players_page(client: FlaskClient) -> None:
    from tests.common import owner_token

    circle_id = create(client)
    game_id = start_game(client, circle_id)
    token = owner_token(client, game_id)
    for deal in DEALS:
        assert (
            client.post(
                f"/api/v1/games/{game_id}/deals", json=deal, headers=bearer(token)
            ).status_code
            == 201
        )
    circle = services.load_circle(circle_id)
    rana = circle.member_named("Rana")
    page = client.get(f"/circles/{circle_id}/members/{rana.id}").get_data(as_text=True)
    assert "<svg" in page and 'data-testid="stat-games">1<' in page
    table = client.get(f"/circles/{circle_id}").get_data(as_text=True)
    assert table.index("Rana") < table.index("Lina")
    for period in ("month", "year", "all"):
        assert (
            client.get(f"/circles/{circle_id}/members/{rana.id}?period={period}").status_code == 200
        )


def test_new_players_join_the_circle_when_a_game_starts(client: FlaskClient) -> None:
    circle_id = create(client)
    members = services.load_circle(circle_id).members
    form = {"seat-0": str(members[0].id), "new-1": "Nour", "new-2": "Hadi", "new-3": "Zaid"}
    response = client.post(f"/circles/{circle_id}/games/new", data=form)
    assert response.status_code == 303
    assert services.load_circle(circle_id).member_named("Nour") is not None


def test_attach_an_existing_game_with_a_confirmation_per_name(client: FlaskClient) -> None:
    circle_id = create(client)
    created = client.post("/api/v1/games", json={"players": ["rana", "Sami", "X", "Y"]}).json
    link = f"http://localhost/games/{created['id']}/join/{created['edit_token']}"
    page = client.get(f"/circles/{circle_id}/attach", query_string={"link": link})
    assert 'data-testid="attach-member-3"' in page.get_data(as_text=True)
    rana = services.load_circle(circle_id).member_named("Rana")
    form = {
        "link": link,
        "confirm": "1",
        "member-0": str(rana.id),
        "member-1": "",
        "member-2": "",
        "member-3": "",
    }
    assert client.post(f"/circles/{circle_id}/attach", data=form).status_code == 303
    (linked,) = services.linked_games(services.load_circle(circle_id))
    assert linked.game_id == created["id"] and linked.members[0] == rana.id


def test_a_circle_backup_restores_as_a_new_circle_with_its_games(client: FlaskClient) -> None:
    from io import BytesIO

    from tests.common import owner_token

    circle_id = create(client)
    game_id = start_game(client, circle_id)
    token = owner_token(client, game_id)
    for deal in DEALS:
        client.post(f"/api/v1/games/{game_id}/deals", json=deal, headers=bearer(token))
    backup = client.get(f"/circles/{circle_id}/backup.json").get_data()
    assert json.loads(backup)["format"] == "scorekeeper-circle"
    response = client.post(
        "/circles/restore",
        data={"file": (BytesIO(backup), "circle.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert new_id != circle_id
    old, new = services.load_circle(circle_id), services.load_circle(new_id)
    assert [m.name for m in new.members] == [m.name for m in old.members]
    (old_game,), (new_game,) = services.linked_games(old), services.linked_games(new)
    assert new_game.totals == old_game.totals and new_game.finished
    old_stats, new_stats = (services.member_stats(c, c.members[0].id) for c in (old, new))
    for key in ("games", "wins", "average_total", "per_contract", "doubling", "kingdoms"):
        assert new_stats[key] == old_stats[key]  # the restored games are counted again


def test_a_file_that_is_not_a_circles_backup_is_refused(client: FlaskClient) -> None:
    from io import BytesIO

    response = client.post(
        "/circles/restore",
        data={"file": (BytesIO(b'{"format": "x"}'), "c.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422


def test_an_unknown_circle_is_a_404_page(client: FlaskClient) -> None:
    assert client.get("/circles/nope").status_code == 404
    assert client.get("/circles/nope/export.csv").status_code == 404


def test_the_home_page_links_to_circles(client: FlaskClient) -> None:
    assert "/circles" in client.get("/").get_data(as_text=True)


def _circle_write_routes(app) -> list[str]:
    """Every page route that changes a circle (but the edit link's own confirmation)."""
    return sorted(
        rule.rule
        for rule in app.url_map.iter_rules()
        if "circle_id" in rule.arguments
        and "POST" in (rule.methods or set())
        and "token" not in rule.arguments
        and not rule.rule.startswith("/api/")
    )


def test_every_circle_write_page_refuses_a_browser_without_its_edit_rights(
    client: FlaskClient, app
) -> None:
    circle_id = create(client)
    game_id = start_game(client, circle_id)
    other = app.test_client()
    routes = _circle_write_routes(app)
    assert "/circles/<circle_id>/games/<game_id>/detach" in routes
    for rule in routes:
        path = rule.replace("<circle_id>", circle_id).replace("<game_id>", game_id)
        assert other.post(path).status_code == 403, path
    assert client.get(f"/api/v1/circles/{circle_id}").json["games"] == [game_id]


def test_detaching_a_game_that_is_not_in_the_circle_is_refused_in_words(
    client: FlaskClient,
) -> None:
    circle_id = create(client)
    version = services.load_circle(circle_id).version
    response = client.post(f"/circles/{circle_id}/games/nosuchgame01/detach")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "This game is not in this circle." in page
    assert services.load_circle(circle_id).version == version  # nothing written
