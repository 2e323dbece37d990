"""An accessibility audit of every kind of page: axe-core finds no violation of WCAG 2.2
A and AA, in English and Arabic, light and dark, on a phone (390×844).

Each page is shown once per language and audited in both schemes: the phone's setting
is switched in place (``prefers-color-scheme``, which the CSS follows live), so the
dark audit sees the very page the light one saw.

axe-core is the npm package fetched by scripts/test.sh (``ensure_axe`` in scripts/lib.sh,
pinned version and SHA-512) into vendor/axe-core/; it is injected into each page as it is
shown (after the page's own scripts ran: the card picker, the live regions). Each run
prints its summary (pages audited, violations by rule) and writes it per scheme to
artifacts/axe/<lang>-<scheme>.txt.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.browser.closing import close
from tests.browser.conftest import PHONE, join
from tests.browser.phone import tap_and_load

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "axe"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
NAMES = ["Rana", "Sami", "عمر", "Lina"]
QUEENS = (Capture(0), Capture(1, 1), Capture(2), Capture(3))

# The violations, each rule with the elements it found (a selector and a line of HTML).
RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 6).map(n => n.target.join(" ") + "  " + n.html.slice(0, 160)
      + "  " + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 200)),
  }));
}"""


def axe_script() -> Path:
    """vendor/axe-core/<version>/axe.min.js, the version scripts/lib.sh pins."""
    lib = (ROOT / "scripts" / "lib.sh").read_text()
    match = re.search(r'^AXE_VERSION="([^"]+)"', lib, re.M)
    assert match, "scripts/lib.sh pins no AXE_VERSION"
    path = ROOT / "vendor" / "axe-core" / match.group(1) / "axe.min.js"
    if not path.exists():
        pytest.fail(f"{path} is missing: run `bash scripts/test.sh` (it fetches axe-core)")
    return path


SCHEMES = ("light", "dark")


@dataclass
class Audit:
    """The pages audited in one language, and what axe found on each in each scheme."""

    page: Page
    script: Path
    found: dict[str, dict[str, list[dict[str, Any]]]] = field(
        default_factory=lambda: {scheme: {} for scheme in SCHEMES}
    )
    text_colours: dict[str, set[str]] = field(
        default_factory=lambda: {scheme: set() for scheme in SCHEMES}
    )
    """The text colour seen in each scheme: proof that the switch took."""

    def check(self, name: str) -> None:
        """Audit the page as it is now shown, under ``name``, in each scheme; the page is
        left in the light one, as the next page expects."""
        self.page.wait_for_load_state("load")
        self.page.add_script_tag(path=str(self.script))
        for scheme in SCHEMES:
            self.page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            self.found[scheme][name] = self.page.evaluate(RUN, TAGS)
            self.text_colours[scheme].add(
                self.page.evaluate("getComputedStyle(document.body).color")
            )
        self.page.emulate_media(color_scheme=SCHEMES[0])  # type: ignore[arg-type]

    def visit(self, name: str, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status < 500, (name, url)
        self.check(name)

    def summary(self, scheme: str, mode: str) -> str:
        pages = self.found[scheme]
        rules = Counter(v["id"] for found in pages.values() for v in found)
        nodes = sum(len(v["nodes"]) for found in pages.values() for v in found)
        lines = [
            f"axe-core, {mode}: {len(pages)} pages, {sum(rules.values())} violations"
            f" ({nodes} elements)"
        ]
        lines += [f"  {rule}: on {count} pages" for rule, count in rules.most_common()]
        for name, found in pages.items():
            for v in found:
                lines.append(f"  [{name}] {v['id']} ({v['impact']}): {v['help']}")
                lines += [f"      {node}" for node in v["nodes"]]
        return "\n".join(lines)


@pytest.fixture
def scheme_context(browser: Browser) -> Iterator[Callable[[str], BrowserContext]]:
    made: list[BrowserContext] = []

    def new(scheme: str) -> BrowserContext:
        # The app's CSP allows only its own scripts: the audit's injected script bypasses it.
        context = browser.new_context(
            color_scheme=scheme,
            bypass_csp=True,
            **PHONE,  # type: ignore[arg-type]
        )
        context.set_default_timeout(15_000)
        made.append(context)
        return context

    yield new
    for context in made:
        close(context)


def started_game(page: Page, base: str) -> str:
    """A game this phone edits, a few deals in (the second kingdom's king to choose)."""
    loaded, token = services.create_game(NAMES, 0, RuleSet())
    for entry in [
        DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(2, 0))),
        DealEntry((Contract.QUEENS,), Captures(queens=QUEENS)),
        DealEntry((Contract.DIAMONDS,), Captures(diamonds=(3, 4, 6, 0))),
    ]:
        services.record_deal(loaded.id, entry)
    join(page, base, loaded.id, token)
    return loaded.id


