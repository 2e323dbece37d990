"""Two scorers save the same deal: the form is typed for a position, and never moves on.

Each phone's form names the deal it was typed for (the game, the deal's number, its
king). When the other phone recorded it first, the page shows both entries and asks
"the same deal?"; it never turns the refused form into the next deal's form.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.store import games as services
from tests.web.pages import html, new_game, post_deal

KINGDOM = [
    ("trix", {"trix-0": "2", "trix-1": "0", "trix-2": "3", "trix-3": "1"}),
    ("king", {"kh_taker": "1", "kh_doubled_by": ""}),
    ("queens", {f"{q}_taker": str(i) for i, q in enumerate(("qs", "qh", "qd", "qc"))}),
    ("diamonds", {f"diamonds-{i}": n for i, n in enumerate(("4", "3", "3", "3"))}),
]
TRICKS = {f"tricks-{i}": n for i, n in enumerate(("3", "3", "3", "4"))}
OTHER_TRICKS = {f"tricks-{i}": n for i, n in enumerate(("4", "3", "3", "3"))}


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of a page's deal form, as a browser sends them back."""
    form = page.split('data-testid="deal-form"', 1)[1].split("</form>", 1)[0]
    fields = {}
    for tag in re.findall(r"<input[^>]*>", form):
        if 'type="hidden"' in tag:
            name = re.search(r'name="([^"]*)"', tag)
            value = re.search(r'value="([^"]*)"', tag)
            if name:
                fields[name.group(1)] = value.group(1) if value else ""
    return fields


def form_of(page: str, testid: str) -> dict[str, str]:
    """Every input of the form ``testid`` of a page (the "Mine is the next deal" form)."""
    form = page.split(f'data-testid="{testid}"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', form))


def play_to_last_deal_of_kingdom_2(client: FlaskClient) -> str:
    """A game at deal 10: the last deal of the second kingdom (Sami's), Collections left."""
    game_id = new_game(client)
    for contracts, data in KINGDOM + [("collections", TRICKS)] + KINGDOM:
        assert post_deal(client, game_id, contracts, data).status_code == 302
    assert services.load_game(game_id).game.deals_played == 9
    return game_id


def open_form(client: FlaskClient, game_id: str, contracts: str) -> dict[str, str]:
    page = html(client.get(f"/games/{game_id}/deals/new?contracts={contracts}"))
    return hidden_fields(page)


def test_the_form_says_which_deal_and_king_it_was_typed_for(client: FlaskClient) -> None:
    game_id = play_to_last_deal_of_kingdom_2(client)
    fields = open_form(client, game_id, "collections")
    assert fields["position_n"] == "10"
    assert fields["position_king"] == "1"  # Sami's kingdom
    assert fields["position_game"] == game_id
    assert fields["played_at"] == ""  # the phone's clock fills it at Save


def test_two_phones_save_a_kingdoms_last_deal_and_no_phantom_deal_is_recorded(
    client: FlaskClient,
) -> None:
    game_id = play_to_last_deal_of_kingdom_2(client)
    phone_b = open_form(client, game_id, "collections")
    url = f"/games/{game_id}/deals/new?contracts=collections"
    refused = second_phone_refused(client, game_id, "collections", TRICKS, TRICKS)
    assert refused.status_code == 409
    page = html(refused)
    assert "Deal 10 was recorded meanwhile" in page
    assert 'data-testid="same-deal"' in page
    # Never the next deal's form: no "Deal 11: Collections", no "Save deal 11".
    assert "Save deal 11" not in page and 'data-testid="deal-form"' not in page
    # The same tap again (the browser sends the same form): still refused, nothing written.
    again = client.post(url, data={**phone_b, **TRICKS})
    assert again.status_code == 409
    assert services.load_game(game_id).game.deals_played == 10


def second_phone_refused(
    client: FlaskClient,
    game_id: str,
    contracts: str,
    first: dict[str, str],
    second: dict[str, str],
) -> TestResponse:
    """Two phones opened the same deal form; the first saved ``first``: the second's answer."""
    phone_a = open_form(client, game_id, contracts)
    phone_b = open_form(client, game_id, contracts)
    url = f"/games/{game_id}/deals/new?contracts={contracts}"
    assert client.post(url, data={**phone_a, **first}).status_code == 302
    return client.post(url, data={**phone_b, **second})


