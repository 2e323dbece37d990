"""The dispute desk's pages: card-by-card checks, redeal checks, claims.

Forms are sent as a phone without JavaScript sends them: the cards typed
into text boxes (``KH 10D 2C``, one line per trick). Expected rulings and
scores come from the engine's own API check (``check_play``), built here
independently of the pages; the pages must show the same, with names.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.rules.cards import ALL_CARDS, Card, cards_of
from scorekeeper.rules.checks import check_play
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import deal_hands, random_deal, random_revoke_deal, random_trix
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trix import first_player, frontier
from scorekeeper.store import games as services
from tests.web.pages import new_game

NAMES = ["Rana", "Sami", "Omar", "Lina"]
NAMES_DEFAULT = ["Player 1", "Player 2", "Player 3", "Player 4"]
KING_ONLY_HEART = "KH AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"
TWO_HEARTS = "KH QH AS KS QS JS TS 9S 8S 7S 6S 5S 4S"

# --- helpers ---------------------------------------------------------------------------------


def html(response: TestResponse) -> str:
    """The page as text is read: without <bdi> and the bidi isolates."""
    text = re.sub(r"</?bdi[^>]*>", "", response.get_data(as_text=True))
    return re.sub("[\u2066-\u2069]", "", text)


def text_of(page: str, testid: str) -> str:
    """The visible text of the element with ``data-testid=testid`` (tags dropped)."""
    match = re.search(
        rf'data-testid="{re.escape(testid)}"[^>]*>(.*?)</(dd|p|h2|td|section|ol|li)>', page, re.S
    )
    assert match, testid
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


def errors_at(page: str, name: str) -> str:
    match = re.search(rf'data-testid="errors-{re.escape(name)}">(.*?)</ul>', page, re.S)
    return unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip() if match else ""


def cards(mask_or_indices: int | Sequence[int]) -> str:
    if isinstance(mask_or_indices, int):
        return " ".join(str(c) for c in cards_of(mask_or_indices))
    return " ".join(str(ALL_CARDS[i]) for i in mask_or_indices)


def record_form(
    contract: str, hands: Sequence[int] | None, tricks: Sequence[Sequence[int]], **extra: str
) -> dict[str, str]:
    """A typed card-by-card check: ``hands`` as bit sets (None: left out), tricks as indices."""
    form = {"contract": contract, "check": "1", **extra}
    form["tricks"] = "\n".join(cards(trick) for trick in tricks)
    for seat, hand in enumerate(hands or []):
        form[f"hands-{seat}"] = cards(hand)
    return form


def api_answer(
    contract: str, king: int, hands: Sequence[int] | None, tricks: Any, **rules: Any
) -> dict[str, Any]:
    """The engine's own check of the same record (API.md check/play), with the names."""
    body: dict[str, Any] = {"rules": rules, "contracts": [contract], "king": king, "names": NAMES}
    body["tricks"] = [[str(ALL_CARDS[i]) for i in trick] for trick in tricks]
    if hands is not None:
        body["hands"] = {str(s): [str(c) for c in cards_of(h)] for s, h in enumerate(hands)}
    return check_play(body)


def scores_shown(page: str) -> list[str]:
    return [text_of(page, f"check-scores-{seat}") for seat in range(4)]


def shown(value: int) -> str:
    return str(value).replace("-", "−")


def hidden_fields(page: str, testid: str) -> MultiDict[str, str]:
    """The hidden inputs of the form ``testid`` (repeated names kept), as a browser sends them."""
    match = re.search(rf'<form[^>]*data-testid="{testid}"[^>]*>(.*?)</form>', page, re.S)
    assert match, testid
    found = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', match.group(1))
    return MultiDict([(name, unescape(value)) for name, value in found])


@pytest.fixture
def game(client: FlaskClient) -> str:
    return new_game(client)


@pytest.fixture
def visitor(app: Flask) -> FlaskClient:
    """Another phone: it follows the game without its edit link."""
    return app.test_client()


REVOKE_SEED = 5


def revoke_deal(king: int = 0) -> tuple[list[int], list[list[int]], tuple[int, int, int]]:
    """A Collections deal with exactly one revoke, after the third trick."""
    return random_revoke_deal(
        random.Random(REVOKE_SEED), RuleSet(), [Contract.COLLECTIONS], king, after=12
    )


# --- every page renders ----------------------------------------------------------------------


