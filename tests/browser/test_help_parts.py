"""The help page on a phone (390×844), in English and Arabic: short parts that open on a
tap, a table of contents that links to each, and a link to a part (/help#r3) opens it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_help_parts_open_on_a_tap_and_from_the_table_of_contents(
    live_server: str, phone: Page, lang: str
) -> None:
    phone.goto(f"{live_server}/help?lang={lang}")
    parts = phone.locator("details.help-part")
    assert parts.count() >= 20
    assert phone.locator("details.help-part[open]").count() == 0
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height < 7000, height  # closed parts: titles, not the 10,000 px of text it was
    links = phone.get_by_test_id("help-toc").locator("a")
    for i in range(links.count()):  # every entry of the contents leads somewhere
        target = links.nth(i).get_attribute("href")
        assert target and phone.locator(target).count() == 1, target
    offline = phone.locator("details.help-part", has=phone.locator("#offline"))
    offline.locator("summary").tap()
    expect(offline).to_have_attribute("open", "")
    phone.get_by_test_id("help-toc").locator('a[href="#r3"]').tap()
    r3 = phone.locator("details.help-part", has=phone.locator("#r3"))
    expect(r3).to_have_attribute("open", "")
    expect(phone.locator("#r3")).to_be_in_viewport()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_link_to_a_rule_opens_its_part(live_server: str, phone: Page, lang: str) -> None:
    phone.goto(f"{live_server}/help?lang={lang}#r7")
    r7 = phone.locator("details.help-part", has=phone.locator("#r7"))
    expect(r7).to_have_attribute("open", "")
    expect(r7.locator("p").first).to_be_visible()
