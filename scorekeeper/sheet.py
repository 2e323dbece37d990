"""The printed score sheet's content, prepared from a replayed game.

Data only: no HTML, no Flask, no database. :func:`build_sheet` turns a
:class:`~scorekeeper.loaded.LoadedGame` (the game replayed from its log, as
every page sees it) into plain rows; ``templates/pdf/sheet.html`` lays them
out and :mod:`scorekeeper.pdf` renders them. Players' names are never baked
into strings: a :data:`Phrase` mixes text with :class:`Who` pieces so the
template can set each name apart (``<bdi>``, an Arabic font: :func:`scorekeeper.pdf.name_kind`).

>>> from scorekeeper.rules.captures import Captures
>>> caps = Captures(diamonds=(3, 4, 6, 0))
>>> [plain(p, ["Rana", "Sami", "Omar", "Lina"]) for p in describe_captures(caps)]
['♦ 3·4·6·0']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.loaded import LoadedGame, LogRow
from scorekeeper.rules.captures import Capture, Captures, Seats4
from scorekeeper.rules.cards import QUEENS
from scorekeeper.rules.contracts import describe
from scorekeeper.rules.game import Game, Kingdom
from scorekeeper.rules.game_log import DealRecord, RedealEntry, sum_scores
from scorekeeper.rules.ruleset import RuleSet, SelfCapture, Values
from scorekeeper.rules.scoring import expected_total, zero_sum_report


@dataclass(frozen=True)
class Who:
    """A player named in a phrase, by seat."""

    seat: int


Phrase = tuple[str | Who, ...]
"""Text with players in it: ``("K♥ ", Who(1), ", doubled by ", Who(0))``."""


@dataclass(frozen=True)
class DealLine:
    """One deal: what was played, what was taken, the scores and the running totals."""

    n: int
    contracts: str
    captures: tuple[Phrase, ...]
    scores: Seats4
    running: Seats4
    notes: tuple[str, ...] = ()
    """Rulings attached to the deal (a revoke ruling, say), printed under it."""


@dataclass(frozen=True)
class NoteLine:
    """A redeal or misdeal, printed where it happened (R8)."""

    text: Phrase


@dataclass(frozen=True)
class Subtotal:
    """A kingdom's totals and its zero-sum check (R11)."""

    totals: Seats4
    check: str
    ok: bool


@dataclass(frozen=True)
class Section:
    """A kingdom (or the tie-break's extra deals) and its lines in log order."""

    title: str
    king: int | None
    lines: tuple[DealLine | NoteLine, ...]
    subtotal: Subtotal | None


@dataclass(frozen=True)
class StandingLine:
    rank: int
    seats: tuple[int, ...]
    """One player, or two partners (R9.5)."""
    total: int
    winner: bool


@dataclass(frozen=True)
class Sheet:
    """Everything the printed sheet says about one game."""

    game_id: str
    version: int
    players: tuple[str, str, str, str]
    date: str
    updated: str
    first_king: int
    rules: tuple[str, ...]
    zero_sum_reasons: tuple[str, ...]
    sections: tuple[Section, ...]
    standings: tuple[StandingLine, ...]
    result: Phrase
    tie_break: Phrase | None
    series: tuple[Seats4, ...]
    """Running totals after each deal, starting from ``(0, 0, 0, 0)``, for the chart."""


def number(value: int) -> str:
    """A score for people, with a real minus sign.

    >>> number(-75), number(0), number(200)
    ('−75', '0', '200')
    """
    return str(value).replace("-", "−")


def plain(phrase: Phrase, names: Sequence[str]) -> str:
    """A phrase as plain text (for tests and logs)."""
    return "".join(names[p.seat] if isinstance(p, Who) else p for p in phrase)


# --- the rule set in words (R9) -----------------------------------------------------------

