"""The engine's sentences, written once: every code catalogued, every template rendered.

(a) every problem code the sources can raise has a template in
``scorekeeper.rules.sentences``, which pybabel extracts and every catalogue holds;
(b) on a corpus of real errors, every problem's params fill in its template in
every language, the engine says what it said when the templates were a second
copy of its English (``engine_sentences.json``: one problem of each key, as the
engine worded it then), and every template is met by the corpus.
"""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from babel.support import Translations

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.rules import rulings, validation
from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import ALL_CARDS, Card, Rank, Suit, hand_mask, parse_cards
from scorekeeper.rules.checks import check_deal, check_play, check_redeal
from scorekeeper.rules.claims import check_claim
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.deals import random_deal, random_revoke_deal, random_trix
from scorekeeper.rules.errors import Problem, RulesError, part
from scorekeeper.rules.events.standings import check_places
from scorekeeper.rules.game import DealEntry, Game, RedealEntry
from scorekeeper.rules.game_log import entry_from_dict
from scorekeeper.rules.redeal import REDEALS_IN_A_ROW_MAX
from scorekeeper.rules.redeal import check_redeal as redeal_verdict
from scorekeeper.rules.ruleset import (
    ClosedSuit,
    Combination,
    HeartLead,
    KingdomOrder,
    RuleSet,
    Starter,
    Tiebreak,
)
from scorekeeper.rules.scoring import check_contracts, score_deal
from scorekeeper.rules.sentences import MESSAGES, PROBLEMS, WORDS, Plural, english, render
from scorekeeper.rules.tricks import illegal_reason, replay_tricks
from scorekeeper.rules.trix import Layout, play, replay_trix
from scorekeeper.rules.validation import validate_captures
from scorekeeper.rules.wire import (
    parse_card_list,
    parse_hands,
    parse_names,
    parse_plays,
    parse_seat,
    parse_tricks,
)
from scorekeeper.store.game_store import GAME_WRITES_MAX, EntryName, breaks_later, check_room
from scorekeeper.store.input import (
    clean_players,
    parse_deal_body,
    parse_new_game_body,
    parse_redeal_body,
    take_entry_id,
    take_position_and_time,
)
from scorekeeper.store.played import check_played_at
from scorekeeper.text import messages
from tests.common import NAMES, C, D, K, Q, T
from tests.rules.claims.helpers import SPADES, trix_body
from tests.rules.claims.helpers import body as claims_body

NO_DOUBLING = RuleSet(doubling=False)
ANY = RuleSet(combination=Combination.ANY)

SOURCES = [  # errors.py is the machinery: its Problem(code, …) passes codes through
    path
    for path in sorted((PROJECT_ROOT / "scorekeeper" / "rules").glob("**/*.py"))
    if path.name != "errors.py"
] + [
    PROJECT_ROOT / "scorekeeper" / path
    for path in (
        *("store/input.py", "store/games.py", "store/game_store.py", "store/positions.py"),
        *("store/played.py", "store/events/input.py", "store/events/services.py"),
        *("store/events/changes.py", "store/events/results.py", "store/events/clock.py"),
    )
]


# --- (a) every code in the sources has a template ----------------------------------------

ISOLATES = {0x2066: None, 0x2067: None, 0x2068: None, 0x2069: None}
"""Removed to compare a sentence with names isolated to the engine's plain English."""


def _problem_makers(tree: ast.Module) -> dict[str, int]:
    """Functions that build problems, and the position of their ``code`` argument.

    ``X.one(code, …)``, ``problems.add(code, …)``, ``Problem.of(code, …)`` and
    ``Problem(code, …)``, plus any function of the module with a parameter named
    ``code`` that calls one of them (``_shape_error(t, code, …)``, ``_malformed(code, …)``).
    """
    makers = {"one": 0, "add": 0, "Problem": 0, "of": 0, "from_params": 0}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names = [a.arg for a in node.args.args]
            if "code" in names and any(
                _called_name(call) in makers
                for call in ast.walk(node)
                if isinstance(call, ast.Call)
            ):
                makers[node.name] = names.index("code")
    return makers


def _makes_a_problem(call: ast.Call) -> bool:
    """``problems.add(code, …)``, ``Problem.of(code, …)``, ``XError.one(code, …)``; not
    ``seen.add(x)`` or ``Meetings.of(history)``."""
    if not isinstance(call.func, ast.Attribute):
        return True  # Problem(…) or a helper of the module
    receiver = call.func.value
    name = receiver.id if isinstance(receiver, ast.Name) else ""
    if call.func.attr == "add":
        return "problem" in name.lower()
    if call.func.attr == "one":
        return name.endswith("Error") or name == "cls"
    return call.func.attr not in ("of", "from_params") or name == "Problem"


