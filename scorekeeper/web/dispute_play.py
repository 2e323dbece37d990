"""The card-by-card check: a typed play record, judged by the engine, laid out for the page.

:func:`read_record` turns the form (four hands, the tricks or the Trix
plays) into a :class:`PlayRecord`; :func:`judge` asks the engine
(:func:`scorekeeper.rules.checks.check_play`, the API's own check) and
gathers what the page shows: the verdict, every violation with its trick,
player, card and rule, R10's ruling, the derived captures and the scores.
:func:`picker_state` is what the tap-based picker asks after every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.loaded import LoadedGame
from scorekeeper.messages import translate_problem
from scorekeeper.rules.captures import Captures
from scorekeeper.rules.cards import FULL_DECK, Card, Suit, cards_of
from scorekeeper.rules.checks import check_play
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.trickplay import MUST_DISCARD, MUST_FOLLOW, first_leader, plan_for
from scorekeeper.rules.tricks import illegal_reason, legal_cards, replay_tricks
from scorekeeper.rules.trix import Layout, replay_trix
from scorekeeper.web import dispute_text as text
from scorekeeper.web.dispute_input import Entered, card_text
from scorekeeper.web.dispute_text import gettext, ngettext
from scorekeeper.web.dispute_timeline import (
    Position,
    TrickRow,
    TrixTurn,
    dealt_from_tricks,
    dealt_from_trix,
    held_before,
    masks,
    passes_with_play,
    playable,
    trick_position,
    trick_rows,
    trix_position,
    trix_turns,
)

DOUBLEABLE = ("KH", "QS", "QH", "QD", "QC")


@dataclass(frozen=True)
class Desk:
    """Where a dispute page is used: on its own, for a game, or for one of its deals."""

    rules: RuleSet
    names: tuple[str, ...]
    loaded: LoadedGame | None = None
    n: int | None = None
    """The recorded deal being checked."""
    contracts: tuple[Contract, ...] | None = None
    """Fixed by the deal being checked; None: chosen on the form."""
    king: int | None = None
    """Fixed by the deal or the game; None: chosen on the form."""
    choices: tuple[Contract, ...] = ALL_CONTRACTS
    """The contracts the form offers when it asks."""


@dataclass(frozen=True)
class PlayRecord:
    """A deal as played, card by card (API.md ``check/play``)."""

    rules: RuleSet
    contracts: tuple[Contract, ...]
    king: int
    names: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...] | None
    doubled: tuple[Card, ...] = ()
    tricks: tuple[tuple[Card, ...], ...] = ()
    plays: tuple[Card | None, ...] = ()

    @property
    def trix(self) -> bool:
        return self.contracts == (Contract.TRIX,)

    def body(self) -> dict[str, Any]:
        """The record as ``POST /api/v1/check/play`` takes it."""
        body: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "contracts": [c.value for c in self.contracts],
            "king": self.king,
            "names": list(self.names),
        }
        if self.hands is not None:
            body["hands"] = {str(s): [str(c) for c in hand] for s, hand in enumerate(self.hands)}
        if self.trix:
            body["plays"] = ["pass" if c is None else str(c) for c in self.plays]
        else:
            body["tricks"] = [[str(c) for c in trick] for trick in self.tricks]
            body["doubled"] = [str(c) for c in self.doubled]
        return body

    def fields(self) -> dict[str, str | list[str]]:
        """The record as the form's fields, to carry it to "Apply" (hidden inputs)."""
        out: dict[str, str | list[str]] = {"king": str(self.king)}
        out["contract"] = ",".join(c.value for c in self.contracts)
        for seat, hand in enumerate(self.hands or ((),) * 4):
            out[f"hands-{seat}"] = card_text(hand)
        out["tricks"] = "\n".join(card_text(trick) for trick in self.tricks)
        out["plays"] = card_text(self.plays)
        out["doubled"] = [str(c) for c in self.doubled]
        return out


# --- reading the form ------------------------------------------------------------------------


def read_record(entered: Entered, desk: Desk, need_play: bool = True) -> PlayRecord | None:
    """The record typed on the form; None (with errors on ``entered``) when it is unusable."""
    contracts = desk.contracts or _contracts(entered, desk)
    king = desk.king
    if king is None:
        king = entered.seat("king", gettext("Choose who was king and dealt this deal."))
    hands = read_hands(entered, desk.names)
    trix = contracts == (Contract.TRIX,)
    doubled = () if trix else _doubled(entered, contracts or ())
    tricks = () if trix else tuple(tuple(t) for t in entered.card_lines("tricks"))
    plays = tuple(entered.plays("plays")) if trix else ()
    if need_play and entered.ok and not (plays if trix else tricks):
        where, what = ("plays", _NO_PLAYS) if trix else ("tricks", _NO_TRICKS)
        entered.add(where, gettext(what))
    if not entered.ok or contracts is None or king is None:
        return None
    record = PlayRecord(desk.rules, contracts, king, desk.names, hands, doubled, tricks, plays)
    if hands is not None and not trix:
        _check_holders(entered, record)
    return record if entered.ok else None