_SENTENCES: dict[tuple[str, object], str] = {
    ("doubling", False): "No doubling of the K♥ and queens (R3, R4).",
    ("heart_lead", "only_hearts"): "No heart lead unless the leader holds only hearts (R3).",
    ("heart_lead", "broken"): (
        "No heart lead until a heart has been discarded on another suit, "
        "unless the leader holds only hearts (R3)."
    ),
    ("first_lead", "right_of_king"): "The player on the king's right leads the first trick (R10).",
    ("trix_first", "right_of_king"): "The player on the king's right plays first in Trix (R7).",
    ("penalty_discard", True): (
        "Penalty discard: a player who cannot follow suit must discard the K♥, "
        "a diamond or a queen if he holds one (R9.4)."
    ),
    ("partnership", True): "Partnership: seats 0+2 against 1+3 (R9.5).",
    ("combination", "all_four"): "Trex Complex: all four trick contracts in one deal (R9.6).",
    ("combination", "any"): "Trex Complex: two or more trick contracts in one deal (R9.6).",
    ("inverted", True): "Inverted signs: every score is negated and the lowest total wins (R9.8).",
    ("kingdom_order", "seven_of_hearts"): (
        "Whoever is dealt the 7♥ on a kingdom's first deal is its king, or the next player "
        "on his right who has not been king (R2)."
    ),
    ("kingdoms", 1): "Short game: one kingdom of five deals (R2, R9.9).",
    ("revoke", "whole"): "Revoke: the offender pays the whole contract, the others 0 (R10).",
    ("trix_revoke", "last"): "A Trix player who passes holding a legal play finishes last (R10).",
    ("tiebreak", "extra_deal"): "A tie for first is decided at once by an extra deal (R12).",
    ("redeal_long_hearts", True): (
        "In King of Hearts, a hand of five or more hearts with the K♥ may also ask "
        "for a redeal (R8)."
    ),
}
"""One sentence per house rule value that differs from the default (API.md field values)."""


def _self_capture_sentence(rules: RuleSet) -> list[str]:
    if not rules.doubling or rules.doubled_self_capture is not SelfCapture.DOUBLE:
        return []  # without doubling, the self-capture rule never applies
    king, queen = (number(-2 * rules.sign * v) for v in (rules.values.king, rules.values.queen))
    return [
        f"A doubled K♥ or queen taken by its own holder costs double ({king} / {queen}) (R3, R4)."
    ]


def _values_sentences(values: Values) -> list[str]:
    """Changed point values (R9.7); the inverted Trix tail gets its own sentence (R7)."""
    default, out = Values(), []
    labels = {"king": "K♥", "queen": "queen", "diamond": "diamond", "trick": "trick"}
    parts = [
        f"{v} {getattr(values, k)}"
        for k, v in labels.items()
        if getattr(values, k) != getattr(default, k)
    ]
    if values.trix[:3] == default.trix[:3] and values.trix[3] == -default.trix[3]:
        out.append(f"Inverted Trix tail: the last player out scores {number(values.trix[3])} (R7).")
    elif values.trix != default.trix:
        parts.append("Trix " + "/".join(number(v) for v in values.trix))
    if parts:
        out.insert(0, ", ".join(parts)[0].upper() + ", ".join(parts)[1:] + " (R9.7).")
    return out


def describe_rules(rules: RuleSet) -> list[str]:
    """Every house rule that differs from the default, one plain sentence each.

    >>> describe_rules(RuleSet())
    ['Standard rules.']
    >>> describe_rules(RuleSet(values=Values(diamond=15, trick=10)))
    ['Diamond 15, trick 10 (R9.7).']
    """
    out: list[str] = []
    for key, value in rules.differences().items():
        if key == "doubled_self_capture":
            out += _self_capture_sentence(rules)
        elif key == "values":
            out += _values_sentences(rules.values)
        elif key == "king_order":
            seats = ", ".join(str(s) for s in value or ())
            out.append(f"Kings in an agreed order: seats {seats} (R2).")
        elif key == "kingdom_order" and value == "custom":
            continue  # said with king_order
        else:
            out.append(_SENTENCES.get((key, value), f"House rule “{key}”: {value} (R9)."))
    return out or ["Standard rules."]


# --- captures in short words ---------------------------------------------------------------


def _doubled(capture: Capture, *, brackets: bool) -> Phrase:
    if capture.doubled_by is None:
        return ()
    if capture.doubled_by == capture.taker:
        return (" (own double)",) if brackets else (", own double",)
    if brackets:
        return (" (doubled by ", Who(capture.doubled_by), ")")
    return (", doubled by ", Who(capture.doubled_by))


