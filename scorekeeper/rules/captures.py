"""What a deal's players took: the summary-entry format of API.md (R11).

:class:`Captures` only checks *shape* here (seats are 0–3, counts are whole
numbers); the rules' consistency checks and the scores are in
:mod:`scorekeeper.rules.scoring`.

>>> caps = Captures.from_dict({"king_of_hearts": {"taker": 2, "doubled_by": 1}})
>>> caps.king_of_hearts
Capture(taker=2, doubled_by=1)
>>> caps.to_dict()
{'king_of_hearts': {'taker': 2, 'doubled_by': 1}}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.cards import QUEENS, Card, Suit
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import MalformedError, ProblemList, part

SEATS = (0, 1, 2, 3)
Seats4 = tuple[int, int, int, int]


@dataclass(frozen=True)
class Capture:
    """Who took one penalty card, and who doubled (exposed) it, if anyone."""

    taker: int
    doubled_by: int | None = None

    def to_dict(self) -> dict[str, int | None]:
        return {"taker": self.taker, "doubled_by": self.doubled_by}


@dataclass(frozen=True)
class Captures:
    """A deal's captures. A field is ``None`` when the deal's contracts do not need it."""

    king_of_hearts: Capture | None = None
    queens: tuple[Capture, Capture, Capture, Capture] | None = None
    """Indexed by :class:`Suit`: Q♠, Q♥, Q♦, Q♣."""
    diamonds: Seats4 | None = None
    tricks: Seats4 | None = None
    trix_order: Seats4 | None = None
    """Seats, first out first."""

    @classmethod
    def from_dict(cls, data: object) -> Captures:
        """Parse the API's ``captures`` object; raise :class:`MalformedError` on bad shape."""
        return _parse(data)

    def to_dict(self) -> dict[str, Any]:
        """The API's ``captures`` object, with only the fields that are set."""
        out: dict[str, Any] = {}
        if self.king_of_hearts is not None:
            out["king_of_hearts"] = self.king_of_hearts.to_dict()
        if self.queens is not None:
            out["queens"] = {str(QUEENS[s]): c.to_dict() for s, c in enumerate(self.queens)}
        for name in ("diamonds", "tricks", "trix_order"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value)
        return out

    def permuted(self, seat_map: Sequence[int]) -> Captures:
        """The same captures with seat ``s`` renamed ``seat_map[s]`` (for symmetry checks)."""

        def cap(c: Capture | None) -> Capture | None:
            return None if c is None else moved(c)

        def per_seat(v: Seats4 | None) -> Seats4 | None:
            if v is None:
                return None
            out = [0, 0, 0, 0]
            for seat, n in enumerate(v):
                out[seat_map[seat]] = n
            return (out[0], out[1], out[2], out[3])

        def moved(c: Capture) -> Capture:
            doubled = None if c.doubled_by is None else seat_map[c.doubled_by]
            return Capture(seat_map[c.taker], doubled)

        queens = None
        if self.queens is not None:
            q = [moved(c) for c in self.queens]
            queens = (q[0], q[1], q[2], q[3])
        order = None
        if self.trix_order is not None:
            o = [seat_map[s] for s in self.trix_order]
            order = (o[0], o[1], o[2], o[3])
        return Captures(
            cap(self.king_of_hearts),
            queens,
            per_seat(self.diamonds),
            per_seat(self.tricks),
            order,
        )


def needed_fields(contracts: Sequence[Contract]) -> set[str]:
    """The capture fields a deal of these contracts must give (API.md)."""
    need = set()
    for contract in contracts:
        need.add(_FIELD_OF[contract])
    if len(contracts) > 1:
        need.add("tricks")  # backs the R11 cross-checks of combinations
    return need


_FIELD_OF = {
    Contract.KING: "king_of_hearts",
    Contract.QUEENS: "queens",
    Contract.DIAMONDS: "diamonds",
    Contract.COLLECTIONS: "tricks",
    Contract.TRIX: "trix_order",
}
_KNOWN = ("king_of_hearts", "queens", "diamonds", "tricks", "trix_order")


def is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3