_NO_TRICKS = "Enter the tricks: one line per trick, its cards in play order, leader first."
_NO_PLAYS = "Enter the plays: every turn in order, a card or “pass”."


def _check_holders(entered: Entered, record: PlayRecord) -> None:
    """A card typed in the wrong seat's place: say who held it (the engine says "seat 2")."""
    assert record.hands is not None
    rows = trick_rows(record.rules, record.contracts, record.king, record.tricks)
    dealt, seen = masks(record.hands), 0
    held = list(dealt)
    for row in rows:
        for seat, card in row.plays:
            if seen & card.bit:
                return  # played twice: the engine's own message says where
            if not held[seat] & card.bit:
                holder = next(s for s in range(4) if dealt[s] & card.bit)
                message = gettext(
                    "Trick %(trick)d: %(player)s plays %(card)s, but %(holder)s held it. Type "
                    "each trick's cards in play order, starting with its leader (here %(leader)s).",
                    trick=row.number,
                    player=record.names[seat],
                    card=card.pretty,
                    holder=record.names[holder],
                    leader=record.names[row.leader],
                )
                entered.add("tricks", message)
                return
            held[seat] &= ~card.bit
            seen |= card.bit


def _contracts(entered: Entered, desk: Desk) -> tuple[Contract, ...] | None:
    raw = entered.text("contract")
    chosen = tuple(c for c in desk.choices if c.value in raw.split(","))
    if not chosen or len(chosen) != len(raw.split(",")):
        entered.add("contract", gettext("Choose the contract that was announced."))
        return None
    return chosen


def _doubled(entered: Entered, contracts: Sequence[Contract]) -> tuple[Card, ...]:
    values = [v for v in entered.all("doubled") if v in DOUBLEABLE]
    if len(values) != len(entered.all("doubled")):
        entered.add("doubled", gettext("Choose among the cards listed."))
    return tuple(Card.parse(v) for v in values)


def read_hands(entered: Entered, names: Sequence[str]) -> tuple[tuple[Card, ...], ...] | None:
    """The four hands (None: all left blank); three full hands give the fourth."""
    typed = [entered.cards(f"hands-{seat}") for seat in range(4)]
    if not any(typed):
        return None
    _repeats(entered, typed, names)
    blank = [seat for seat in range(4) if not typed[seat]]
    if len(blank) == 1 and all(len(typed[s]) == 13 for s in range(4) if s != blank[0]):
        taken = sum(c.bit for hand in typed for c in hand)
        typed[blank[0]] = cards_of(FULL_DECK & ~taken)
    for seat, hand in enumerate(typed):
        if len(hand) != 13:
            entered.add(f"hands-{seat}", _hand_size(names[seat], len(hand)))
    return tuple(tuple(hand) for hand in typed)


def _repeats(entered: Entered, typed: list[list[Card]], names: Sequence[str]) -> None:
    owner: dict[Card, int] = {}
    for seat, hand in enumerate(typed):
        for card in hand:
            if card in owner:
                entered.add(f"hands-{seat}", _repeat(card, seat, owner[card], names))
            owner[card] = seat


def _repeat(card: Card, seat: int, other: int, names: Sequence[str]) -> str:
    if other == seat:
        return gettext("%(card)s is typed twice.", card=card.pretty)
    return gettext("%(card)s is in %(other)s's hand too.", card=card.pretty, other=names[other])


def _hand_size(player: str, count: int) -> str:
    if count == 0:
        return gettext(
            "Enter %(player)s's 13 cards too, or leave all four hands blank when every card "
            "was played.",
            player=player,
        )
    return ngettext(
        "%(player)s's hand has %(num)d card; each player is dealt 13.",
        "%(player)s's hand has %(num)d cards; each player is dealt 13.",
        count,
        player=player,
    )


def play_field(path: str | None) -> str:
    """The form field an engine problem's ``field`` concerns (``hands.2`` -> ``hands-2``)."""
    parts = (path or "").split(".")
    if parts[0] == "hands" and len(parts) > 1:
        return f"hands-{parts[1]}"
    if parts[0] in ("tricks", "plays", "doubled", "king"):
        return parts[0]
    return "contract" if parts[0] == "contracts" else ""