def test_every_dispute_page_renders_with_and_without_a_game(
    client: FlaskClient, game: str, visitor: FlaskClient
) -> None:
    hands, tricks = random_deal(random.Random(1), RuleSet(), [Contract.KING], 0)
    form = record_form("king", hands, tricks, king="0")
    assert (
        client.post(
            f"/games/{game}/deals/new?contracts=king",
            data={
                "version": str(services.load_game(game).version),
                "kh_taker": "1",
                "kh_doubled_by": "",
            },
        ).status_code
        == 302
    )
    paths = [
        "/disputes",
        "/disputes/play",
        "/disputes/redeal",
        "/disputes/claim",
        f"/games/{game}/disputes",
        f"/games/{game}/check",
        f"/games/{game}/deals/1/check",
        f"/games/{game}/redeal-check",
        f"/games/{game}/claim",
    ]
    for who in (client, visitor):
        for path in paths:
            response = who.get(path)
            assert response.status_code == 200, path
            page = html(response)
            assert 'name="viewport"' in page and 'data-testid="page-title"' in page, path
            assert "style=" not in page and "onclick" not in page, path  # CSP: no inline
    assert client.get("/disputes/play", query_string=form).status_code == 200
    page = html(client.get(f"/games/{game}"))
    assert f'href="/games/{game}/disputes"' in page
    page = html(client.get(f"/games/{game}/deals/1"))
    assert f'href="/games/{game}/deals/1/check"' in page and "Check this deal card by card" in page
    assert 'href="/disputes"' in html(client.get("/"))  # in the nav of every page


def test_the_index_links_the_three_tools(client: FlaskClient, game: str) -> None:
    page = html(client.get("/disputes"))
    for testid, href in [
        ("link-play", "/disputes/play"),
        ("link-redeal", "/disputes/redeal"),
        ("link-claim", "/disputes/claim"),
    ]:
        assert f'href="{href}" data-testid="{testid}"' in page
    page = html(client.get(f"/games/{game}/disputes"))
    for href in ("check", "redeal-check", "claim"):
        assert f'href="/games/{game}/{href}"' in page


def test_unknown_game_or_deal_is_a_404(client: FlaskClient, game: str) -> None:
    for path in (
        "/games/nope/check",
        "/games/nope/claim",
        f"/games/{game}/deals/4/check",
        "/games/nope/redeal-check",
        "/games/nope/disputes",
    ):
        assert client.get(path).status_code == 404, path


# --- card-by-card checks, typed --------------------------------------------------------------


@pytest.mark.parametrize("contract", ["king", "queens", "diamonds", "collections"])
def test_a_legal_deal_is_legal_and_scored(client: FlaskClient, contract: str) -> None:
    hands, tricks = random_deal(random.Random(3), RuleSet(), [Contract(contract)], 2)
    response = client.get(
        "/disputes/play", query_string=record_form(contract, hands, tricks, king="2")
    )
    assert response.status_code == 200
    page = html(response)
    assert text_of(page, "verdict-headline") == "Legal: no rule was broken."
    assert "All 13 tricks were played legally" in text_of(page, "ruling")
    expected = api_answer(contract, 2, hands, tricks)
    assert expected["legal"] is True
    assert scores_shown(page) == [shown(s) for s in expected["scores"]]
    assert 'data-testid="first-violation"' not in page
    assert 'data-testid="trick-13"' in page


@pytest.mark.parametrize(
    ("revoke", "ruling"),
    [
        (
            "remaining",
            "{who} revoked on trick {t}; under the standard penalty (R10), {who} takes "
            "every trick from trick {t} on.",
        ),
        (
            "whole",
            "{who} revoked on trick {t}; under the house rule (R10), the deal is scored as if "
            "{who} had taken all 13 tricks: {who} is charged the whole contract, the others "
            "score nothing for captures, and a doubling bonus still goes to the card's holder.",
        ),
    ],
)
def test_r10_a_revoke_is_found_and_ruled(
    client: FlaskClient, game: str, revoke: str, ruling: str
) -> None:
    hands, tricks, (trick, seat, card) = revoke_deal()
    form = record_form("collections", hands, tricks, game=game, king="0", revoke=revoke)
    response = client.get("/disputes/play", query_string=form)
    assert response.status_code == 200
    page = html(response)
    who = NAMES[seat]
    assert text_of(page, "verdict-headline") == f"Not legal: {who} revoked on trick {trick}."
    assert text_of(page, "first-number") == str(trick)
    assert text_of(page, "first-player") == who
    assert text_of(page, "first-card") == ALL_CARDS[card].pretty
    assert text_of(page, "first-rule").startswith("R10")
    assert "must follow suit" in text_of(page, "first-sentence")
    assert unescape(text_of(page, "ruling")) == "Ruling: " + ruling.format(who=who, t=trick)
    expected = api_answer("collections", 0, hands, tricks, revoke=revoke)
    assert expected["violations"][0]["trick"] == trick and expected["violations"][0]["seat"] == seat
    assert scores_shown(page) == [shown(s) for s in expected["scores"]]
    if revoke == "whole":
        assert scores_shown(page) == [shown(-195 if s == seat else 0) for s in range(4)]
    assert 'class="revoke' in page  # the offending card is marked in the trick table


