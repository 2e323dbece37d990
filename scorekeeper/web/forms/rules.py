"""The house rules as form fields, shared by every form that chooses them (R1, R2, R9): a
new game's, a club night's and the dispute desk's.

Every R9 switch of :class:`~scorekeeper.rules.ruleset.RuleSet` is a select
whose blank choice means "as the preset says", so the chosen preset applies
on the server without JavaScript; with JavaScript, choosing a preset fills
the switches in (``preset_switch_values()``). A few switches need more
than one value: the agreed kings (``king_order``), the agreed contract order
(``order``, R2) and the first dealer (``first_dealer``, R2). The engine
validates the resulting rule set (``RuleSet.from_dict``).
"""

from __future__ import annotations

from typing import Any

from wtforms import FieldList, Label
from wtforms.validators import NumberRange, Optional

from scorekeeper.rules.contracts import ALL_CONTRACTS
from scorekeeper.rules.ruleset import PRESETS, SOURCE_PRESETS, RuleSet
from scorekeeper.store.input import NAME_MAX
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import contract_label
from scorekeeper.web.forms import (
    SEATS,
    ChoiceField,
    ProblemsForm,
    WholeNumberField,
    seat_choices,
    seat_or_none,
)

SWITCHES: dict[str, tuple[str, ...]] = {
    # R9 house rules as form choices; "" (not listed) means "as the preset says".
    "doubling": ("on", "off"),
    "kingdoms": ("4", "1"),
    "partnership": ("off", "on"),
    "doubled_self_capture": ("single", "double", "quadruple"),
    "heart_lead": ("free", "only_hearts", "broken"),
    "first_lead": ("king", "right_of_king"),
    "trix_first": ("king", "right_of_king"),
    "trix_tail": ("plus", "minus"),
    "penalty_discard": ("off", "on"),
    "combination": ("off", "all_four", "any"),
    "inverted": ("off", "on"),
    "kingdom_order": ("right", "seven_of_hearts", "custom"),
    "revoke": ("remaining", "whole"),
    "trix_revoke": ("flag", "last"),
    "tiebreak": ("trix_wins", "extra_deal"),
    "redeal_long_hearts": ("off", "on"),
    "contract_order": ("free", "fixed"),
    "dealer": ("king", "first_any", "rotates"),
    "trix_closed_suit": ("play_on", "replay"),
    "team_kingdoms": ("off", "on"),
    "rounds": ("1", "2"),
}
COMMON_SWITCHES = ("doubling", "kingdoms", "partnership")
BOOL_SWITCHES = (
    "doubling",
    "partnership",
    "penalty_discard",
    "inverted",
    "redeal_long_hearts",
    "team_kingdoms",
)
INT_SWITCHES = ("kingdoms", "rounds")
ALL_PRESETS: dict[str, dict[str, Any]] = {
    **PRESETS,
    **{name: dict(preset.rules) for name, preset in SOURCE_PRESETS.items()},
}
"""Every preset the page offers: the usual ones, then those of the five sources."""
CONTRACT_VALUES = tuple(c.value for c in ALL_CONTRACTS)
VALUE_NAMES = ("king", "queen", "diamond", "trick")
NAME_TOO_LONG = _l("A name can have at most %(max)s characters.", max=NAME_MAX)
POINTS_RANGE = _l("Enter a whole number from 0 to 10000.")
VALUE_RANGE = _l("Enter a whole number from −10000 to 10000.")
VALUE_LABELS = {
    "king": _l("Points for the K♥"),
    "queen": _l("Points for a queen"),
    "diamond": _l("Points for a diamond"),
    "trick": _l("Points for a trick"),
}
"""The point values' boxes, as templates/layout/rules.html words them (VALUE_TEXT)."""
TRIX_VALUE_LABELS = (
    _l("Points for going out 1st in Trix"),
    _l("Points for going out 2nd in Trix"),
    _l("Points for going out 3rd in Trix"),
    _l("Points for the last place in Trix"),
)
"""The Trix places' boxes, as templates/layout/rules.html words them (TRIX_VALUE_TEXT)."""


def switch_values(rules: RuleSet) -> dict[str, str]:
    """A rule set as the switches' form values (what JS fills in for a preset)."""
    data = rules.to_dict()
    out = {name: str(data[name]) for name in SWITCHES if name in data}
    for name in BOOL_SWITCHES:
        out[name] = "on" if data[name] else "off"
    out["trix_tail"] = "minus" if rules.values.trix[3] < 0 else "plus"
    out["contract_order"] = "free" if rules.contract_order is None else "fixed"
    return out


def preset_switch_values() -> dict[str, dict[str, str]]:
    return {name: switch_values(RuleSet.from_dict(diff)) for name, diff in ALL_PRESETS.items()}


