"""The director's second step: every action that ends or throws away something asks first.

A control posts its form; without ``confirm=yes`` nothing is done and the
night's page comes back with the question in place (next to the control that
asked), naming what will happen, and a second form that posts the same fields
with ``confirm=yes`` ("Yes, close the night"), or a link back. Plain forms: it
works without JavaScript and under the pages' CSP.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from flask import request, url_for

from scorekeeper.store.events.services import EventView
from scorekeeper.text.locale import format_number, isolate, ngettext
from scorekeeper.text.locale import gettext as _


@dataclass(frozen=True)
class Question:
    """What the director is asked before an action is done."""

    action: str
    """The address the "Yes" form posts to."""
    place: str
    """Where the page shows it: ``director`` (the director's controls) or ``round-<n>``."""
    message: str
    yes: str
    fields: dict[str, str] = field(default_factory=dict)


def confirmed() -> bool:
    return request.form.get("confirm") == "yes"


def names_of(numbers: Sequence[int]) -> str:
    return ", ".join(format_number(n) for n in numbers)


def still_playing(event: EventView) -> list[int]:
    """The last drawn round's tables whose game has not finished."""
    if not event.drawn:
        return []
    return [t.number for t in event.drawn[-1].tables if not t.finished]


def draw_question(event: EventView) -> Question:
    number, playing = event.next_round, still_playing(event)
    message = _(
        "Draw round %(n)s now? The seats of its tables are drawn among the %(count)s players "
        "present, and each table gets a new game.",
        n=format_number(number),
        count=format_number(len(event.present(number))),
    )
    if playing:
        message += " " + ngettext(
            "Round %(last)s is still playing at table %(tables)s: its game goes on, but its "
            "players are drawn again for round %(n)s.",
            "Round %(last)s is still playing at tables %(tables)s: their games go on, but "
            "their players are drawn again for round %(n)s.",
            len(playing),
            last=format_number(number - 1),
            tables=names_of(playing),
            n=format_number(number),
        )
    return Question(
        url_for("web.draw_event_round", event_id=event.id),
        "director",
        message,
        _("Yes, draw round %(n)s", n=format_number(number)),
    )


def close_question(event: EventView) -> Question:
    return Question(
        url_for("web.close_club_night", event_id=event.id),
        "director",
        _(
            "Close the club night? No more rounds can be drawn and the tables' games take no "
            "more deals; the standings become the results. You can reopen it later."
        ),
        _("Yes, close the night"),
    )


def undo_draw_question(event: EventView, number: int) -> Question:
    tables = [t.number for t in event.drawn[number - 1].tables] if event.drawn else []
    return Question(
        url_for("web.undo_event_draw", event_id=event.id, number=number),
        f"round-{number}",
        ngettext(
            "Undo the draw of round %(n)s? Its table (%(tables)s) and its game are deleted: "
            "its card and links stop working. Round %(n)s can then be drawn again.",
            "Undo the draw of round %(n)s? Its tables (%(tables)s) and their games are "
            "deleted: their cards and links stop working. Round %(n)s can then be drawn again.",
            len(tables),
            n=format_number(number),
            tables=names_of(tables),
        ),
        _("Yes, undo the draw"),
    )


def redraw_question(event: EventView, number: int, player: str) -> Question:
    drawn = event.drawn[number - 1]
    waiting = [t.number for t in drawn.tables if t.deals == 0]
    return Question(
        url_for("web.redraw_event_round", event_id=event.id, number=number),
        f"round-{number}",
        _(
            "Draw round %(n)s again without %(player)s? The tables not started (%(tables)s) "
            "get new seats and new games: their cards and links stop working. %(player)s is "
            "drawn no more from then on.",
            n=format_number(number),
            player=isolate(player),
            tables=names_of(waiting),
        ),
        _("Yes, draw again"),
        {"player": player},
    )


def replace_question(event: EventView, number: int, player: str, substitute: str) -> Question:
    return Question(
        url_for("web.replace_event_player", event_id=event.id, number=number),
        f"round-{number}",
        _(
            "%(player)s leaves: %(substitute)s takes over the seat and the table's result, and "
            "%(player)s scores nothing for round %(n)s and is drawn no more.",
            player=isolate(player),
            substitute=isolate(substitute),
            n=format_number(number),
        ),
        _("Yes, replace %(player)s", player=isolate(player)),
        {"player": player, "substitute": substitute},
    )


def leave_question(event: EventView, player: str) -> Question:
    return Question(
        url_for("web.event_player_leaves", event_id=event.id),
        "director",
        _(
            "%(player)s leaves the club night: drawn no more from round %(n)s on (the results "
            "so far stay). You can bring %(player)s back later.",
            player=isolate(player),
            n=format_number(event.next_round),
        ),
        _("Yes, %(player)s leaves", player=isolate(player)),
        {"name": player},
    )


def revoke_question(event: EventView) -> Question:
    return Question(
        url_for("web.revoke_co_director", event_id=event.id),
        "director",
        _(
            "Revoke the co-director's link? Every device that opened it loses the director's "
            "rights at once."
        ),
        _("Yes, revoke it"),
    )
