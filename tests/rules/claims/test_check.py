"""POST /api/v1/check/claim (API.md): the wire format, its answers and its refusals."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from flask.testing import FlaskClient

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.rules.checks import CHECKS, guess_kind
from scorekeeper.rules.claims import check_claim
from scorekeeper.rules.errors import IllegalError, MalformedError, RulesError
from scorekeeper.text.messages import english, translate_problem
from tests.rules.claims.helpers import SPADES, body, trix_body

ISOLATES = {0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None}
"""Removed to compare a sentence with names isolated to the engine's plain English."""


def with_rest(hands: dict[str, list[str]]) -> dict[str, list[str]]:
    """Seat 3 holds every card that is neither given nor a Jack (the layout of four Jacks)."""
    given = {c for hand in hands.values() for c in hand} | {"JS", "JH", "JD", "JC"}
    rest = [r + s for s in "SHDC" for r in "AKQJT98765432" if r + s not in given]
    return {**hands, "3": rest}


def test_claim_is_a_registered_check() -> None:
    assert CHECKS["claim"] is not None
    assert guess_kind(body()) == "claim"


def test_r6_no_more_tricks_holds() -> None:
    answer = check_claim(body())
    assert answer == {
        "ok": True,
        "holds": True,
        "guaranteed": 0,
        "guaranteed_known": True,
        "line": [],
        "decided": True,
        "nodes": answer["nodes"],
        "message": "The claim holds: Rana can make sure of at least 0 from here "
        "(the claimant takes no more tricks whatever the others do).",
        "verdict": {
            "part": "claim.holds",
            "params": {
                "player": "Rana",
                "claimed": 0,
                "why": {"part": "claim.why.no_tricks", "params": {}},
            },
        },
    }


def test_r6_no_more_tricks_fails_with_a_line() -> None:
    answer = check_claim(body(claim={"seat": 1, "min_score": 0}))
    assert (answer["holds"], answer["guaranteed"], len(answer["line"])) == (False, -30, 8)
    assert answer["message"] == "The claim fails: the others can hold Sami to −30; see the line."


def test_r3_king_of_hearts_claim_mid_trick_with_doubling() -> None:
    answer = check_claim(
        body(
            contracts=["king"],
            hands={"0": ["2C"], "1": ["AH", "3C"], "2": ["2H", "4C"], "3": ["3H", "5C"]},
            current_trick=["KH"],
            doubled=["KH"],
            claim={"seat": 0, "min_score": 75},
        )
    )
    assert (answer["holds"], answer["guaranteed"]) == (True, 75)


def test_r7_trix_i_go_out_first() -> None:
    answer = check_claim(trix_body())
    assert (answer["holds"], answer["guaranteed"], answer["line"]) == (True, 200, [])
    assert answer["message"] == (
        "The claim holds: Rana can make sure of at least 200 from here "
        "(the claimant goes out first whatever the others do)."
    )
    fails = check_claim(trix_body(claim={"seat": 1, "min_score": 200}))
    assert (fails["holds"], fails["guaranteed"], fails["line"][:2]) == (False, 150, ["QS", "QH"])


def test_r7_trix_pass_is_written_pass() -> None:
    # Sami's K♠ waits for Omar's Q♠: Sami passes, Omar goes out first.
    hands = {"0": ["TS", "9S"], "1": ["KS"], "2": ["QS"]}
    answer = check_claim(
        trix_body(hands=with_rest(hands), to_play=1, claim={"seat": 1, "min_score": 200})
    )
    assert (answer["holds"], answer["guaranteed"]) == (False, 150)
    assert answer["line"][:2] == ["pass", "QS"]


def test_r7_trix_deal_already_over() -> None:
    answer = check_claim(
        trix_body(
            hands={"0": [], "1": [], "2": [], "3": trix_body()["hands"]["3"]},
            layout={"S": ["TS", "QS"], "H": ["TH", "QH"], "D": ["TD", "QD"], "C": ["JC", "JC"]},
            out=[2, 0, 1],
            to_play=None,
            claim={"seat": 0, "min_score": 150},
        )
    )
    assert (answer["holds"], answer["guaranteed"], answer["nodes"]) == (True, 150, 0)


