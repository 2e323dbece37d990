"""A whole 20-deal game entered on a phone, tap by tap, in Debian's Chromium.

The phone (390×844, touch; see conftest.py) starts a game on the new-game
page, then enters every deal through the contract buttons and each
contract's form, as a player at the table would: it taps the radios, types
the diamond and trick counts (letting the last box fill itself) and taps the
Trix players in finishing order. On the way it types diamonds that add up
to 12, sees Save wait with the reason, fixes them; later it corrects
deal 3 and checks the totals move by exactly the difference. After every
deal the page's totals must equal the engine's own scores of what was
entered (``score_deal``), and no page may be wider than the screen.

Screenshots of every kind of page go to artifacts/screenshots/.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import score_deal
from tests.common import NAMES, C, D, K, Q, T

pytestmark = pytest.mark.browser

FIRST_KING = 1  # Sami holds the 7♥: kings are Sami, Omar, Lina, Rana (R2, to the right)
QUEEN_KEYS = ("qs", "qh", "qd", "qc")
WIDTH = 390
Shoot = Callable[[str], Path]


@dataclass(frozen=True)
class Deal:
    contract: Contract
    captures: Captures
    stepper: bool = False
    """Counts: enter the first player's count with the + button instead of typing."""


def P(taker: int, doubled_by: int | None = None) -> Capture:  # noqa: N802  (reads like a card)
    return Capture(taker, doubled_by)


DEALS = [
    # Kingdom 1: Sami is king.
    Deal(K, Captures(king_of_hearts=P(2, 1))),  # Sami doubles, Omar takes it: −150 / +75
    Deal(Q, Captures(queens=(P(0, 3), P(1), P(1, 1), P(3)))),  # Q♦ doubled by its own taker
    Deal(D, Captures(diamonds=(3, 4, 5, 1))),  # first sent as 3+4+5+0 = 12; corrected later
    Deal(C, Captures(tricks=(1, 2, 4, 6))),
    Deal(T, Captures(trix_order=(2, 0, 3, 1))),
    # Kingdom 2: Omar.
    Deal(T, Captures(trix_order=(0, 1, 2, 3))),
    Deal(C, Captures(tricks=(4, 3, 3, 3)), stepper=True),
    Deal(D, Captures(diamonds=(0, 6, 2, 5))),
    Deal(Q, Captures(queens=(P(2), P(3, 0), P(0), P(2, 2)))),
    Deal(K, Captures(king_of_hearts=P(0))),
    # Kingdom 3: Lina.
    Deal(Q, Captures(queens=(P(1), P(1), P(2), P(3, 2)))),
    Deal(K, Captures(king_of_hearts=P(3, 3))),  # doubled and taken by its holder: −75
    Deal(T, Captures(trix_order=(1, 3, 0, 2))),
    Deal(D, Captures(diamonds=(2, 2, 7, 2))),
    Deal(C, Captures(tricks=(0, 5, 5, 3))),
    # Kingdom 4: Rana.
    Deal(C, Captures(tricks=(3, 3, 3, 4)), stepper=True),
    Deal(T, Captures(trix_order=(3, 2, 1, 0))),
    Deal(K, Captures(king_of_hearts=P(1, 0))),
    Deal(Q, Captures(queens=(P(3), P(0), P(1, 3), P(2)))),
    Deal(D, Captures(diamonds=(1, 3, 4, 5))),
]
BAD_DIAMONDS = (3, 4, 5, 0)  # deal 3 as first sent: 12 diamonds
EDITED_DEAL_3 = Deal(D, Captures(diamonds=(5, 4, 3, 1)))  # the correction, after deal 10
EDIT_AFTER = 10


def scores(deal: Deal) -> tuple[int, int, int, int]:
    return score_deal(RuleSet(), [deal.contract], deal.captures, NAMES)


def totals(deals: Sequence[Deal]) -> list[int]:
    out = [0, 0, 0, 0]
    for deal in deals:
        out = [a + b for a, b in zip(out, scores(deal), strict=True)]
    return out


def diamonds_of(deal: Deal) -> tuple[int, int, int, int]:
    assert deal.captures.diamonds is not None
    return deal.captures.diamonds


def shown(value: int) -> str:
    """A score as the pages show it, with a real minus sign."""
    return str(value).replace("-", "−")


# --- a player's gestures -------------------------------------------------------------------


