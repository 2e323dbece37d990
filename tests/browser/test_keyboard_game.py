"""A whole game played with the keyboard alone, and the keyboard's place kept (390×844).

Tab and Shift-Tab move between controls, Enter follows a link or presses a button, Space
ticks a box; inside a group of radio buttons (one card's row of takers) the arrow keys
move to the next player, as the browser's radio groups are built to be used, and digits
are typed into the count boxes. Nothing is clicked or tapped. Every one of the 20 deals
of tests/browser/test_full_game_phone.py is entered this way (R1–R11: the totals are the
engine's own), then the end is shown.

After a save (post/redirect/get) the keyboard starts from the flash that says what was
saved; a live update of the game page puts the focus back on the link it was on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.rules.captures import Capture, Captures
from tests.browser.phone import Deal, P, Thumb, assert_totals, engine_totals, form_url, save
from tests.browser.phone import fill as tap_fill
from tests.browser.test_full_game_phone import DEALS, FIRST_KING
from tests.common import NAMES, K

pytestmark = pytest.mark.browser

QUEEN_KEYS = ("qs", "qh", "qd", "qc")
MAX_TABS = 250  # a guard: no control is further than this from the last one


@dataclass
class Keyboard:
    """The player's keyboard on ``page``, counting the keys pressed."""

    page: Page
    presses: int = 0

    def press(self, key: str) -> None:
        self.presses += 1
        self.page.keyboard.press(key)

    def type(self, text: str) -> None:
        for char in text:
            self.press(char)

    def focused(self, selector: str) -> bool:
        return bool(
            self.page.evaluate(
                "s => !!document.activeElement && document.activeElement.matches(s)", selector
            )
        )

    def tab_to(self, selector: str, backwards: bool = False) -> None:
        """Tab (or Shift-Tab) until the focus is on ``selector``."""
        for _ in range(MAX_TABS):
            if self.focused(selector):
                return
            self.press("Shift+Tab" if backwards else "Tab")
        raise AssertionError(f"{selector} is not reachable with Tab on {self.page.url}")

    def follow(self, selector: str) -> None:
        """Tab to a link or a submit button and press Enter; wait for the page it loads."""
        self.tab_to(selector)
        with self.page.expect_navigation():
            self.press("Enter")

    def choose(self, group: str, index: int) -> None:
        """Check radio ``index`` of the group named ``group``: Tab in, arrows along, Space."""
        self.tab_to(f"input[type=radio][name={group}]")
        position = self.page.evaluate(
            "g => [...document.getElementsByName(g)].indexOf(document.activeElement)", group
        )
        for _ in range(index - position):
            self.press("ArrowDown")
        for _ in range(position - index):
            self.press("ArrowUp")
        self.press("Space")
        expect(self.page.locator(f"input[name={group}]").nth(index)).to_be_checked()


def enter_card(keys: Keyboard, key: str, capture: Capture) -> None:
    keys.choose(f"{key}_taker", capture.taker)
    if capture.doubled_by is not None:
        keys.tab_to(f"#{key}_doubled")
        keys.press("Space")
        keys.choose(f"{key}_doubled_by", capture.doubled_by)


def enter_counts(keys: Keyboard, name: str, counts: tuple[int, int, int, int]) -> None:
    page = keys.page
    expect(page.get_by_test_id(f"{name}-sum")).to_be_visible()  # the form's script runs
    for seat in range(3):  # the fourth box fills itself
        keys.tab_to(f"#{name}-{seat}")
        keys.type(str(counts[seat]))
    for seat, count in enumerate(counts):
        expect(page.locator(f"#{name}-{seat}")).to_have_value(str(count))


def enter_deal(keys: Keyboard, deal: Deal) -> None:
    """From the game page: the contract's link, its form by keyboard, Save."""
    keys.follow(f"[data-testid=contract-{deal.contract.value}]")
    caps = deal.captures
    if caps.king_of_hearts is not None:
        enter_card(keys, "kh", caps.king_of_hearts)
    for key, queen in zip(QUEEN_KEYS, caps.queens or (), strict=False):
        enter_card(keys, key, queen)
    if caps.diamonds is not None:
        enter_counts(keys, "diamonds", caps.diamonds)
    if caps.tricks is not None:
        enter_counts(keys, "tricks", caps.tricks)
    for seat in (caps.trix_order or ())[:3]:
        keys.tab_to(f"[data-testid=trix-tap-{seat}]")
        keys.press("Enter")
    keys.follow("[data-testid=save-deal]")
    # post/redirect/get: the keyboard starts from what the save did
    expect(keys.page.get_by_test_id("flash")).to_be_focused()


def start_game(keys: Keyboard, base: str) -> None:
    page = keys.page
    page.goto(base + "/")
    keys.follow("[data-testid=new-game]")
    for seat, name in enumerate(NAMES):
        keys.tab_to(f"[data-testid=player-{seat}]")
        keys.type(name)
    keys.choose("first_king", FIRST_KING)
    keys.follow("[data-testid=start-game]")
    expect(page.get_by_test_id("no-deals")).to_be_visible()
    expect(page.get_by_test_id("flash")).to_be_focused()


def test_a_whole_game_with_the_keyboard_alone(live_server: str, phone: Page) -> None:
    keys = Keyboard(phone)
    start_game(keys, live_server)
    for n, deal in enumerate(DEALS, start=1):
        expect(phone.get_by_test_id("game-status")).to_have_text(f"Deal {n} of 20")
        enter_deal(keys, deal)
        assert_totals(phone, engine_totals(DEALS[:n]))
    expect(phone.get_by_test_id("game-status")).to_have_text("Game over")
    expect(phone.get_by_test_id("winner")).to_be_visible()
    keys.tab_to("[data-testid=rematch]")  # the end's next step is reachable too
    print(f"\na 20-deal game by keyboard: {keys.presses} keys")


def test_a_live_update_keeps_the_keyboard_where_it_was(
    live_server: str, contexts: Callable[[], BrowserContext]
) -> None:
    editor, viewer = contexts().new_page(), contexts().new_page()
    keys = Keyboard(editor)
    start_game(keys, live_server)
    game_url = editor.url
    king = Deal(K, Captures(king_of_hearts=P(1)))
    enter_deal(keys, king)
    viewer.goto(game_url)
    expect(viewer.locator("[data-live-started]")).to_have_count(1)
    watcher = Keyboard(viewer)
    watcher.tab_to("[data-testid=backup-json]")  # inside the region the update replaces
    viewer.evaluate("window.stillTheSamePage = true")

    editor.goto(form_url(game_url, Deal(DEALS[1].contract, DEALS[1].captures)))
    tap_fill(Thumb(editor), DEALS[1])
    save(Thumb(editor), "recorded")
    assert_totals(viewer, engine_totals([king, DEALS[1]]))  # the region was swapped live
    assert viewer.evaluate("window.stillTheSamePage") is True
    expect(viewer.get_by_test_id("backup-json")).to_be_focused()