def _parse(data: object) -> Captures:
    if not isinstance(data, Mapping):
        raise MalformedError.one("captures_shape", rule="R11", field="captures")
    problems = ProblemList()
    for key in sorted(set(data) - set(_KNOWN), key=str):
        problems.add(
            "captures_unknown",
            rule="R11",
            field=f"captures.{key}",
            name=str(key),
        )
    fields: dict[str, Any] = {}
    if data.get("king_of_hearts") is not None:
        fields["king_of_hearts"] = _capture(
            problems, data["king_of_hearts"], "captures.king_of_hearts", "K♥", the=True
        )
    if data.get("queens") is not None:
        fields["queens"] = _queens(problems, data["queens"])
    for name in ("diamonds", "tricks"):
        if data.get(name) is not None:
            fields[name] = _counts(problems, data[name], name)
    if data.get("trix_order") is not None:
        fields["trix_order"] = _order(problems, data["trix_order"])
    problems.raise_if_any(MalformedError)
    return Captures(**fields)


def _capture(
    problems: ProblemList, raw: object, where: str, card: str, the: bool = False
) -> Capture | None:
    shown = part("word.the_card", card=card) if the else card
    if not isinstance(raw, Mapping) or "taker" not in raw:
        problems.add(
            "capture_shape",
            rule="R11",
            field=where,
            card=card,
            what=shown,
        )
        return None
    for key in sorted(set(raw) - {"taker", "doubled_by"}, key=str):
        problems.add(
            "capture_unknown",
            rule="R11",
            field=f"{where}.{key}",
            name=str(key),
        )
    taker, doubled = raw["taker"], raw.get("doubled_by")
    ok = True
    if not is_seat(taker):
        problems.add(
            "bad_seat",
            rule="R1",
            field=f"{where}.taker",
            value=repr(taker),
            card=card,
            what=shown,
            variant="taker",
        )
        ok = False
    if doubled is not None and not is_seat(doubled):
        problems.add(
            "bad_seat",
            rule="R1",
            field=f"{where}.doubled_by",
            value=repr(doubled),
            card=card,
            what=shown,
            variant="doubled_by",
        )
        ok = False
    return Capture(taker, doubled) if ok else None


def _queens(problems: ProblemList, raw: object) -> tuple[Capture, ...] | None:
    if not isinstance(raw, Mapping):
        problems.add(
            "queens_shape",
            rule="R4",
            field="captures.queens",
        )
        return None
    found: dict[Suit, Capture | None] = {}
    for key, value in raw.items():
        try:
            card = Card.parse(key)
        except MalformedError:
            card = None
        if card is None or card not in QUEENS:
            problems.add(
                "queens_key",
                rule="R4",
                field=f"captures.queens.{key}",
                name=str(key),
            )
            continue
        if card.suit in found:
            problems.add(
                "queen_twice",
                rule="R11",
                field=f"captures.queens.{card}",
                card=card.pretty,
            )
            continue
        found[card.suit] = _capture(problems, value, f"captures.queens.{card}", card.pretty)
    for suit in Suit:
        if suit not in found:
            queen = QUEENS[suit]
            problems.add(
                "queen_missing",
                rule="R11",
                field=f"captures.queens.{queen}",
                card=queen.pretty,
            )
    if len(found) == 4 and all(found.values()):
        return tuple(found[s] for s in Suit)  # type: ignore[misc]
    return None


def _counts(problems: ProblemList, raw: object, name: str) -> Seats4 | None:
    if (
        isinstance(raw, list)
        and len(raw) == 4
        and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 13 for n in raw)
    ):
        return (raw[0], raw[1], raw[2], raw[3])
    problems.add(
        "counts_shape",
        rule="R11",
        field=f"captures.{name}",
        name=name,
        value=repr(raw),
        variant=name,
    )
    return None


def _order(problems: ProblemList, raw: object) -> Seats4 | None:
    if isinstance(raw, list) and len(raw) == 4 and all(is_seat(s) for s in raw):
        return (raw[0], raw[1], raw[2], raw[3])
    problems.add(
        "trix_order_shape",
        rule="R7",
        field="captures.trix_order",
        value=repr(raw),
    )
    return None