def test_time_limit_extension_undecided() -> None:
    deal = {
        "0": "AS 9S 5S 4S AH 7H 6H 4H 3H KD 8D 4C 2C",
        "1": "KS QS 2S KH TH 9H 5H QD 9D 7D 6D KC 5C",
        "2": "JS 8S 3S AD JD 5D 4D 2D AC QC JC 8C 6C",
        "3": "TS 7S 6S QH JH 8H 2H TD 3D TC 9C 7C 3C",
    }
    request = body(
        contracts=["king"],
        hands={s: h.split() for s, h in deal.items()},
        time_limit=0.05,
        claim={"seat": 1, "min_score": 0},
    )
    answer = check_claim(request)
    assert (answer["holds"], answer["guaranteed"], answer["decided"]) == (None, None, False)
    assert answer["message"] == "Not decided in time (0.05 s): no ruling."


BAD: list[tuple[str, dict[str, Any], type[RulesError], str, str]] = [
    ("no_claim", body(claim=...), MalformedError, "claim", "missing_field"),
    ("claim_shape", body(claim=[0, 0]), MalformedError, "claim", "claim_shape"),
    (
        "claim_seat",
        body(claim={"seat": 4, "min_score": 0}),
        MalformedError,
        "claim.seat",
        "bad_seat",
    ),
    (
        "min_score_float",
        body(claim={"seat": 0, "min_score": 0.5}),
        MalformedError,
        "claim.min_score",
        "bad_min_score",
    ),
    (
        "min_score_bool",
        body(claim={"seat": 0, "min_score": True}),
        MalformedError,
        "claim.min_score",
        "bad_min_score",
    ),
    ("leader", body(leader=7), MalformedError, "leader", "bad_seat"),
    ("no_leader", body(leader=...), MalformedError, "leader", "missing_field"),
    ("no_hands", body(hands=...), MalformedError, "hands", "missing_field"),
    ("bad_card", body(current_trick=["ZZ"]), MalformedError, "current_trick.0", "bad_card"),
    (
        "card_twice",
        body(hands={**SPADES, "1": ["AS", "2S"]}),
        MalformedError,
        "hands.1",
        "card_twice",
    ),
    (
        "card_twice_in_hand",
        body(hands={**SPADES, "1": ["AS", "AS"]}),
        MalformedError,
        "hands.1",
        "card_twice_in_hand",
    ),
    (
        "held_and_in_trick",
        body(hands={**SPADES, "0": ["3S"]}, current_trick=["3S"]),
        MalformedError,
        "current_trick.0",
        "card_twice",
    ),
    (
        "trick_too_long",
        body(current_trick=["4S", "5S", "6S", "7S"]),
        MalformedError,
        "current_trick",
        "trick_too_long",
    ),
    ("sizes", body(hands={**SPADES, "2": ["QS"]}), IllegalError, "hands.2", "hand_sizes"),
    ("sizes_mid_trick", body(current_trick=["4S"]), IllegalError, "hands.1", "hand_sizes"),
    (
        "not_following",
        body(
            hands={"0": ["3S"], "1": ["KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
            current_trick=["2S", "2H"],
            leader=0,
        ),
        IllegalError,
        "current_trick.1",
        "must_follow_suit",
    ),
    (
        "heart_lead",
        body(
            rules={"heart_lead": "only_hearts"},
            contracts=["king"],
            hands={"0": ["3S"], "1": ["KS", "AS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
            current_trick=["2H"],
            leader=0,
        ),
        IllegalError,
        "current_trick.0",
        "heart_lead_forbidden",
    ),
    (
        "hearts_not_broken",
        body(
            rules={"heart_lead": "broken"},
            contracts=["king"],
            hands={"0": ["3S"], "1": ["KS", "AS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
            current_trick=["2H"],
            leader=0,
        ),
        IllegalError,
        "current_trick.0",
        "hearts_not_broken",
    ),
    (
        "penalty_discard",
        body(
            rules={"penalty_discard": True},
            contracts=["diamonds"],
            hands={"0": ["3S"], "1": ["2D"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
            current_trick=["2S", "KH"],
            leader=0,
        ),
        IllegalError,
        "current_trick.1",
        "must_discard_penalty",
    ),
    (
        "hearts_broken",
        body(hearts_broken="yes"),
        MalformedError,
        "hearts_broken",
        "bad_hearts_broken",
    ),
    (
        "doubled_off",
        body(rules={"doubling": False}, contracts=["king"], doubled=["KH"]),
        MalformedError,
        "doubled.0",
        "doubling_off",
    ),
    ("not_doubleable", body(doubled=["KH"]), MalformedError, "doubled.0", "not_doubleable"),
    ("time_limit_high", body(time_limit=61), MalformedError, "time_limit", "bad_time_limit"),
    ("time_limit_zero", body(time_limit=0), MalformedError, "time_limit", "bad_time_limit"),
    ("unknown_field", body(dealt=1), MalformedError, "dealt", "unknown_field"),
    ("bad_dealer", body(dealer=7), MalformedError, "dealer", "bad_seat"),
    ("trix_field_in_tricks", body(to_play=1), MalformedError, "to_play", "unknown_field"),
    ("trick_field_in_trix", trix_body(leader=1), MalformedError, "leader", "unknown_field"),
    ("no_layout", trix_body(layout=...), MalformedError, "layout", "missing_field"),
    (
        "layout_and_hand",
        trix_body(layout={"S": ["TS", "JS"]}),
        MalformedError,
        "hands.0",
        "card_twice",
    ),
    (
        "cards_missing",
        trix_body(hands={**trix_body()["hands"], "3": ["AS"]}),
        MalformedError,
        "hands",
        "cards_missing",
    ),
    ("out_shape", trix_body(out=[1, 1]), MalformedError, "out", "out_shape"),
    ("out_holding", trix_body(out=[1]), IllegalError, "out", "out_mismatch"),
    ("to_play", trix_body(to_play=9), MalformedError, "to_play", "bad_seat"),
    (
        "combination_off",
        body(contracts=["king", "queens"]),
        IllegalError,
        "contracts",
        "combination_off",
    ),
]


BAD_BODIES = pytest.mark.parametrize(
    ("name", "request_body", "kind", "field", "code"), BAD, ids=[b[0] for b in BAD]
)
"""Every refused body of ``BAD``, with what it must be refused as."""


@BAD_BODIES
def test_bad_bodies_are_refused(
    name: str, request_body: dict[str, Any], kind: type[RulesError], field: str, code: str
) -> None:
    with pytest.raises(RulesError) as caught:
        check_claim(request_body)
    problem = caught.value.problems[0]
    assert (type(caught.value), problem.field, problem.code) == (kind, field, code), problem.message
    assert problem.message.endswith(".")


def test_the_route_serves_claims(client: FlaskClient) -> None:
    response = client.post("/api/v1/check/claim", json=body(claim={"seat": 1, "min_score": 0}))
    assert response.status_code == 200
    assert response.get_json()["holds"] is False
    refused = client.post("/api/v1/check/claim", json=body(leader=9))
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "leader"


@cache
def arabic() -> Translations:
    """The Arabic catalogue, compiled from its .po (the .mo files are build output)."""
    path = PROJECT_ROOT / "translations" / "ar" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="ar")
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


@BAD_BODIES
def test_bad_bodies_are_refused_in_arabic_too(
    name: str, request_body: dict[str, Any], kind: type[RulesError], field: str, code: str
) -> None:
    """Each refusal's params rebuild its English message, so it is said in Arabic too."""
    with pytest.raises(RulesError) as caught:
        check_claim(request_body)
    for problem in caught.value.problems:
        assert english(problem.key, problem.params) == problem.message
        said = translate_problem(problem, arabic())
        assert said != problem.message
        assert any("\u0600" <= ch <= "\u06ff" for ch in said), said


def test_r2_claim_accepts_the_dealer() -> None:
    """The position says who leads or plays; the dealer (R2) is read and checked only."""
    rules = {"dealer": "rotates", "first_dealer": 2}
    plain = check_claim(body(rules=rules))
    assert check_claim(body(rules=rules, dealer=2)) == plain
    assert check_claim(trix_body(dealer=3))["holds"] == check_claim(trix_body())["holds"]


def test_the_verdict_says_the_same_as_the_message_in_english() -> None:
    """One sentence, said once: the text layer renders the verdict part into the engine's
    own English message (and into every other language)."""
    from scorekeeper.text.disputes import claim_sentence

    for claim in ({"seat": 0, "min_score": 0}, {"seat": 1, "min_score": 0}):
        answer = check_claim(body(claim=claim))
        assert claim_sentence(answer["verdict"]).translate(ISOLATES) == answer["message"]
    slow = check_claim(body(time_limit=0.0001))
    assert claim_sentence(slow["verdict"]).translate(ISOLATES) == slow["message"]