def finished_game(page: Page, base: str) -> str:
    """A one-kingdom game played to its end, edited on this phone (its rematch shows)."""
    loaded, token = services.create_game(NAMES, 0, RuleSet(kingdoms=1))
    for entry in [
        DealEntry((Contract.KING,), Captures(king_of_hearts=Capture(1))),
        DealEntry((Contract.QUEENS,), Captures(queens=QUEENS)),
        DealEntry((Contract.DIAMONDS,), Captures(diamonds=(3, 4, 6, 0))),
        DealEntry((Contract.COLLECTIONS,), Captures(tricks=(2, 5, 6, 0))),
        DealEntry((Contract.TRIX,), Captures(trix_order=(3, 2, 1, 0))),
    ]:
        services.record_deal(loaded.id, entry)
    join(page, base, loaded.id, token)
    return loaded.id


def audit_games(audit: Audit, base: str) -> None:
    page = audit.page
    game_id = started_game(page, base)
    done = finished_game(page, base)
    game = f"{base}/games/{game_id}"
    audit.visit("home", f"{base}/")
    audit.visit("help", f"{base}/help")
    audit.visit("new-game", f"{base}/games/new")
    tap_and_load(page, page.get_by_test_id("start-game"))  # nothing filled in: refused
    audit.check("new-game-errors")
    audit.visit("game", game)
    audit.visit("game-finished", f"{base}/games/{done}")
    for contracts in ["king", "queens", "diamonds", "collections", "trix"]:
        audit.visit(f"deal-{contracts}", f"{game}/deals/new?contracts={contracts}")
    audit.visit("deal-together", f"{game}/deals/new?contracts=queens,collections")
    audit.visit("deal-trix", f"{game}/deals/new?contracts=trix")
    # Trix with nobody tapped: its Save waits for four places, so the form is sent by script
    # to see the server's refusal, marked at its fields.
    with page.expect_navigation():
        page.evaluate("document.querySelector('[data-testid=save-deal]').form.submit()")
    audit.check("deal-errors")
    audit.visit("deal-detail", f"{game}/deals/2")
    audit.visit("deal-edit", f"{game}/deals/2/edit")
    audit.visit("undo", f"{game}/undo")
    audit.visit("sheet", f"{base}/games/{done}/export")
    audit.visit("import", f"{base}/games/import")
    audit.visit("join", f"{base}/games/{game_id}/join/not-the-token")
    audit.visit("not-found", f"{base}/games/no-such-game")
    audit.visit("offline-unavailable", f"{base}/offline/unavailable")
    audit_disputes(audit, base, game)


def audit_disputes(audit: Audit, base: str, game: str) -> None:
    page = audit.page
    audit.visit("disputes", f"{game}/disputes")
    audit.visit("disputes-standalone", f"{base}/disputes")
    audit.visit("revoke-check-hands", f"{base}/disputes/play?contract=collections&king=0")
    page.get_by_test_id("picker-skip-hands").click()
    expect(page.get_by_test_id("picker-hand").locator("[data-card]").first).to_be_visible()
    audit.check("revoke-check-tricks")
    audit.visit("revoke-check-game", f"{game}/check")
    audit.visit("redeal-check", f"{base}/disputes/redeal")
    audit.visit("claim", f"{base}/disputes/claim")
    tap_and_load(page, page.get_by_test_id("claim-submit"))  # nothing filled in: refused
    audit.check("claim-errors")
    audit.visit("claim-trix", f"{base}/disputes/claim?contract=trix")
    claim_progress(audit, base)


def claim_progress(audit: Audit, base: str) -> None:
    """A claim judged: the progress page, then its answer."""
    page = audit.page
    page.goto(f"{base}/disputes/claim")
    page.get_by_test_id("picker-typing").click()
    for seat, hand in enumerate(["2S 3S", "AS KS", "QS JS", "TS 9S"]):
        page.get_by_test_id(f"hands-{seat}").fill(hand)
    page.get_by_test_id("contract").select_option("collections")
    page.get_by_test_id("leader").select_option("0")
    page.get_by_test_id("claimant").select_option("1")
    page.locator("label:has(> [data-testid=preset-no_more_tricks])").click()
    with page.expect_navigation():
        page.get_by_test_id("claim-submit").click()
    audit.check("claim-progress")
    expect(page.get_by_test_id("verdict-headline")).to_be_visible(timeout=30_000)
    audit.check("claim-verdict")


