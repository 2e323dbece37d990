"""The new club night form: shapes only; the store's parser decides the rest."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import NumberRange, Optional

from scorekeeper.store.events.input import EVENT_NAME_MAX, ROUNDS_MAX
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.web.forms import ProblemsForm


class NewEventForm(ProblemsForm):
    """Name, players (one per line), rounds, what a round is, scoring, byes, ranking,
    how rounds are drawn, partnerships, seed."""

    name = StringField(_l("Name of the club night"), render_kw={"maxlength": EVENT_NAME_MAX})
    players = TextAreaField(_l("Players present, one name per line"))
    rounds = IntegerField(_l("Rounds"), default=3, validators=[NumberRange(1, ROUNDS_MAX)])
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
    places = StringField(_l("Match points by place (first to fourth)"), default="3 2 1 0")
    byes = SelectField(
        _l("A round sat out scores"),
        choices=[
            SelectChoice("average", _l("the average of the player's own tables")),
            SelectChoice("fixed", _l("a fixed number of points")),
            SelectChoice("none", _l("nothing")),
        ],
        default="average",
    )
    bye_points = IntegerField(_l("Points for a round sat out (fixed)"), default=0)
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
    seed = IntegerField(_l("Seed of the draw (empty: chosen at random)"), validators=[Optional()])

    def field_for(self, path: str | None) -> str:
        head = (path or "").split(".")[0]
        known = {
            "name", "players", "rounds", "places", "partnership", "seed", "scoring", "byes",
            "bye_points", "ranking", "draw",
        }  # fmt: skip
        return {"round": "round_kind"}.get(head, head if head in known else "")

    def body(self) -> dict[str, Any]:
        """The API's body for this form."""
        body: dict[str, Any] = {
            "name": self.name.data or "",
            "players": [
                line.strip() for line in (self.players.data or "").splitlines() if line.strip()
            ],
            "rounds": self.rounds.data,
            "round": self.round_kind.data,
            "scoring": self.scoring.data,
            "places": _numbers(self.places.data or ""),
            "partnership": bool(self.partnership.data),
            "byes": self.byes.data,
            "bye_points": self.bye_points.data or 0,
            "ranking": self.ranking.data,
            "draw": self.draw.data,
        }
        if self.seed.data is not None:
            body["seed"] = self.seed.data
        return body


def _numbers(text: str) -> list[object]:
    """``3 2 1 0`` or ``3, 2, 1, 0`` -> [3, 2, 1, 0]; what is not a number stays text."""
    out: list[object] = []
    for piece in text.replace(",", " ").split():
        try:
            out.append(int(piece))
        except ValueError:
            out.append(piece)
    return out