def _called_name(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    if isinstance(node.func, ast.Name):
        return node.func.id
    return None


DYNAMIC: dict[str, Callable[[], set[str]]] = {
    # Calls whose code is not a literal: where the codes come from.
    "validation.py:problems.add(code)": lambda: (
        {c for _, c in validation._MISSING.values()} | {"missing_tricks"}
    ),
    "validation.py:problems.add(JoinedStr)": lambda: {"diamonds_sum", "tricks_sum"},
    "tricks.py:Problem.of(code)": lambda: set(rulings.RULE_OF),
    "trickplay.py:MalformedError.one(code)": lambda: {
        "empty_trick",
        "trick_too_long",
        "trick_incomplete",
        "hands_count",
        "hand_size",
        "hands_overlap",
    },
    "position.py:IllegalError.one(code)": lambda: set(rulings.RULE_OF),
    "trix.py:MalformedError(list)": set,  # inside _malformed: its callers pass literals
    "trix.py:Problem.of(code)": set,
}


def _describe(path: Path, call: ast.Call, arg: ast.expr) -> str:
    kind = type(arg).__name__ if not isinstance(arg, ast.Name) else arg.id
    return f"{path.name}:{ast.unparse(call.func)}({kind})"


def source_codes() -> dict[str, set[Path]]:
    """Every problem code (and ``code.variant`` key) the sources can raise, with its files."""
    found: dict[str, set[Path]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(), str(path))
        makers = _problem_makers(tree)
        for call in ast.walk(tree):
            name = _called_name(call)
            if name not in makers or not isinstance(call, ast.Call):
                continue
            index = makers[name]
            if not _makes_a_problem(call):
                continue  # set.add(x), Meetings.of(…): not a problem
            if len(call.args) <= index:
                continue
            arg = call.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                codes = {arg.value}
            else:
                where = _describe(path, call, arg)
                assert where in DYNAMIC, (
                    f"{where}: a problem code that is not a literal; list its codes in DYNAMIC"
                )
                codes = DYNAMIC.get(where, set)()
            for code in codes:
                found.setdefault(code, set()).add(path)
                for keyword in call.keywords:
                    value = keyword.value
                    if keyword.arg == "variant" and isinstance(value, ast.Constant):
                        found.setdefault(f"{code}.{value.value}", set()).add(path)
    return found


def test_every_code_in_the_sources_has_a_template() -> None:
    found = source_codes()
    assert len(found) > 80  # the scan finds the engine's problems at all
    missing = []
    for key, paths in sorted(found.items()):
        if key in PROBLEMS or any(k.startswith(f"{key}.") for k in PROBLEMS):
            continue
        missing.append(f"{key} ({', '.join(sorted(p.name for p in paths))})")
    assert not missing, "no template in scorekeeper/rules/sentences.py for: " + "; ".join(missing)


def test_templates_are_extracted_by_pybabel() -> None:
    path = PROJECT_ROOT / "scorekeeper" / "rules" / "sentences.py"
    extracted = {
        m if isinstance(m, str) else m[0] for _, m, *_ in extract_from_file("python", str(path))
    }
    for key, template in MESSAGES.items():
        first = template.singular if isinstance(template, Plural) else template
        assert first in extracted, key


@pytest.mark.parametrize("language", ["ar", "es", "it", "pt", "ru"])
def test_every_template_is_in_each_catalogue(language: str) -> None:
    """``pybabel update`` was run after the last change to the templates."""
    path = PROJECT_ROOT / "translations" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for key, template in MESSAGES.items():
        first = template.singular if isinstance(template, Plural) else template
        assert catalog.get(first) is not None, f"{language}: {key} is not in {path.name}"


# --- (b) the corpus: real errors from bad input ------------------------------------------


def errors_of(thunk: Callable[[], object]) -> list[Problem]:
    try:
        result = thunk()
    except RulesError as error:
        return list(error.problems)
    if isinstance(result, Problem):
        return [result]
    return []


def queens(*takers: int, doubled: int | None = None) -> tuple[Capture, ...]:
    return tuple(Capture(t, doubled) for t in takers)


def finished_short_game(rules: RuleSet) -> Game:
    """Seats 0 and 1 tie at 150 after one kingdom; seat 0 has the Trix first place."""
    game = Game.start(rules, 0, NAMES)
    for entry in (
        DealEntry((T,), Captures(trix_order=(0, 1, 2, 3))),
        DealEntry((D,), Captures(diamonds=(5, 0, 8, 0))),
        DealEntry((K,), Captures(king_of_hearts=Capture(2))),
        DealEntry((Q,), Captures(queens=queens(3, 3, 3, 3))),  # type: ignore[arg-type]
        DealEntry((C,), Captures(tricks=(0, 0, 7, 6))),
    ):
        game = game.record(entry)
    return game


def _hands_text(hands: list[int]) -> list[list[str]]:
    return [[str(c) for c in ALL_CARDS if c.bit & hand] for hand in hands]


def _tricks_text(tricks: list[list[int]]) -> list[list[str]]:
    return [[str(ALL_CARDS[c]) for c in trick] for trick in tricks]


def hand_cases() -> Iterator[Callable[[], object]]:
    hands = [list(ALL_CARDS[s::4]) for s in range(4)]
    spade_row = Layout.from_dict({"S": ["8S", "QS"]})
    yield lambda: play(Layout(), Card.parse("9S").index)  # row closed
    yield lambda: play(Layout(Card.parse("JS").bit), Card.parse("9S").index)  # only the Jack
    yield lambda: play(spade_row, Card.parse("6S").index)  # runs
    yield lambda: replay_trix(RuleSet(), 0, [], hands[:3])
    short = [hands[0][:12], hands[1], hands[2], hands[3] + [hands[0][12]]]
    yield lambda: replay_trix(RuleSet(), 0, [], short)
    yield lambda: replay_trix(RuleSet(), 0, [], short, NAMES)
    overlap = [hands[0], hands[1], hands[2][:12] + [hands[0][0]], hands[3]]
    yield lambda: replay_trix(RuleSet(), 0, [], overlap, NAMES)
    yield lambda: replay_trix(RuleSet(), 0, [], overlap)
    yield lambda: redeal_verdict(RuleSet(), K, parse_cards(["KH", "KH"] + ["2S"] * 11))
    yield lambda: redeal_verdict(RuleSet(), K, parse_cards(["KH", "2S"]))


def trick_cases(rng: random.Random) -> Iterator[Callable[[], object]]:
    hand_cards = [list(ALL_CARDS[s::4]) for s in range(4)]
    spades = parse_cards(["2S", "3S", "4S", "5S"])
    yield lambda: replay_tricks(RuleSet(), [T], 0, [])
    yield lambda: replay_tricks(RuleSet(), [K], 7, [])  # type: ignore[arg-type]
    yield lambda: replay_tricks(NO_DOUBLING, [K], 0, [], hand_cards, parse_cards(["KH"]))
    yield lambda: replay_tricks(RuleSet(), [K], 0, [], hand_cards, parse_cards(["2S"]))
    yield lambda: replay_tricks(RuleSet(), [Q], 0, [], hand_cards, parse_cards(["QS", "QS"]))
    doubled_hand = [hand_cards[0][:12] + [hand_cards[0][0]], *hand_cards[1:]]
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades], doubled_hand)
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades] * 14, hand_cards)
    yield lambda: replay_tricks(RuleSet(), [K], 0, [[], spades], hand_cards)
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades + spades[:1]], hand_cards)
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades[:2], spades], hand_cards)
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades, spades], hand_cards)
    yield lambda: replay_tricks(
        RuleSet(), [K], 0, [parse_cards(["3S", "2S", "4S", "5S"])], hand_cards
    )
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades], hand_cards[:3])
    short = [hand_cards[0], hand_cards[1][:12], hand_cards[2], hand_cards[3]]
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades], short)
    overlap = [hand_cards[0], hand_cards[1], hand_cards[2][:12] + [hand_cards[0][5]], hand_cards[3]]
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades], overlap)
    yield lambda: replay_tricks(RuleSet(), [K], 0, [spades])
    two_of_spades = [Card.parse("2S").index]
    for rules, contracts, held in (
        (RuleSet(penalty_discard=True), [K], ["KH", "2D", "3D"]),
        (RuleSet(penalty_discard=True, combination=Combination.ANY), [Q, D], ["QH", "4D", "2D"]),
        (RuleSet(penalty_discard=True, combination=Combination.ANY), [Q, D], ["QH", "QD", "4D"]),
    ):
        mask = hand_mask(parse_cards([*held, "2C"]))
        club = Card.parse("2C").index
        yield lambda r=rules, c=contracts, h=mask, x=club: illegal_reason(
            r, c, h, two_of_spades, False, x
        )
    for rules, contracts in (
        (RuleSet(), [Q]),
        (RuleSet(heart_lead=HeartLead.ONLY_HEARTS), [K]),
        (RuleSet(heart_lead=HeartLead.BROKEN), [K]),
        (RuleSet(penalty_discard=True), [K, D]),
        (RuleSet(penalty_discard=True, combination=Combination.ANY), [Q, D]),
    ):
        for _ in range(40):
            dealt = [hand_mask(cards) for cards in _random_hands(rng)]
            trick = [] if rng.random() < 0.5 else [rng.randrange(52)]
            hand = dealt[1] & ~sum(1 << c for c in trick)
            held = [c for c in range(52) if hand >> c & 1]
            card = rng.choice(held) if rng.random() < 0.9 else rng.randrange(52)
            yield lambda r=rules, c=contracts, h=hand, t=trick, x=card: illegal_reason(
                r, c, h, t, False, x
            )
    for _ in range(10):
        king = rng.randrange(4)
        contracts = rng.choice([[K], [Q], [D], [C]])
        try:
            dealt, tricks, _ = random_revoke_deal(rng, RuleSet(), contracts, king)
        except ValueError:
            continue
        yield from _mutated_play(rng, contracts, king, dealt, tricks)
        dealt, tricks = random_deal(rng, RuleSet(), contracts, king)
        yield from _mutated_play(rng, contracts, king, dealt, tricks)


