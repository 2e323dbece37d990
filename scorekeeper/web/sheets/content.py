"""The printed score sheet's content, prepared from a replayed game.

Data only: no HTML, no database. :func:`build_sheet` turns a
:class:`~scorekeeper.store.snapshot.LoadedGame` (the game replayed from its log, as
every page sees it) into plain rows; ``templates/sheets/sheet.html`` lays them
out and :mod:`scorekeeper.web.sheets.pdf` renders them. Players' names are never baked
into strings: a :data:`Phrase` mixes text with :class:`Who` pieces so the
template can set each name apart (``<bdi>``, an Arabic font: :func:`.pdf.name_kind`).
Words are in the request's language (English outside a request): each phrase
is one translated template whose ``%(name)s`` placeholders become the names
(:func:`phrase`).

>>> from scorekeeper.rules.captures import Captures
>>> caps = Captures(diamonds=(3, 4, 6, 0))
>>> [plain(p, ["Rana", "Sami", "Omar", "Lina"]) for p in describe_captures(caps)]
['♦ 3·4·6·0']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from scorekeeper.rules.captures import Capture, Captures, Seats4
from scorekeeper.rules.cards import QUEENS
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealRecord, RedealEntry
from scorekeeper.store.snapshot import LoadedGame, LogRow
from scorekeeper.text.locale import format_number, localize_digits, ngettext
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import contract_label, describe_contracts
from scorekeeper.text.rule_words import describe_rules, zero_sum_reasons
from scorekeeper.web.games.kingdoms import DealRow, KingdomView, RedealRow, kingdom_sections


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
    dealer: Phrase = ()
    """``dealt by Omar`` when the dealer is not the king (R2); else empty."""
    played: str = ""
    """``played 21:42``: the phone's clock at Save, as the table read it; empty without one."""


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
    team: tuple[int, int] | None = None
    """Under team kingdoms, the team the kingdom belongs to (R9.5)."""


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
    """A score for people, with a real minus sign, in the chosen digits.

    >>> number(-75), number(0), number(200)
    ('−75', '0', '200')
    """
    return format_number(value)


def plain(phrase: Phrase, names: Sequence[str]) -> str:
    """A phrase as plain text (for tests and logs)."""
    return "".join(names[p.seat] if isinstance(p, Who) else p for p in phrase)


_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")


def phrase(template: str, **values: str | Who | Phrase) -> Phrase:
    """A translated ``template`` with its placeholders filled, names kept as :class:`Who`.

    >>> phrase("K♥ %(taker)s, doubled by %(doubler)s", taker=Who(1), doubler=Who(0))
    ('K♥ ', Who(seat=1), ', doubled by ', Who(seat=0))
    """
    out: list[str | Who] = []
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        out.append(template[position : match.start()])
        value = "%" if match.group(0) == "%%" else values[match.group(1)]
        out.extend(value if isinstance(value, tuple) else (value,))
        position = match.end()
    out.append(template[position:])
    return tuple(part for part in out if part != "")


def listed(items: Sequence[Phrase]) -> Phrase:
    """Phrases one after the other, separated by commas (``Rana, Omar``)."""
    comma = _(", ")
    return tuple(part for i, item in enumerate(items) for part in ((comma,) if i else ()) + item)


# --- captures in short words ---------------------------------------------------------------


def _king_of_hearts(capture: Capture) -> Phrase:
    taker, doubler = Who(capture.taker), capture.doubled_by
    if doubler is None:
        return phrase(_("K♥ %(taker)s"), taker=taker)
    if doubler == capture.taker:
        return phrase(_("K♥ %(taker)s, own double"), taker=taker)
    return phrase(_("K♥ %(taker)s, doubled by %(doubler)s"), taker=taker, doubler=Who(doubler))


def _queen(card: str, capture: Capture) -> Phrase:
    taker, doubler = Who(capture.taker), capture.doubled_by
    if doubler is None:
        # Translators: on the printed sheet, a queen and who took it: "Q♠ Rana".
        return phrase(_("%(card)s %(taker)s"), card=card, taker=taker)
    if doubler == capture.taker:
        return phrase(_("%(card)s %(taker)s (own double)"), card=card, taker=taker)
    template = _("%(card)s %(taker)s (doubled by %(doubler)s)")
    return phrase(template, card=card, taker=taker, doubler=Who(doubler))


