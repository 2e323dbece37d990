"""The new club night form: shapes only; the store's parser decides the rest.

Its house rules are the new-game page's (:class:`~scorekeeper.web.forms.rules.
RuleSwitches`: a preset and every R9 switch), less the two the night sets itself
(partnerships, and the team kingdoms' rounds, which would clash with the night's rounds).
A night held for a circle names it (a circle this browser may edit, or its pasted edit
link) and ticks its members who came; other names are typed, one per line.
"""

from __future__ import annotations

from typing import Any

from wtforms import (
    BooleanField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import NumberRange, Optional

from scorekeeper.store.events.input import EVENT_NAME_MAX, ROUNDS_MAX
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.locale import localize_digits
from scorekeeper.web.forms import WholeNumberField, whole_number
from scorekeeper.web.forms.rules import SWITCHES, RuleSwitches

NIGHT_SWITCHES = tuple(name for name in SWITCHES if name not in ("partnership", "rounds"))
"""The house rules' switches the night's form offers (it sets partnerships itself)."""
COMMON_NIGHT_SWITCHES = ("doubling", "kingdoms")


class NumbersField(StringField):
    """Whole numbers in one box (``3 2 1 0``), shown in the page's digits like a
    :class:`WholeNumberField`; :func:`_numbers` reads them back."""

    def _value(self) -> str:
        text = self.raw_data[0] if self.raw_data else self.data
        return localize_digits(str(text or ""))


class NewEventForm(RuleSwitches):
    """Name, players (one per line), rounds, what a round is, scoring, byes, ranking,
    how rounds are drawn, partnerships, seed."""

    name = StringField(_l("Name of the club night"), render_kw={"maxlength": EVENT_NAME_MAX})
    players = TextAreaField(_l("Players present, one name per line"))
    rounds = WholeNumberField(_l("Rounds"), default=3, validators=[NumberRange(1, ROUNDS_MAX)])
    round_kind = SelectField(
        _l("A round is"),
        choices=[
            SelectChoice("game", _l("a whole game")),
            SelectChoice("kingdom", _l("one kingdom")),
        ],
        default="game",
    )
    scoring = SelectField(
        _l("Scoring"),
        choices=[
            SelectChoice("totals", _l("sum of game totals")),
            SelectChoice("places", _l("match points by place at the table")),
        ],
        default="totals",
    )
    places = NumbersField(_l("Match points by place (first to fourth)"), default="3 2 1 0")
    byes = SelectField(
        _l("A round sat out scores"),
        choices=[
            SelectChoice("average", _l("the average of the player's own tables")),
            SelectChoice("fixed", _l("a fixed number of points")),
            SelectChoice("none", _l("nothing")),
        ],
        default="average",
    )
    bye_points = WholeNumberField(_l("Points for a round sat out (fixed)"), default=0)
    ranking = SelectField(
        _l("Rank players by"),
        choices=[
            SelectChoice("points", _l("their points")),
            SelectChoice("average", _l("their points per table played")),
        ],
        default="points",
    )
    draw = SelectField(
        _l("How rounds are drawn"),
        choices=[
            SelectChoice("avoid_repeats", _l("by lot, keeping apart players who already met")),
            SelectChoice("swiss", _l("Swiss: from round 2, neighbours in the standings together")),
            SelectChoice("rotation", _l("a fixed rotation (8, 12 or 16 players)")),
        ],
        default="avoid_repeats",
    )
    partnership = BooleanField(_l("Partnerships (partners sit opposite)"))
    seed = WholeNumberField(
        _l("Seed of the draw (empty: chosen at random)"), validators=[Optional()]
    )

    # --- a night held for a circle: which circle, and its members who came
    circle = StringField(_l("Hold it for a circle"))
    circle_link = StringField(_l("Or paste the circle's edit link"))
    members = SelectMultipleField(_l("The circle's members who are here"), validate_choice=False)

    switch_names = NIGHT_SWITCHES

    def field_for(self, path: str | None) -> str:
        head = (path or "").split(".")[0]
        known = {
            "name", "players", "rounds", "places", "partnership", "seed", "scoring", "byes",
            "bye_points", "ranking", "draw",
        }  # fmt: skip
        if head == "rules":
            return self.switch_field_for((path or "").removeprefix("rules."))
        if head in ("circle", "members"):
            return head
        return {"round": "round_kind"}.get(head, head if head in known else "")

    def typed_names(self) -> list[str]:
        return [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]

    def body(self) -> dict[str, Any]:
        """The API's body for this form (with ``circle`` when one is chosen)."""
        rules = self.rules_dict()
        partnership = bool(self.partnership.data) or bool(rules.pop("partnership", False))
        if self.round_kind.data == "kingdom":
            rules.pop("kingdoms", None)  # the night plays one kingdom a round
        body: dict[str, Any] = {
            "name": self.name.data or "",
            "players": [*(self.members.data or []), *self.typed_names()],
            "rules": rules,
            "rounds": self.rounds.data,
            "round": self.round_kind.data,
            "scoring": self.scoring.data,
            "places": _numbers(self.places.data or ""),
            "partnership": partnership,
            "byes": self.byes.data,
            "bye_points": self.bye_points.data or 0,
            "ranking": self.ranking.data,
            "draw": self.draw.data,
        }
        if self.seed.data is not None:
            body["seed"] = self.seed.data
        if self.circle.data:
            body["circle"] = self.circle.data
        return body


def _numbers(text: str) -> list[object]:
    """``3 2 1 0``, ``3, 2, 1, 0`` or ``٣ ٢ ١ ٠`` -> [3, 2, 1, 0]; what is not a whole number
    (:func:`~scorekeeper.web.forms.whole_number`) stays text."""
    out: list[object] = []
    for piece in text.replace(",", " ").replace("،", " ").split():
        number = whole_number(piece)
        out.append(piece if number is None else number)
    return out