# --- judging ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ViolationView:
    """One illegal play, for the page: where, who, what, which rule, in words."""

    number: int
    """The trick (trick contracts) or turn (Trix)."""
    seat: int
    player: str
    card: Card | None
    rule: str
    rule_name: str
    sentence: str


@dataclass
class Judgement:
    """What the page shows of a checked record."""

    record: PlayRecord
    answer: dict[str, Any]
    """``check_play``'s answer (API.md)."""
    violations: list[ViolationView]
    ruling: str
    captures: Captures
    ruled: Captures | None
    rows: list[TrickRow] = field(default_factory=list)
    turns: list[TrixTurn] = field(default_factory=list)
    order: list[int] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return bool(self.answer["legal"])

    @property
    def scores(self) -> list[int] | None:
        scores: list[int] | None = self.answer["scores"]
        return scores

    @property
    def complete(self) -> bool:
        return self.scores is not None

    @property
    def first(self) -> ViolationView | None:
        return self.violations[0] if self.violations else None

    def marked(self, number: int, seat: int) -> bool:
        """Whether ``seat``'s play in trick (or turn) ``number`` broke a rule."""
        return any(v.number == number and v.seat == seat for v in self.violations)

    def verdict(self) -> str:
        """The headline."""
        first = self.first
        if first is not None and self.record.trix:
            return gettext(
                "Not legal: %(player)s passed on turn %(turn)d holding a playable card.",
                player=first.player,
                turn=first.number,
            )
        if first is not None:
            return gettext(
                "Not legal: %(player)s revoked on trick %(trick)d.",
                player=first.player,
                trick=first.number,
            )
        if self.complete:
            return gettext("Legal: no rule was broken.")
        return gettext("No rule broken so far; the deal is not finished.")

    def entry(self, king: int | None) -> DealEntry | None:
        """The deal to record from this check (the ruled captures); None when unfinished."""
        if self.ruled is None:
            return None
        captures, contracts = self.ruled, self.record.contracts
        keep_tricks = Contract.COLLECTIONS in contracts or len(contracts) > 1
        if not keep_tricks and captures.tricks is not None:
            captures = _without_tricks(captures)
        return DealEntry(contracts, captures, king)


def _without_tricks(captures: Captures) -> Captures:
    data = captures.to_dict()
    data.pop("tricks", None)
    return Captures.from_dict(data)


def judge(record: PlayRecord) -> Judgement:
    """Ask the engine; raise its :class:`RulesError` when the record is impossible."""
    answer = check_play(record.body())
    if record.trix:
        return _judge_trix(record, answer)
    return _judge_tricks(record, answer)


def _judge_tricks(record: PlayRecord, answer: dict[str, Any]) -> Judgement:
    rules = record.rules
    rows = trick_rows(rules, record.contracts, record.king, record.tricks)
    dealt = masks(record.hands) if record.hands else dealt_from_tricks(rows)
    views = [_trick_violation(record, rows, dealt, v) for v in answer["violations"]]
    first = views[0] if views else None
    done = sum(1 for row in rows if row.winner is not None)
    ruling = text.trick_ruling(
        rules, first.player if first else None, first.number if first else None, done
    )
    replay = replay_tricks(
        rules, record.contracts, record.king, record.tricks, record.hands, record.doubled
    )
    captures = Captures.from_dict(answer["captures"])
    return Judgement(record, answer, views, ruling, captures, replay.ruled, rows=rows)


def _trick_violation(
    record: PlayRecord, rows: list[TrickRow], dealt: list[int], found: dict[str, Any]
) -> ViolationView:
    trick, seat, code = found["trick"], found["seat"], found["code"]
    card = Card.parse(found["card"])
    hand = held_before(rows, dealt, trick, seat)
    led = rows[trick - 1].plays[0][1].suit
    if code == MUST_FOLLOW:
        held = text.suit_count(hand, led)
    elif code == MUST_DISCARD:
        held = text.pretty_cards(hand & plan_for(record.rules, record.contracts).penalty)
    else:
        held = ""
    player = record.names[seat]
    sentence = text.violation_sentence(code, player, card, trick, held)
    rule_name = str(text.RULE_NAMES.get(code, found["rule"]))
    return ViolationView(trick, seat, player, card, found["rule"], rule_name, sentence)