def _per_seat(values: Seats4) -> str:
    return "·".join(str(v) for v in values)


def describe_captures(captures: Captures) -> tuple[Phrase, ...]:
    """One short phrase per kind of capture the deal recorded (R3–R7)."""
    out: list[Phrase] = []
    kh = captures.king_of_hearts
    if kh is not None:
        out.append(("K♥ ", Who(kh.taker), *_doubled(kh, brackets=False)))
    if captures.queens is not None:
        queens: list[str | Who] = []
        for card, q in zip(QUEENS, captures.queens, strict=True):
            queens += ["; " if queens else "", f"Q{card.suit.symbol} ", Who(q.taker)]
            queens += _doubled(q, brackets=True)
        out.append(tuple(queens))
    if captures.diamonds is not None:
        out.append((f"♦ {_per_seat(captures.diamonds)}",))
    if captures.tricks is not None:
        out.append((f"Tricks {_per_seat(captures.tricks)}",))
    if captures.trix_order is not None:
        order: list[str | Who] = ["Trix: "]
        for place, seat in enumerate(captures.trix_order):
            order += [", " if place else "", Who(seat)]
        out.append(tuple(order))
    return tuple(out)


def describe_redeal(entry: RedealEntry) -> Phrase:
    """``Redeal claimed by Sami (King of Hearts announced, R8)`` or a misdeal."""
    announced = f"{entry.contract.label} announced, " if entry.contract is not None else ""
    if entry.kind == "misdeal":
        head: Phrase = (f"Misdeal: dealt again ({announced}R8)",)
    elif entry.seat is not None:
        head = ("Redeal claimed by ", Who(entry.seat), f" ({announced}R8)")
    else:
        head = (f"Redeal ({announced}R8)",)
    return (*head, f": {entry.note}") if entry.note else head


def deal_notes(entry: object) -> tuple[str, ...]:
    """Rulings a deal's log entry carries (a revoke ruling, R10).

    No entry carries one yet; this is the hook the sheet prints them from.
    """
    note = getattr(entry, "note", "")
    return (note,) if isinstance(note, str) and note else ()


# --- kingdoms -----------------------------------------------------------------------------


def _running_totals(deals: Sequence[DealRecord]) -> list[Seats4]:
    running, out = [0, 0, 0, 0], []
    for deal in deals:
        running = [a + b for a, b in zip(running, deal.scores, strict=True)]
        out.append((running[0], running[1], running[2], running[3]))
    return out


def _lines_by_deal(
    game: Game, log: Sequence[LogRow]
) -> tuple[dict[int, list[DealLine | NoteLine]], list[NoteLine]]:
    """Each deal's lines (the redeals just before it, then the deal), and trailing redeals."""
    running = _running_totals(game.deals)
    by_n = {deal.n: deal for deal in game.deals}
    lines: dict[int, list[DealLine | NoteLine]] = {}
    pending: list[NoteLine] = []
    for row in log:
        if isinstance(row.entry, RedealEntry):
            pending.append(NoteLine(describe_redeal(row.entry)))
        elif row.n is not None and row.n in by_n:
            deal = by_n[row.n]
            line = DealLine(
                deal.n,
                describe(deal.contracts),
                describe_captures(deal.captures),
                deal.scores,
                running[deal.n - 1],
                deal_notes(row.entry),
            )
            lines[deal.n] = [*pending, line]
            pending = []
    return lines, pending


def _subtotal(game: Game, kingdom: Kingdom) -> Subtotal:
    """The kingdom's totals, checked against what the rule set implies (R11)."""
    total = sum(kingdom.totals)
    if not kingdom.finished:
        done = 5 - len(kingdom.remaining)
        return Subtotal(kingdom.totals, f"in progress ({done} of 5 contracts)", True)
    if game.zero_sum:
        if total == 0:
            return Subtotal(kingdom.totals, "✓ 0", True)
        return Subtotal(kingdom.totals, f"✗ sums to {number(total)}, not 0", False)
    expected = sum(expected_total(game.rules, d.contracts, d.captures) for d in kingdom.deals)
    ok = total == expected
    mark = "✓" if ok else "✗"
    return Subtotal(kingdom.totals, f"{mark} {number(total)} (expected {number(expected)})", ok)