def _random_hands(rng: random.Random) -> list[list[Card]]:
    pack = list(ALL_CARDS)
    rng.shuffle(pack)
    return [pack[i::4] for i in range(4)]


def _mutated_play(
    rng: random.Random,
    contracts: list[Contract],
    king: int,
    dealt: list[int],
    tricks: list[list[int]],
) -> Iterator[Callable[[], object]]:
    base = {
        "contracts": [c.value for c in contracts],
        "king": king,
        "hands": _hands_text(dealt),
        "tricks": _tricks_text(tricks),
    }
    for _ in range(6):
        body: dict[str, Any] = {**base, "tricks": [list(t) for t in base["tricks"]]}
        if rng.random() < 0.3:
            body["names"] = NAMES
        if rng.random() < 0.5:
            del body["hands"]
        t, u = rng.randrange(13), rng.randrange(13)
        i, j = rng.randrange(4), rng.randrange(4)
        choice = rng.randrange(5)
        if choice == 0:
            body["tricks"][t][i] = body["tricks"][u][j]
        elif choice == 1:
            body["tricks"] = body["tricks"][: rng.randrange(13)]
        elif choice == 2:
            body["tricks"][t].pop(i)
        elif choice == 3:
            body["tricks"][t][i], body["tricks"][u][j] = body["tricks"][u][j], body["tricks"][t][i]
        else:
            body["tricks"][t][i] = rng.choice(["ZZ", "1S", "K", 7, "10♦", "td"])
        yield lambda body=body: check_play(body)


def trix_cases(rng: random.Random) -> Iterator[Callable[[], object]]:
    yield lambda: Layout.from_dict(3)
    yield lambda: Layout.from_dict({"S": ["8S", "QS"], "s": ["9S", "JS"]})
    for suit in "SHDC":
        yield lambda s=suit: Layout.from_dict({s: [f"8{s}"]})
        yield lambda s=suit: Layout.from_dict({s: [f"2{s}", f"5{s}"]})
        yield lambda s=suit: Layout.from_dict({s: [f"Q{s}", f"K{s}"], "X": ["2S", "3S"]})
    for _ in range(25):
        king = rng.randrange(4)
        rules = rng.choice([RuleSet(), RuleSet(trix_first=Starter.RIGHT_OF_KING)])
        hands, plays = random_trix(rng, rules, king)
        body: dict[str, Any] = {
            "contracts": ["trix"],
            "king": king,
            "rules": rules.to_dict(),
            "hands": [[str(c) for c in hand] for hand in hands],
            "plays": ["pass" if p is None else str(p) for p in plays],
        }
        for _ in range(6):
            mutated: dict[str, Any] = {**body, "plays": list(body["plays"])}
            if rng.random() < 0.5:
                mutated["names"] = NAMES
            if rng.random() < 0.4:
                del mutated["hands"]
            n = len(mutated["plays"])
            t, u = rng.randrange(n), rng.randrange(n)
            choice = rng.randrange(6)
            if choice == 0:
                mutated["plays"][t] = mutated["plays"][u]
            elif choice == 1:
                mutated["plays"] = mutated["plays"][: rng.randrange(n)]
            elif choice == 2:
                mutated["plays"].append(rng.choice(["pass", "2S", "AH"]))
            elif choice == 3:
                mutated["plays"][t] = "pass"
            elif choice == 4:
                mutated["plays"][t] = str(rng.choice(ALL_CARDS))
            else:
                mutated["plays"][t] = rng.choice(["ZZ", "X", 3, None])
            yield lambda body=mutated: check_play(body)


