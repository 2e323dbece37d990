"""An event as the API and the pages show it (JSON-ready values)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.rules.events.standings import (
    Ranking,
    Scoring,
    Standing,
    points_value,
    tie_groups,
)
from scorekeeper.store.events.clock import round_ends_at, warning_seconds
from scorekeeper.store.events.services import (
    EventChangeView,
    EventRoundView,
    EventTableView,
    EventView,
)


def standings_json(
    lines: Sequence[Standing], playing: Mapping[str, EventTableView] | None = None
) -> list[dict[str, Any]]:
    """The standings' lines; ``playing``: who is at a table whose game has not finished."""
    at = playing or {}
    return [
        {
            "player": s.player,
            "points": points_value(s.points),
            "rank": s.rank,
            "trix_firsts": s.trix_firsts,
            "tables": s.tables,
            "head_to_head": s.head_to_head,
            "score": s.score,
            "tie_break": s.tie_break,
            "byes": s.byes,
            "bye_points": points_value(s.bye_points),
            "average": points_value(s.average),
            "provisional": points_value(s.provisional),
            "playing": playing_json(at[s.player]) if s.player in at else None,
        }
        for s in lines
    ]


def playing_json(table: EventTableView) -> dict[str, int]:
    """The table a player is at while its game has not finished, and its deals so far (0:
    not started, so it counts nothing yet)."""
    return {"round": table.round, "table": table.number, "deals": table.deals}


def ties_json(lines: Sequence[Standing], ranking: Ranking) -> list[dict[str, Any]]:
    """Each group of players tied on points (or on points per table, when they rank the
    night), in order, and the rules that separated them."""
    return [
        {"points": points_value(g.points), "players": list(g.players), "rules": list(g.rules)}
        for g in tie_groups(lines, by_average=ranking is Ranking.AVERAGE)
    ]


def table_json(table: EventTableView) -> dict[str, Any]:
    return {
        "table": table.number,
        "players": list(table.players),
        "game": table.game_id,
        "state": {
            "totals": list(table.totals),
            "trix_firsts": list(table.trix_firsts),
            "deals_played": table.deals,
            "finished": table.finished,
        },
    }


def round_json(event: EventView, drawn: EventRoundView) -> dict[str, Any]:
    return {
        "round": drawn.number,
        "seed": drawn.seed,
        "locked": drawn.locked,
        "finished": drawn.finished,
        "tables": [table_json(t) for t in drawn.tables],
        "sitting_out": list(drawn.sitting_out),
        "left_out": list(drawn.left_out),
        "standings": standings_json(event.tally([drawn]).standings()),
        "changes": [change_json(c) for c in drawn.changes],
        "drawn_at": drawn.drawn_at.isoformat() if drawn.drawn_at else None,
    }


def change_json(change: EventChangeView) -> dict[str, Any]:
    """A player who left in the middle of the round: who took his seat, or which tables
    were drawn again (and with which seed)."""
    if change.kind == "replace":
        return {
            "kind": "replace",
            "player": change.player,
            "substitute": change.substitute,
            "table": change.table,
            "seat": change.seat,
            "after_deals": change.after_deals,
            "left_in": change.left_in,
        }
    return {
        "kind": "redraw",
        "player": change.player,
        "seed": change.seed,
        "tables": list(change.tables),
    }


def event_json(event: EventView) -> dict[str, Any]:
    """The event: its settings, overall standings and every drawn round."""
    standings = event.standings()
    return {
        "id": event.id,
        "name": event.name,
        "players": [p.name for p in event.players],
        "left": [p.name for p in event.players if p.left_round is not None],
        "rules": event.rules.to_dict(),
        "rounds": event.rounds,
        "round": event.round_kind,
        "scoring": event.scoring.value,
        "places": list(event.places),
        "partnership": event.partnership,
        "seed": event.seed,
        "circle": event.circle_id,
        "version": event.version,
        "closed": event.closed,
        "zero_sum": event.zero_sum,
        "comparable": event.scoring is Scoring.PLACES or event.zero_sum,
        "standings": standings_json(standings, event.playing()),
        "ties": ties_json(standings, event.ranking),
        "byes": event.bye_rule.kind.value,
        "bye_points": event.bye_rule.points,
        "ranking": event.ranking.value,
        "draw": event.draw.value,
        "round_minutes": event.round_minutes,
        "rounds_drawn": [round_json(event, r) for r in event.drawn],
    }


def event_page(event: EventView) -> dict[str, Any]:
    """What the event's pages show: the event's JSON, with its view for the templates."""
    return {**event_json(event), "view": event}


BOARD_STANDINGS = 120
"""Lines of the standings a board shows: every player of a big night (it pages them in
columns), with a bound on what one poll renders."""


def board_page(event: EventView) -> dict[str, Any]:
    """What the board's live content shows, and only that: the standings, the current
    round's tables with their seats, where that round stands and its clock (every few
    seconds at a big event, so not every round's standings and tables as
    :func:`event_page` gives)."""
    current = event.drawn[-1] if event.drawn else None
    standings = event.standings()
    shown = standings[:BOARD_STANDINGS]
    return {
        "id": event.id,
        "version": event.version,
        "name": event.name,
        "standings": standings_json(shown, event.playing()),
        "ties": ties_json(shown, event.ranking),
        "ranking": event.ranking.value,
        "rounds": event.rounds,
        "closed": event.closed,
        "stage": board_stage(event),
        "rounds_drawn": [] if current is None else [board_round(event, current)],
    }


def board_stage(event: EventView) -> str:
    """Where the night stands, for the board's headline: ``waiting`` (nothing drawn),
    ``seating`` (a round drawn, no deal played yet: find your seat), ``playing``,
    ``drawing`` (every table finished, another round to come), ``over`` (all played, or
    closed)."""
    if not event.drawn:
        return "over" if event.closed else "waiting"
    current = event.drawn[-1]
    if current.finished:
        return "over" if event.closed or event.all_drawn else "drawing"
    if event.closed:
        return "over"
    return "seating" if not any(t.deals for t in current.tables) else "playing"


def board_round(event: EventView, drawn: EventRoundView) -> dict[str, Any]:
    """The current round on the board: its tables, who sits out, an A–Z list of where
    everyone sits, and its clock."""
    ends = round_ends_at(event, drawn)
    seats = sorted(
        (
            {"player": name, "table": t.number, "seat": seat + 1}
            for t in drawn.tables
            for seat, name in enumerate(t.players)
        ),
        key=lambda s: str(s["player"]).casefold(),
    )
    return {
        "round": drawn.number,
        "tables": [table_json(t) for t in drawn.tables],
        "playing": [t.number for t in drawn.tables if not t.finished],
        "sitting_out": list(drawn.sitting_out),
        "seats": seats,
        "clock": None
        if ends is None or event.round_minutes is None
        else {
            "minutes": event.round_minutes,
            "ends_ms": int(ends.timestamp() * 1000),
            "warn_seconds": warning_seconds(event.round_minutes),
        },
    }
