"""The two-phone soak: a table plays whole games on two phones in Chromium while the
network comes and goes, and the server's log is checked against what the table meant.

Shared by tests/browser/test_soak.py (a CI-sized run) and benchmarks/soak.py (the full
ten games); no pytest here. :func:`run_soak` drives it all and returns a
:class:`Report`, whose :meth:`Report.lines` are what both print.

- **The table's plan.** Every game is planned first (:func:`plan_game`): per kingdom a
  random order of the king's five contracts, and for each deal random captures the rules
  engine accepts (R2–R7), so the sequence the table means is known before a card is dealt.
- **Two phones**, two browser contexts (one in English, one in Arabic) that joined one
  game served by gunicorn. Before each deal the network of each phone may change
  (:class:`Network`): online; offline (``context.set_offline``); a Wi-Fi that drops
  every request while ``navigator.onLine`` stays true; a server that answers every post
  503; and, for one save, an answer lost after the post reached the server. A phone that
  comes back online is left to sync its outbox by itself (the ``online`` event and the
  retries), conflicts being decided as the table would: "discard mine" when the server
  holds that very deal.
- **Who saves.** The deal is entered on a phone whose screen is at that deal; sometimes
  on both at once (the same deal twice: the second must end in "the same deal?" and
  "Discard mine"), more often at a kingdom's last deal and the game's last. Now and
  then a deal is first saved wrong and corrected with "Edit", or saved wrong, undone
  and saved again.
- **One truth.** Each screen a phone draws by itself (offline, or entries waiting) is
  read (heading, kingdom, king, dealer, the contracts offered, totals, sheet total, last
  entry) and compared with the server's own game page for the same log: a shadow game
  on the same server, moved to that log through the API and opened in a third context.
- **The count.** At each game's end (and whenever the table can no longer go on), the
  server's deals are aligned with the plan: deals lost, deals recorded twice, others
  wrong. A derailed game is repaired through the API, as the table would undo a phantom
  deal, and the soak goes on; what was found stays in the report with the seed.

``exclude`` leaves scenarios out of the random schedule (:data:`SCENARIOS`), so that
one known defect does not hide the others.
"""

from __future__ import annotations

import difflib
import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game import DealEntry, Game
from scorekeeper.rules.ruleset import RuleSet
from tests.browser import closing
from tests.browser.phone import QUEEN_KEYS, Deal, Thumb, fill, fill_card
from tests.server.serving import Client