def claim_body(names: list[str] | None, **changes: Any) -> dict[str, Any]:
    """A Collections claim by seat 0 (tests/rules/claims/helpers.py), with ``changes``."""
    return claims_body(names=names, **changes)


def trix_claim_body(names: list[str] | None, **changes: Any) -> dict[str, Any]:
    """Rana holds Q♠ 10♠ and plays first, Sami Q♥ 10♥, Omar Q♦ 10♦, Lina the rest."""
    return trix_body(names=names, **changes)


def claim_cases() -> Iterator[Callable[[], object]]:
    """Every refusal of the claim check (rules/claims: check.py, position.py), named and not."""
    dealt = trix_claim_body(None)["hands"]
    rest = dealt["3"]
    empty = {"0": ["QS", "TS"], "1": [], "2": ["QD", "TD"], "3": [*rest, "QH", "TH"]}
    for names in (None, NAMES):
        bodies = [
            claim_body(names, claim=[0, 0]),
            claim_body(names, claim={"seat": 0, "min_score": 0.5}),
            claim_body(names, time_limit=61),
            claim_body(names, time_limit=True),
            claim_body(names, hearts_broken="yes"),
            claim_body(names, dealt=1),
            claim_body(names, dealer=7),
            claim_body(names, to_play=1),
            claim_body(names, current_trick=["4S", "5S", "6S", "7S"]),
            claim_body(names, hands={**SPADES, "1": ["AS", "2S"]}),
            claim_body(names, hands={**SPADES, "1": ["AS", "AS"]}),
            claim_body(names, hands={**SPADES, "0": ["3S"]}, current_trick=["3S"]),
            claim_body(names, hands={**SPADES, "2": ["QS"]}),
            claim_body(names, hands={**SPADES, "2": ["QS", "JS", "8S"]}),
            claim_body(names, current_trick=["4S"]),
            claim_body(names, current_trick=["4S", "5S"], hands={**SPADES, "1": ["AS"]}),
            claim_body(names, hands={**SPADES, "0": [r + "H" for r in "AKQJT98765432"] + ["2C"]}),
            claim_body(names, doubled=["KH"]),
            claim_body(names, contracts=["king"], doubled=["KH", "KH"]),
            claim_body(names, rules={"doubling": False}, contracts=["king"], doubled=["KH"]),
            trix_claim_body(names, leader=1),
            trix_claim_body(names, layout={"S": ["TS", "JS"]}),
            trix_claim_body(names, hands={**dealt, "1": ["QH", "QS"]}),
            trix_claim_body(names, hands={**dealt, "3": ["AS"]}),
            trix_claim_body(names, hands={**dealt, "3": rest[1:]}),
            trix_claim_body(names, out="1"),
            trix_claim_body(names, out=[1, 1]),
            trix_claim_body(names, out=[1]),
            trix_claim_body(names, hands=empty),
            trix_claim_body(names, hands=empty, out=[1], to_play=1),
        ]
        for rules, contracts, hands, trick in (
            ({}, ["collections"], {"0": ["3S"], "1": ["KS"]}, ["2S", "2H"]),
            ({"heart_lead": "only_hearts"}, ["king"], {"0": ["3S"], "1": ["KS", "AS"]}, ["2H"]),
            ({"heart_lead": "broken"}, ["king"], {"0": ["3S"], "1": ["KS", "AS"]}, ["2H"]),
            ({"penalty_discard": True}, ["diamonds"], {"0": ["3S"], "1": ["2D"]}, ["2S", "KH"]),
        ):
            seats = {**hands, "2": ["QS", "JS"], "3": ["TS", "9S"]}
            changes = {"rules": rules, "contracts": contracts, "current_trick": trick}
            bodies.append(claim_body(names, hands=seats, **changes))
        bodies.append({**claim_body(names), "exact_time_limit": 61})
        for body in bodies:
            yield lambda b=body: check_claim(b)


def rule_set_cases(rng: random.Random) -> Iterator[Callable[[], object]]:
    bad = [
        [],
        {"foo": 1, 7: 2},
        {"heart_lead": "x", "doubling": "yes", "kingdoms": 2},
        {"values": 3},
        {"values": {"ace": 1, "king": -1, "queen": "x", "diamond": 10001, "trick": 1.5}},
        {"values": {"trix": [1, 2, 3]}},
        {"values": {"king": True}},
        {"king_order": [0, 0, 1, 2]},
        {"king_order": "0123"},
        {"kingdom_order": "custom"},
        {"king_order": [0, 1, 2, 3]},
        {"kingdoms": True},
        {"contract_order": ["trix", "king"]},
        {"dealer": "rotates"},
        {"rounds": 3},
        {"rounds": 2},
        {"team_kingdoms": True, "kingdom_order": "seven_of_hearts", "kingdoms": 1},
        {"first_dealer": 2},
        {"dealer": "first_any", "first_dealer": 5},
        {
            "contract_order": ["trix", "king", "queens", "diamonds", "collections"],
            "combination": "any",
        },
    ]
    for data in bad:
        yield lambda d=data: RuleSet.from_dict(d)
    fields = ["doubling", "heart_lead", "combination", "values", "king_order", "kingdoms", "x"]
    junk: list[object] = [None, 1, -3, "any", "on", [1], {"king": 1}, True, 2.5]
    for _ in range(150):
        data = {rng.choice(fields): rng.choice(junk) for _ in range(rng.randrange(1, 4))}
        yield lambda d=data: RuleSet.from_dict(d)


