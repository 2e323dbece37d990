"""Words players understand on the main flow (the game page, deal entry, the undo, a
stale entry, an error): no rule codes, no version numbers, no "Error 403"; the rules
pages, the dispute desk, the printed sheet's rules and the API keep the rule numbers.
Arabic digits never mix with Western ones on a page, and "−120" keeps a readable minus
(U+2212) isolated left to right; names are isolated in the sentences about them."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import games as services
from tests.common import C, D, K, Q
from tests.web.pages import new_game, post_deal, version
from tests.web.sheets.conftest import deal_for

RULE_CODE = re.compile(r"\bR\d+(\.\d+)?\b")
LRI, PDI, FSI = "\u2066", "\u2069", "\u2068"


def visible(page: str) -> str:
    """The text a person reads (tooltips included), without the collapsed house rules."""
    page = re.sub(r'<details class="rules-summary".*?</details>', "", page, flags=re.S)
    page = re.sub(r'<p class="digit-choice" data-testid="digits">.*?</p>', "", page, flags=re.S)
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    # The app's own update notice ("A new version is ready") speaks of the app, not the game.
    page = re.sub(r"<button[^>]*data-update-ready.*?</button>", "", page, flags=re.S)
    titles = " ".join(re.findall(r'(?:title|aria-label|placeholder)="([^"]*)"', page))
    return re.sub(r"<[^>]+>", " ", page) + " " + titles


def main_flow(client: FlaskClient, game_id: str) -> dict[str, str]:
    paths = {
        "game": f"/games/{game_id}",
        "undo": f"/games/{game_id}/undo",
        **{c: f"/games/{game_id}/deals/new?contracts={c}" for c in ("king", "queens", "trix")},
        "edit": f"/games/{game_id}/deals/1/edit",
    }
    return {name: client.get(path).get_data(as_text=True) for name, path in paths.items()}


def play_kingdom(client: FlaskClient, game_id: str) -> None:
    client.post(
        f"/games/{game_id}/redeals",
        data={"version": str(version(game_id)), "kind": "redeal", "seat": "1"},
    )
    client.post(
        f"/games/{game_id}/redeals", data={"version": str(version(game_id)), "kind": "misdeal"}
    )
    for contract in (K, Q, D, C):
        services.record_deal(game_id, deal_for(contract, 0, 0))


def test_the_main_flow_has_no_rule_codes_versions_or_error_codes(client: FlaskClient) -> None:
    game_id = new_game(client, preset="complex")  # the combine form too (R9.6)
    play_kingdom(client, game_id)
    for name, page in main_flow(client, game_id).items():
        text = visible(page)
        assert not RULE_CODE.search(text), (name, RULE_CODE.findall(text), text[:0])
        assert "version" not in text.lower(), name


def test_a_stale_entry_says_what_happened_meanwhile_without_versions(
    client: FlaskClient,
) -> None:
    game_id = new_game(client, first_king=1)
    stale = version(game_id)
    services.record_deal(game_id, deal_for(K, 1, 0))
    data = {
        "version": str(stale),
        "diamonds-0": "4",
        "diamonds-1": "3",
        "diamonds-2": "3",
        "diamonds-3": "3",
    }
    response = client.post(f"/games/{game_id}/deals/new?contracts=diamonds", data=data)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert f"Deal 1 was recorded meanwhile: {FSI}Sami{PDI}&#39;s King of Hearts." in page
    assert "what you entered is kept" in page
    text = visible(page)
    assert "version" not in text.lower() and not RULE_CODE.search(text)


def test_an_error_page_has_no_error_code(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    follower = app.test_client()
    response = post_deal(follower, game_id, "king", {"kh_taker": "1"})
    assert response.status_code == 403
    text = visible(response.get_data(as_text=True))
    assert "403" not in text and "Error" not in text
    assert "Back to the game" in text


def test_arabic_digits_never_mix_with_western_ones(client: FlaskClient) -> None:
    game_id = new_game(client)
    for contract in (K, Q, D):
        services.record_deal(game_id, deal_for(contract, 0, 0))
    client.get("/digits/arab?next=/")
    client.get("/lang/ar?next=/")
    for name, page in main_flow(client, game_id).items():
        text = visible(page.replace("?lang=", ""))
        # Western digits only inside card codes (10♦ is not on these pages) and addresses
        western = re.findall(r"[0-9]+", re.sub(r"https?://\S+|/games/\S+", "", text))
        assert not western, (name, western[:10])


def test_r3_a_negative_score_in_arabic_digits_keeps_its_minus_readable(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    services.record_deal(game_id, deal_for(K, 0, 0))  # the K♥ doubled: −150 and +75
    client.get("/digits/arab?next=/")
    client.get("/lang/ar?next=/")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"{LRI}−١٥٠{PDI}" in page  # U+2212 before the digits, isolated left to right
    assert "\u061c-" not in page


def test_names_are_isolated_in_an_english_sentence(client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(["سامي", "Rana", "Omar", "Lina"])}
    data |= {"first_king": "0", "preset": "standard"}
    game_id = client.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[-1]
    stale = version(game_id)
    services.record_deal(game_id, deal_for(K, 0, 0))
    queens = {"qs_taker": "0", "qh_taker": "1", "qd_taker": "2", "qc_taker": "3"}
    response = post_deal(client, game_id, "queens", queens, version=str(stale))
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert f"Deal 1 was recorded meanwhile: {FSI}سامي{PDI}&#39;s King of Hearts." in page


def test_numbers_written_in_a_template_follow_each_readers_digits(client: FlaskClient) -> None:
    """Templates are compiled once per server: ``{{ 13|num }}`` must not be folded into
    the compiled page in the digits of whoever opened it first."""
    game_id = new_game(client)
    form = f"/games/{game_id}/deals/new?contracts=diamonds"
    assert ">13</button>" in client.get(form).get_data(as_text=True)  # compiled here
    client.get("/digits/arab?next=/")
    page = client.get(form).get_data(as_text=True)
    assert ">١٣</button>" in page and ">13</button>" not in page