def _judge_trix(record: PlayRecord, answer: dict[str, Any]) -> Judgement:
    rules, names = record.rules, record.names
    turns = trix_turns(rules, record.king, record.plays)
    dealt = masks(record.hands) if record.hands else dealt_from_trix(turns)
    could = passes_with_play(turns, dealt)
    views = [
        ViolationView(
            v["turn"],
            v["seat"],
            names[v["seat"]],
            None,
            v["rule"],
            str(text.RULE_NAMES[text.TRIX_PASS]),
            text.trix_pass_sentence(names[v["seat"]], v["turn"], could.get(v["turn"], 0)),
        )
        for v in answer["violations"]
    ]
    replay = replay_trix(rules, record.king, record.plays, record.hands, names)
    ruled = replay.ruled
    order = list(ruled.trix_order) if ruled is not None and ruled.trix_order else []
    first = views[0] if views else None
    ruling = text.trix_ruling(
        rules, names, first.seat if first else None, first.number if first else None, order or None
    )
    captures = Captures.from_dict(answer["captures"])
    played = list(replay.order) + ([s for s in range(4) if s not in replay.order][:1])
    return Judgement(
        record, answer, views, ruling, captures, ruled, turns=turns, order=played if order else []
    )


# --- the picker's state ----------------------------------------------------------------------


def picker_state(record: PlayRecord) -> dict[str, Any]:
    """After the cards entered so far: whose turn, his cards, which are legal and why not."""
    if record.trix:
        turns = trix_turns(record.rules, record.king, record.plays)
        dealt = masks(record.hands) if record.hands else None
        position = trix_position(record.rules, record.king, turns, dealt)
        state = _trix_state(record, position)
    else:
        rows = trick_rows(record.rules, record.contracts, record.king, record.tricks)
        dealt = masks(record.hands) if record.hands else None
        first = first_leader(plan_for(record.rules, record.contracts), record.king)
        position = trick_position(rows, first, dealt)
        state = _trick_state(record, position)
    state["verdict"] = _verdict_so_far(record, dealt is not None, position.to_play is None)
    return state


def _verdict_so_far(record: PlayRecord, hands_known: bool, over: bool) -> dict[str, Any] | None:
    """The engine's judgement of the record so far (needs the hands until it is complete)."""
    if not (hands_known or over) or not (record.plays or record.tricks):
        return None
    judgement = judge(record)
    return {
        "legal": judgement.legal,
        "headline": judgement.verdict(),
        "ruling": judgement.ruling,
        "violations": [v.sentence for v in judgement.violations],
    }


def _cards(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def _trick_state(record: PlayRecord, position: Position) -> dict[str, Any]:
    names, seat = record.names, position.to_play
    state: dict[str, Any] = {
        "done": seat is None,
        "to_play": seat,
        "trick": [[s, str(c)] for s, c in position.trick],
        "trick_players": [names[s] for s, _ in position.trick],
        "played": _cards(position.played),
    }
    if seat is None:
        state["status"] = gettext("All 13 tricks are entered.")
        return state
    leader = names[position.leader if position.leader is not None else seat]
    state["status"] = gettext(
        "Trick %(trick)d: %(player)s to play (%(leader)s led).",
        trick=position.number,
        player=names[seat],
        leader=leader,
    )
    if position.held is None:
        state["cards"] = _cards(FULL_DECK & ~position.played)
        state["legal"] = state["cards"]
        return state
    hand = position.held[seat]
    trick = [c.index for _, c in position.trick]
    legal = legal_cards(record.rules, record.contracts, hand, trick, position.hearts_broken)
    state["cards"], state["legal"] = _cards(hand), _cards(legal)
    state["why"] = {
        str(card): translate_problem(problem)
        for card in cards_of(hand & ~legal)
        if (
            problem := illegal_reason(
                record.rules, record.contracts, hand, trick, position.hearts_broken, card.index
            )
        )
    }
    return state


def _trix_state(record: PlayRecord, position: Position) -> dict[str, Any]:
    names, seat = record.names, position.to_play
    rows = Layout(position.played).rows()
    state: dict[str, Any] = {
        "done": seat is None,
        "to_play": seat,
        "played": _cards(position.played),
        "layout": [
            "—" if row is None else f"{Card(suit, row[0]).pretty}–{Card(suit, row[1]).pretty}"
            for suit, row in zip(Suit, rows, strict=True)
        ],
        "out": [names[s] for s in position.out],
    }
    if seat is None:
        state["status"] = gettext("The deal is over: three players are out.")
        return state
    state["status"] = gettext(
        "Turn %(turn)d: %(player)s to play.", turn=position.number, player=names[seat]
    )
    if position.held is None:
        state["cards"] = _cards(FULL_DECK & ~position.played)
        state["legal"] = state["cards"]
        return state
    could = playable(position, seat)
    state["cards"], state["legal"] = _cards(position.held[seat]), _cards(could)
    if could:
        state["pass_note"] = gettext(
            "Passing now breaks R7: %(player)s can lay %(cards)s.",
            player=names[seat],
            cards=text.pretty_cards(could),
        )
    return state
