"""The deal, redeal and undo forms of the game pages: shape and ranges only
(docs/STYLE.md §11); the fields only deals use are in :mod:`scorekeeper.web.deals.fields`,
the shared ones and :class:`~scorekeeper.web.forms.ProblemsForm` in :mod:`scorekeeper.web.forms`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from wtforms import FieldList, StringField
from wtforms.validators import Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import QUEENS
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game import DealEntry, RedealEntry
from scorekeeper.rules.game_log import RedealKind
from scorekeeper.rules.ruleset import ClosedSuit, RuleSet
from scorekeeper.store.input import NOTE_MAX
from scorekeeper.store.played import parse_played_at
from scorekeeper.store.positions import Position
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import isolate
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import contract_label, describe_contracts
from scorekeeper.web.deals.fields import NOTE_TOO_LONG, QUEEN_KEYS, TRIX_PLACE_MISSING, CountField
from scorekeeper.web.forms import (
    SEATS,
    ChoiceField,
    ProblemsForm,
    VersionField,
    seat_choices,
    seat_or_none,
    strip,
)

# --- a deal --------------------------------------------------------------


def deal_sections(
    contracts: Sequence[Contract], rules: RuleSet, needs_king: bool
) -> frozenset[str]:
    """Which parts a deal form needs: ``seven`` (who holds the 7♥), ``kh``, ``queens``…"""
    chosen = set(contracts)
    sections = {"seven"} if needs_king else set()
    if Contract.KING in chosen:
        sections |= {"kh", "kh_doubling"} if rules.doubling else {"kh"}
    if Contract.QUEENS in chosen:
        sections |= {"queens", "q_doubling"} if rules.doubling else {"queens"}
    if Contract.DIAMONDS in chosen:
        sections.add("diamonds")
    if Contract.COLLECTIONS in chosen or len(chosen) > 1:
        sections.add("tricks")  # combinations always give tricks (R9.6, R11)
    if Contract.TRIX in chosen:
        sections.add("trix")
    return frozenset(sections)


def _seat_radio() -> ChoiceField:
    return ChoiceField()


def _counts() -> FieldList[Any]:
    one = CountField(
        validators=[Optional(), NumberRange(0, 13, _l("Enter a number from 0 to 13."))]
    )
    return FieldList(one, min_entries=4, max_entries=4)


def _doubling(prefix: str) -> dict[str, Any]:
    """A card's "doubled" toggle and its holder (``qs_doubled``, ``qs_doubled_by``)."""
    return {f"{prefix}_doubled": StringField(), f"{prefix}_doubled_by": _seat_radio()}


@cache
def _deal_form_class(sections: frozenset[str]) -> type[DealForm]:
    """A DealForm subclass holding only the fields of ``sections`` (cached per shape)."""
    attrs: dict[str, Any] = {}
    if "seven" in sections:
        attrs["king"] = _seat_radio()
    if "kh" in sections:
        attrs["kh_taker"] = _seat_radio()
        if "kh_doubling" in sections:
            attrs |= _doubling("kh")
    if "queens" in sections:
        for key in QUEEN_KEYS:
            attrs[f"{key}_taker"] = _seat_radio()
            if "q_doubling" in sections:
                attrs |= _doubling(key)
    if "kh_doubling" in sections or "q_doubling" in sections:
        attrs["toggles"] = StringField()
    for name in ("diamonds", "tricks"):
        if name in sections:
            attrs[name] = _counts()
    if "trix" in sections:
        attrs["trix"] = FieldList(ChoiceField(), min_entries=4, max_entries=4)
    return type("DealForm", (DealForm,), attrs)


def make_deal_form(
    contracts: Sequence[Contract],
    rules: RuleSet,
    names: Sequence[str],
    needs_king: bool,
    **kwargs: Any,
) -> DealForm:
    """The form for a deal of ``contracts`` (with ``data=`` to prefill it for an edit)."""
    sections = deal_sections(contracts, rules, needs_king)
    form = _deal_form_class(sections)(**kwargs)
    form.configure(tuple(contracts), sections, names)
    return form


