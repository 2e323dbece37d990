"""The new-game form: four names, the holder of the 7♥, and every house rule (R1, R2, R9).

The house rules' fields are :class:`~scorekeeper.web.forms.rules.RuleSwitches`; this
form adds the names (checked by the services too) and the first king.
"""

from __future__ import annotations

from typing import Any

from wtforms import FieldList, StringField
from wtforms.validators import Length

from scorekeeper.store.input import NAME_MAX
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.forms import SEATS, ChoiceField, seat_or_none, strip
from scorekeeper.web.forms.rules import NAME_TOO_LONG, RuleSwitches


class NewGameForm(RuleSwitches):
    """Four names in seat order, the holder of the 7♥, and the house rules (R1, R2, R9)."""

    players = FieldList(
        StringField(
            filters=[strip],
            validators=[Length(max=NAME_MAX, message=NAME_TOO_LONG)],
        ),
        min_entries=4,
        max_entries=4,
    )
    first_king = ChoiceField(choices=[(s, s) for s in SEATS])

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        names = [(entry.data or "").strip() for entry in self.players.entries]
        seen: list[str] = []
        for seat, name in enumerate(names):
            if not name:
                message = _("Player %(number)d needs a name.", number=seat + 1)
                self.add_error(f"players-{seat}", message)
            elif name.casefold() in seen:
                message = _(
                    "Two players are called %(name)s; give each player a different name.", name=name
                )
                self.add_error(f"players-{seat}", message)
            seen.append(name.casefold())
        if seat_or_none(self.first_king.data) is None:
            self.add_error(
                "first_king", _("Choose who holds the 7♥: that player is the first king.")
            )
        return ok and not self.all_errors

    def player_names(self) -> list[str]:
        return [(entry.data or "").strip() for entry in self.players.entries]

    def king_seat(self) -> int:
        seat = seat_or_none(self.first_king.data)
        assert seat is not None  # validate() made sure
        return seat

    def field_for(self, path: str | None) -> str:
        if not path:
            return ""
        if path.startswith("players."):
            return "players-" + path.removeprefix("players.")
        if path.startswith("rules."):
            return self.switch_field_for(path.removeprefix("rules."))
        return path if path in self._fields else ""