def test_hands_can_be_left_out_when_every_card_was_played(client: FlaskClient) -> None:
    hands, tricks, (trick, seat, _) = revoke_deal()
    with_hands = html(
        client.get(
            "/disputes/play", query_string=record_form("collections", hands, tricks, king="0")
        )
    )
    without = html(
        client.get(
            "/disputes/play", query_string=record_form("collections", None, tricks, king="0")
        )
    )
    for testid in ("verdict-headline", "first-player", "first-card", "ruling", "first-sentence"):
        assert text_of(without, testid) == text_of(with_hands, testid)
    assert scores_shown(without) == scores_shown(with_hands)


def test_three_hands_give_the_fourth(client: FlaskClient) -> None:
    hands, tricks = random_deal(random.Random(4), RuleSet(), [Contract.DIAMONDS], 0)
    form = record_form("diamonds", hands, tricks, king="0")
    del form["hands-3"]
    response = client.get("/disputes/play", query_string=form)
    assert response.status_code == 200
    assert text_of(html(response), "verdict-headline") == "Legal: no rule was broken."


def test_an_unfinished_deal_is_legal_so_far_without_scores(client: FlaskClient) -> None:
    hands, tricks = random_deal(random.Random(4), RuleSet(), [Contract.KING], 1)
    form = record_form("king", hands, tricks[:5], king="1")
    page = html(client.get("/disputes/play", query_string=form))
    assert text_of(page, "verdict-headline") == "No rule broken so far; the deal is not finished."
    assert "5 of 13 tricks are complete" in text_of(page, "ruling")
    assert 'data-testid="no-scores"' in page


def test_a_card_typed_in_the_wrong_seat_names_who_held_it(client: FlaskClient) -> None:
    hands, tricks = random_deal(random.Random(6), RuleSet(), [Contract.KING], 0)
    tricks[2] = [tricks[2][1], tricks[2][0], *tricks[2][2:]]  # two cards swapped
    form = record_form("king", hands, tricks, game="", king="0")
    response = client.get("/disputes/play", query_string=form)
    assert response.status_code == 422
    message = errors_at(html(response), "tricks")
    assert message.startswith("Trick 3: Player") and "held it" in message


def _trix_with_a_pass(
    rng: random.Random, rules: RuleSet, king: int, after: int
) -> tuple[list[int], list[Card | None], int, int]:
    """A whole Trix deal where, once, a player passes although he could lay a card."""
    hands = deal_hands(rng)
    held, seat, played, out, plays = list(hands), first_player(rules, king), 0, 0, []
    offence: tuple[int, int] | None = None
    while out < 3:
        legal = frontier(played) & held[seat]
        if legal and offence is None and len(plays) >= after:
            plays.append(None)
            offence = (len(plays), seat)
        elif legal:
            card = ALL_CARDS[rng.choice([i for i in range(52) if legal >> i & 1])]
            plays.append(card)
            played |= card.bit
            held[seat] &= ~card.bit
            out += not held[seat]
        else:
            plays.append(None)
        seat = (seat + 1) % 4
        while not held[seat]:
            seat = (seat + 1) % 4
    assert offence is not None
    return hands, plays, offence[0], offence[1]