NAMES = ["Rana", "Sami", "Omar", "Lina"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DEALS_PER_GAME = 20
ENGINE_MS = 90_000
LANGS = ("en", "ar")
"""Phone A's language and phone B's (right to left, Arabic-Indic digits)."""
WRITES_PER_SHADOW = 900
"""A shadow game is replaced before the server's cap of 1,000 writes per game."""
ISOLATES = "\u2066\u2067\u2068\u2069"
SYNC_S = 60.0

SCENARIOS = (
    "offline",  # a phone's network cut (navigator.onLine false)
    "dropped",  # requests fail while navigator.onLine stays true
    "503",  # the server answers every post 503
    "lost-answer",  # a save reaches the server, its answer never comes back
    "same-deal-online",  # both phones save one deal at once, both online
    "same-deal-offline",  # both save one deal at once, at least one of them not online
    "edit",  # a deal saved wrong, then corrected with Edit
    "undo",  # a deal saved wrong, undone, saved again
)
"""What the random schedule may do; ``exclude`` names any of them to leave it out."""


# --- the table's plan --------------------------------------------------------------------


def random_captures(rng: random.Random, contract: Contract) -> Captures:
    """Random captures for one deal of ``contract`` (the engine says if they are valid)."""

    def card() -> Capture:
        doubled = rng.random() < 0.3
        return Capture(rng.randrange(4), rng.randrange(4) if doubled else None)

    def counts() -> tuple[int, int, int, int]:
        while True:
            a, b, c = sorted(rng.randint(0, 13) for _ in range(3))
            drawn = (a, b - a, c - b, 13 - c)
            # static/deal_form.js moves the cursor on after the "1" of a 10–12 typed in
            # the third box (it counts the fourth box, filled by itself, as typed): a
            # thumb cannot type those, so the table's plan has none.
            if drawn[2] < 10 or 13 in drawn:
                return drawn

    if contract is Contract.KING:
        return Captures(king_of_hearts=card())
    if contract is Contract.QUEENS:
        return Captures(queens=(card(), card(), card(), card()))
    if contract is Contract.DIAMONDS:
        return Captures(diamonds=counts())
    if contract is Contract.COLLECTIONS:
        return Captures(tricks=counts())
    order = [0, 1, 2, 3]
    rng.shuffle(order)
    return Captures(trix_order=(order[0], order[1], order[2], order[3]))


def valid_deal(rng: random.Random, game: Game, contract: Contract) -> DealEntry:
    """A deal of ``contract`` that ``game`` accepts as its next one."""
    while True:
        entry = DealEntry((contract,), random_captures(rng, contract))
        if game.can(entry):
            return entry


def plan_game(rng: random.Random) -> list[Deal]:
    """The 20 deals a table plays: each king's contracts in a random order (R2), random
    valid captures; a plan whose end is a tie for first (an extra deal, R12) is drawn again."""
    while True:
        game = Game.start(RuleSet(), 0, NAMES)
        deals: list[Deal] = []
        for _ in range(DEALS_PER_GAME):
            contract = rng.choice(list(game.available_contracts))
            entry = valid_deal(rng, game, contract)
            game = game.record(entry)
            deals.append(Deal(contract, entry.captures))
        if game.finished:
            return deals


def wrong_version(rng: random.Random, deals: Sequence[Deal], index: int) -> Deal:
    """Other captures for deal ``index``, as a slip of the thumb would make them."""
    game = Game.replay(RuleSet(), 0, NAMES, [as_entry(d) for d in deals[:index]])
    right = deals[index]
    while True:
        entry = valid_deal(rng, game, right.contract)
        if entry.captures != right.captures:
            return Deal(right.contract, entry.captures)


def as_entry(deal: Deal) -> DealEntry:
    return DealEntry((deal.contract,), deal.captures)


def payload(deal: Deal) -> dict[str, Any]:
    """The API's body for ``deal`` (docs/API.md, "Deal captures")."""
    return {"contracts": [deal.contract.value], "captures": deal.captures.to_dict()}


def key_of(entry: dict[str, Any]) -> str:
    """One log entry as a comparable string: its contracts and captures (a deal), or the
    redeal itself; what the server adds (a king it knows, times, ids) left out."""
    if entry.get("kind"):
        return json.dumps({k: entry.get(k) for k in ("kind", "seat", "contract")}, sort_keys=True)
    return json.dumps(
        {"contracts": entry["contracts"], "captures": entry["captures"]}, sort_keys=True
    )


# --- what a page shows -------------------------------------------------------------------

READ_BOARD = r"""() => {
  const shown = (e) => !!e && !e.closest("[hidden]");
  const q = (s) => { const e = document.querySelector(s); return shown(e) ? e : null; };
  const text = (e) => e ? e.textContent.replace(/[\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ").trim() : null;
  const every = (s) => Array.from(document.querySelectorAll(s)).filter(shown);
  const turn = q('[data-testid="turn"]');
  return {
    heading: text(q('[data-testid="game-status"]')),
    kingdom: turn ? text(turn.querySelector("p")) : null,
    king: turn ? text(turn.querySelector("strong")) : null,
    dealer: text(q('[data-testid="dealer-line"]')),
    asks: text(q('[data-testid="choose-contract"] h2')),
    contracts: every('[data-testid="choose-contract"] a.contract-button')
      .map((a) => a.getAttribute("data-testid")).sort(),
    totals: [0, 1, 2, 3].map((s) => text(q('[data-testid="total-' + s + '"] .total-score'))),
    sheet_total: every('[data-testid="grand-total"] td').map(text),
    latest: text(q('[data-testid="latest"] p')),
  };
}"""
"""The board as the player reads it (the same script on a phone's page and the server's)."""

PHONE_LOG = """([url, game]) => SKBoot.load().then(() => Promise.all([
  fetch(url, {credentials: "same-origin"}).then((r) => r.json()),
  SKOutbox.list(game)]))
  .then(([data, entries]) => ({log: data.log, pending: SKOffline.pendingOf(entries)}))"""
"""The log a phone draws its screens from: the server's last log it holds, then its outbox."""

KEPT_VERSION = """(url) => caches.open("sk-pages").then((c) => c.match(url))
  .then((r) => (r ? r.json() : {})).then((d) => d.version === undefined ? null : d.version)"""
"""The version of the game in the copy the phone keeps (its service worker's cache)."""

OUTBOX = """(game) => SKBoot.load().then(() => SKOutbox.list(game))
  .then((entries) => entries.map((e) => ({id: e.entry_id, state: e.state, action: e.action,
                                          entry: e.entry || null})))"""


def projected_log(log: Sequence[dict[str, Any]], pending: Sequence[dict[str, Any]]) -> list[Any]:
    """``log`` with the phone's ``pending`` entries applied, as its engine replays them."""
    out = list(log)
    for p in pending:
        if p["action"] in ("record", "redeal"):
            out.append(p["entry"])
        elif p["action"] == "undo" and out:
            out.pop()
        elif p["action"] == "edit":
            deals = [i for i, e in enumerate(out) if not e.get("kind")]
            out[deals[p["n"] - 1]] = p["entry"]
    return out


# --- a phone's network -------------------------------------------------------------------


class Network:
    """One phone's network: ``ok``; ``offline`` (the browser knows); ``dropped`` (every
    request fails, ``navigator.onLine`` stays true); ``503`` (posts are answered 503, other
    requests refused); ``lost-answer`` (the next post reaches the server, its answer is
    lost, then as ``dropped``). Routed on the context: the service worker's fetches too."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.mode = "ok"
        context.route("**/*", self.handle)

    def handle(self, route: Route) -> None:
        request = route.request
        mode = self.mode
        if mode == "lost-answer" and request.method == "POST":
            with suppress(PlaywrightError):
                route.fetch()  # written on the server …
            self.mode = "dropped"
            route.abort("connectionreset")  # … and the answer never comes back
        elif mode in ("dropped", "lost-answer"):
            route.abort("internetdisconnected")
        elif mode == "503" and request.method == "POST":
            route.fulfill(status=503, body="busy")
        elif mode == "503":
            route.abort("connectionrefused")
        else:
            route.fallback()

    @property
    def online(self) -> bool:
        return self.mode == "ok"

    def set(self, mode: str) -> None:
        self.context.set_offline(mode == "offline")
        self.mode = mode


# --- the report --------------------------------------------------------------------------


@dataclass
class Report:
    """What the soak saw; :meth:`ok` when nothing was lost, doubled, wrong or disagreeing."""

    seed: int
    games: int = 0
    meant: int = 0
    recorded: int = 0
    lost: int = 0
    twice: int = 0
    wrong: int = 0
    screens: int = 0
    disagreements: int = 0
    same_deal_asked: int = 0
    same_deal_saves: int = 0
    conflicts: int = 0
    queued_saves: int = 0
    edits: int = 0
    undos: int = 0
    network_changes: int = 0
    seconds: float = 0.0
    findings: list[str] = field(default_factory=list)
    excluded: tuple[str, ...] = ()

    def ok(self) -> bool:
        return not (self.lost or self.twice or self.wrong or self.disagreements) and not [
            f for f in self.findings if not f.startswith("note:")
        ]

    def find(self, text: str) -> None:
        self.findings.append(text)

    def lines(self) -> list[str]:
        out = [
            f"soak seed={self.seed} (SOAK_SEED={self.seed} replays it)"
            + (f", excluded: {', '.join(self.excluded)}" if self.excluded else ""),
            f"games {self.games}, deals meant {self.meant}, recorded {self.recorded}, "
            f"lost {self.lost}, recorded twice {self.twice}, other wrong {self.wrong}",
            f"offline screens compared {self.screens}, disagreements {self.disagreements}",
            f'same deal saved on both phones {self.same_deal_saves} (asked "the same deal?" '
            f"{self.same_deal_asked}), offline conflicts {self.conflicts}, saves queued "
            f"{self.queued_saves}, edits {self.edits}, undos {self.undos}, network changes "
            f"{self.network_changes}",
            f"{self.seconds:.1f} s",
        ]
        out += [f"  {finding}" for finding in self.findings]
        return out


def call_once(port: int, method: str, path: str, body: Any = None, **head: str) -> Any:
    """One API request on a connection of its own (gunicorn closes idle keep-alives, and a
    post is never retried on one): (status, parsed body)."""
    client = Client(port)
    try:
        status, _, answer = client.call(method, path, body, head)
    finally:
        client.close()
    return status, answer


# --- the server's page for a log ---------------------------------------------------------


class Refused(Exception):
    """The server refused an entry of a phone's log: no page of the server's shows it."""


class Shadow:
    """A game on the same server moved to any log through the API, and its page opened in
    a context of its own per language: the server's page for that log."""

    def __init__(self, port: int, contexts: dict[str, BrowserContext], base: str) -> None:
        self.port = port
        self.base = base
        self.pages: dict[str, Page] = {}
        for lang, context in contexts.items():
            page = self.pages[lang] = context.new_page()
            page.goto(f"{base}/lang/{lang}?next=/")
        self.fresh_game()

    def fresh_game(self) -> None:
        """A new shadow game: one game keeps at most 1,000 writes (API.md), and moving
        back and forth between logs spends them."""
        self.game_id, self.token, state = Client(self.port).new_game(first_king=0)
        self.version = state["version"]
        self.log: list[dict[str, Any]] = []
        for page in self.pages.values():
            join_game(page, self.base, self.game_id, self.token)

    def call(self, method: str, path: str, body: Any = None, if_match: bool = False) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"}
        if if_match:
            headers["If-Match"] = f'"{self.version}"'
        status, answer = call_once(
            self.port, method, f"/api/v1/games/{self.game_id}{path}", body, **headers
        )
        if status in (409, 422):
            raise Refused(" ".join(e["message"] for e in answer.get("errors", [])))
        if status >= 300:
            raise AssertionError(f"shadow game {method} {path}: {status} {answer}")
        self.version = answer["game"]["version"] if "game" in answer else answer["version"]
        return answer

    def move_to(self, log: Sequence[dict[str, Any]]) -> None:
        if self.version > WRITES_PER_SHADOW:
            self.fresh_game()
        keys = [key_of(e) for e in log]
        common = 0
        while common < min(len(keys), len(self.log)) and key_of(self.log[common]) == keys[common]:
            common += 1
        while len(self.log) > common:
            self.call("DELETE", "/deals/last", if_match=True)
            self.log.pop()
        for entry in log[common:]:
            if entry.get("kind"):
                body = {k: entry.get(k) for k in ("kind", "seat", "contract", "note")}
                self.call("POST", "/redeals", body)
            else:
                self.call("POST", "/deals", {k: entry[k] for k in ("contracts", "captures")})
            self.log.append(entry)

    def board(self, log: Sequence[dict[str, Any]], lang: str) -> dict[str, Any]:
        self.move_to(log)
        page = self.pages[lang]
        page.goto(f"{self.base}/games/{self.game_id}")
        return dict(page.evaluate(READ_BOARD))


# --- a phone -----------------------------------------------------------------------------


@dataclass
class Phone:
    name: str
    context: BrowserContext
    page: Page
    net: Network
    lang: str = "en"
    game_url: str = ""
    game_id: str = ""

    @property
    def offline_url(self) -> str:
        return f"{self.game_url}/offline.json"

    def evaluate(self, script: str, arg: Any = None) -> Any:
        """``page.evaluate`` that waits out a navigation under it."""
        for _attempt in range(25):
            try:
                self.page.wait_for_load_state("load")
                return self.page.evaluate(script, arg)
            except PlaywrightError as error:
                # A new page that has not run its scripts yet says "not defined".
                if not any(w in str(error) for w in ("destroyed", "navigat", "not defined")):
                    raise
                time.sleep(0.2)
        raise AssertionError(f"{self.name}: no page of the app's here ({self.page.url})")

    def outbox(self) -> list[dict[str, Any]]:
        return list(self.evaluate(OUTBOX, self.game_id))

    def open_game(self) -> None:
        goto(self.page, self.game_url)
        if self.draws_itself():
            self.drawn()

    def draws_itself(self) -> bool:
        """Whether the phone draws its board by itself: offline, or entries waiting (a
        failing network with nothing waiting shows the page it kept)."""
        return self.net.mode == "offline" or bool(self.outbox())

    def on_its_own(self) -> bool:
        """Whether what the phone shows comes without the server: drawn by itself, or the
        page it kept (the network failing)."""
        return not self.net.online or bool(self.outbox())

    def drawn(self) -> None:
        """Wait until the phone has drawn its board by itself (its engine's answer)."""
        self.page.wait_for_load_state("load")
        if not self.draws_itself():
            return  # a failing network with nothing waiting: the page the phone kept
        expect(self.page.locator("html[data-offline-board]")).to_have_count(1, timeout=ENGINE_MS)
        waiting = [e for e in self.outbox() if e["state"] == "waiting"]
        if waiting and self.page.get_by_test_id("conflict").count() == 0:
            expect(self.page.get_by_test_id("pending-entry")).to_have_count(
                len(waiting), timeout=ENGINE_MS
            )

    def next_deal(self) -> int | None:
        """The deal number the phone's heading shows (None: the game is over)."""
        heading = self.page.get_by_test_id("game-status").inner_text()
        words = "".join(" " if c in ISOLATES else c for c in heading).split()
        digits = [int(w) for w in words if w.isdigit()]  # Arabic-Indic digits too
        return digits[0] if digits else None

    def phone_log(self) -> list[Any]:
        found = self.evaluate(PHONE_LOG, [self.offline_url, self.game_id])
        return projected_log(found["log"], found["pending"])

    def board(self) -> dict[str, Any]:
        return dict(self.evaluate(READ_BOARD))

    def open_form(self, deal: Deal) -> Thumb:
        button = self.page.get_by_test_id(f"contract-{deal.contract.value}")
        with self.page.expect_navigation():
            button.click()
        expect(self.page.get_by_test_id("deal-form")).to_be_visible()
        self.page.wait_for_load_state("load")
        return Thumb(self.page)

    def tap_save(self) -> None:
        self.page.get_by_test_id("save-deal").click(no_wait_after=True)

    def landing(self) -> str:
        """Where a Save led: ``recorded`` (the server's page), ``queued`` (kept on the
        phone), ``same-deal`` (the server asks), ``refused`` (the server's form, or the
        phone's engine, says why)."""
        places = {
            "queued": '[data-testid="offline-saved"]',
            "same-deal": '[data-testid="same-deal"]',
            "refused": '[data-testid="error-summary"], [data-testid="offline-errors"]',
            "recorded": '[data-testid="flash"]',
        }
        anywhere = self.page.locator(", ".join(places.values()))
        deadline = time.monotonic() + ENGINE_MS / 1000
        on_game_since = None
        while time.monotonic() < deadline:
            with suppress(PlaywrightError):
                anywhere.first.wait_for(state="visible", timeout=1_000)
            with suppress(PlaywrightError):
                self.page.wait_for_load_state("load")
                for name, selector in places.items():
                    if self.page.locator(selector).first.is_visible():
                        return name
                # Back on the game page with no word (a correction sent by script): saved.
                if self.page.url.rstrip("/") == self.game_url:
                    on_game_since = on_game_since or time.monotonic()
                    if time.monotonic() - on_game_since > 3:
                        return "queued" if self.outbox() else "recorded"
        raise AssertionError(f"{self.name}: a Save led nowhere ({self.page.url})")


def fill_correction(thumb: Thumb, deal: Deal) -> None:
    """Change a deal's form, filled in with what was saved, to ``deal``'s captures. Its
    count boxes are all typed already, so the cursor does not move on by itself (a box
    blurs after a digit): each box is set on its own."""
    caps = deal.captures
    page = thumb.page
    if caps.king_of_hearts is not None:
        fill_card(thumb, "kh", caps.king_of_hearts)
    for key, queen in zip(QUEEN_KEYS, caps.queens or (), strict=False):
        fill_card(thumb, key, queen)
    for name in ("diamonds", "tricks"):
        counts = getattr(caps, name)
        if counts is None:
            continue
        for seat, value in enumerate(counts):
            page.locator(f"#{name}-{seat}").fill(str(value))
        expect(page.get_by_test_id(f"{name}-sum")).to_have_class("sum ok")


def goto(page: Page, url: str) -> None:
    """``page.goto`` that waits out the page's own reload (a sync that just ended)."""
    for attempt in range(5):
        try:
            page.goto(url)
            break
        except PlaywrightError as error:
            if attempt == 4 or not any(w in str(error) for w in ("interrupted", "ABORTED")):
                raise
            time.sleep(0.3)
    page.wait_for_load_state("load")


def join_game(page: Page, base: str, game_id: str, token: str) -> None:
    """Open a game's edit link on ``page`` and confirm: this phone may enter its deals."""
    goto(page, f"{base}/games/{game_id}/join/{token}")
    with page.expect_navigation():
        page.get_by_test_id("join-yes").click()


@contextmanager
def new_phone(browser: Browser, base: str, name: str, lang: str) -> Iterator[Phone]:
    """A phone whose pages are in ``lang`` (the site's language menu, a cookie)."""
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"{base}/lang/{lang}?next=/")
    try:
        yield Phone(name, context, page, Network(context), lang)
    finally:
        close_context(context)