class PlayedForm(ProblemsForm):
    """A form for an entry of the log, with the phone's clock at Save (``played_at``, a
    hidden field ``static/deal_form.js`` fills): when the deal was played, not when it
    reached the server."""

    played_at = StringField(widget=HiddenInput(), filters=[strip])

    def played(self) -> datetime | None:
        """The phone's clock at Save; None without one. A malformed one is the form's error."""
        raw = self.played_at.data
        if not raw:
            return None
        try:
            return parse_played_at(raw)
        except RulesError as error:
            self.add_problems(error.problems)
            return None


class DealForm(PlayedForm):
    """What each player took in one deal (API.md "Deal captures"), field by field.

    A new deal's form also says where it was typed (hidden): the game, the deal's
    number and its king (:class:`~scorekeeper.store.positions.Position`), so that a deal
    another phone recorded meanwhile is never saved as the next one by itself; and the
    phone's clock at Save (``played_at``, :class:`PlayedForm`).
    """

    position_n = VersionField(widget=HiddenInput(), validators=[Optional()])
    position_king = StringField(widget=HiddenInput())
    position_game = StringField(widget=HiddenInput())

    contracts: tuple[Contract, ...] = ()
    sections: frozenset[str] = frozenset()

    def position(self) -> Position | None:
        """The position the form was typed for; None from a page made before forms said it."""
        n = self.position_n.data
        if not n:
            return None
        game = self.position_game.data or None
        return Position(n, seat_or_none(self.position_king.data), game)

    def configure(
        self, contracts: tuple[Contract, ...], sections: frozenset[str], names: Sequence[str]
    ) -> None:
        self.contracts, self.sections = contracts, sections
        for field in self:
            if isinstance(field, ChoiceField):
                doubling = field.name.endswith("_doubled_by")
                field.choices = seat_choices(names, _("Not doubled") if doubling else None)
        if "trix" in sections:
            for entry in self._fields["trix"].entries:
                entry.choices = seat_choices(names, "—")

    @property
    def contract_text(self) -> str:
        """``King of Hearts + Queens``, in the request's language."""
        return describe_contracts(self.contracts)

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        if self._fields.get("toggles") is not None and self._fields["toggles"].data == "1":
            self._apply_toggles()
        for field in self:
            if isinstance(field, ChoiceField) and not field.name.endswith("_doubled_by"):
                if seat_or_none(field.data) is None:
                    self.add_error(field.name, self._missing_message(field.name))
            elif isinstance(field, ChoiceField) and field.data not in (None, "", *SEATS):
                self.add_error(field.name, _("Choose “Not doubled” or the player who doubled."))
        if "trix" in self.sections:
            for place, entry in enumerate(self._fields["trix"].entries):
                if seat_or_none(entry.data) is None:
                    self.add_error(f"trix-{place}", str(TRIX_PLACE_MISSING[place]))
        return ok and not self.all_errors

    def _apply_toggles(self) -> None:
        """The card grid's "doubled" toggles decide: off, its holder is ignored (a choice
        hidden when the toggle went off); on, the holder must be chosen."""
        for prefix in ("kh", *QUEEN_KEYS):
            toggle = self._fields.get(f"{prefix}_doubled")
            if toggle is None:
                continue
            holder = self._fields[f"{prefix}_doubled_by"]
            if toggle.data != "1":
                holder.data = ""
            elif seat_or_none(holder.data) is None:
                self.add_error(holder.name, self._holder_message(prefix))

    @staticmethod
    def _holder_message(prefix: str) -> str:
        card = "K♥" if prefix == "kh" else QUEENS[QUEEN_KEYS.index(prefix)].pretty
        return _("Choose who doubled the %(card)s (its holder).", card=isolate(card))

    def doubled(self, prefix: str) -> bool:
        """Whether the card's "doubled" toggle shows on: ticked, or a holder chosen."""
        toggle, holder = (
            self._fields.get(f"{prefix}_doubled"),
            self._fields.get(f"{prefix}_doubled_by"),
        )
        if toggle is None or holder is None:
            return False
        return toggle.data == "1" or seat_or_none(holder.data) is not None

    @staticmethod
    def _missing_message(name: str) -> str:
        if name == "king":
            return _("Choose who was dealt the 7♥.")
        if name == "kh_taker":
            return _("Choose who took the K♥.")
        queen = QUEENS[QUEEN_KEYS.index(name[:2])].pretty
        return _("Choose who took the %(card)s.", card=isolate(queen))

    def _capture(self, prefix: str) -> Capture:
        taker = seat_or_none(self._fields[f"{prefix}_taker"].data)
        doubled = self._fields.get(f"{prefix}_doubled_by")
        assert taker is not None  # validate() made sure
        return Capture(taker, None if doubled is None else seat_or_none(doubled.data))

    def _counts(self, name: str) -> tuple[int, int, int, int] | None:
        if name not in self.sections:
            return None
        n = [entry.data or 0 for entry in self._fields[name].entries]
        return (n[0], n[1], n[2], n[3])

    def to_entry(self) -> DealEntry:
        """The deal as the engine takes it; call after :meth:`validate`."""
        queens = None
        if "queens" in self.sections:
            q = [self._capture(key) for key in QUEEN_KEYS]
            queens = (q[0], q[1], q[2], q[3])
        order = None
        if "trix" in self.sections:
            o = [seat_or_none(e.data) or 0 for e in self._fields["trix"].entries]
            order = (o[0], o[1], o[2], o[3])
        captures = Captures(
            king_of_hearts=self._capture("kh") if "kh" in self.sections else None,
            queens=queens,
            diamonds=self._counts("diamonds"),
            tricks=self._counts("tricks"),
            trix_order=order,
        )
        king = seat_or_none(self._fields["king"].data) if "seven" in self.sections else None
        return DealEntry(self.contracts, captures, king)

    def field_for(self, path: str | None) -> str:
        """``captures.queens.QH.doubled_by`` -> ``qh_doubled_by``; ``captures.diamonds`` -> …"""
        parts = (path or "").split(".")
        if parts[0] == "king" and "seven" in self.sections:
            return "king"
        if parts[0] == "contracts":
            return "contracts"
        if parts[0] != "captures" or len(parts) < 2:
            return ""
        doubled = parts[-1] == "doubled_by"
        if parts[1] == "king_of_hearts":
            return self._taker_or_doubler("kh", doubled)
        if parts[1] == "queens" and len(parts) > 2 and parts[2].lower() in QUEEN_KEYS:
            return self._taker_or_doubler(parts[2].lower(), doubled)
        return {"trix_order": "trix"}.get(parts[1], parts[1])

    def _taker_or_doubler(self, prefix: str, doubled: bool) -> str:
        name = f"{prefix}_doubled_by" if doubled else f"{prefix}_taker"
        return name if name in self._fields else f"{prefix}_taker"


