"""The card-by-card check judged: the engine's answer laid out for the page.

:func:`judge` asks the engine (:func:`scorekeeper.rules.checks.check_play`,
the API's own check) and gathers what the page shows: the verdict, every
violation with its trick, player, card and rule, R10's ruling, the derived
captures, the scores, and the deal to record from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.cards import Card
from scorekeeper.rules.checks import check_play
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.timeline import (
    TrickRow,
    TrixTurn,
    dealt_from_tricks,
    dealt_from_trix,
    held_before,
    masks,
    passes_with_play,
    trick_rows,
    trix_turns,
)
from scorekeeper.rules.trickplay import MUST_DISCARD, MUST_FOLLOW, plan_for
from scorekeeper.rules.tricks import replay_tricks
from scorekeeper.rules.trix import JACKS, replay_trix
from scorekeeper.text import disputes as text
from scorekeeper.text.disputes import gettext
from scorekeeper.web.disputes.record import PlayRecord

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
    def void(self) -> bool:
        """A Trix deal void for a closed suit (R7's house rule): dealt again, nothing scored."""
        return bool(self.answer.get("void"))

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
        if self.void:
            return gettext(
                "Void: a suit was closed before every Jack was laid (R7); the deal is dealt again."
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
    rows = trick_rows(rules, record.contracts, record.first_seat, record.tricks)
    dealt = masks(record.hands) if record.hands else dealt_from_tricks(rows)
    views = [_trick_violation(record, rows, dealt, v) for v in answer["violations"]]
    first = views[0] if views else None
    done = sum(1 for row in rows if row.winner is not None)
    ruling = text.trick_ruling(
        rules, first.player if first else None, first.number if first else None, done
    )
    replay = replay_tricks(
        rules, record.contracts, record.first_seat, record.tricks, record.hands, record.doubled
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


def _void_ruling(record: PlayRecord, turns: list[TrixTurn], void_turn: int) -> str:
    """The closed suit's ruling (R7): who completed which row, and the Jacks still held."""
    closing = turns[void_turn - 1]
    assert closing.card is not None  # a pass completes no row
    laid = sum(t.card.bit for t in turns[:void_turn] if t.card is not None)
    return text.trix_void_ruling(record.names[closing.seat], closing.card, void_turn, JACKS & ~laid)


def _judge_trix(record: PlayRecord, answer: dict[str, Any]) -> Judgement:
    rules, names = record.rules, record.names
    turns = trix_turns(rules, record.first_seat, record.plays)
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
    replay = replay_trix(rules, record.first_seat, record.plays, record.hands, names)
    ruled = replay.ruled
    order = list(ruled.trix_order) if ruled is not None and ruled.trix_order else []
    first = views[0] if views else None
    if replay.void_turn is not None:
        ruling = _void_ruling(record, turns, replay.void_turn)
    else:
        offender, turn = (first.seat, first.number) if first else (None, None)
        ruling = text.trix_ruling(rules, names, offender, turn, order or None)
    captures = Captures.from_dict(answer["captures"])
    played = list(replay.order) + ([s for s in range(4) if s not in replay.order][:1])
    return Judgement(
        record, answer, views, ruling, captures, ruled, turns=turns, order=played if order else []
    )