# Chromium can hang closing a context while its service worker checks for an update:
# wait for that check first (as tests/browser/test_offline.py does).
UPDATE_CHECKED = """() => new Promise((resolve) => {
  setTimeout(() => resolve("cap"), 15000);
  if (!("serviceWorker" in navigator)) return resolve("none");
  navigator.serviceWorker.getRegistration()
    .then((r) => (r ? r.update() : null))
    .then(() => resolve("checked"), () => resolve("offline"));
})"""


def close_context(context: BrowserContext) -> None:
    with suppress(PlaywrightError):
        context.set_offline(False)
        context.unroute("**/*")
    for page in context.pages:
        with suppress(PlaywrightError):
            if page.url.startswith("http"):
                page.wait_for_load_state("load")
                page.evaluate(UPDATE_CHECKED)
    closing.close(context)


def keep_on_phone(page: Page) -> None:
    """Opened online under the service worker, a game is kept with no tap, and the engine
    with it (once per phone)."""
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)
    expect(page.get_by_test_id("offline")).to_have_attribute("data-kept", "", timeout=ENGINE_MS)
    page.wait_for_function("() => localStorage.getItem('sk-engine')", timeout=ENGINE_MS)


# --- the soak ----------------------------------------------------------------------------


@dataclass
class Soak:
    """One soak run: the phones, the shadow game, the random schedule and the report."""

    browser: Browser
    base: str
    rng: random.Random
    report: Report
    exclude: frozenset[str]
    phones: list[Phone] = field(default_factory=list)
    shadow: Shadow | None = None
    port: int = 0
    log: Callable[[str], None] = print

    def allowed(self, scenario: str) -> bool:
        return scenario not in self.exclude

    # --- the server ---

    def api(self, method: str, path: str, token: str, body: Any = None, **head: str) -> Any:
        if token:
            head["Authorization"] = f"Bearer {token}"
        status, answer = call_once(self.port, method, path, body, **head)
        assert status < 300, (method, path, status, answer)
        return answer

    def server_log(self, game_id: str) -> list[dict[str, Any]]:
        """The game's deals as the server holds them (its state: corrections and undos
        applied), in order."""
        state = self.api("GET", f"/api/v1/games/{game_id}", "")
        deals: list[dict[str, Any]] = []
        for kingdom in state["kingdoms"]:
            deals += kingdom["deals"]
        return deals + list(state.get("extra_deals") or [])

    # --- the network ---

    def weather(self, phone: Phone, force: str | None = None) -> None:
        """Maybe change ``phone``'s network; back online, its outbox syncs by itself."""
        if force is None:
            if self.rng.random() > 0.3:
                return
            modes = ["ok", "ok"] + [m for m in ("offline", "dropped", "503") if self.allowed(m)]
            force = self.rng.choice(modes)
        if force == phone.net.mode:
            return
        self.report.network_changes += 1
        was_online = phone.net.online
        self.log(f"    {phone.name}: network {phone.net.mode} -> {force}")
        if was_online and phone.game_id:
            self.kept_fresh(phone)
        phone.net.set(force)
        if phone.net.online and not was_online:
            self.synced(phone)
        elif not phone.net.online:
            # A network that went away takes the page's live stream with it; the route
            # only sees new requests, so the page is opened again (from the phone's copy).
            phone.open_game()

    def kept_fresh(self, phone: Phone) -> None:
        """Before the network goes: the phone's kept copy of the game is the server's (a
        page just opened fetches it; the network dropping under that fetch would leave an
        older copy, a race no table meets every deal)."""
        version = self.api("GET", f"/api/v1/games/{phone.game_id}", "")["version"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            kept = phone.evaluate(KEPT_VERSION, phone.offline_url)
            if kept == version:
                return
            time.sleep(0.2)
        # Said, not counted: what an older copy does to the screens and the saves is.
        self.report.find(
            f"note: {phone.name}: 10 s after its game page opened online, the copy it keeps "
            f"is version {kept}, the server's {version}"
        )

    def synced(self, phone: Phone) -> None:
        """``phone`` is online: its outbox empties by itself (the ``online`` event, the
        retries); a conflict is decided as the table would."""
        with suppress(PlaywrightError):
            phone.page.evaluate("window.dispatchEvent(new Event('online'))")
        deadline = time.monotonic() + SYNC_S
        nudged = time.monotonic()
        while time.monotonic() < deadline:
            entries = phone.outbox()
            if not entries:
                phone.page.wait_for_load_state("load")
                return
            if any(e["state"] == "conflict" for e in entries):
                self.decide_conflict(phone)
            elif time.monotonic() - nudged > 10:  # the retries' backoff grew long
                nudged = time.monotonic()
                self.report.find(
                    f"note: {phone.name}'s outbox still held {len(entries)} entries 10 s "
                    "after the network came back"
                )
                with suppress(PlaywrightError):
                    phone.page.evaluate("window.dispatchEvent(new Event('online'))")
            time.sleep(0.3)
        raise AssertionError(f"{phone.name}: the outbox did not empty in {SYNC_S:.0f} s")

    def decide_conflict(self, phone: Phone) -> None:
        """The offline conflict view: "discard mine" when the server holds that very deal
        (the same deal saved on both phones), else keep it (send it again)."""
        self.report.conflicts += 1
        page = phone.page
        conflict = page.get_by_test_id("conflict")
        expect(conflict).to_be_visible(timeout=30_000)
        entries = phone.outbox()
        first = next(e for e in entries if e["state"] == "conflict")
        on_server = {key_of(d) for d in self.server_log(phone.game_id)}
        same = first["entry"] is not None and key_of(first["entry"]) in on_server
        discard = conflict.get_by_test_id("conflict-discard")
        # "Mine is the next deal" where the view asks "the same deal?"; else "keep" (send again).
        nxt = conflict.get_by_test_id("conflict-next")
        keep = nxt if nxt.count() else conflict.get_by_test_id("conflict-keep")
        if not same and first["action"] != "record":
            same = True  # an undo or a correction the server refused: dropped, as a player would
        self.log(f"  {phone.name}: conflict, {'discard mine' if same else 'mine is the next deal'}")
        (discard if same else keep).click()

    # --- the phones' screens ---

    def compare(self, phone: Phone, where: str) -> None:
        """The board ``phone`` drew by itself against the server's page for the same log."""
        assert self.shadow is not None
        phone.drawn()
        mine = phone.board()
        log = phone.phone_log()
        self.report.screens += 1
        try:
            theirs = self.shadow.board(log, phone.lang)
        except Refused as refusal:
            self.report.disagreements += 1
            self.report.find(
                f"screen disagrees ({phone.name}, {where}): it is drawn from a log of "
                f"{len(log)} entries the server refuses ({str(refusal)[:160]!r}); the "
                f"phone shows {mine['heading']!r}, {mine['kingdom']!r}, {mine['contracts']}"
            )
            return
        if mine != theirs:
            self.report.disagreements += 1
            diff = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs.get(k)}
            self.report.find(
                f"screen disagrees ({phone.name}, {where}, its log of {len(log)} entries): "
                + "; ".join(f"{k}: phone {a!r}, server {b!r}" for k, (a, b) in diff.items())
            )

    # --- one deal ---

    def current(self, phone: Phone, n: int, where: str) -> bool:
        """Whether ``phone``'s screen is at deal ``n`` (a board it drew by itself is compared
        with the server's page first)."""
        if phone.net.online and not phone.outbox():
            phone.open_game()  # the server's page as it is now
        elif phone.on_its_own():
            self.compare(phone, f"{where}, looked at")
        return phone.next_deal() == n

    def enter(self, phone: Phone, deal: Deal) -> str:
        """Tap the contract, fill the form, Save: where it led (``no-button``: the board
        does not offer the contract)."""
        button = phone.page.get_by_test_id(f"contract-{deal.contract.value}")
        with suppress(PlaywrightError):
            button.wait_for(state="visible", timeout=5_000)
        if not button.is_visible():
            return "no-button"
        thumb = phone.open_form(deal)
        try:
            fill(thumb, deal)
        except AssertionError as error:  # what was typed did not stay: said, typed again
            self.report.find(
                f"{phone.name} ({phone.net.mode}): typing into the {deal.contract.value} form "
                f"did not stay ({' '.join(str(error).split())[:160]})"
            )
            phone.page.reload()
            phone.page.wait_for_load_state("load")
            fill(Thumb(phone.page), deal)
        phone.tap_save()
        return self.after_save(phone)

    def after_save(self, phone: Phone) -> str:
        landed = phone.landing()
        if landed == "queued":
            self.report.queued_saves += 1
        return landed

    def play_deal(self, plan: Sequence[Deal], index: int, where: str) -> None:
        """Deal ``index`` of ``plan``, entered on whichever phone is at it."""
        n = index + 1
        deal = plan[index]
        for phone in self.phones:
            self.weather(phone)
        ready = [p for p in self.phones if self.current(p, n, where)]
        if not ready:
            for phone in self.phones:  # the table waits for the network …
                self.weather(phone, "ok")
            ready = [p for p in self.phones if self.current(p, n, where)]
        if not ready:  # … and finds its game is not at deal n any more
            self.reconcile(plan, index, f"{where}: no phone shows deal {n}")
            ready = [p for p in self.phones if self.current(p, n, where)]
            assert ready, f"{where}: no phone shows deal {n} after the repair"
        boundary = n % 5 == 0
        both = len(ready) == 2 and self.rng.random() < (0.5 if boundary else 0.12)
        if both:
            online = all(p.net.online for p in ready)
            scenario = "same-deal-online" if online else "same-deal-offline"
            if self.allowed(scenario):
                return self.same_deal_twice(ready, deal, where)
        phone = self.rng.choice(ready)
        if phone.net.online and self.allowed("lost-answer") and self.rng.random() < 0.06:
            # Not mixed with a slip: the phone could not know its wrong deal reached the server.
            phone.net.set("lost-answer")
            self.report.network_changes += 1
            return self.save_once(phone, deal, where, n)
        slip = self.rng.random()
        if slip < 0.06 and self.allowed("edit") and deal.contract is not Contract.TRIX:
            self.saved_wrong_then_edited(phone, plan, index, where)
        elif slip < 0.12 and self.allowed("undo"):
            self.saved_wrong_then_undone(phone, plan, index, where)
        else:
            self.save_once(phone, deal, where, n)

    def save_once(self, phone: Phone, deal: Deal, where: str, n: int) -> None:
        mode = phone.net.mode
        board = phone.board()
        landed = self.enter(phone, deal)
        self.log(f"  {where}: {phone.name} ({mode}) saved {deal.contract.value}: {landed}")
        if landed not in ("refused", "no-button"):
            self.look(phone, where)
            return
        # The phone's board showed deal n, and the deal could not be saved: said, then
        # entered again as a table would, on a phone that is online.
        if landed == "refused":
            errors = phone.page.locator(
                '[data-testid="error-summary"], [data-testid="offline-errors"]'
            ).first.inner_text()
            words = " ".join(errors.split())[:200]
            why = f"its save of {deal.contract.value} was refused: {words!r}"
        else:
            why = f"it offered no {deal.contract.value} button to tap"
        self.report.find(
            f"{where}: {phone.name} ({mode}) showed {board['heading']!r} ({board['kingdom']!r},"
            f" offering {board['contracts']}) but {why}"
        )
        phone.open_game()
        for other in self.phones:
            self.weather(other, "ok")
        again = [p for p in self.phones if self.current(p, n, where)]
        if again:
            self.log(f"  {where}: entered again on {again[0].name}")
            self.enter(again[0], deal)

    def look(self, phone: Phone, where: str) -> None:
        if phone.net.mode == "lost-answer":
            phone.net.mode = "dropped"
        if phone.on_its_own():
            with suppress(PlaywrightError):
                phone.page.wait_for_load_state("load")
            if phone.page.url.rstrip("/") == phone.game_url:
                self.compare(phone, where)

    def same_deal_twice(self, phones: list[Phone], deal: Deal, where: str) -> None:
        """Both scorers typed the deal and tap Save at once."""
        self.report.same_deal_saves += 1
        for phone in phones:
            fill(phone.open_form(deal), deal)
        for phone in phones:
            phone.tap_save()
        landed = [self.after_save(phone) for phone in phones]
        self.log(
            f"  {where}: both saved {deal.contract.value}: "
            + ", ".join(f"{p.name} ({p.net.mode}) {a}" for p, a in zip(phones, landed, strict=True))
        )
        for phone, place in zip(phones, landed, strict=True):
            if place == "same-deal":
                self.report.same_deal_asked += 1
                with phone.page.expect_navigation():
                    phone.page.get_by_test_id("discard-mine").click()
            elif place == "refused":
                phone.open_game()
        if all(p.net.online for p in phones) and landed.count("same-deal") != 1:
            self.report.find(
                f"{where}: both phones online saved the same deal; expected one recorded and "
                f'one asked "the same deal?", got {landed}'
            )
        for phone in phones:
            self.look(phone, where)

    def saved_wrong_then_edited(
        self, phone: Phone, plan: Sequence[Deal], index: int, where: str
    ) -> None:
        self.report.edits += 1
        wrong = wrong_version(self.rng, plan, index)
        first = self.enter(phone, wrong)
        self.log(f"  {where}: {phone.name} ({phone.net.mode}) saved it wrong ({first}), edits it")
        if first == "refused":
            phone.open_game()
        self.look(phone, where + " (saved wrong)")
        with phone.page.expect_navigation(timeout=ENGINE_MS):
            phone.page.get_by_test_id("latest-edit").click()
        expect(phone.page.get_by_test_id("deal-form")).to_be_visible()
        phone.page.wait_for_load_state("load")
        fill_correction(Thumb(phone.page), plan[index])
        phone.tap_save()
        landed = self.after_save(phone)
        if landed == "refused":
            self.report.find(f"{where}: {phone.name}'s correction was refused ({phone.page.url})")
            phone.open_game()
        self.look(phone, where + " (corrected)")

    def saved_wrong_then_undone(
        self, phone: Phone, plan: Sequence[Deal], index: int, where: str
    ) -> None:
        self.report.undos += 1
        wrong = wrong_version(self.rng, plan, index)
        first = self.enter(phone, wrong)
        self.log(f"  {where}: {phone.name} ({phone.net.mode}) saved it wrong ({first}), undoes it")
        if first == "refused":
            phone.open_game()
        self.look(phone, where + " (saved wrong)")
        page = phone.page
        expect(page.get_by_test_id("latest")).to_be_visible()
        page.get_by_test_id("latest-undo").click()
        expect(page.get_by_test_id("undo-question")).to_be_visible()
        before = page.url
        page.get_by_test_id("undo-yes").click()
        # Online, the server's page comes back; on the phone, the board is drawn again.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with suppress(PlaywrightError):
                page.wait_for_load_state("load")
                if page.get_by_test_id("undo-question").count() == 0:
                    break
            time.sleep(0.2)
        if page.url.split("?")[0].rstrip("/") != before.split("?")[0].rstrip("/"):
            self.report.find(f"{where}: {phone.name}'s undo left the game page for {page.url}")
            phone.open_game()
        self.look(phone, where + " (undone)")
        self.save_once(phone, plan[index], where, index + 1)

    # --- checks and repairs ---

    def all_synced(self) -> None:
        for phone in self.phones:
            self.weather(phone, "ok")
            if phone.outbox():
                self.synced(phone)

    def count(
        self, plan: Sequence[Deal], meant: int, game_id: str
    ) -> tuple[int, int, int, list[str]]:
        """(lost, twice, wrong, what) of the server's deals against the first ``meant`` of
        ``plan``; ``what`` says which deal numbers."""
        want = [key_of(payload(d)) for d in plan[:meant]]
        have = [key_of(d) for d in self.server_log(game_id)]
        lost = twice = wrong = 0
        what: list[str] = []
        matcher = difflib.SequenceMatcher(a=want, b=have, autojunk=False)
        for op, a1, a2, b1, b2 in matcher.get_opcodes():
            if op in ("delete", "replace"):
                lost += a2 - a1
                what += [
                    f"deal {a + 1} ({plan[a].contract.value}) is missing" for a in range(a1, a2)
                ]
            if op in ("insert", "replace"):
                for b in range(b1, b2):
                    if have[b] in want:
                        twice += 1
                        what.append(
                            f"the server's deal {b + 1} repeats deal {want.index(have[b]) + 1}"
                        )
                    else:
                        wrong += 1
                        what.append(f"the server's deal {b + 1} is none the table played")
        return lost, twice, wrong, what

    def reconcile(self, plan: Sequence[Deal], meant: int, why: str) -> None:
        """The table can no longer go on: count what the server got wrong, then set it
        right through the API (undo back to the last right deal, record the rest)."""
        self.all_synced()
        game_id = self.phones[0].game_id
        lost, twice, wrong, what = self.count(plan, meant, game_id)
        deals = self.server_log(game_id)
        self.report.find(
            f"{why}; the server holds {len(deals)} deals for {meant} meant: lost {lost}, "
            f"twice {twice}, wrong {wrong}: {'; '.join(what)} (repaired through the API to go on)"
        )
        self.report.lost += lost
        self.report.twice += twice
        self.report.wrong += wrong
        want = [key_of(payload(d)) for d in plan[:meant]]
        good = 0
        while good < min(len(deals), meant) and key_of(deals[good]) == want[good]:
            good += 1
        token = self.token
        for _ in range(len(deals) - good):
            version = self.api("GET", f"/api/v1/games/{game_id}", "")["version"]
            path = f"/api/v1/games/{game_id}/deals/last"
            self.api("DELETE", path, token, None, **{"If-Match": f'"{version}"'})
        for deal in plan[good:meant]:
            self.api("POST", f"/api/v1/games/{game_id}/deals", token, payload(deal))
        for phone in self.phones:
            phone.open_game()

    token: str = ""

    def play_game(self, number: int, deals: int) -> None:
        """One whole game: the first ``DEALS_PER_GAME - deals`` through the API (the table's
        earlier deals), the last ``deals`` on the phones."""
        plan = plan_game(self.rng)
        game_id, token, _ = Client(self.port).new_game(first_king=0)
        self.token = token
        start = DEALS_PER_GAME - deals
        for deal in plan[:start]:
            self.api("POST", f"/api/v1/games/{game_id}/deals", token, payload(deal))
        for phone in self.phones:
            phone.net.set("ok")
            join_game(phone.page, self.base, game_id, token)
            phone.game_url = f"{self.base}/games/{game_id}"
            phone.game_id = game_id
            keep_on_phone(phone.page)
        if self.allowed("offline"):  # every game sees a phone offline, however short
            self.weather(self.rng.choice(self.phones), "offline")
        for index in range(start, DEALS_PER_GAME):
            self.play_deal(plan, index, f"game {number} deal {index + 1}")
        self.all_synced()
        lost, twice, wrong, what = self.count(plan, DEALS_PER_GAME, game_id)
        self.report.games += 1
        self.report.meant += deals
        recorded = len(self.server_log(game_id)) - start
        self.report.recorded += recorded
        self.report.lost += lost
        self.report.twice += twice
        self.report.wrong += wrong
        if lost or twice or wrong:
            self.report.find(
                f"game {number} ended with lost {lost}, twice {twice}, wrong {wrong}: "
                + "; ".join(what)
            )
        self.log(f"game {number}: {recorded} deals recorded of {deals} played")