def deal_form_data(entry: DealEntry, version: int) -> dict[str, Any]:
    """A recorded deal as form data, to prefill its edit form."""
    caps = entry.captures
    data: dict[str, Any] = {"version": version}
    if entry.king is not None:
        data["king"] = str(entry.king)
    captured = [("kh", caps.king_of_hearts)]
    if caps.queens is not None:
        captured += list(zip(QUEEN_KEYS, caps.queens, strict=True))
    for prefix, cap in captured:
        if cap is not None:
            data[f"{prefix}_taker"] = str(cap.taker)
            data[f"{prefix}_doubled_by"] = "" if cap.doubled_by is None else str(cap.doubled_by)
            data[f"{prefix}_doubled"] = "" if cap.doubled_by is None else "1"
    for name in ("diamonds", "tricks"):
        if getattr(caps, name) is not None:
            data[name] = list(getattr(caps, name))
    if caps.trix_order is not None:
        data["trix"] = [str(seat) for seat in caps.trix_order]
    return data


# --- redeals, undo ---------------------------------------------------------


class RedealChoices(NamedTuple):
    """The choices of the redeal form: what happened, who asked, which contract."""

    kind: list[tuple[str, str]]
    seat: list[tuple[str, str]]
    contract: list[tuple[str, str]]