def _per_seat(values: Seats4) -> str:
    return "·".join(format_number(v) for v in values)


def describe_captures(captures: Captures) -> tuple[Phrase, ...]:
    """One short phrase per kind of capture the deal recorded (R3–R7)."""
    out: list[Phrase] = []
    if captures.king_of_hearts is not None:
        out.append(_king_of_hearts(captures.king_of_hearts))
    if captures.queens is not None:
        queens = [
            _queen(f"Q{c.suit.symbol}", q) for c, q in zip(QUEENS, captures.queens, strict=True)
        ]
        out.append(tuple(part for i, q in enumerate(queens) for part in (("; ",) if i else ()) + q))
    if captures.diamonds is not None:
        out.append((f"♦ {_per_seat(captures.diamonds)}",))
    if captures.tricks is not None:
        out.append(phrase(_("Tricks %(counts)s"), counts=_per_seat(captures.tricks)))
    if captures.trix_order is not None:
        order = listed([(Who(seat),) for seat in captures.trix_order])
        out.append(phrase(_("Trix: %(order)s"), order=order))
    return tuple(out)


def describe_redeal(entry: RedealEntry) -> Phrase:
    """``Redeal claimed by Sami (King of Hearts announced, R8)`` or a misdeal."""
    contract = contract_label(entry.contract) if entry.contract is not None else None
    if entry.reason == "closed_suit":
        head = phrase(_("Trix dealt again: a suit was closed before every Jack was laid (R7)"))
    elif entry.kind == "misdeal" and contract:
        head = phrase(_("Misdeal: dealt again (%(contract)s announced, R8)"), contract=contract)
    elif entry.kind == "misdeal":
        head = phrase(_("Misdeal: dealt again (R8)"))
    elif entry.seat is not None and contract:
        template = _("Redeal claimed by %(player)s (%(contract)s announced, R8)")
        head = phrase(template, player=Who(entry.seat), contract=contract)
    elif entry.seat is not None:
        head = phrase(_("Redeal claimed by %(player)s (R8)"), player=Who(entry.seat))
    elif contract:
        head = phrase(_("Redeal (%(contract)s announced, R8)"), contract=contract)
    else:
        head = phrase(_("Redeal (R8)"))
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


def played_text(played: datetime | None, created: datetime) -> str:
    """``played 21:42`` in the phone's own time (with its date when not the game's day)."""
    if played is None:
        return ""
    same_day = played.date() == created.astimezone(played.tzinfo).date()
    shown = played.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")
    return _("played %(time)s", time=localize_digits(shown))


def _line(
    row: DealRow | RedealRow,
    running: dict[int, Seats4],
    entries: dict[int, object],
    played: dict[int, str],
) -> DealLine | NoteLine:
    """A deal's line (its captures in words, its scores and the running totals), or a
    redeal's note."""
    if isinstance(row, RedealRow):
        return NoteLine(describe_redeal(row.entry))
    deal = row.deal
    return DealLine(
        deal.n,
        describe_contracts(deal.contracts),
        describe_captures(deal.captures),
        deal.scores,
        running[deal.n],
        deal_notes(entries.get(row.position)),
        _dealt_by(deal),
        played.get(row.position, ""),
    )


def _dealt_by(deal: DealRecord) -> Phrase:
    """Who dealt, said only when the dealer rules make him another player than the king (R2)."""
    if deal.dealer is None:
        return ()
    return phrase(_("dealt by %(player)s"), player=Who(deal.dealer))


def _subtotal(game: Game, kingdom: KingdomView) -> Subtotal:
    """The kingdom's totals, checked against what the rule set implies (R11)."""
    total = sum(kingdom.totals)
    if not kingdom.finished:
        done, all_five = format_number(5 - kingdom.remaining), format_number(5)
        check = _("in progress (%(done)s of %(total)s contracts)", done=done, total=all_five)
        return Subtotal(kingdom.totals, check, True)
    if game.zero_sum:
        if kingdom.adds_up:
            return Subtotal(kingdom.totals, "✓ " + format_number(0), True)
        return Subtotal(kingdom.totals, _("✗ sums to %(total)s, not 0", total=number(total)), False)
    sums = {"total": number(total), "expected": number(kingdom.expected)}
    if kingdom.adds_up:
        return Subtotal(kingdom.totals, _("✓ %(total)s (expected %(expected)s)", **sums), True)
    return Subtotal(kingdom.totals, _("✗ %(total)s (expected %(expected)s)", **sums), False)