@pytest.mark.parametrize("trix_revoke", ["flag", "last"])
def test_r7_a_trix_pass_with_a_playable_card_is_found(
    client: FlaskClient, game: str, trix_revoke: str
) -> None:
    rules = RuleSet.from_dict({"trix_revoke": trix_revoke})
    hands, plays, turn, seat = _trix_with_a_pass(random.Random(8), rules, 1, after=6)
    form = {
        "contract": "trix",
        "king": "1",
        "check": "1",
        "game": game,
        "trix_revoke": trix_revoke,
        "plays": " ".join("pass" if c is None else str(c) for c in plays),
    }
    for s, hand in enumerate(hands):
        form[f"hands-{s}"] = cards(hand)
    page = html(client.get("/disputes/play", query_string=form))
    who = NAMES[seat]
    assert text_of(page, "verdict-headline") == (
        f"Not legal: {who} passed on turn {turn} holding a playable card."
    )
    assert text_of(page, "first-rule").startswith("R7")
    assert f"{who} passed on turn {turn} holding" in text_of(page, "first-sentence")
    body = {
        "rules": {"trix_revoke": trix_revoke},
        "contracts": ["trix"],
        "king": 1,
        "names": NAMES,
        "plays": form["plays"].split(),
        "hands": {str(s): cards(h).split() for s, h in enumerate(hands)},
    }
    expected = check_play(body)
    assert scores_shown(page) == [shown(s) for s in expected["scores"]]
    ruling = text_of(page, "ruling")
    if trix_revoke == "last":
        assert "by the house rule that player finishes last" in ruling
        assert shown(50) == scores_shown(page)[seat]
    else:
        assert "the table decides" in ruling
    without = html(
        client.get(
            "/disputes/play",
            query_string={k: v for k, v in form.items() if not k.startswith("hands-")},
        )
    )
    assert text_of(without, "verdict-headline") == text_of(page, "verdict-headline")


def test_a_legal_trix_record_gives_the_finishing_order(client: FlaskClient) -> None:
    hands, plays = random_trix(random.Random(2), RuleSet(), 1)
    form = {
        "contract": "trix",
        "king": "1",
        "check": "1",
        "plays": " ".join("pass" if c is None else str(c) for c in plays),
    }
    page = html(client.get("/disputes/play", query_string=form))
    assert text_of(page, "verdict-headline") == "Legal: no rule was broken."
    assert "the finishing order is" in text_of(page, "ruling")
    assert sorted(scores_shown(page)) == ["100", "150", "200", "50"]


# --- applying a check to the game ------------------------------------------------------------


def _record_wrong_collections(client: FlaskClient, game: str) -> None:
    """Deal 1, Collections, entered by hand with the wrong tricks."""
    data = {
        "version": str(services.load_game(game).version),
        "tricks-0": "4",
        "tricks-1": "3",
        "tricks-2": "3",
        "tricks-3": "3",
    }
    assert (
        client.post(f"/games/{game}/deals/new?contracts=collections", data=data).status_code == 302
    )


def _checked_page(client: FlaskClient, game: str) -> tuple[str, Any]:
    hands, tricks, _ = revoke_deal()
    form = record_form("collections", hands, tricks)
    del form["contract"]  # the deal's own contract and king are used
    page = html(client.get(f"/games/{game}/deals/1/check", query_string=form))
    return page, api_answer("collections", 0, hands, tricks)


def test_apply_to_this_deal_updates_it_and_notes_the_check(client: FlaskClient, game: str) -> None:
    _record_wrong_collections(client, game)
    page, expected = _checked_page(client, game)
    assert 'data-testid="apply-form"' in page and "Apply to deal 1" in page
    response = client.post(
        f"/games/{game}/deals/1/check/apply", data=hidden_fields(page, "apply-form")
    )
    assert response.status_code == 302 and response.headers["Location"].endswith(
        f"/games/{game}/deals/1"
    )
    loaded = services.load_game(game)
    assert list(loaded.game.deals[0].scores) == expected["scores"]
    revisions = services.deal_revisions(game, 1)
    assert [(r.action, r.source) for r in revisions] == [("record", "page"), ("edit", "check")]
    deal_page = html(client.get(f"/games/{game}/deals/1"))
    assert "now follows the card-by-card check" in deal_page
    assert 'data-testid="from-check"' in deal_page  # the history says where the change came from
    again = client.post(
        f"/games/{game}/deals/1/check/apply", data=hidden_fields(page, "apply-form")
    )
    assert again.status_code == 302  # sent twice: the deal already says so, nothing is written
    assert "already matches this check" in html(client.get(f"/games/{game}/deals/1"))
    assert len(services.deal_revisions(game, 1)) == 2