def capture_cases(rng: random.Random) -> Iterator[Callable[[], object]]:
    shapes: list[object] = [
        3,
        {"kings": 1, 5: 2},
        {"king_of_hearts": 5},
        {"king_of_hearts": {"taker": 1, "x": 2}},
        {"king_of_hearts": {"taker": 7, "doubled_by": "a"}},
        {"queens": 3},
        {"queens": {"KH": {"taker": 1}}},
        {"queens": {"QS": {"taker": 1}, "qs": {"taker": 2}}},
        {"queens": {"QS": {"taker": 9}, "QH": {"taker": 1, "doubled_by": -1}}},
        {"diamonds": [1, 2], "tricks": "x"},
        {"trix_order": [0, 1]},
    ]
    for shape in shapes:
        yield lambda s=shape: Captures.from_dict(s)
    values: list[object] = [0, 1, 2, 3, 4, -1, "x", None, True, 13, 14]
    for _ in range(300):
        data: dict[str, Any] = {}
        if rng.random() < 0.4:
            data["king_of_hearts"] = {"taker": rng.choice(values), "doubled_by": rng.choice(values)}
        if rng.random() < 0.4:
            data["queens"] = {
                q: {"taker": rng.choice(values)}
                for q in rng.sample(["QS", "QH", "QD", "QC", "QX"], 3)
            }
        if rng.random() < 0.4:
            data["diamonds"] = [rng.choice(values) for _ in range(rng.choice([3, 4, 4, 4]))]
        if rng.random() < 0.4:
            data["trix_order"] = [rng.choice(values) for _ in range(4)]
        yield lambda d=data: Captures.from_dict(d)


def deal_cases(rng: random.Random) -> Iterator[Callable[[], object]]:
    """Well-shaped captures that break R11, with and without names."""
    for names in (None, NAMES):
        for rules, contracts, caps in [
            (RuleSet(), [K], Captures()),
            (RuleSet(), [Q], Captures()),
            (RuleSet(), [D], Captures()),
            (RuleSet(), [C], Captures()),
            (RuleSet(), [T], Captures()),
            (ANY, [K, Q], Captures(king_of_hearts=Capture(1))),
            (RuleSet(), [D], Captures(diamonds=(3, 4, 5, 0))),
            (RuleSet(), [C], Captures(tricks=(3, 4, 5, 0))),
            (RuleSet(), [T], Captures(trix_order=(0, 0, 0, 1))),
            (RuleSet(), [T], Captures(trix_order=(0, 0, 1, 1))),
            (RuleSet(), [T], Captures(trix_order=(2, 2, 2, 2))),
            (NO_DOUBLING, [K], Captures(king_of_hearts=Capture(2, 1))),
            (NO_DOUBLING, [Q], Captures(queens=queens(0, 1, 2, 3, doubled=3))),  # type: ignore[arg-type]
            (
                ANY,
                [Q, D],
                Captures(queens=queens(0, 1, 2, 3), diamonds=(4, 4, 5, 0), tricks=(4, 4, 4, 1)),
            ),  # type: ignore[arg-type]
            (RuleSet(), [K], Captures(king_of_hearts=Capture(2), tricks=(13, 0, 0, 0))),
            (
                ANY,
                [Q, D],
                Captures(queens=queens(0, 0, 0, 1), diamonds=(5, 8, 0, 0), tricks=(1, 2, 5, 5)),
            ),  # type: ignore[arg-type]
            (
                ANY,
                [K, Q, D],
                Captures(
                    king_of_hearts=Capture(0),
                    queens=queens(0, 0, 0, 0),
                    diamonds=(13, 0, 0, 0),
                    tricks=(3, 4, 3, 3),
                ),
            ),  # type: ignore[arg-type]
            (
                ANY,
                [K, Q],
                Captures(king_of_hearts=Capture(0), queens=queens(0, 0, 0, 0), tricks=(0, 5, 4, 4)),
            ),  # type: ignore[arg-type]
        ]:
            yield lambda r=rules, c=contracts, x=caps, n=names: score_deal(r, c, x, n)
    yield lambda: check_contracts(RuleSet(), [])
    yield lambda: check_contracts(RuleSet(), [K, K, Q])
    yield lambda: check_contracts(RuleSet(), [K, Q, T])
    yield lambda: check_contracts(ANY, [K, T])
    yield lambda: check_contracts(ANY, [C, C])
    yield lambda: check_contracts(RuleSet(combination=Combination.ALL_FOUR), [K, Q])
    counts = list(range(14)) + [7, 3, 3, 0, 0]
    for _ in range(400):
        rules = rng.choice([RuleSet(), NO_DOUBLING, ANY, RuleSet(combination=Combination.ALL_FOUR)])
        contracts = rng.sample([K, Q, D, C, T], rng.choice([1, 1, 2, 3]))
        seats = [0, 1, 2, 3]
        caps = Captures(
            king_of_hearts=Capture(rng.choice(seats), rng.choice([None, *seats])),
            queens=tuple(
                Capture(rng.choice(seats), rng.choice([None, None, *seats])) for _ in range(4)
            ),  # type: ignore[arg-type]
            diamonds=tuple(rng.choice(counts) for _ in range(4)),  # type: ignore[arg-type]
            tricks=tuple(rng.choice(counts) for _ in range(4)) if rng.random() < 0.8 else None,  # type: ignore[arg-type]
            trix_order=tuple(rng.choice(seats) for _ in range(4)),  # type: ignore[arg-type]
        )
        names = NAMES if rng.random() < 0.5 else None
        yield lambda r=rules, c=contracts, x=caps, n=names: score_deal(r, c, x, n)
        yield lambda r=rules, c=contracts, x=caps, n=names: validate_captures(r, c, x, n)


