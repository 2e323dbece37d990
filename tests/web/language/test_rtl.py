"""Arabic pages: right to left, the language switch on every page, digits, bidi isolation.

``test_accept_language_ar_shows_the_arabic_texts`` waits for the Arabic
catalogue to be filled in (it checks the translations themselves); every other
test here holds with an empty catalogue.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import NullTranslations
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.text.locale import LRI, PDI, SUPPORTED_LOCALES

NAMES = ["رنا", "Sami", "عمر", "Lina"]
ARABIC_CATALOGUE = PROJECT_ROOT / "translations" / "ar" / "LC_MESSAGES" / "messages.po"
CONTRACTS_AS_PLAYERS_SAY = ["شيخ الكبة", "بنات", "ديناري", "لطوش", "تركس"]


def html_tag(page: str) -> str:
    match = re.search(r"<html[^>]*>", page)
    assert match, "no <html> tag"
    return match.group(0)


@pytest.fixture
def game_id(client: FlaskClient) -> str:
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    data.update({"first_king": "0", "preset": "standard"})
    location = client.post("/games/new", data=data).headers["Location"]
    game = location.rsplit("/", 1)[-1]
    body = {"version": "1", "kh_taker": "1", "kh_doubled_by": ""}
    client.post(f"/games/{game}/deals/new?contracts=king", data=body)
    return game


def get(client: FlaskClient, url: str, lang: str, digits: str = "latn") -> str:
    """The page as a browser whose cookies chose ``lang`` and ``digits`` sees it."""
    client.set_cookie("lang", lang)
    client.set_cookie("digits", digits)
    try:
        return client.get(url).get_data(as_text=True)
    finally:
        client.delete_cookie("lang")
        client.delete_cookie("digits")


def pages(game_id: str) -> list[str]:
    return [
        "/",
        "/help",
        "/games/new",
        f"/games/{game_id}",
        f"/games/{game_id}/deals/new?contracts=queens",
        f"/games/{game_id}/deals/1",
        f"/games/{game_id}/undo",
        "/games/import",
    ]


def test_arabic_pages_are_right_to_left(client: FlaskClient, game_id: str) -> None:
    for url in pages(game_id):
        response = client.get(url, headers={"Accept-Language": "ar-JO,ar;q=0.9,en;q=0.5"})
        assert response.status_code == 200, url
        for page in (response.get_data(as_text=True), get(client, url, "ar")):
            tag = html_tag(page)
            assert 'lang="ar"' in tag and 'dir="rtl"' in tag, (url, tag)
        english = html_tag(client.get(url, headers={"Accept-Language": "en"}).get_data(True))
        assert 'lang="en"' in english and 'dir="ltr"' in english, url


def test_error_pages_are_right_to_left_too(client: FlaskClient) -> None:
    response = client.get("/games/nope", headers={"Accept-Language": "ar"})
    assert response.status_code == 404
    assert 'dir="rtl"' in html_tag(response.get_data(as_text=True))


def test_every_page_has_the_language_switch(client: FlaskClient, game_id: str) -> None:
    """Six links, each language in its own name, coming back to the same page (no JS)."""
    for url in pages(game_id):
        page = client.get(url).get_data(as_text=True)
        menu = page.split('data-testid="lang-menu"', 1)[1].split("</details>", 1)[0]
        for code, name in SUPPORTED_LOCALES.items():
            link = re.search(rf'<a href="([^"]+)" lang="{code}"[^>]*>{re.escape(name)}</a>', menu)
            assert link, (url, code)
            target = link.group(1).replace("&amp;", "&")
            assert target.startswith(f"/lang/{code}?next=")
            back = client.get(target)
            assert back.status_code == 302 and back.headers["Location"].startswith(url), target


def test_the_chosen_language_is_remembered(client: FlaskClient) -> None:
    client.get("/lang/ar?next=/help")
    assert 'dir="rtl"' in html_tag(client.get("/help").get_data(as_text=True))
    client.get("/lang/ru?next=/help")
    assert 'lang="ru"' in html_tag(client.get("/help").get_data(as_text=True))


def test_arabic_offers_the_digits(client: FlaskClient, game_id: str) -> None:
    arabic = get(client, f"/games/{game_id}", "ar")
    assert 'data-testid="digits-arab"' in arabic and 'data-testid="digits-latn"' in arabic
    english = get(client, f"/games/{game_id}", "en")
    assert 'data-testid="digits-arab"' not in english  # only where it means something
    switched = client.get("/digits/arab?next=/")
    assert switched.headers["Set-Cookie"].startswith("digits=arab;")
    text = get(client, f"/games/{game_id}", "ar", "arab")
    assert 'data-digits="arab"' in html_tag(text)
    totals = re.findall(r'<span class="total-score">(.*?)</span>', text)
    assert totals == ["٠", "\u2066−٧٥\u2069", "٠", "٠"]  # −75 in ٠١٢٣: U+2212, isolated


def test_scores_and_cards_stay_left_to_right_in_arabic(client: FlaskClient, game_id: str) -> None:
    """Inside right-to-left text, −75 and K♥ are isolated (LRI … PDI), names set apart."""
    page = get(client, f"/games/{game_id}", "ar")
    totals = re.findall(r'<span class="total-score">(.*?)</span>', page)
    assert totals == ["0", f"{LRI}−75{PDI}", "0", "0"]
    assert f"<bdi>{NAMES[0]}</bdi>" in page  # the king, inside a sentence
    form = get(client, f"/games/{game_id}/deals/new?contracts=queens", "ar")
    assert f"{LRI}Q♠{PDI}" in form  # a card given to a sentence
    help_page = get(client, "/help", "ar")
    assert f"{LRI}K♥{PDI}" in help_page and f"{LRI}−75{PDI}" in help_page  # inside sentences
    english = get(client, f"/games/{game_id}", "en")
    assert LRI not in english and "−75" in english  # left to right needs no isolates


def test_api_errors_follow_the_reader_s_language(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Accept-Language or ?lang picks the message's language; code, rule and field stay."""

    class Arabic(NullTranslations):
        def gettext(self, message: str) -> str:
            texts = {
                "Diamonds must add up to 13; these add up to %(total)d (%(listed)s).": (
                    "يجب أن يكون مجموع الديناري 13؛ المجموع هنا %(total)d (%(listed)s)."
                )
            }
            return texts.get(message, message)

        ugettext = gettext

    def translations(self: object) -> NullTranslations:
        from flask_babel import get_locale

        return Arabic() if str(get_locale()) == "ar" else NullTranslations()

    monkeypatch.setattr("flask_babel.Domain.get_translations", translations)
    body = {"contracts": ["diamonds"], "captures": {"diamonds": [3, 3, 3, 3]}}
    english = client.post("/api/v1/check/deal", json=body).get_json()["errors"][0]
    for response in (
        client.post("/api/v1/check/deal", json=body, headers={"Accept-Language": "ar"}),
        client.post("/api/v1/check/deal?lang=ar", json=body),
    ):
        (error,) = response.get_json()["errors"]
        assert error["message"].startswith("يجب أن يكون مجموع الديناري 13")
        assert {k: error[k] for k in ("code", "rule", "field")} == {
            k: english[k] for k in ("code", "rule", "field")
        }
    assert english["message"].startswith("Diamonds must add up to 13")


def arabic(msgid: str) -> str:
    with Path(ARABIC_CATALOGUE).open("rb") as handle:
        message = read_po(handle).get(msgid)
    return "" if message is None else str(message.string)


def test_accept_language_ar_shows_the_arabic_texts(client: FlaskClient, game_id: str) -> None:
    """Waits for the Arabic translation: the pages speak Arabic, contracts as players say them."""
    home = client.get("/", headers={"Accept-Language": "ar"}).get_data(as_text=True)
    for msgid in ("New game", "Games in progress", "Restore a game from its backup"):
        translated = arabic(msgid)
        assert re.search("[\u0600-\u06ff]", translated), f"“{msgid}” has no Arabic translation"
        assert translated in home
    # Deal 1 (King of Hearts) is on the score sheet, the four others are buttons.
    game = client.get(f"/games/{game_id}", headers={"Accept-Language": "ar"})
    text = game.get_data(as_text=True)
    missing = [name for name in CONTRACTS_AS_PLAYERS_SAY if name not in text]
    assert not missing, f"the contracts as players say them: {missing} not on the game page"
