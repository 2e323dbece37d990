"""A player entering deals through the pages on a phone (390×844): the gestures the browser
tests share.

A :class:`Thumb` taps and types on one page and counts what it does (test_whole_game_taps
prints the counts); the form helpers take one, so that every tap and keystroke is counted
in whichever test enters deals. The forms are templates/deals/_entry.html: one grid of
cards by players with a "×2" toggle per card that asks for its holder, counts boxes with
a "13" button each (static/deal_form.js moves the cursor on and fills the last box), and
Trix tapped in finishing order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import score_deal

WIDTH = 390
QUEEN_KEYS = ("qs", "qh", "qd", "qc")
ISOLATES = "\u2066\u2067\u2068\u2069"  # around numbers in right-to-left pages


# --- what is entered -------------------------------------------------------------------


def P(taker: int, doubled_by: int | None = None) -> Capture:  # noqa: N802  (reads like a card)
    """A card taken by seat ``taker``, doubled by seat ``doubled_by`` if given."""
    return Capture(taker, doubled_by)


@dataclass(frozen=True)
class Deal:
    """One contract played and what it captured, as a player enters it."""

    contract: Contract
    captures: Captures
    stepper: bool = False
    """Counts: enter the first player's count with the + button instead of typing."""


def engine_scores(deal: Deal) -> tuple[int, int, int, int]:
    """The engine's own scores of ``deal`` under the standard rules."""
    return score_deal(RuleSet(), [deal.contract], deal.captures)


def engine_totals(deals: Sequence[Deal]) -> list[int]:
    """The engine's running totals after ``deals``, per seat."""
    out = [0, 0, 0, 0]
    for deal in deals:
        out = [a + b for a, b in zip(out, engine_scores(deal), strict=True)]
    return out


def shown(value: int) -> str:
    """A score as the pages show it, with a real minus sign."""
    return str(value).replace("-", "−")


# --- the thumb -------------------------------------------------------------------------


@dataclass
class Thumb:
    """The player's thumb and keyboard on ``page``, counting what they do."""

    page: Page
    taps: int = 0
    keys: int = 0
    scrolls: int = 0
    """Taps on something outside the screen: each needs a scroll first."""

    def tap(self, target: Locator, loads: bool = False) -> None:
        """Tap ``target`` (scrolling to it first if needed); ``loads``: wait for the new page."""
        expect(target).to_be_visible()
        if not on_screen(target):
            self.scrolls += 1
            target.scroll_into_view_if_needed()
        self.taps += 1
        if loads:
            tap_and_load(self.page, target)
        else:
            target.tap()

    def choose(self, select: Locator, value: str) -> None:
        """Choose ``value`` in ``select``: one tap, the phone's list opening over the page
        (scrolling to the box first if needed)."""
        expect(select).to_be_visible()
        if not on_screen(select):
            self.scrolls += 1
            select.scroll_into_view_if_needed()
        self.taps += 1
        select.select_option(value)

    def type(self, text: str) -> None:
        """Type ``text`` where the cursor is, one keystroke per character."""
        self.keys += len(text)
        self.page.keyboard.type(text)


def on_screen(target: Locator) -> bool:
    """Whether ``target`` lies wholly within the screen's height."""
    return bool(
        target.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= window.innerHeight; }"
        )
    )


def tap_and_load(page: Page, target: Locator) -> None:
    """Tap something that loads a new page, and wait for it."""
    with page.expect_navigation():
        target.tap()


def cell(page: Page, input_id: str) -> Locator:
    """The big label around input ``input_id``: what a thumb taps."""
    return page.locator(f"label:has(> #{input_id})")


def tap_choice(thumb: Thumb, input_id: str) -> None:
    """Tap the label around radio or checkbox ``input_id``; it is then checked."""
    thumb.tap(cell(thumb.page, input_id))
    expect(thumb.page.locator(f"#{input_id}")).to_be_checked()


def tap_preset(thumb: Thumb, name: str) -> None:
    """Tap a rules preset on the new-game page; it is then chosen."""
    thumb.tap(thumb.page.locator(f"label:has(> [data-testid=preset-{name}])"))
    expect(thumb.page.get_by_test_id(f"preset-{name}")).to_be_checked()


def type_count(thumb: Thumb, input_id: str, value: int) -> None:
    """Tap a number box (its text is selected on focus) and type over it."""
    thumb.tap(thumb.page.locator(f"#{input_id}"))
    thumb.type(str(value))


# --- the deal forms --------------------------------------------------------------------