def game_cases() -> Iterator[Callable[[], object]]:
    yield lambda: Game.start(RuleSet(), 0, NAMES[:3])
    yield lambda: Game.start(RuleSet(), 0, "Rana")  # type: ignore[arg-type]
    yield lambda: Game.start(RuleSet(), 0, ["Rana", " ", "Omar", "Lina"])
    yield lambda: Game.start(RuleSet(), 0, ["Rana", "Sami", "rana", "Lina"])
    yield lambda: Game.start(RuleSet(), 9, NAMES)
    custom = RuleSet(kingdom_order=KingdomOrder.CUSTOM, king_order=(2, 0, 1, 3))
    yield lambda: Game.start(custom, 1, NAMES)
    game = Game.start(RuleSet(), 1, NAMES)
    played = game.record(DealEntry((Q,), Captures(queens=queens(0, 1, 2, 3))))  # type: ignore[arg-type]
    yield lambda: played.record(DealEntry((Q,), Captures(queens=queens(0, 1, 2, 3))))  # type: ignore[arg-type]
    yield lambda: game.record(DealEntry((K,), Captures(king_of_hearts=Capture(0)), king=9))
    yield lambda: game.record(DealEntry((K,), Captures(king_of_hearts=Capture(0)), king=2))
    yield lambda: game.record(RedealEntry("redeal", 0, Contract.DIAMONDS))
    yield lambda: game.record(RedealEntry("bogus"))  # type: ignore[arg-type]
    yield lambda: game.record(RedealEntry("redeal", seat=9))
    four = finished_short_game(RuleSet(kingdoms=1))
    left = Game.replay(RuleSet(), 0, NAMES, four.log[:4])
    yield lambda: left.record(DealEntry((T,), Captures(trix_order=(0, 1, 2, 3))))
    yield lambda: left.record(RedealEntry("redeal", 1, Contract.TRIX))
    yield lambda: four.record(DealEntry((T,), Captures(trix_order=(0, 1, 2, 3))))
    team = finished_short_game(RuleSet(kingdoms=1, partnership=True))
    yield lambda: team.record(DealEntry((T,), Captures(trix_order=(0, 1, 2, 3))))
    tied = finished_short_game(RuleSet(kingdoms=1, tiebreak=Tiebreak.EXTRA_DEAL))
    yield lambda: tied.record(DealEntry((T,), Captures(trix_order=(0, 1, 2, 3)), king=2))
    seven = RuleSet(kingdom_order=KingdomOrder.SEVEN_OF_HEARTS, kingdoms=4)
    kingdom = finished_short_game(seven)
    yield lambda: kingdom.record(DealEntry((K,), Captures(king_of_hearts=Capture(0))))
    yield lambda: kingdom.record(RedealEntry("redeal", 0, Contract.QUEENS))
    ordered = Game.start(RuleSet(contract_order=(T, Q, K, D, C)), 0, NAMES)
    yield lambda: ordered.record(DealEntry((K,), Captures(king_of_hearts=Capture(0))))
    yield lambda: ordered.record(RedealEntry("redeal", 0, K))
    closing = Game.start(RuleSet(trix_closed_suit=ClosedSuit.REPLAY), 0, NAMES)
    yield lambda: game.record(RedealEntry("redeal", contract=T, reason="closed_suit"))
    yield lambda: closing.record(RedealEntry("misdeal", contract=T, reason="closed_suit"))
    all_four = Game.start(RuleSet(combination=Combination.ALL_FOUR), 0, NAMES)
    yield lambda: all_four.record(DealEntry((K,), Captures(king_of_hearts=Capture(0))))
    yield lambda: all_four.record(RedealEntry("redeal", 0, K))
    for data in (
        3,
        {"kind": "x"},
        {"kind": "redeal", "note": 3},
        {"kind": "redeal", "seat": 9},
        {"kind": "redeal", "contract": "kings"},
        {"kind": "redeal", "foo": 1},
        {"kind": "redeal", "reason": "jacks"},
        {"contracts": "trix", "captures": {}, "foo": 1},
        {"contracts": 5, "captures": {}},
        {"contracts": ["trix", 3], "captures": {}},
    ):
        yield lambda d=data: entry_from_dict(d)


def event_cases() -> Iterator[Callable[[], object]]:
    """Club nights' refusals that need no database (the others: tests/web/events/test_api.py)."""
    from scorekeeper.rules.events.draw import draw_round, redraw_round, replace_player
    from scorekeeper.rules.events.standings import check_places
    from scorekeeper.store.events.input import parse_leaving_body, parse_new_event_body

    drawn = draw_round(["A", "B", "C", "D", "E"], [], 1)
    yield lambda: draw_round(["A", "B"], [], 1)
    yield lambda: draw_round(["A", "B", "C", "a"], [], 1)
    yield lambda: replace_player(drawn, drawn.sitting_out[0], "F")
    yield lambda: replace_player(drawn, drawn.tables[0].seats[0], drawn.tables[0].seats[1])
    yield lambda: redraw_round(drawn, [], drawn.tables[0].seats[0], [1], "s")
    from scorekeeper.rules.events.tables import named_first_king

    yield lambda: named_first_king(DealEntry((T,), Captures(trix_order=(0, 1, 2, 3))))
    yield lambda: parse_leaving_body({"player": 3}, substitute=False)
    yield lambda: parse_leaving_body({"player": "A", "colour": 1}, substitute=False)
    yield lambda: parse_new_event_body({"name": "N", "players": ["A", "B", "C", "D"], "x": 1})
    yield lambda: check_places([1, 2])
    base = {"name": "N", "players": ["A", "B", "C", "D"]}
    for bad in (
        {"circle": 5}, {"name": ""}, {"players": "A"}, {"partnership": 1}, {"rounds": 0},
        {"round": "x"}, {"round": "kingdom", "rules": {"kingdoms": 4}},
        {"partnership": True, "rules": {"partnership": False}},
        {"draw": "random"}, {"draw": "rotation"},
    ):  # fmt: skip
        yield lambda b=bad: parse_new_event_body({**base, **b})


EVENT_STORE_CODES = {"event_closed", "event_round_locked", "event_no_such_round"}
EVENT_STORE_CODES |= {"event_all_rounds_drawn", "event_not_a_player"}
EVENT_STORE_CODES |= {"event_table_finished", "event_redraw_not_last", "event_player_left"}
"""Refusals of a club night's state: they need a database (tests/web/events/test_api.py)."""


