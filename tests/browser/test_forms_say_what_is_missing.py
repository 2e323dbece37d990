"""The forms say what is missing, on a phone (390×844), in English and Arabic: Trix's Save
waits for all four players (R7) and says why; a page shown again with errors brings its
first marked field into view, clear of the sticky bar, with every error in sight; the
new-game page hides no choice under its Start button; number boxes take Arabic-Indic and
Eastern Arabic-Indic digits, and under the Arabic-Indic setting show no Latin digit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.closing import close
from tests.browser.conftest import PHONE, join
from tests.browser.phone import tap_and_load
from tests.common import NAMES

pytestmark = pytest.mark.browser

LANGS = ["en", "ar"]

# The element at the middle of ``selector``'s box is that element or inside it: nothing
# (a sticky bar) lies over it, and it is on the screen.
UNCOVERED = """(el) => {
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
  const top = document.elementFromPoint(x, y);
  return Boolean(top) && (el === top || el.contains(top) || top.contains(el) ||
    (el.labels && Array.from(el.labels).some((l) => l.contains(top))));
}"""
# Every error message shown by the server is on the page for the eye, not hidden.
HIDDEN_ERRORS = """() => Array.from(document.querySelectorAll("main .errors li"))
  .filter((li) => !li.checkVisibility())
  .map((li) => li.textContent.trim())"""
# Every digit the eye or a box shows in <main>: text, box values, placeholders.
LATIN_DIGITS = r"""(boxesOnly) => {
  const out = [];
  // Rule numbers (R1, R9.7) and card codes (7♥, 10♦) are names, not numbers.
  const names = (text) => text.replace(/\bR[0-9]+(\.[0-9]+)*\b|(10|[2-9])[♠♥♦♣]/g, "");
  const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node && !boxesOnly; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!el.checkVisibility() || el.closest("script, style, .vh")) continue;
    if (/[0-9]/.test(names(node.textContent))) out.push(node.textContent.trim());
  }
  const boxes = "main input:not([type=hidden], [type=radio], [type=checkbox]), main button";
  for (const input of document.querySelectorAll(boxes)) {
    if (!input.checkVisibility()) continue;
    // A link to copy (an edit link, a QR's address) is an address, not a number.
    if (input.tagName === "INPUT" && /^https?:/.test(input.value)) continue;
    const texts = input.tagName === "INPUT" ? [input.value, input.placeholder]
      : [input.textContent];
    for (const text of texts) if (text && /[0-9]/.test(names(text))) out.push(text);
  }
  return out;
}"""


@pytest.fixture
def deal(browser: Browser, live_server: str, app: Flask) -> Iterator[tuple[Page, str]]:
    """A phone that may edit a new game; yields it and the game's new-deal address."""
    with app.app_context():
        loaded, token = services.create_game(NAMES, 0, RuleSet())
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    join(page, live_server, loaded.id, token)
    try:
        yield page, f"{live_server}/games/{loaded.id}/deals/new"
    finally:
        close(context)


def submit_as_is(page: Page) -> None:
    """Send the deal form as it stands, past a Save that waits: what a phone without
    JavaScript does; the server answers with the form again and its errors."""
    with page.expect_navigation():
        page.evaluate("document.querySelector('form.deal-form').submit()")


@pytest.mark.parametrize("lang", LANGS)
def test_r7_trix_save_waits_for_all_four_players_and_says_why(
    deal: tuple[Page, str], lang: str
) -> None:
    page, url = deal
    page.goto(f"{url}?contracts=trix&lang={lang}")
    save, reason = page.get_by_test_id("save-deal"), page.get_by_test_id("save-reason")
    expect(save).to_be_disabled()
    expect(reason).to_be_visible()
    expect(reason).to_contain_text("0")
    for tapped, seat in enumerate([2, 0], start=1):
        page.get_by_test_id(f"trix-tap-{seat}").tap()
        expect(save).to_be_disabled()
        expect(reason).to_contain_text(str(tapped))
    page.get_by_test_id("trix-tap-3").tap()  # the fourth is whoever is left
    expect(save).to_be_enabled()
    expect(reason).to_be_hidden()
    page.get_by_test_id("trix-undo").tap()
    expect(save).to_be_disabled()
    page.get_by_test_id("trix-tap-1").tap()
    tap_and_load(page, save)
    expect(page.get_by_test_id("flash")).to_be_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_r7_trix_refused_shows_every_error_it_asks_to_fix(
    deal: tuple[Page, str], lang: str
) -> None:
    """ "Please fix what is marked below" always has something marked: the per-place errors
    sit with the selects, which stay shown."""
    page, url = deal
    page.goto(f"{url}?contracts=trix&lang={lang}")
    submit_as_is(page)
    expect(page.get_by_test_id("error-summary")).to_be_visible()
    assert page.locator("main .errors li").count() >= 4
    assert page.evaluate(HIDDEN_ERRORS) == []
    first = page.locator("#trix-0")
    expect(first).to_be_focused()
    assert first.evaluate(UNCOVERED)


@pytest.mark.parametrize("lang", LANGS)
def test_r5_a_refused_count_is_in_view_and_focused_clear_of_the_save_bar(
    deal: tuple[Page, str], lang: str
) -> None:
    page, url = deal
    page.goto(f"{url}?contracts=diamonds&lang={lang}")
    page.locator("#diamonds-0").fill("3")
    page.locator("#diamonds-1").fill("3")
    page.locator("#diamonds-2").fill("3")
    page.locator("#diamonds-3").fill("3")
    submit_as_is(page)
    expect(page.get_by_test_id("error-summary")).to_be_visible()
    first = page.locator("main [aria-invalid=true]").first
    expect(first).to_be_focused()
    assert first.evaluate(UNCOVERED)
    assert page.evaluate(HIDDEN_ERRORS) == []


