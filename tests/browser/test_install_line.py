"""Installing the app, on a phone (390×844), in English and Arabic: where the browser offers
it (``beforeinstallprompt``) the home page shows an install button that asks the browser;
elsewhere a line says how to add the app to the home screen from the browser's menu."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# What Chromium fires when the app can be installed; ``prompt()`` records that it was asked.
OFFER = """() => {
  const event = new Event("beforeinstallprompt", {cancelable: true});
  event.prompt = () => { window.installAsked = true; return Promise.resolve(); };
  event.userChoice = Promise.resolve({outcome: "accepted"});
  window.dispatchEvent(event);
  return event.defaultPrevented;
}"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_home_page_says_how_to_add_the_app_to_the_home_screen(
    live_server: str, phone: Page, lang: str
) -> None:
    phone.goto(f"{live_server}/?lang={lang}")
    expect(phone.get_by_test_id("install-how")).to_be_visible()
    expect(phone.get_by_test_id("install-button")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_an_install_button_where_the_browser_offers_to_install(
    live_server: str, phone: Page, lang: str
) -> None:
    phone.goto(f"{live_server}/?lang={lang}")
    assert phone.evaluate(OFFER)  # the browser's own banner gives way to the button
    button = phone.get_by_test_id("install-button")
    expect(button).to_be_visible()
    expect(phone.get_by_test_id("install-how")).to_be_hidden()
    button.tap()
    assert phone.evaluate("window.installAsked") is True
    expect(button).to_be_hidden()