def request_cases() -> Iterator[Callable[[], object]]:
    yield lambda: check_deal({"foo": 1, "bar": 2})
    yield lambda: check_deal({"contracts": ["king"]})
    yield lambda: check_deal({"contracts": ["king"], "king": 9, "captures": {}})
    yield lambda: check_deal({"contracts": ["king"], "captures": {}, "names": ["a"]})
    yield lambda: check_play({"contracts": ["king"], "king": "x", "tricks": []})
    for names in (None, NAMES):
        body = {"contracts": ["king"], "king": 0, "dealer": 2, "tricks": [], "names": names}
        yield lambda b=body: check_play(b)
    yield lambda: check_redeal({"contract": "king", "hand": "KH"})
    yield lambda: parse_card_list("x", "hand")
    yield lambda: parse_hands({"0": [], "7": []})
    yield lambda: parse_hands([1])
    yield lambda: parse_tricks(3)
    yield lambda: parse_plays(3)
    yield lambda: parse_plays(["zz", "1S", 5])
    yield lambda: parse_names(["a"])
    yield lambda: parse_seat(9, "king", "The king")
    yield lambda: Card.parse("Z")
    yield lambda: Card.parse(None)  # type: ignore[arg-type]
    yield lambda: Suit.parse("X")
    yield lambda: Rank.parse(" 1 ")
    yield lambda: Contract.parse(3)
    unseen = ["\u200b", "a\u202eb", "\udfff", "d"]  # invisible, bidi control, unstorable
    for raw in ("abc", ["a", "b"], ["a"], [1, "", "x" * 41, "a\nb"], ["a", "b", "A", "c"], unseen):
        yield lambda r=raw: clean_players(r)
    yield lambda: parse_new_game_body({"players": NAMES, "foo": 1})
    yield lambda: parse_new_game_body({"players": NAMES, "first_king": 9})
    yield lambda: parse_deal_body({"contracts": ["king"]})
    for raw in ("", "a b", 7, "x" * 90):
        yield lambda r=raw: take_entry_id({"entry_id": r})
    yield lambda: parse_deal_body({"contracts": ["king"], "captures": {}, "king": "x"})
    yield lambda: parse_deal_body({"contracts": [], "captures": {}})
    yield lambda: parse_deal_body({"contracts": ["king"], "captures": {}, "foo": 1})
    yield lambda: parse_redeal_body({})
    yield lambda: parse_redeal_body({"kind": "redeal", "note": "x" * 201})
    yield lambda: parse_redeal_body({"kind": "redeal", "x": 1})
    yield lambda: parse_deal_body(5, "entry")
    yield lambda: parse_redeal_body(["kind"], "entry")
    yield lambda: check_places(4)
    yield lambda: check_room(GAME_WRITES_MAX + 1)
    redealt = Game.start(RuleSet(), 0, NAMES)
    for _ in range(REDEALS_IN_A_ROW_MAX):
        redealt = redealt.record(RedealEntry("misdeal"))
    yield lambda: redealt.record(RedealEntry("misdeal"))
    for position in ([1], {"n": 0}, {"n": 1, "king": 7}, {"n": 1, "game": 3}, {"n": 1, "x": 1}):
        yield lambda p=position: take_position_and_time({"position": p})
    for played in ("2026-12-03T21:42:05", 7):
        yield lambda p=played: take_position_and_time({"played_at": p})
    moment = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    yield lambda: check_played_at(moment + timedelta(hours=1), moment, moment)
    yield lambda: check_played_at(moment - timedelta(hours=1), moment, moment)
    later = finished_short_game(RuleSet(kingdoms=1))
    for error_thunk in (
        lambda: later.record(DealEntry((T,), Captures(trix_order=(0, 1, 2, 3)))),
        lambda: check_contracts(RuleSet(), [K, K]),
        lambda: score_deal(RuleSet(), [T], Captures(trix_order=(0, 0, 0, 1)), NAMES),
    ):
        try:
            error_thunk()
        except RulesError as error:
            for named in LATER_ENTRIES:
                yield lambda e=error, w=named: _raise(breaks_later(3, w, e))


LATER_ENTRIES = [
    EntryName(part("word.deal_n", n=5), "deals.5"),
    EntryName(part("word.redeal_after", n=4), "log.5"),
    EntryName(part("word.misdeal_after", n=4), "log.5"),
    EntryName(part("word.first_redeal"), "log.5"),
    EntryName(part("word.first_misdeal"), "log.5"),
]
"""How an edit names the later entry it would break (game_store.entry_name): the English
words must be the catalogue's, or the messages would not rebuild from their templates."""


def _raise(error: RulesError) -> None:
    raise error


def corpus() -> list[Problem]:
    rng = random.Random(20261130)
    thunks = [
        *hand_cases(),
        *trick_cases(rng),
        *trix_cases(rng),
        *rule_set_cases(rng),
        *capture_cases(rng),
        *deal_cases(rng),
        *game_cases(),
        *request_cases(),
        *claim_cases(),
        *event_cases(),
    ]
    return [problem for thunk in thunks for problem in errors_of(thunk)]


CORPUS = corpus()


def test_the_corpus_is_large() -> None:
    assert len(CORPUS) > 1500


def test_every_problem_of_the_corpus_is_its_templates_english() -> None:
    for problem in CORPUS:
        assert problem.key in PROBLEMS
        assert english(problem.key, problem.params) == problem.message


@pytest.mark.parametrize("language", ["ar", "es", "it", "pt", "ru"])
def test_every_problem_of_the_corpus_renders_in_each_language(language: str) -> None:
    """Each translation takes the params the engine gives (no missing or stray slot)."""
    translations = Translations.load(str(PROJECT_ROOT / "translations"), [language])
    for problem in CORPUS:
        said = render(problem.key, problem.params, translations)
        assert "%(" not in said, (language, problem.key)