def test_apply_is_refused_to_a_phone_without_edit_rights(
    client: FlaskClient, game: str, visitor: FlaskClient
) -> None:
    _record_wrong_collections(client, game)
    page, _ = _checked_page(client, game)
    fields = hidden_fields(page, "apply-form")
    before = services.load_game(game).version
    seen, _ = _checked_page(visitor, game)
    assert 'data-testid="apply-form"' not in seen and 'data-testid="apply-read-only"' in seen
    assert visitor.post(f"/games/{game}/deals/1/check/apply", data=fields).status_code == 403
    assert visitor.post(f"/games/{game}/check/record", data=fields).status_code == 403
    assert services.load_game(game).version == before


def test_apply_with_a_stale_version_changes_nothing(client: FlaskClient, game: str) -> None:
    _record_wrong_collections(client, game)
    page, _ = _checked_page(client, game)
    fields = hidden_fields(page, "apply-form")
    data = {"version": str(services.load_game(game).version), "kh_taker": "2", "kh_doubled_by": ""}
    assert client.post(f"/games/{game}/deals/new?contracts=king", data=data).status_code == 302
    before = services.load_game(game).game.deals[0]
    response = client.post(f"/games/{game}/deals/1/check/apply", data=fields)
    assert response.status_code == 409
    assert "Nothing was saved" in html(response)
    assert services.load_game(game).game.deals[0] == before


def test_record_this_deal_from_a_check(client: FlaskClient, game: str) -> None:
    hands, tricks = random_deal(random.Random(9), RuleSet(), [Contract.KING], 0)
    form = record_form("king", hands, tricks)
    page = html(client.get(f"/games/{game}/check", query_string=form))
    assert "Rana was king and dealt." in page and "Record this deal" in page
    response = client.post(f"/games/{game}/check/record", data=hidden_fields(page, "apply-form"))
    assert response.status_code == 302
    deal = services.load_game(game).game.deals[0]
    expected = api_answer("king", 0, hands, tricks)
    assert list(deal.scores) == expected["scores"] and deal.captures.tricks is None
    assert [(r.action, r.source) for r in services.deal_revisions(game, 1)] == [("record", "check")]


