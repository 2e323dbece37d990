"""Two scorers typed the same position: "the same deal?", both entries side by side.

A deal form names the position it was typed for (the game, the deal's number, its
king). When another phone recorded that position meanwhile, the store refuses the
form (:class:`~scorekeeper.store.positions.PositionTaken`) and this page shows both
entries, who recorded what and when, and asks:

- **Discard mine** (first, and the primary button when both say the same): nothing
  is saved, back to the scores;
- **Mine is the next deal**: an explicit choice, offered only when the entry is valid
  as the game's next deal; it sends the same entry again, typed for that position now.

The refused form is never shown again as the next deal's form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import render_template, request, url_for

from scorekeeper.rules.contracts import Contract
from scorekeeper.store import games as services
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import translate_problems
from scorekeeper.web.deals.forms import DealForm
from scorekeeper.web.errors import rollback

T = TypeVar("T")

CARRIED_OVER = {"csrf_token", "version", "position_n", "position_king", "position_game"}
"""Fields of the refused form that the "Mine is the next deal" form sets anew."""
RECORDED_BY = {
    "page": _l("Recorded from another phone"),
    "offline": _l("Recorded from another phone (sent when its network came back)"),
    "api": _l("Recorded by another app"),
    "director": _l("Recorded by the club night's director"),
    "check": _l("Recorded from a card-by-card check"),
}


def position_data(loaded: services.LoadedGame) -> dict[str, Any]:
    """A new deal form's hidden fields: the version, and the position it is typed for."""
    game = loaded.game
    king = game.current_king
    return {
        "version": loaded.version,
        "position_n": game.deals_played + 1,
        "position_king": "" if king is None else str(king),
        "position_game": loaded.id,
    }


def taken_or(write: Callable[[], T]) -> T | services.PositionTaken:
    """``write()``, or the :class:`PositionTaken` it met (nothing written)."""
    try:
        return write()
    except services.PositionTaken as taken:
        rollback()
        return taken


def render_same_deal(
    taken: services.PositionTaken, form: DealForm, contracts: tuple[Contract, ...]
) -> tuple[str, int]:
    """409: both entries side by side, "Discard mine" and "Mine is the next deal"."""
    loaded = taken.loaded
    following = taken.next_position
    carried = [(k, v) for k, v in request.form.items(multi=True) if k not in CARRIED_OVER]
    holder = taken.holder
    recorded_by = RECORDED_BY.get(holder.source, RECORDED_BY["page"]) if holder else None
    return render_template(
        "deals/same_deal.html",
        loaded=loaded,
        names=loaded.players,
        taken=taken,
        holder=holder,
        recorded_by=recorded_by,
        mine=taken.entry,
        reasons=translate_problems(taken.problems),
        next_reasons=translate_problems(taken.next_problems),
        following=following,
        carried=carried,
        form=form,
        action=url_for(
            "web.new_deal", game_id=loaded.id, contracts=",".join(c.value for c in contracts)
        ),
    ), 409