def _sections(game: Game, log: Sequence[LogRow], created: datetime) -> tuple[Section, ...]:
    """The kingdoms as the game page shows them (:mod:`scorekeeper.web.games.kingdoms`),
    as lines."""
    running = dict(zip((d.n for d in game.deals), _running_totals(game.deals), strict=True))
    entries: dict[int, object] = {row.position: row.entry for row in log}
    played = {row.position: played_text(row.played_at, created) for row in log}
    views, extra = kingdom_sections(game, log)
    sections: list[Section] = []
    for view in views:
        lines = tuple(_line(row, running, entries, played) for row in view.rows)
        subtotal = _subtotal(game, view) if any(True for _ in view.deals()) else None
        title = _("Kingdom %(number)s", number=format_number(view.number))
        sections.append(Section(title, view.king, lines, subtotal, view.team))
    if extra is not None:
        lines = tuple(_line(row, running, entries, played) for row in extra.rows)
        subtotal = Subtotal(extra.totals, _("tie-break (R12)"), True)
        sections.append(Section(_("Extra deal"), game.first_king, lines, subtotal))
    return tuple(sections)


# --- the end of the game (R12) ------------------------------------------------------------


def _side(seats: tuple[int, ...]) -> Phrase:
    if len(seats) == 1:
        return (Who(seats[0]),)
    team = f"{format_number(seats[0] + 1)}+{format_number(seats[1] + 1)}"  # seats 1–4 for people
    template = _("%(first)s and %(second)s (seats %(seats)s)")
    return phrase(template, first=Who(seats[0]), second=Who(seats[1]), seats=team)


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
        if len(seats) == 2:
            template = _("Winners: %(side)s with %(total)s")
        else:
            template = _("Winner: %(side)s with %(total)s")
        return phrase(template, side=_side(seats), total=number(total)), _tie_break(game)
    if game.tied:
        names = listed([(Who(seat),) for seat in game.tied])
        return phrase(
            _("Tied for first: %(names)s; an extra deal decides (R12)."), names=names
        ), None
    played, deals = format_number(game.deals_played), format_number(game.deals_total)
    in_progress = _("Game in progress: %(played)s of %(total)s deals", played=played, total=deals)
    return (in_progress,), None


def _tie_break(game: Game) -> Phrase | None:
    """How a tie on total was broken (R12), naming the tied players and their Trix wins."""
    decided_by = game.outcome.decided_by
    if decided_by == "trix_first_places":
        firsts = game.trix_first_places
        leaders = [s.team or (s.seat,) for s in game.standings if s.rank == 1]
        counts = listed(
            [
                phrase(
                    # Translators: a player (or team) and their Trix first places: "Rana 2".
                    _("%(side)s %(count)s"),
                    side=_side(side),
                    count=format_number(sum(firsts[seat] for seat in side)),
                )
                for side in leaders
            ]
        )
        template = _("Tied on total; decided by Trix first places (R12): %(counts)s.")
        return phrase(template, counts=counts)
    if decided_by == "extra_deal":
        n = len(game.extra_deals)
        decided = ngettext(
            "Tied on total; decided by %(count)s extra deal (R12).",
            "Tied on total; decided by %(count)s extra deals (R12).",
            n,
            count=format_number(n),
        )
        return (decided,)
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
        date=localize_digits(loaded.created_at.strftime("%Y-%m-%d")),
        updated=localize_digits(loaded.updated_at.strftime("%Y-%m-%d %H:%M UTC")),
        first_king=loaded.first_king,
        rules=tuple(describe_rules(loaded.rules, loaded.players)),
        zero_sum_reasons=tuple(zero_sum_reasons(loaded.rules)),
        sections=_sections(game, loaded.log, loaded.created_at),
        standings=_standings(game),
        result=result,
        tie_break=tie_break,
        series=series,
    )