def test_apply_needs_the_csrf_token(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    with app.app_context():
        db.create_all()
        client = app.test_client()
        token = re.search(
            r'name="csrf_token"[^>]*value="([^"]+)"',
            client.get("/games/new").get_data(as_text=True),
        )
        assert token
        data = {f"players-{i}": n for i, n in enumerate(NAMES)}
        data.update(first_king="0", preset="standard", csrf_token=token.group(1))
        game = client.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[-1]
        hands, tricks = random_deal(random.Random(9), RuleSet(), [Contract.KING], 0)
        page = html(
            client.get(f"/games/{game}/check", query_string=record_form("king", hands, tricks))
        )
        fields = hidden_fields(page, "apply-form")
        forged = MultiDict([(k, v) for k, v in fields.items(multi=True) if k != "csrf_token"])
        assert client.post(f"/games/{game}/check/record", data=forged).status_code == 400
        assert services.load_game(game).game.deals_played == 0
        assert client.post(f"/games/{game}/check/record", data=fields).status_code == 302
        db.session.remove()
        db.drop_all()


# --- redeal checks (R8) ----------------------------------------------------------------------


def test_r8_redeal_check_eligible_and_not(client: FlaskClient) -> None:
    page = html(
        client.get(
            "/disputes/redeal",
            query_string={"contract": "king", "hand": KING_ONLY_HEART, "check": "1"},
        )
    )
    assert text_of(page, "verdict-headline") == "Eligible: this hand may ask for a redeal."
    assert (
        text_of(page, "verdict-reason")
        == "Your only heart is the K♥: you may ask for a redeal (R8)."
    )
    page = html(
        client.get(
            "/disputes/redeal", query_string={"contract": "king", "hand": TWO_HEARTS, "check": "1"}
        )
    )
    assert text_of(page, "verdict-headline") == "Not eligible: this hand may not ask for a redeal."
    assert "K♥ and Q♥" in text_of(page, "verdict-reason")
    page = html(
        client.get(
            "/disputes/redeal",
            query_string={
                "contract": "trix",
                "hand": "2S 2H 2D 3C AS KS QS JS TS 9S 8S 7S 6S",
                "check": "1",
            },
        )
    )
    assert text_of(page, "verdict-headline").startswith("Eligible")
    assert 'data-testid="record-redeal-form"' not in page  # no game: nothing to record


def test_a_granted_redeal_is_recorded_on_the_game(
    client: FlaskClient, game: str, visitor: FlaskClient
) -> None:
    query = {"contract": "king", "hand": KING_ONLY_HEART, "check": "1"}
    page = html(client.get(f"/games/{game}/redeal-check", query_string=query))
    fields = hidden_fields(page, "record-redeal-form").to_dict()
    seen = html(visitor.get(f"/games/{game}/redeal-check", query_string=query))
    assert 'data-testid="record-read-only"' in seen
    assert (
        visitor.post(f"/games/{game}/redeal-check/record", data={**fields, "seat": "2"}).status_code
        == 403
    )
    response = client.post(f"/games/{game}/redeal-check/record", data=fields)
    assert response.status_code == 422 and "Choose who asks for the redeal." in errors_at(
        html(response), "seat"
    )
    response = client.post(f"/games/{game}/redeal-check/record", data={**fields, "seat": "2"})
    assert response.status_code == 302
    entry = services.load_game(game).log[-1].entry
    assert isinstance(entry, RedealEntry)
    assert (entry.kind, entry.seat, entry.contract) == ("redeal", 2, Contract.KING)
    assert "K♥" in entry.note


def test_a_refused_redeal_cannot_be_recorded(client: FlaskClient, game: str) -> None:
    version = services.load_game(game).version
    data = {"contract": "king", "hand": TWO_HEARTS, "seat": "1", "version": str(version)}
    response = client.post(f"/games/{game}/redeal-check/record", data=data)
    assert response.status_code == 422
    assert "may not ask for a redeal" in html(response)
    assert services.load_game(game).version == version


# --- claims ----------------------------------------------------------------------------------


def post_claim(client: FlaskClient, data: dict[str, str]) -> TestResponse:
    """The claim posted, and its page once judged (the post redirects there; on a busy
    machine the page may first show the claim's progress, refreshing itself)."""
    response = client.post("/disputes/claim", data=data)
    assert response.status_code == 303, response.status_code
    deadline = time.monotonic() + 60
    while True:
        page = client.get(response.headers["Location"])
        if b'http-equiv="refresh"' not in page.data or time.monotonic() > deadline:
            return page
        time.sleep(0.1)


SMALL = {
    "contract": "collections",
    "hands-0": "2S 3S",
    "hands-1": "AS KS",
    "hands-2": "QS JS",
    "hands-3": "TS 9S",
    "leader": "0",
    "current_trick": "",
}


def test_a_claim_that_holds(client: FlaskClient, game: str) -> None:
    response = post_claim(
        client,
        data={**SMALL, "for_game": game, "claimant": "0", "preset": "no_more_tricks"},
    )
    assert response.status_code == 200
    page = html(response)
    assert text_of(page, "verdict-headline") == "The claim holds"
    assert "Rana can make sure of at least 0" in text_of(page, "verdict-sentence")
    assert 'data-testid="line"' not in page


def test_a_claim_that_fails_shows_the_defeating_line(client: FlaskClient, game: str) -> None:
    response = post_claim(
        client, data={**SMALL, "for_game": game, "claimant": "1", "min_score": "0"}
    )
    page = html(response)
    assert text_of(page, "verdict-headline") == "The claim fails"
    assert "hold Sami to −30" in text_of(page, "verdict-sentence")
    first = text_of(page, "line-trick-0")
    assert re.search(r"Rana leads: Rana 2♠ Sami K♠ Omar J♠ Lina 9♠ Sami takes it\.", first), first


def test_a_trix_claim_with_passes_in_its_line(client: FlaskClient, game: str) -> None:
    form = {
        "for_game": game,
        "contract": "trix",
        "hands-0": "TH 3H",
        "hands-1": "QH 2H 4H",
        "hands-2": "9H KH 5H 6H",
        "hands-3": "8H AH 7H",
        "to_play": "0",
        "layout-S-low": "2",
        "layout-S-high": "A",
        "layout-D-low": "2",
        "layout-D-high": "A",
        "layout-C-low": "2",
        "layout-C-high": "A",
        "layout-H-low": "J",
        "layout-H-high": "J",
    }
    holds = html(post_claim(client, {**form, "claimant": "3", "preset": "out_first"}))
    assert text_of(holds, "verdict-headline") == "The claim holds"
    fails = html(post_claim(client, {**form, "claimant": "0", "preset": "out_first"}))
    assert text_of(fails, "verdict-headline") == "The claim fails"
    assert text_of(fails, "guaranteed").endswith("100")
    assert text_of(fails, "line-turn-0") == "Rana 10♥" and "passes" in text_of(fails, "line-turn-4")


def test_a_claim_not_decided_in_time_says_so(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.web.disputes import pool

    def slow(body: dict[str, Any], *args: Any) -> dict[str, Any]:
        return pool.undecided(pool.time_limit(body))

    monkeypatch.setattr(pool, "_search", slow)
    page = html(post_claim(client, {**SMALL, "claimant": "1", "min_score": "0", "time_limit": "3"}))
    assert text_of(page, "verdict-headline") == "Not decided in time"
    assert "Not decided in time (3 s): no ruling." in text_of(page, "verdict-sentence")
    assert "Try a longer time limit" in text_of(page, "verdict-sentence")


def test_the_claim_form_keeps_its_default_time_limit(client: FlaskClient) -> None:
    page = html(client.get("/disputes/claim"))
    assert 'name="time_limit" id="time_limit" value="20"' in page


# --- bad input: a message next to the field, never a 500 --------------------------------------


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        (
            {"contract": "king", "king": "0", "tricks": "KH QX"},
            "tricks",
            "Line 1: “QX” is not a card",
        ),
        ({"contract": "king", "king": "0", "tricks": ""}, "tricks", "Enter the tricks"),
        ({"contract": "king", "king": "9", "tricks": "2C"}, "king", "Choose who was king"),
        ({"contract": "poker", "king": "0", "tricks": "2C"}, "contract", "Choose the contract"),
        (
            {"contract": "king", "king": "0", "tricks": "2C", "hands-0": "2C 3C"},
            "hands-0",
            "Player 1's hand has 2 cards",
        ),
        (
            {"contract": "king", "king": "0", "tricks": "2C", "hands-0": "2C", "hands-1": "2C"},
            "hands-1",
            "2♣ is in Player 1's hand too.",
        ),
        (
            {"contract": "king", "king": "0", "tricks": "2C 3C 4C 5C 6C"},
            "tricks",
            "Trick 1 has 5 cards",
        ),
        (
            {"contract": "king", "king": "0", "tricks": "2C 3C 4C 5C"},
            "tricks",
            "every card must be played",
        ),
        ({"contract": "trix", "king": "0", "plays": "JS QQ"}, "plays", "“QQ” is not a card"),
        (
            {"contract": "king", "king": "0", "tricks": "2C", "doubled": "KS"},
            "doubled",
            "Choose among",
        ),
        (
            {"contract": "king", "king": "0", "tricks": "2C", "game": "nope"},
            "game",
            "Choose one of the listed",
        ),
        (
            {"contract": "king", "king": "0", "tricks": "2C", "revoke": "never"},
            "revoke",
            "Choose one of the listed",
        ),
    ],
)
def test_bad_check_input_is_shown_next_to_its_field(
    client: FlaskClient, query: dict[str, str], field: str, message: str
) -> None:
    response = client.get("/disputes/play", query_string={**query, "check": "1"})
    assert response.status_code == 422
    page = html(response)
    assert message in errors_at(page, field), errors_at(page, field) or page
    assert 'data-testid="error-summary"' in page and 'data-testid="verdict"' not in page
    if "tricks" in query:
        assert query["tricks"] in page  # what was typed stays


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"claimant": "", "min_score": "0"}, "claimant", "Choose who makes the claim."),
        ({"claimant": "1", "min_score": "lots"}, "min_score", "whole number"),
        ({"claimant": "1", "min_score": "0", "time_limit": "100"}, "time_limit", "from 1 to 25"),
        ({"claimant": "1", "preset": "out_first"}, "preset", "does not fit the contract"),
        ({"claimant": "1", "min_score": "0", "hands-1": "AS KS 4S"}, "hands-1", "holds 3 cards"),
        ({"claimant": "1", "min_score": "0", "leader": ""}, "leader", "Choose who led"),
        (
            {"claimant": "1", "min_score": "0", "contract": "trix", "layout-S-low": "9"},
            "layout-S",
            "both ends",
        ),
    ],
)
def test_bad_claim_input_is_shown_next_to_its_field(
    client: FlaskClient, form: dict[str, str], field: str, message: str
) -> None:
    response = client.post("/disputes/claim", data={**SMALL, **form}, follow_redirects=True)
    assert response.status_code == 422
    page = html(response)
    assert message in errors_at(page, field), page