def _sections(game: Game, log: Sequence[LogRow]) -> tuple[Section, ...]:
    by_n, trailing = _lines_by_deal(game, log)
    sections: list[Section] = []
    for index, kingdom in enumerate(game.kingdoms):
        lines = [line for deal in kingdom.deals for line in by_n.get(deal.n, [])]
        if index == len(game.kingdoms) - 1 and game.in_kingdoms:
            lines += trailing  # redeals of the deal being played now
        subtotal = _subtotal(game, kingdom) if kingdom.deals else None
        sections.append(Section(f"Kingdom {index + 1}", kingdom.king, tuple(lines), subtotal))
    if game.extra_deals or (game.extra_redeals and not game.in_kingdoms):
        lines = [line for deal in game.extra_deals for line in by_n.get(deal.n, [])]
        extra_totals = sum_scores(d.scores for d in game.extra_deals)
        subtotal = Subtotal(extra_totals, "tie-break (R12)", True)
        sections.append(Section("Extra deal", game.first_king, (*lines, *trailing), subtotal))
    return tuple(sections)


# --- the end of the game (R12) ------------------------------------------------------------


def _side(seats: tuple[int, ...]) -> Phrase:
    if len(seats) == 1:
        return (Who(seats[0]),)
    return (Who(seats[0]), " and ", Who(seats[1]), f" (seats {seats[0]}+{seats[1]})")


def _standings(game: Game) -> tuple[StandingLine, ...]:
    winner = game.winner
    return tuple(
        StandingLine(s.rank, s.team or (s.seat,), s.total, s.seat == winner) for s in game.standings
    )


def _result(game: Game) -> tuple[Phrase, Phrase | None]:
    """The winner and the tie-break that decided, or where the game stands."""
    outcome = game.outcome
    if outcome.winner is not None:
        seats = outcome.winning_team or (outcome.winner,)
        total = next(s.total for s in game.standings if s.seat == outcome.winner)
        label = "Winners: " if len(seats) == 2 else "Winner: "
        return (label, *_side(seats), f" with {number(total)}"), _tie_break(game)
    if game.tied:
        names: list[str | Who] = ["Tied for first: "]
        for i, seat in enumerate(game.tied):
            names += [", " if i else "", Who(seat)]
        return (*names, "; an extra deal decides (R12)."), None
    return (f"Game in progress: {game.deals_played} of {game.deals_total} deals",), None


def _tie_break(game: Game) -> Phrase | None:
    """How a tie on total was broken (R12), naming the tied players and their Trix wins."""
    decided_by = game.outcome.decided_by
    if decided_by == "trix_first_places":
        firsts = game.trix_first_places
        out: list[str | Who] = ["Tied on total; decided by Trix first places (R12): "]
        leaders = [s.team or (s.seat,) for s in game.standings if s.rank == 1]
        for i, side in enumerate(leaders):
            count = sum(firsts[seat] for seat in side)
            out += [", " if i else "", *_side(side), f" {count}"]
        return (*out, ".")
    if decided_by == "extra_deal":
        n = len(game.extra_deals)
        return (f"Tied on total; decided by {n} extra deal{'s' if n > 1 else ''} (R12).",)
    return None


def build_sheet(loaded: LoadedGame) -> Sheet:
    """The sheet of ``loaded``: one pass over its replayed game and its log."""
    game = loaded.game
    result, tie_break = _result(game)
    series = ((0, 0, 0, 0), *_running_totals(game.deals))
    names = game.names
    return Sheet(
        game_id=loaded.id,
        version=loaded.version,
        players=names,
        date=loaded.created_at.strftime("%Y-%m-%d"),
        updated=loaded.updated_at.strftime("%Y-%m-%d %H:%M UTC"),
        first_king=loaded.first_king,
        rules=tuple(describe_rules(loaded.rules)),
        zero_sum_reasons=tuple(zero_sum_report(loaded.rules)[1]),
        sections=_sections(game, loaded.log),
        standings=_standings(game),
        result=result,
        tie_break=tie_break,
        series=series,
    )