def fill_card(thumb: Thumb, key: str, capture: Capture) -> None:
    """Tap the taker's cell on the card's line; a doubled card: its "×2", then its holder."""
    page = thumb.page
    tap_choice(thumb, f"{key}_taker-{capture.taker}")
    doubled = capture.doubled_by is not None
    toggle = page.locator(f"#{key}_doubled")
    if toggle.count() == 0:  # doubling is off in this game
        assert not doubled, f"the {key} cannot be doubled in this game"
        return
    if toggle.is_checked() != doubled:  # a new form starts undoubled; an edit may not
        thumb.tap(cell(page, f"{key}_doubled"))
    if capture.doubled_by is not None:
        tap_choice(thumb, f"{key}_doubled_by-{capture.doubled_by}")
    else:
        expect(page.get_by_test_id(f"{key}-doubled")).to_be_hidden()


def fill_counts(thumb: Thumb, name: str, counts: Sequence[int], stepper: bool = False) -> None:
    """Enter four counts: "13" if one player took all, else tap the first box and type three
    (the cursor moves on by itself; the fourth box fills itself). ``stepper``: the first
    count with its + button. The four boxes then hold ``counts`` and add up to 13."""
    page = thumb.page
    # The form's script shows the sum once it drives the boxes: typing before that would
    # leave every digit in the first box.
    expect(page.get_by_test_id(f"{name}-sum")).to_be_visible()
    if 13 in counts:
        thumb.tap(page.get_by_test_id(f"{name}-all-{counts.index(13)}"))
    else:
        first = 0
        if stepper:
            plus = page.locator(f"#{name}-0 ~ button.step[data-step='1']")
            for _ in range(counts[0]):
                thumb.tap(plus)
            expect(page.locator(f"#{name}-0")).to_have_value(str(counts[0]))
            first = 1
        thumb.tap(page.locator(f"#{name}-{first}"))
        for seat in range(first, 3):
            thumb.type(str(counts[seat]))
            if counts[seat] == 1 and seat < 2:  # "1" could still become 10–13: tap the next box
                thumb.tap(page.locator(f"#{name}-{seat + 1}"))
    for seat, count in enumerate(counts):
        expect(page.locator(f"#{name}-{seat}")).to_have_value(str(count))
    expect(page.get_by_test_id(f"{name}-sum")).to_have_class("sum ok")


def fill_trix(thumb: Thumb, order: Sequence[int]) -> None:
    """Tap the first three players out in order; the last one is whoever is left."""
    page = thumb.page
    for seat in order[:3]:
        thumb.tap(page.get_by_test_id(f"trix-tap-{seat}"))
    for place, seat in enumerate(order):
        expect(page.locator(f"#trix-{place}")).to_have_value(str(seat))
        expect(page.get_by_test_id(f"trix-tap-{seat}").locator(".place")).to_have_text(
            str(place + 1)
        )


def fill(thumb: Thumb, deal: Deal) -> None:
    """Fill in the open deal form with what ``deal`` captured."""
    caps = deal.captures
    if caps.king_of_hearts is not None:
        fill_card(thumb, "kh", caps.king_of_hearts)
    for key, queen in zip(QUEEN_KEYS, caps.queens or (), strict=False):
        fill_card(thumb, key, queen)
    if caps.diamonds is not None:
        fill_counts(thumb, "diamonds", caps.diamonds, deal.stepper)
    if caps.tricks is not None:
        fill_counts(thumb, "tricks", caps.tricks, deal.stepper)
    if caps.trix_order is not None:
        fill_trix(thumb, caps.trix_order)


def save(thumb: Thumb, flash: str | None = None) -> None:
    """Tap Save and wait for the game page; ``flash``: the message it must show."""
    thumb.tap(thumb.page.get_by_test_id("save-deal"), loads=True)
    if flash is not None:
        expect(thumb.page.get_by_test_id("flash")).to_contain_text(flash)


def enter_deal(thumb: Thumb, deal: Deal, flash: str | None = None) -> None:
    """From the game page: tap the deal's contract, fill in its form, save."""
    thumb.tap(thumb.page.get_by_test_id(f"contract-{deal.contract.value}"), loads=True)
    fill(thumb, deal)
    save(thumb, flash)


def form_url(game_url: str, deal: Deal) -> str:
    """The address of the new-deal form for ``deal``'s contract in the game at ``game_url``."""
    return f"{game_url}/deals/new?contracts={deal.contract.value}"


# --- what the page shows ---------------------------------------------------------------


def assert_fits(page: Page) -> None:
    """The page is no wider than the phone's screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, f"{page.url} is {width}px wide on a {WIDTH}px screen"


def total_of(page: Page, seat: int) -> Locator:
    """Seat ``seat``'s running total in the game page's totals bar."""
    return page.get_by_test_id(f"total-{seat}").locator(".total-score")


def assert_totals(page: Page, expected: Sequence[int]) -> None:
    """The totals bar shows ``expected``, seat by seat (isolating marks aside)."""
    for seat, value in enumerate(expected):
        number = re.escape(shown(value))
        expect(total_of(page, seat)).to_have_text(
            re.compile(f"^[{ISOLATES}]*{number}[{ISOLATES}]*$")
        )