class RuleSwitches(ProblemsForm):
    """The preset and every R9 switch; a blank switch keeps the preset's value.

    ``switch_names``: the switches a form offers (a club night's form sets partnerships
    and rounds with fields of its own, so it leaves those two out)."""

    switch_names: tuple[str, ...] = tuple(SWITCHES)
    preset = ChoiceField(choices=[(name, name) for name in ALL_PRESETS], default="standard")
    king_order = FieldList(ChoiceField(), min_entries=4, max_entries=4)
    order = FieldList(ChoiceField(), min_entries=5, max_entries=5)
    """The agreed contract order (R2), first to fifth, under ``contract_order`` "fixed"."""
    first_dealer = ChoiceField()
    """Who deals the first deal, under the dealer rules "first_any" and "rotates" (R2)."""
    trix_values = FieldList(
        WholeNumberField(validators=[Optional(), NumberRange(-10_000, 10_000, VALUE_RANGE)]),
        min_entries=4,
        max_entries=4,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A list's entries share one label: each place's box names its place in its errors.
        for entry, text in zip(self.trix_values.entries, TRIX_VALUE_LABELS, strict=True):
            entry.label = Label(entry.id, text)

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        if self.preset.data not in ALL_PRESETS:
            self.add_error("preset", _("Choose one of the listed presets."))
        for name in self.switch_names:
            if self._fields[name].data not in (None, "", *SWITCHES[name]):
                self.add_error(name, _("Choose one of the listed options."))
        for place, entry in enumerate(self.king_order.entries):
            if entry.data not in (None, "", *SEATS):
                self.add_error(f"king_order-{place}", _("Choose one of the four players."))
        for place, entry in enumerate(self.order.entries):
            if entry.data not in (None, "", *CONTRACT_VALUES):
                self.add_error(f"order-{place}", _("Choose one of the five contracts."))
        if self.first_dealer.data not in (None, "", *SEATS):
            self.add_error("first_dealer", _("Choose one of the four players."))
        return ok and not self.all_errors

    def rules_dict(self) -> dict[str, Any]:
        """The rule set as API.md's JSON (the engine validates it).

        A fixed contract order with no order, here or in the preset, is put on the form.
        """
        data: dict[str, Any] = dict(ALL_PRESETS.get(self.preset.data or "", {}))
        for name in self.switch_names:
            value = self._fields[name].data
            if value:
                data[name] = self._json(name, value)
        tail = data.pop("trix_tail", None)
        values = self._values(data.get("values", {}), tail)
        if values != RuleSet().values.to_dict():
            data["values"] = values
        if data.get("kingdom_order") == "custom":
            order = [seat_or_none(entry.data) for entry in self.king_order.entries]
            if None not in order:
                data["king_order"] = order
        self._contract_order(data)
        self._first_dealer(data)
        return data

    def _contract_order(self, data: dict[str, Any]) -> None:
        """Free, or the five contracts typed in the agreed order, else the preset's (R2)."""
        switch = data.pop("contract_order", None)
        preset = ALL_PRESETS.get(self.preset.data or "", {}).get("contract_order")
        typed = [entry.data for entry in self.order.entries if entry.data]
        if switch == "free":
            return
        if typed:  # the engine says so if they are not the five once each
            data["contract_order"] = typed
        elif preset is not None:
            data["contract_order"] = preset
        elif switch == "fixed":
            self.add_error("contract_order", _("Choose the five contracts in the agreed order."))

    def _first_dealer(self, data: dict[str, Any]) -> None:
        """The first dealer counts only when the dealer is not always the king (R2)."""
        seat = seat_or_none(self.first_dealer.data)
        if data.get("dealer", "king") != "king":
            data["first_dealer"] = seat

    @staticmethod
    def _json(name: str, value: str) -> object:
        if name in BOOL_SWITCHES:
            return value == "on"
        return int(value) if name in INT_SWITCHES else value

    def _values(self, preset: dict[str, Any], tail: object) -> dict[str, Any]:
        values = {**RuleSet().values.to_dict(), **preset}
        for name in VALUE_NAMES:
            typed = self._fields[f"value_{name}"].data
            if typed is not None:
                values[name] = typed
        trix = list(values["trix"])
        for place, entry in enumerate(self.trix_values.entries):
            if entry.data is not None:
                trix[place] = entry.data
        if tail is not None and self.trix_values.entries[3].data is None:
            trix[3] = -abs(trix[3]) if tail == "minus" else abs(trix[3])
        values["trix"] = trix
        return values

    def switch_field_for(self, path: str) -> str:
        """``values.king`` -> ``value_king``; ``values.trix`` -> ``trix_values``."""
        if path.startswith("values."):
            name = path.removeprefix("values.")
            return "trix_values" if name == "trix" else f"value_{name}"
        return path if path in self._fields else ""


for _name, _choices in SWITCHES.items():
    setattr(
        RuleSwitches,
        _name,
        ChoiceField(choices=[("", ""), *((c, c) for c in _choices)], default=""),
    )
for _name in VALUE_NAMES:
    setattr(
        RuleSwitches,
        f"value_{_name}",
        WholeNumberField(
            VALUE_LABELS[_name], validators=[Optional(), NumberRange(0, 10_000, POINTS_RANGE)]
        ),
    )


def offer_rule_choices(form: RuleSwitches, seat_labels: list[str]) -> None:
    """The choices of the agreed kings, the first dealer (labelled with ``seat_labels``)
    and the agreed contract order (R2)."""
    for entry in form.king_order.entries:
        entry.choices = seat_choices(seat_labels, "—")
    form.first_dealer.choices = seat_choices(seat_labels, "—")
    for entry in form.order.entries:
        entry.choices = [("", "—"), *((c.value, contract_label(c)) for c in ALL_CONTRACTS)]
