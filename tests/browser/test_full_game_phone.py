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
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from tests.browser.phone import (
    Deal,
    P,
    Thumb,
    assert_fits,
    assert_totals,
    engine_scores,
    engine_totals,
    fill,
    fill_counts,
    save,
    shown,
    tap_and_load,
    tap_choice,
    tap_preset,
    type_count,
)
from tests.common import NAMES, C, D, K, Q, T

pytestmark = pytest.mark.browser

FIRST_KING = 1  # Sami holds the 7♥: kings are Sami, Omar, Lina, Rana (R2, to the right)
Shoot = Callable[[str], Path]


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


def diamonds_of(deal: Deal) -> tuple[int, int, int, int]:
    assert deal.captures.diamonds is not None
    return deal.captures.diamonds


def mistap_trix(thumb: Thumb, right: int) -> None:
    """A wrong first tap on the Trix order, taken back with "Undo last tap"."""
    page = thumb.page
    wrong = next(seat for seat in range(4) if seat != right)
    thumb.tap(page.get_by_test_id(f"trix-tap-{wrong}"))
    expect(page.locator("#trix-0")).to_have_value(str(wrong))
    thumb.tap(page.get_by_test_id("trix-undo"))
    expect(page.locator("#trix-0")).to_have_value("")


def fill_checked(thumb: Thumb, deal: Deal, n: int) -> None:
    """Fill in the new form (no card doubled yet); counts end on "13 of 13"."""
    page = thumb.page
    expect(page.locator("input[type=checkbox][id$=_doubled]:checked")).to_have_count(0)
    if deal.contract is T and n == 6:
        assert deal.captures.trix_order is not None
        mistap_trix(thumb, deal.captures.trix_order[0])
    fill(thumb, deal)
    if deal.contract in (D, C):
        sum_line = page.get_by_test_id(f"{'diamonds' if deal.contract is D else 'tricks'}-sum")
        expect(sum_line).to_have_text("13 of 13")


# --- the steps of the game -------------------------------------------------------------------


def start_game(page: Page, base: str, shoot: Shoot) -> None:
    page.goto(base + "/")
    expect(page.get_by_test_id("games-in-progress")).to_contain_text("No game in progress")
    assert_fits(page)
    shoot("01-home-empty")
    tap_and_load(page, page.get_by_test_id("new-game"))
    thumb = Thumb(page)
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"player-{seat}").tap()
        page.keyboard.type(name)
    # The 7♥ question names the players as they are typed (app.js).
    expect(page.locator(f"label:has(> #first_king-{FIRST_KING})")).to_contain_text(
        NAMES[FIRST_KING]
    )
    tap_choice(thumb, f"first_king-{FIRST_KING}")
    # A preset fills in the switches; go back to Standard (doubling on).
    tap_preset(thumb, "no_doubling")
    expect(page.get_by_test_id("rule-doubling")).to_have_value("off")
    tap_preset(thumb, "standard")
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
    thumb = Thumb(page)
    thumb.tap(page.get_by_test_id(f"contract-{deal.contract.value}"), loads=True)
    expect(page.get_by_test_id("deal-title")).to_contain_text(f"Deal {n}:")
    first_of_its_kind = deal.contract not in [d.contract for d in played]
    if n == 3:
        enter_wrong_diamonds_then_fix(thumb, shoot)
    else:
        fill_checked(thumb, deal, n)
        if first_of_its_kind:
            assert_fits(page)
            shoot(f"04-form-{deal.contract.value}")
        save(thumb, f"Deal {n} recorded")
    # Saved: the page opens where the next action is, on the first screen.
    expect(page.get_by_test_id("flash")).to_be_in_viewport()
    if n < 20:
        expect(page.get_by_test_id("choose-contract")).to_be_in_viewport()
    expect(page.get_by_test_id(f"deal-{n}")).to_be_attached()
    assert_totals(page, engine_totals([*played, deal]))
    assert_fits(page)


def enter_wrong_diamonds_then_fix(thumb: Thumb, shoot: Shoot) -> None:
    """Diamonds adding up to 12: the error sits next to the counts, the values are kept."""
    page = thumb.page
    fill_counts(thumb, "diamonds", diamonds_of(DEALS[2]))
    type_count(thumb, "diamonds-3", BAD_DIAMONDS[3])  # a slip of the thumb
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
    type_count(thumb, "diamonds-3", 1)
    expect(sum_line).to_have_text("13 of 13")
    save(thumb, "Deal 3 recorded")


def correct_deal_3(page: Page, played: list[Deal], shoot: Shoot) -> None:
    """Open deal 3 from the sheet, correct it, and check every total moved by the difference."""
    thumb = Thumb(page)
    before = engine_totals(played)
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
        type_count(thumb, f"diamonds-{seat}", new[seat])
    expect(page.get_by_test_id("diamonds-sum")).to_have_text("13 of 13")
    assert_fits(page)
    shoot("07-edit-deal-3")
    save(thumb, "Deal 3 corrected")
    played[2] = EDITED_DEAL_3
    after = engine_totals(played)
    difference = [
        a - b for a, b in zip(engine_scores(EDITED_DEAL_3), engine_scores(DEALS[2]), strict=True)
    ]
    assert [a - b for a, b in zip(after, before, strict=True)] == difference != [0, 0, 0, 0]
    assert_totals(page, after)
    row = page.get_by_test_id("deal-3").locator("td.num")
    expect(row).to_have_text([shown(s) for s in engine_scores(EDITED_DEAL_3)])
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
    final = engine_totals(played)
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