def test_bad_redeal_input_is_shown_next_to_its_field(client: FlaskClient) -> None:
    for hand, message in [
        ("KH KH", "twice"),
        ("KH AS", "13 cards"),
        ("ZZ", "not a card"),
        ("", "13 cards"),
    ]:
        response = client.get(
            "/disputes/redeal", query_string={"contract": "king", "hand": hand, "check": "1"}
        )
        assert response.status_code == 422
        assert message in errors_at(html(response), "hand")
    response = client.get(
        "/disputes/redeal",
        query_string={"contract": "queens", "hand": KING_ONLY_HEART, "check": "1"},
    )
    assert "Choose the contract" in errors_at(html(response), "contract")


WORDS = [
    "",
    " ",
    "KH",
    "10♦",
    "pass",
    "2C 3C 4C 5C",
    "x" * 300,
    "\u0000",
    "٣",
    "-1",
    "0",
    "9",
    "trix",
    "king",
    "AS\nKS",
    "whole",
    "on",
    "nope",
]
FIELDS = [
    "contract",
    "king",
    "tricks",
    "plays",
    "hands-0",
    "hands-1",
    "hands-3",
    "doubled",
    "game",
    "revoke",
    "claimant",
    "min_score",
    "time_limit",
    "leader",
    "current_trick",
    "preset",
    "layout-S-low",
    "layout-S-high",
    "to_play",
    "out-0",
    "hand",
    "seat",
    "for_game",
]