def tap_and_load(page: Page, target: Locator) -> None:
    """Tap something that loads a new page, and wait for it."""
    with page.expect_navigation():
        target.tap()


def tap_choice(page: Page, input_id: str) -> None:
    """Tap the big label around radio ``input_id``, as a thumb would."""
    page.locator(f"label:has(> #{input_id})").tap()
    expect(page.locator(f"#{input_id}")).to_be_checked()


def tap_preset(page: Page, name: str) -> None:
    page.locator(f"label:has(> [data-testid=preset-{name}])").tap()
    expect(page.get_by_test_id(f"preset-{name}")).to_be_checked()


def type_count(page: Page, input_id: str, value: int) -> None:
    """Tap a number box (its text is selected on focus) and type over it."""
    page.locator(f"#{input_id}").tap()
    page.keyboard.type(str(value))


def assert_fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, f"{page.url} is {width}px wide on a {WIDTH}px screen"


def assert_totals(page: Page, expected: Sequence[int]) -> None:
    for seat, value in enumerate(expected):
        expect(page.get_by_test_id(f"total-{seat}").locator(".total-score")).to_have_text(
            shown(value)
        )


# --- the forms -------------------------------------------------------------------------


def fill_card(page: Page, key: str, capture: Capture) -> None:
    """Tap the taker's cell on the card's line; a doubled card: its toggle, then its holder."""
    expect(page.locator(f"#{key}_doubled")).not_to_be_checked()  # the default
    tap_choice(page, f"{key}_taker-{capture.taker}")
    if capture.doubled_by is not None:
        page.locator(f"label:has(> #{key}_doubled)").tap()
        tap_choice(page, f"{key}_doubled_by-{capture.doubled_by}")


def fill_king(page: Page, caps: Captures) -> None:
    assert caps.king_of_hearts is not None
    fill_card(page, "kh", caps.king_of_hearts)


def fill_queens(page: Page, caps: Captures) -> None:
    assert caps.queens is not None
    for key, queen in zip(QUEEN_KEYS, caps.queens, strict=True):
        fill_card(page, key, queen)


def fill_counts(page: Page, name: str, counts: Sequence[int], stepper: bool = False) -> None:
    """Enter three counts; the fourth box fills itself (app.js), and the sum reads 13 of 13."""
    sum_line = page.get_by_test_id(f"{'diamonds' if name == 'diamonds' else 'tricks'}-sum")
    for seat in range(3):
        if stepper and seat == 0:
            plus = page.locator(f"#{name}-0 ~ button.step[data-step='1']")
            for _ in range(counts[0]):
                plus.tap()
            expect(page.locator(f"#{name}-0")).to_have_value(str(counts[0]))
        else:
            type_count(page, f"{name}-{seat}", counts[seat])
    expect(page.locator(f"#{name}-3")).to_have_value(str(counts[3]))
    expect(sum_line).to_have_text("13 of 13")
    expect(sum_line).to_have_class("sum ok")


def fill_trix(page: Page, caps: Captures, mistap: bool = False) -> None:
    """Tap the first three players out; the last select fills itself."""
    order = caps.trix_order
    assert order is not None
    if mistap:  # a wrong first tap, taken back with "Undo last tap"
        wrong = next(seat for seat in range(4) if seat != order[0])
        page.get_by_test_id(f"trix-tap-{wrong}").tap()
        expect(page.locator("#trix-0")).to_have_value(str(wrong))
        page.get_by_test_id("trix-undo").tap()
        expect(page.locator("#trix-0")).to_have_value("")
    for seat in order[:3]:
        page.get_by_test_id(f"trix-tap-{seat}").tap()
    for place, seat in enumerate(order):
        expect(page.locator(f"#trix-{place}")).to_have_value(str(seat))
        expect(page.get_by_test_id(f"trix-tap-{seat}").locator(".place")).to_have_text(
            str(place + 1)
        )


def fill(page: Page, deal: Deal, n: int) -> None:
    caps = deal.captures
    if deal.contract is K:
        fill_king(page, caps)
    elif deal.contract is Q:
        fill_queens(page, caps)
    elif deal.contract is D:
        assert caps.diamonds is not None
        fill_counts(page, "diamonds", caps.diamonds, deal.stepper)
    elif deal.contract is C:
        assert caps.tricks is not None
        fill_counts(page, "tricks", caps.tricks, deal.stepper)
    else:
        fill_trix(page, caps, mistap=n == 6)


