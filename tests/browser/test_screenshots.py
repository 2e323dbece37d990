"""Screenshots of every kind of page, in English and Arabic, light and dark, on a phone
(390×844): saved to artifacts/screenshots/<lang>-<theme>/ (git-ignored; the test makes the
folder), for people to look at after each run.

Each page is loaded once per language and shot in both themes: the theme is left on
"auto" and the phone's setting (``prefers-color-scheme``) is switched in place."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.closing import close
from tests.browser.conftest import PHONE, SCREENSHOTS, join
from tests.common import NAMES, C, D, K, Q, T
from tests.web.sheets.conftest import deal_for

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def games(app: Flask) -> Iterator[dict[str, tuple[str, str]]]:
    """A game in its third kingdom (deal 1 corrected once), and a finished one."""
    with app.app_context():
        middle, middle_token = services.create_game(NAMES, 0, RuleSet())
        done, done_token = services.create_game(NAMES, 0, RuleSet())
        for game_id, kingdoms in ((middle.id, 2), (done.id, 4)):
            for k in range(kingdoms):
                king = services.load_game(game_id).game.current_king
                assert king is not None
                for contract in (K, Q, D, C, T):
                    services.record_deal(game_id, deal_for(contract, king, k))
        services.record_deal(middle.id, deal_for(K, 2, 2))
        fixed = DealEntry((K,), Captures(king_of_hearts=deal_for(K, 0, 1).captures.king_of_hearts))
        services.edit_deal(middle.id, 1, fixed, services.load_game(middle.id).version)
        yield {"middle": (middle.id, middle_token), "done": (done.id, done_token)}


def page_kinds(middle: str, done: str) -> dict[str, str]:
    return {
        "01-home": "/",
        "02-new-game": "/games/new",
        "03-game-mid": f"/games/{middle}",
        "04-contract-picker": f"/games/{middle}/deals/new",
        "05-form-queens": f"/games/{middle}/deals/new?contracts=queens",
        "06-form-diamonds": f"/games/{middle}/deals/new?contracts=diamonds",
        "07-form-collections": f"/games/{middle}/deals/new?contracts=collections",
        "08-form-trix": f"/games/{middle}/deals/new?contracts=trix",
        "09-form-king": f"/games/{done}/deals/1/edit?contracts=king",
        "10-edit-deal": f"/games/{middle}/deals/1/edit",
        "11-deal-history": f"/games/{middle}/deals/1",
        "12-undo": f"/games/{middle}/undo",
        "13-game-over": f"/games/{done}",
        "14-disputes": "/disputes",
        "15-game-disputes": f"/games/{middle}/disputes",
        "16-dispute-play": "/disputes/play",
        "17-dispute-redeal": "/disputes/redeal",
        "18-dispute-claim": "/disputes/claim",
        "19-dispute-deal": f"/games/{middle}/deals/2/check",
        "20-help": "/help",
        "21-import": "/games/import",
        "22-error-404": f"/games/{middle}/deals/99",
    }


THEMES = ("light", "dark")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_screenshots_of_every_page_kind(
    live_server: str,
    browser: Browser,
    games: dict[str, tuple[str, str]],
    lang: str,
) -> None:
    folders = {theme: SCREENSHOTS / f"{lang}-{theme}" for theme in THEMES}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(**{**PHONE, "device_scale_factor": 1})  # type: ignore[arg-type]
    try:
        page = context.new_page()
        for game_id, token in games.values():
            join(page, live_server, game_id, token)
        page.goto(f"{live_server}/theme/auto?next=/")
        page.goto(f"{live_server}/lang/{lang}?next=/")
        kinds = page_kinds(games["middle"][0], games["done"][0])
        for name, path in kinds.items():
            page.emulate_media(color_scheme=THEMES[0])
            response = page.goto(live_server + path)
            assert response is not None
            expected = 404 if name.endswith("404") else 200
            assert response.status == expected, (name, response.status)
            assert page.locator("html").get_attribute("lang") == lang
            colours = set()
            for theme in THEMES:
                page.emulate_media(color_scheme=theme)
                colours.add(page.evaluate("getComputedStyle(document.body).color"))
                page.screenshot(path=str(folders[theme] / f"{name}.png"), full_page=True)
            assert len(colours) == len(THEMES), (name, colours)  # the switch took
        for folder in folders.values():
            shots = sorted(folder.glob("*.png"))
            assert [p.stem for p in shots] == sorted(kinds)
            assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in shots)
    finally:
        close(context)


def test_the_screenshots_are_not_committed() -> None:
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "artifacts/" in ignored
    assert SCREENSHOTS.is_relative_to(ROOT / "artifacts")