@pytest.mark.parametrize("lang", LANGS)
def test_r2_new_game_hides_no_choice_under_its_start_button(
    live_server: str, phone: Page, lang: str
) -> None:
    phone.goto(f"{live_server}/games/new?lang={lang}")
    for i, name in enumerate(NAMES):
        phone.get_by_test_id(f"player-{i}").fill(name)
    choices = phone.locator("main .choice:visible")
    assert choices.count() >= 4 + 3  # the 7♥ seats and the presets
    for i in range(choices.count()):
        choice = choices.nth(i)
        # The bottom of the screen is where a sticky bar would lie over it.
        choice.evaluate("(el) => el.scrollIntoView({block: 'end'})")
        assert choice.evaluate(UNCOVERED), choice.inner_text()


@pytest.mark.parametrize("lang", LANGS)
def test_r2_forgetting_the_seven_of_hearts_brings_its_error_into_view(
    live_server: str, phone: Page, lang: str
) -> None:
    phone.goto(f"{live_server}/games/new?lang={lang}")
    for i, name in enumerate(NAMES):
        phone.get_by_test_id(f"player-{i}").fill(name)
    tap_and_load(phone, phone.get_by_test_id("start-game"))
    expect(phone.get_by_test_id("error-summary")).to_be_visible()
    error = phone.locator("#first_king-group .errors")
    expect(error).to_be_in_viewport()
    first = phone.locator("#first_king-0")
    expect(first).to_be_focused()
    assert first.evaluate(UNCOVERED)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("typed", ["٣٤٥", "۳۴۵"])
def test_r5_counts_take_arabic_indic_and_eastern_arabic_indic_digits(
    deal: tuple[Page, str], app: Flask, lang: str, typed: str
) -> None:
    """A phone's Arabic keyboard types ٠–٩, a Persian or Urdu one ۰–۹."""
    page, url = deal
    page.goto(f"{url}?contracts=diamonds&lang={lang}")
    page.locator("#diamonds-0").tap()
    for digit in typed:  # each count cannot grow a digit: the cursor moves on
        page.keyboard.insert_text(digit)
    expect(page.locator("#diamonds-3")).to_have_value("1")  # 13 − 3 − 4 − 5
    expect(page.get_by_test_id("save-deal")).to_be_enabled()
    tap_and_load(page, page.get_by_test_id("save-deal"))
    expect(page.get_by_test_id("flash")).to_be_visible()
    game_id = url.split("/games/")[1].split("/")[0]
    with app.app_context():
        assert list(services.load_game(game_id).game.deals[0].scores) == [-30, -40, -50, -10]


@pytest.mark.parametrize("lang", LANGS)
def test_under_arabic_indic_digits_the_deal_form_shows_no_latin_digit(
    deal: tuple[Page, str], lang: str
) -> None:
    """In the boxes, typed in Latin or not, in what the script writes (the sum, the last box,
    the steppers, Trix's places) and on the buttons."""
    page, url = deal
    page.goto(f"{url}?contracts=diamonds&lang={lang}&digits=arab")
    page.locator("#diamonds-0").tap()
    page.keyboard.insert_text("3")  # Latin, from a Latin keyboard
    expect(page.locator("#diamonds-0")).to_have_value("٣")
    page.keyboard.insert_text("4")
    page.keyboard.insert_text("٥")
    expect(page.locator("#diamonds-3")).to_have_value("١")
    expect(page.get_by_test_id("diamonds-sum")).to_contain_text("١٣")
    page.locator("#diamonds-0").locator("xpath=..").locator("[data-step='1']").tap()
    expect(page.locator("#diamonds-0")).to_have_value("٤")
    assert page.evaluate(LATIN_DIGITS) == []
    page.goto(f"{url}?contracts=trix&lang={lang}&digits=arab")
    page.get_by_test_id("trix-tap-1").tap()
    expect(page.get_by_test_id("trix-tap-1")).to_contain_text("١")
    assert page.evaluate(LATIN_DIGITS) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_form_shows_its_counts_in_arabic_indic_digits(
    deal: tuple[Page, str], lang: str
) -> None:
    page, url = deal
    page.goto(f"{url}?contracts=diamonds&lang={lang}&digits=arab")
    for seat, count in enumerate(["3", "٤", "۵", "0"]):
        page.locator(f"#diamonds-{seat}").fill(count)
    submit_as_is(page)
    expect(page.get_by_test_id("error-summary")).to_be_visible()
    for seat, shown in enumerate(["٣", "٤", "٥", "٠"]):
        expect(page.locator(f"#diamonds-{seat}")).to_have_value(shown)
    assert page.evaluate(LATIN_DIGITS) == []


@pytest.mark.parametrize("lang", LANGS)
def test_new_game_values_take_arabic_digits(
    live_server: str, app: Flask, phone: Page, lang: str
) -> None:
    phone.goto(f"{live_server}/games/new?lang={lang}&digits=arab")
    for i, name in enumerate(NAMES):
        phone.get_by_test_id(f"player-{i}").fill(name)
    phone.locator("#first_king-0").check()
    phone.get_by_test_id("more-rules").locator("summary").tap()
    phone.locator("#value_king").fill("۱۰۰")
    expect(phone.locator("#value_king")).to_have_value("١٠٠")
    assert phone.evaluate(LATIN_DIGITS, True) == []  # boxes (and placeholders), buttons
    tap_and_load(phone, phone.get_by_test_id("start-game"))
    expect(phone.get_by_test_id("error-summary")).to_have_count(0)
    game_id = phone.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    with app.app_context():
        assert services.load_game(game_id).game.rules.values.king == 100