def test_random_forms_never_crash(client: FlaskClient, game: str) -> None:
    rng = random.Random(11)
    for _ in range(120):
        form = {rng.choice(FIELDS): rng.choice(WORDS) for _ in range(rng.randint(1, 8))}
        form["check"] = "1"
        for response in (
            client.get("/disputes/play", query_string=form),
            client.get(f"/games/{game}/check", query_string=form),
            client.get("/disputes/play/state", query_string=form),
            client.get("/disputes/redeal", query_string=form),
            client.post("/disputes/claim", data=form),
        ):
            assert response.status_code < 500, form


# --- the picker's questions ------------------------------------------------------------------


def test_the_picker_is_told_who_plays_and_why_a_card_is_illegal(client: FlaskClient) -> None:
    hands, tricks = random_deal(random.Random(12), RuleSet(), [Contract.QUEENS], 3)
    form = record_form("queens", hands, [], king="3")
    state = client.get("/disputes/play/state", query_string=form).get_json()
    assert (
        state["ok"] and state["to_play"] == 3 and "\u2068Player 4\u2069 to play" in state["status"]
    )
    assert sorted(state["cards"]) == sorted(cards(hands[3]).split())
    form["tricks"] = cards(tricks[0][:1])
    state = client.get("/disputes/play/state", query_string=form).get_json()
    assert state["to_play"] == 0 and state["trick"] == [[3, str(ALL_CARDS[tricks[0][0]])]]
    led = ALL_CARDS[tricks[0][0]].suit
    follow = [c for c in state["cards"] if Card.parse(c).suit == led]
    if follow:
        assert sorted(state["legal"]) == sorted(follow)
        reason = next(iter(state["why"].values()))
        assert reason.startswith("You must follow suit: you hold")
    assert state["verdict"]["legal"] is True


def test_the_picker_hears_of_a_revoke_at_once(client: FlaskClient) -> None:
    hands, tricks, (trick, seat, _) = revoke_deal()
    form = record_form("collections", hands, [], king="0")
    form["tricks"] = "\n".join(cards(t) for t in tricks[: trick - 1])
    before = client.get("/disputes/play/state", query_string=form).get_json()
    assert before["verdict"]["legal"] is True
    form["tricks"] = "\n".join(cards(t) for t in tricks[:trick])
    state = client.get("/disputes/play/state", query_string=form).get_json()
    assert state["verdict"]["legal"] is False
    assert (
        state["verdict"]["headline"]
        == f"Not legal: {NAMES_DEFAULT[seat]} revoked on trick {trick}."
    )
    assert "takes every trick from trick" in state["verdict"]["ruling"]


def test_the_trix_picker_knows_what_can_be_laid(client: FlaskClient) -> None:
    hands, plays = random_trix(random.Random(2), RuleSet(), 1)
    form = {"contract": "trix", "king": "1", "plays": ""}
    for s, hand in enumerate(hands):
        form[f"hands-{s}"] = " ".join(str(c) for c in hand)
    state = client.get("/disputes/play/state", query_string=form).get_json()
    assert state["to_play"] == 1
    assert all(c[0] == "J" for c in state["legal"])
    if state["legal"]:
        assert "Passing now breaks R7" in state["pass_note"]