REDEAL_KINDS = (("redeal", _l("Redeal")), ("misdeal", _l("Misdeal")))
CLOSED_SUIT = (
    "closed_suit",
    _l("Trix dealt again: a suit was closed before every Jack was laid"),
)
"""Under R7's "closed suit replays": a Trix deal void and dealt again, recorded like a redeal."""


def redeal_choices(
    names: Sequence[str], contracts: Sequence[Contract], rules: RuleSet | None = None
) -> RedealChoices:
    """The redeal form's choices for these players and the contracts still to play.

    The game page shows a blank redeal form from these alone (no form object).
    A closed suit is offered while Trix is left, under its house rule (R7).
    """
    kinds = list(REDEAL_KINDS)
    if rules is not None and closed_suit_offered(rules, contracts):
        kinds.append(CLOSED_SUIT)
    return RedealChoices(
        kind=[(value, str(label)) for value, label in kinds],
        seat=seat_choices(names, _("Nobody in particular")),
        contract=[("", _("Not announced yet"))] + [(c.value, contract_label(c)) for c in contracts],
    )


def closed_suit_offered(rules: RuleSet, contracts: Sequence[Contract]) -> bool:
    """Whether a Trix deal can be void for a closed suit now (R7's house rule, Trix left)."""
    return rules.trix_closed_suit is ClosedSuit.REPLAY and Contract.TRIX in contracts


class RedealForm(PlayedForm):
    """A redeal claimed under R8, a misdeal, or a Trix deal void for a closed suit (R7).

    None of them uses up a contract.
    """

    kind = ChoiceField(choices=REDEAL_KINDS, default="redeal")
    seat = ChoiceField()
    contract = ChoiceField()
    note = StringField(
        filters=[strip],
        validators=[Length(max=NOTE_MAX, message=NOTE_TOO_LONG)],
    )

    def configure(
        self, names: Sequence[str], contracts: Sequence[Contract], rules: RuleSet | None = None
    ) -> RedealForm:
        choices = redeal_choices(names, contracts, rules)
        self.kind.choices, self.seat.choices, self.contract.choices = choices
        return self

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        if self.seat.data not in (None, "", *SEATS):
            self.add_error("seat", _("Choose one of the four players, or nobody in particular."))
        if self.kind.data not in [value for value, _label in self.kind.choices]:
            self.add_error("kind", _("Choose “Redeal” or “Misdeal”."))
        values = [choice[0] for choice in self.contract.choices or []]
        if self.contract.data not in (None, *values):
            self.add_error(
                "contract", _("Choose one of the contracts the king can still announce.")
            )
        return ok and not self.all_errors

    def to_entry(self) -> RedealEntry:
        seat, note = seat_or_none(self.seat.data), self.note.data or ""
        if self.kind.data == "closed_suit":  # a void Trix deal: Trix is the contract (R7)
            return RedealEntry("redeal", seat, Contract.TRIX, note, reason="closed_suit")
        kind: RedealKind = "misdeal" if self.kind.data == "misdeal" else "redeal"
        contract = Contract(self.contract.data) if self.contract.data else None
        return RedealEntry(kind, seat, contract, note)

    def field_for(self, path: str | None) -> str:
        return path if path in ("kind", "seat", "contract", "note") else ""


class UndoForm(ProblemsForm):
    """Undo the last entry of the log, at the version it was shown at, once confirmed."""

    confirm = StringField()