def _plain(value: Any) -> Any:
    """``value`` as JSON has it (tuples are lists), to compare with the fixture."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=repr))


BEFORE = json.loads((Path(__file__).parent / "engine_sentences.json").read_text("utf-8"))
"""One problem of each key, with the message the engine wrote itself before its sentences
were written once (then the corpus test compared that English with a copy of each
template)."""


def test_the_engine_says_what_it_said_when_its_english_was_written_twice() -> None:
    said = {(p.key, json.dumps(_plain(p.params), sort_keys=True)): p.message for p in CORPUS}
    for case in BEFORE:
        key = (case["key"], json.dumps(case["params"], sort_keys=True))
        assert key in said, f"the corpus no longer makes {case['key']} with these params"
        assert said[key] == case["message"]
        assert english(case["key"], case["params"]) == case["message"]


def _keys(params: dict[str, Any]) -> Iterator[str]:
    for value in params.values():
        if isinstance(value, dict) and "part" in value:
            yield value["part"]
            yield from _keys(value["params"])
        elif isinstance(value, dict) and "join" in value:
            yield f"join.{value['join']}"
            for item in value["items"]:
                yield from _keys({"item": item})


def verdicts() -> list[tuple[dict[str, Any], str]]:
    """A claim's every kind of verdict: (the part, the engine's English sentence)."""
    from scorekeeper.rules.cards import KING_OF_HEARTS
    from scorekeeper.rules.claims import ClaimResult
    from scorekeeper.rules.claims.check import claim_verdict

    rules, k, c, t = RuleSet(), (Contract.KING,), (Contract.COLLECTIONS,), (Contract.TRIX,)
    king_in_play = [KING_OF_HEARTS.bit, 0, 0, 0]
    cases = [
        (ClaimResult(None, None, [], False), k, 0, 2.5),
        (ClaimResult(True, 0, [], True), c, 0, 20),
        (ClaimResult(True, 0, [], True), k, 0, 20),
        (ClaimResult(True, 200, [], True), t, 200, 20),
        (ClaimResult(True, -25, [], True), (Contract.QUEENS,), -50, 20),
        (ClaimResult(True, None, [], True), (Contract.QUEENS,), -50, 20),
        (ClaimResult(False, -30, [0], True), c, 0, 20),
        (ClaimResult(False, None, [0], True), c, 0, 20),
    ]
    return [
        claim_verdict(result, rules, contracts, "Sami", claimed, limit, king_in_play)
        for result, contracts, claimed, limit in cases
    ]


def test_a_claims_verdict_is_the_engines_sentence_in_every_language(app: Any) -> None:
    """One sentence for a claim's verdict: the text layer renders the engine's part into the
    engine's own English, and the catalogue has it in every language."""
    from flask_babel import refresh

    from scorekeeper.text.disputes import claim_sentence

    with app.test_request_context("/?lang=en"):
        for verdict, message in verdicts():
            assert claim_sentence(verdict).translate(ISOLATES) == message
    with app.test_request_context("/?lang=ar"):
        refresh()  # the app context is shared with the English request above
        for verdict, message in verdicts():
            assert claim_sentence(verdict) != message  # translated, not English


def test_the_corpus_meets_every_template() -> None:
    seen = {p.key for p in CORPUS} | {k for p in CORPUS for k in _keys(p.params)}
    seen |= {k for verdict, _ in verdicts() for k in [verdict["part"], *_keys(verdict["params"])]}
    # These need a database: the next tests (and tests/web/events/test_api.py).
    assert set(PROBLEMS) - seen == {"nothing_to_undo", "entry_id_reused"} | EVENT_STORE_CODES | {
        "deal_already_recorded",
        "position_moved",
        "position_moved.king",
    }
    assert set(WORDS) - seen - {"join.plus"} == set()


def test_services_nothing_to_undo(app: Any) -> None:
    from scorekeeper.store import games as services

    loaded, _ = services.create_game(NAMES, 0, RuleSet())
    with pytest.raises(RulesError) as caught:
        services.undo_last(loaded.id, None)
    problem = caught.value.problems[0]
    assert english(problem.key, problem.params) == problem.message


def test_services_entry_id_reused(app: Any) -> None:
    from scorekeeper.store import games as services

    loaded, _ = services.create_game(NAMES, 0, RuleSet())
    trix = DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1)))
    services.record_deal(loaded.id, trix, entry_id="e1")
    with pytest.raises(RulesError) as caught:
        services.record_deal(
            loaded.id, DealEntry((K,), Captures(king_of_hearts=Capture(1))), entry_id="e1"
        )
    problem = caught.value.problems[0]
    assert problem.code == "entry_id_reused"
    assert english(problem.key, problem.params) == problem.message


def test_services_position_taken(app: Any) -> None:
    from scorekeeper.store import games as services
    from scorekeeper.store.positions import Position

    loaded, _ = services.create_game(NAMES, 0, RuleSet())
    trix = DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1)))
    services.record_deal(loaded.id, trix)
    keys = set()
    for position in (Position(1), Position(3), Position(2, 1)):
        with pytest.raises(RulesError) as caught:
            services.record_deal(loaded.id, trix, position=position)
        problem = caught.value.problems[0]
        keys.add(problem.key)
        assert english(problem.key, problem.params) == problem.message
    assert keys == {"deal_already_recorded", "position_moved", "position_moved.king"}


def test_the_english_catalog_has_no_stray_percent() -> None:
    for key, template in MESSAGES.items():
        for text in template[:2] if isinstance(template, Plural) else (template,):
            stripped = text.replace("%%", "")
            for piece in stripped.split("%")[1:]:
                assert piece.startswith("("), (key, text)


def test_contract_labels_match_the_engine() -> None:
    for contract in Contract:
        assert messages.CONTRACT_LABELS[contract] == contract.label
        assert messages.contract_label(contract.value) == contract.label
    assert messages.describe_contracts([K, Q]) == "King of Hearts + Queens"


def test_pages_count_seats_from_one_and_the_api_from_zero() -> None:
    from scorekeeper.rules.errors import Problem
    from scorekeeper.text.messages import translate_problem, translate_problem_dict

    message = "QS is in both seat 3's and seat 0's hands."
    problem = Problem(
        "hands_overlap", message, "R1", "hands.0", {"card": "QS", "other": 3, "seat": 0}
    )
    assert translate_problem(problem) == "QS is in both seat 4's and seat 1's hands."
    assert translate_problem_dict(problem)["message"] == message