def last_deal_refused(client: FlaskClient, b_tricks: dict[str, str]) -> tuple[str, str]:
    """Two phones typed deal 10; A saved first. (the game, B's refused page)."""
    game_id = play_to_last_deal_of_kingdom_2(client)
    refused = second_phone_refused(client, game_id, "collections", TRICKS, b_tricks)
    assert refused.status_code == 409
    return game_id, html(refused)


def test_the_same_captures_put_discard_mine_first(client: FlaskClient) -> None:
    _game_id, page = last_deal_refused(client, TRICKS)
    assert 'data-testid="entry-theirs"' in page and 'data-testid="entry-mine"' in page
    assert "Recorded from another phone" in page and "Yours, not saved" in page
    assert "Both say the same" in page
    discard, following = page.index('data-testid="discard-mine"'), page.index("mine-is-next")
    assert discard < following
    assert re.search(r'class="button button-big"[^>]*data-testid="discard-mine"', page)
    assert "Mine is the next deal: save it as deal 11, Omar king" in page


def test_the_holders_entry_id_is_on_the_page_for_the_phone_to_know_its_own(
    client: FlaskClient,
) -> None:
    """The phone's script (static/offline/same.js) compares the id the holder was written
    under with its own: this phone's deal is never "another phone's"."""
    game_id = play_to_last_deal_of_kingdom_2(client)
    phone_a = open_form(client, game_id, "collections")
    phone_b = open_form(client, game_id, "collections")
    url = f"/games/{game_id}/deals/new?contracts=collections"
    sent = client.post(url, data={**phone_a, **TRICKS, "entry_id": "pA-10"})
    assert sent.status_code == 302
    page = html(client.post(url, data={**phone_b, **TRICKS}))
    assert re.search(r'data-testid="entry-theirs" data-entry-id="pA-10"', page)
    assert 'data-text-this-phone="Recorded from this phone earlier"' in page
    assert f'data-offline-same="{game_id}"' in page and 'data-offline-script="same.js"' in page


def test_mine_is_the_next_deal_is_an_explicit_choice(client: FlaskClient) -> None:
    game_id, page = last_deal_refused(client, OTHER_TRICKS)
    url = f"/games/{game_id}/deals/new?contracts=collections"
    assert "They differ." in page and 'data-testid="correct-recorded"' in page
    assert not re.search(r'button-big"[^>]*data-testid="discard-mine"', page)
    chosen = form_of(page, "mine-is-next-form")
    assert chosen["position_n"] == "11" and chosen["position_king"] == "2"
    assert client.post(url, data=chosen).status_code == 302
    deals = services.load_game(game_id).game.deals
    assert len(deals) == 11 and deals[10].king == 2
    assert deals[10].captures.tricks == (4, 3, 3, 3)


def test_mine_is_the_next_deal_is_not_offered_where_it_is_not_valid(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    trix = dict(KINGDOM[0][1])
    page = html(second_phone_refused(client, game_id, "trix", trix, trix))
    assert 'data-testid="mine-is-next"' not in page  # Rana has played Trix already (R2)
    assert 'data-testid="not-next"' in page
    assert services.load_game(game_id).game.deals_played == 1


def test_a_form_without_a_position_keeps_working(client: FlaskClient) -> None:
    """Pages made before forms said their position: recorded at the game's next deal."""
    game_id = new_game(client)
    response = post_deal(client, game_id, "trix", dict(KINGDOM[0][1]))
    assert response.status_code == 302


def test_the_time_played_is_kept_and_shown(client: FlaskClient) -> None:
    game_id = new_game(client)
    fields = open_form(client, game_id, "trix")
    played = services.load_game(game_id).created_at.astimezone().replace(microsecond=0)
    body = {**fields, **KINGDOM[0][1], "played_at": played.isoformat()}
    assert client.post(f"/games/{game_id}/deals/new?contracts=trix", data=body).status_code == 302
    row = services.load_game(game_id).deal_row(1)
    assert row.played_at == played
    page = html(client.get(f"/games/{game_id}/deals/1"))
    assert f'datetime="{played.astimezone(__import__("datetime").UTC).isoformat()}"' in page


def test_a_clock_far_ahead_is_refused_on_the_form(client: FlaskClient) -> None:
    game_id = new_game(client)
    fields = open_form(client, game_id, "trix")
    body = {**fields, **KINGDOM[0][1], "played_at": "2099-01-01T12:00:00+03:00"}
    response = client.post(f"/games/{game_id}/deals/new?contracts=trix", data=body)
    assert response.status_code == 422
    assert "check the phone&#39;s clock" in html(response)
    assert not services.load_game(game_id).log