def run_soak(
    browser: Browser,
    base: str,
    seed: int,
    games: int = 1,
    deals: int = DEALS_PER_GAME,
    exclude: Sequence[str] = (),
    log: Callable[[str], None] = print,
) -> Report:
    """Play ``games`` games, the last ``deals`` deals of each on two phones; the report."""
    unknown = set(exclude) - set(SCENARIOS)
    if unknown:
        raise ValueError(f"unknown scenarios {sorted(unknown)}; known: {', '.join(SCENARIOS)}")
    report = Report(seed, excluded=tuple(sorted(exclude)))
    started = time.monotonic()
    port = int(base.rsplit(":", 1)[1])
    soak = Soak(browser, base, random.Random(seed), report, frozenset(exclude), log=log)
    soak.port = port
    viewers = {lang: browser.new_context(**PHONE) for lang in LANGS}  # type: ignore[arg-type]
    try:
        with (
            new_phone(browser, base, "phone A", LANGS[0]) as a,
            new_phone(browser, base, "phone B", LANGS[1]) as b,
        ):
            soak.phones = [a, b]
            soak.shadow = Shadow(port, viewers, base)
            for number in range(1, games + 1):
                soak.play_game(number, deals)
    finally:
        for viewer in viewers.values():
            close_context(viewer)
        report.seconds = time.monotonic() - started
    return report