def audit_circles(audit: Audit, base: str) -> None:
    page = audit.page
    audit.visit("circles", f"{base}/circles")
    page.get_by_test_id("circle-name").fill("Thursday table")
    for i, name in enumerate(NAMES):
        page.get_by_test_id(f"member-{i}").fill(name)
    tap_and_load(page, page.get_by_test_id("create-circle"))
    circle = page.url.split("#")[0].split("?")[0]
    audit.check("circle")
    audit.visit("circle-new-game", f"{circle}/games/new")
    audit.visit("circle-attach", f"{circle}/attach")
    audit.visit("circle-restore", f"{base}/circles/restore")
    page.goto(circle)
    member = page.locator("a[href*='/members/']").first
    if member.count():
        audit.visit("circle-member", base + (member.get_attribute("href") or ""))


def audit_club_night(audit: Audit, base: str) -> None:
    page = audit.page
    audit.visit("events", f"{base}/events")
    audit.visit("event-new", f"{base}/events/new")
    page.get_by_test_id("event-name").fill("Thursday club")
    page.get_by_test_id("event-players").fill("\n".join([*NAMES, "Hadi", "Maya", "Nour", "Ziad"]))
    page.get_by_test_id("event-rounds").fill("2")
    page.get_by_test_id("create-event").click()
    expect(page.get_by_test_id("director-controls")).to_be_visible()
    event = page.url.split("#")[0]
    audit.check("event-director")
    page.get_by_test_id("draw-round").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("round-1")).to_be_visible()
    audit.check("event-round")
    audit.visit("event-board", f"{event}/board")
    audit.visit("event-follower", f"{event}?lang=" + page.evaluate("document.documentElement.lang"))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_page_kind_has_no_wcag_violation(
    app: Flask,
    live_server: str,
    scheme_context: Callable[[str], BrowserContext],
    lang: str,
) -> None:
    page = scheme_context(SCHEMES[0]).new_page()
    page.goto(f"{live_server}/lang/{lang}?next=/")  # the menu's link; its cookie keeps it
    audit = Audit(page, axe_script())
    with app.app_context():
        audit_games(audit, live_server)
    audit_circles(audit, live_server)
    audit_club_night(audit, live_server)
    assert audit.text_colours["light"].isdisjoint(audit.text_colours["dark"]), audit.text_colours
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    summaries = []
    for scheme in SCHEMES:
        summary = audit.summary(scheme, f"{lang}, {scheme}, 390×844")
        (ARTIFACTS / f"{lang}-{scheme}.txt").write_text(summary + "\n")
        summaries.append(summary)
    print("\n" + "\n".join(summaries))
    failing = {
        f"{name} ({scheme})": [v["id"] for v in found]
        for scheme, pages in audit.found.items()
        for name, found in pages.items()
        if found
    }
    assert not failing, "\n".join(summaries)


def test_cards_seats_and_places_are_named_in_words(
    app: Flask, live_server: str, scheme_context: Callable[[str], BrowserContext]
) -> None:
    """A screen reader hears "Queen of spades: Rana", never "Q♠": the deal grid's cells,
    the card picker's cards and seat tabs, and the Trix taps with the place each one took."""
    page = scheme_context("light").new_page()
    with app.app_context():
        game_id = started_game(page, live_server)
    game = f"{live_server}/games/{game_id}"
    page.goto(f"{game}/deals/new?contracts=queens&lang=en")
    expect(page.get_by_role("radio", name="Queen of spades: Rana")).to_have_count(1)
    expect(page.get_by_role("checkbox", name="Queen of hearts: doubled")).to_have_count(1)
    page.locator("label:has(> #qc_doubled)").click()
    expect(page.get_by_role("radio", name="Queen of clubs, doubled by Lina")).to_have_count(1)

    page.goto(f"{game}/deals/new?contracts=trix&lang=en")
    page.get_by_test_id("trix-tap-2").click()
    expect(page.get_by_test_id("trix-tap-2")).to_have_accessible_name("عمر out in place 1")
    expect(page.get_by_test_id("trix-tap-1")).to_have_accessible_name("Sami")

    page.goto(f"{live_server}/disputes/play?contract=queens&king=0&lang=en")
    grid = page.get_by_test_id("picker-grid")
    expect(grid.get_by_role("button", name="Queen of spades", exact=True)).to_have_count(1)
    expect(grid.get_by_role("button", name="Ten of diamonds", exact=True)).to_have_count(1)
    grid.get_by_role("button", name="Ace of clubs").click()
    expect(page.get_by_test_id("picker-seat-0")).to_have_accessible_name("Player 1 1 of 13 cards")
    expect(page.get_by_role("checkbox", name="Queen of spades")).to_have_count(1)

    page.goto(f"{live_server}/disputes/play?contract=queens&king=0&lang=ar")
    for card in ["QS", "TD", "2C"]:  # in Arabic too: words, not a symbol
        button = page.get_by_test_id("picker-grid").locator(f"[data-card='{card}']")
        expect(button).not_to_have_accessible_name(re.compile("[♠♥♦♣]"))
        expect(button).to_have_accessible_name(re.compile("[\u0621-\u064a]{3}"))  # Arabic letters
