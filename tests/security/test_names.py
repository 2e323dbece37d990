"""Names that would hide or turn sentences around are refused; every name is set apart.

A name made only of invisible characters (U+200B…) reads as nobody; a bidi
control (U+202E…) in a name turns the sentence it sits in around ("…meanwhile:
‮Sami's King of Hearts."). Both are refused where names come in, with a message
naming the player; and a name inside any plain-text sentence (flashes, the live
banner, the API's messages) is isolated (FSI … PDI), so that even a stored name
cannot reorder what follows it.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper.text.locale import FSI, PDI, isolate_name

API = "/api/v1"
INVISIBLE = ["\u200b", "\u200b\u200c", "\u2060", "\ufeff", "\u3164", " \u200b "]
BIDI = ["\u202eSami", "Sa\u202dmi", "\u2066Sami", "Sami\u2069", "\u200fSami", "\u061cSami"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_an_invisible_name_is_refused(client: FlaskClient, name: str) -> None:
    body = {"players": ["Rana", name, "Omar", "Lina"]}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422
    (problem,) = response.get_json()["errors"]
    assert problem["field"] == "players.1"
    assert problem["message"] == "Player 2's name has no visible character; type letters or digits."


@pytest.mark.parametrize("name", BIDI)
def test_a_name_with_a_bidi_control_is_refused(client: FlaskClient, name: str) -> None:
    body = {"players": ["Rana", name, "Omar", "Lina"]}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422
    (problem,) = response.get_json()["errors"]
    assert problem["field"] == "players.1"
    assert "text-direction control character" in problem["message"]


def test_the_new_game_page_refuses_them_beside_the_field(client: FlaskClient) -> None:
    form = {"players-0": "Rana", "players-1": "\u202eSami", "players-2": "\u200b"}
    form |= {"players-3": "Lina", "first_king": "0", "preset": "standard"}
    response = client.post("/games/new", data=form)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Player 2&#39;s name contains a text-direction control character" in page
    assert "Player 3&#39;s name has no visible character" in page


def test_names_with_zero_width_joiners_inside_are_welcome(client: FlaskClient) -> None:
    """A joiner inside a name (Persian, emoji) is part of it: only names of nothing are refused."""
    body = {"players": ["Rana", "می\u200cخواهم", "👩\u200d👩", "Lina"]}
    assert client.post(f"{API}/games", json=body).status_code == 201


def test_isolate_name_sets_a_name_apart_in_every_direction() -> None:
    assert isolate_name("عمر") == f"{FSI}عمر{PDI}"
    # a stored name cannot close its own isolate early, nor turn what follows around
    assert isolate_name("x\u2069\u202e") == f"{FSI}x{PDI}"


def test_api_messages_isolate_names(client: FlaskClient) -> None:
    created = client.post(f"{API}/games", json={"players": ["عمر", "Sami", "Rana", "Lina"]})
    game = created.get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    trix = {"contracts": ["trix"], "captures": {"trix_order": [2, 0, 3, 1]}}
    assert (
        client.post(f"{API}/games/{game['id']}/deals", json=trix, headers=auth).status_code == 201
    )
    again = client.post(f"{API}/games/{game['id']}/deals", json=trix, headers=auth)
    assert again.status_code == 409
    message = again.get_json()["errors"][0]["message"]
    assert message.startswith(f"The kingdom of {FSI}عمر{PDI} has already")