def save(page: Page, flash: str) -> None:
    tap_and_load(page, page.get_by_test_id("save-deal"))
    expect(page.get_by_test_id("flash")).to_contain_text(flash)


# --- the steps of the game -------------------------------------------------------------------


def start_game(page: Page, base: str, shoot: Shoot) -> None:
    page.goto(base + "/")
    expect(page.get_by_test_id("games-in-progress")).to_contain_text("No game in progress")
    assert_fits(page)
    shoot("01-home-empty")
    tap_and_load(page, page.get_by_test_id("new-game"))
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").tap()
        page.keyboard.type(name)
    # The 7♥ question names the players as they are typed (app.js).
    expect(page.locator(f"label:has(> #first_king-{FIRST_KING})")).to_contain_text(
        NAMES[FIRST_KING]
    )
    tap_choice(page, f"first_king-{FIRST_KING}")
    # A preset fills in the switches; go back to Standard (doubling on).
    tap_preset(page, "no_doubling")
    expect(page.get_by_test_id("rule-doubling")).to_have_value("off")
    tap_preset(page, "standard")
    expect(page.get_by_test_id("rule-doubling")).to_have_value("on")
    assert_fits(page)
    shoot("02-new-game")
    tap_and_load(page, page.get_by_test_id("start-game"))
    expect(page.get_by_test_id("flash")).to_contain_text("The game has started")
    expect(page.get_by_test_id("no-deals")).to_be_visible()
    assert_totals(page, [0, 0, 0, 0])


def king_of(n: int) -> int:
    return (FIRST_KING + (n - 1) // 5) % 4


def record(page: Page, n: int, deal: Deal, played: Sequence[Deal], shoot: Shoot) -> None:
    """On the game page: tap the contract, fill its form, save; deal ``n`` is shown."""
    kingdom = [d.contract for d in DEALS[(n - 1) // 5 * 5 : n - 1]]
    remaining = [c for c in Contract if c not in kingdom]
    expect(page.get_by_test_id("game-status")).to_have_text(f"Deal {n} of 20")
    expect(page.get_by_test_id("turn")).to_contain_text(f"{NAMES[king_of(n)]} is king and deals")
    buttons = page.get_by_test_id("choose-contract").locator("a.contract-button")
    expect(buttons).to_have_count(len(remaining))
    for contract in remaining:
        expect(page.get_by_test_id(f"contract-{contract.value}")).to_be_visible()
    tap_and_load(page, page.get_by_test_id(f"contract-{deal.contract.value}"))
    expect(page.get_by_test_id("deal-title")).to_contain_text(f"Deal {n}:")
    first_of_its_kind = deal.contract not in [d.contract for d in played]
    if n == 3:
        enter_wrong_diamonds_then_fix(page, shoot)
    else:
        fill(page, deal, n)
        if first_of_its_kind:
            assert_fits(page)
            shoot(f"04-form-{deal.contract.value}")
        save(page, f"Deal {n} recorded")
    # Saved: the page opens where the next action is, on the first screen.
    expect(page.get_by_test_id("flash")).to_be_in_viewport()
    if n < 20:
        expect(page.get_by_test_id("choose-contract")).to_be_in_viewport()
    expect(page.get_by_test_id(f"deal-{n}")).to_be_attached()
    assert_totals(page, totals([*played, deal]))
    assert_fits(page)


def enter_wrong_diamonds_then_fix(page: Page, shoot: Shoot) -> None:
    """Diamonds adding up to 12: the error sits next to the counts, the values are kept."""
    fill_counts(page, "diamonds", diamonds_of(DEALS[2]))
    type_count(page, "diamonds-3", BAD_DIAMONDS[3])  # a slip of the thumb
    sum_line = page.get_by_test_id("diamonds-sum")
    expect(sum_line).to_have_text("12 of 13")
    expect(sum_line).to_have_class("sum bad")
    assert_fits(page)
    shoot("04-form-diamonds")
    # Save waits for 13, saying why (the server refuses 12 too: tests/web/deals).
    expect(page.get_by_test_id("save-deal")).to_be_disabled()
    expect(page.get_by_test_id("save-reason")).to_have_text("The diamonds add up to 12, not 13.")
    for seat, count in enumerate(BAD_DIAMONDS):
        expect(page.locator(f"#diamonds-{seat}")).to_have_value(str(count))
    shoot("05-error-diamonds")
    type_count(page, "diamonds-3", 1)
    expect(sum_line).to_have_text("13 of 13")
    save(page, "Deal 3 recorded")


def correct_deal_3(page: Page, played: list[Deal], shoot: Shoot) -> None:
    """Open deal 3 from the sheet, correct it, and check every total moved by the difference."""
    before = totals(played)
    tap_and_load(page, page.get_by_test_id("deal-3").locator("td.n a"))
    expect(page.get_by_test_id("deal-title")).to_contain_text("Deal 3: ")
    expect(page.get_by_test_id("revisions")).to_contain_text("Recorded")
    tap_and_load(page, page.get_by_test_id("edit-deal"))
    expect(page.get_by_test_id("deal-title")).to_contain_text("Correct deal 3")
    expect(page.locator("main")).to_contain_text(f"{NAMES[king_of(3)]} was king and dealt.")
    old = diamonds_of(played[2])
    for seat, count in enumerate(old):  # the recorded counts are filled in
        expect(page.locator(f"#diamonds-{seat}")).to_have_value(str(count))
    new = diamonds_of(EDITED_DEAL_3)
    for seat in (0, 2):
        type_count(page, f"diamonds-{seat}", new[seat])
    expect(page.get_by_test_id("diamonds-sum")).to_have_text("13 of 13")
    assert_fits(page)
    shoot("07-edit-deal-3")
    save(page, "Deal 3 corrected")
    played[2] = EDITED_DEAL_3
    after = totals(played)
    difference = [a - b for a, b in zip(scores(EDITED_DEAL_3), scores(DEALS[2]), strict=True)]
    assert [a - b for a, b in zip(after, before, strict=True)] == difference != [0, 0, 0, 0]
    assert_totals(page, after)
    row = page.get_by_test_id("deal-3").locator("td.num")
    expect(row).to_have_text([shown(s) for s in scores(EDITED_DEAL_3)])
    # The deal's page now shows both versions.
    tap_and_load(page, page.get_by_test_id("deal-3").locator("td.n a"))
    expect(page.get_by_test_id("revision-0")).to_contain_text("Recorded")
    expect(page.get_by_test_id("revision-1")).to_contain_text("Corrected")
    expect(page.get_by_test_id("revision-1")).to_contain_text(f"Rana {new[0]}")
    assert_fits(page)
    shoot("08-deal-3-revisions")
    tap_and_load(page, page.get_by_test_id("back-to-game"))
    assert_totals(page, after)


def check_end(page: Page, played: Sequence[Deal], base: str, shoot: Shoot) -> None:
    final = totals(played)
    assert sum(final) == 0  # standard rules are zero-sum (R11)
    best = max(final)
    assert final.count(best) == 1, "the game data must not end in a tie"
    winner = NAMES[final.index(best)]
    expect(page.get_by_test_id("game-status")).to_have_text("Game over")
    assert_totals(page, final)
    expect(page.get_by_test_id("winner")).to_contain_text(f"{winner} wins.")
    expect(page.get_by_test_id("standing-0")).to_contain_text(winner)
    expect(page.get_by_test_id("standing-0")).to_contain_text(shown(best))
    grand = page.get_by_test_id("grand-total").locator("td")
    expect(grand).to_have_text([shown(t) for t in final])
    for kingdom in range(1, 5):
        expect(page.get_by_test_id(f"kingdom-{kingdom}-total")).to_contain_text("✓ 0")
    expect(page.get_by_test_id("choose-contract")).to_have_count(0)
    assert_fits(page)
    shoot("09-game-over")
    page.goto(base + "/")
    expect(page.get_by_test_id("games-finished")).to_contain_text(f"Winner: {winner}")
    assert_fits(page)
    shoot("10-home-finished")


def test_full_game_on_a_phone(live_server: str, phone: Page, shoot: Shoot) -> None:
    page = phone
    start_game(page, live_server, shoot)
    shoot("03-game-start")
    played: list[Deal] = []
    for n, deal in enumerate(DEALS, start=1):
        record(page, n, deal, played, shoot)
        played.append(deal)
        if n == EDIT_AFTER:
            shoot("06-game-mid")
            correct_deal_3(page, played, shoot)
    check_end(page, played, live_server, shoot)
