"""A club night's paper for the wall and for its club's website.

- ``GET /events/<id>/round-sheet.pdf?round=n``: every table of a round with its seats,
  an A–Z "find your seat" list (player → table and seat) and who sits out;
- ``GET /events/<id>/results.csv``: one row per player of the final standings, with
  each round's points and what a table still playing adds so far (names can never run
  as a spreadsheet formula: :func:`scorekeeper.web.paper.csv.cell`);
- ``GET /events/<id>/results.html``: the results as one standalone page (inline CSS, no
  script, no site menu) to put on a club's website or print, in the request's
  language and digits;
- ``GET /events/<id>/results.pdf``: the night's name and date, the final standings,
  every round and table, and the director's corrections.

Every PDF is rendered like the night's others (:func:`~.routes._night_pdf`: the render
processes' limits, and one render per version of the night's data, paper, language and
digits, each checked). What they read is the page's own view (:func:`.present.event_page`).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import abort, make_response, render_template, request
from werkzeug.wrappers import Response

from scorekeeper.rules.events.standings import points_value, table_points
from scorekeeper.store.events import services
from scorekeeper.store.events.records import Correction, director_corrections
from scorekeeper.text.locale import current_digits, current_locale, localize_digits, ltr
from scorekeeper.web.blueprint import bp
from scorekeeper.web.events.present import event_page, playing_json
from scorekeeper.web.events.routes import _night_pdf, _pdf
from scorekeeper.web.paper import pdf
from scorekeeper.web.paper.csv import cell

RESULTS_FORMAT = "r2"
"""Bumped when the standalone page's layout changes, so that old ETags stop matching."""


# --- the round sheet -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatFinder:
    """A line of the A–Z list: where a player sits in the round."""

    player: str
    table: int
    seat: int
    """1 to 4, in playing order."""


def seat_finder(drawn: services.EventRoundView) -> list[SeatFinder]:
    """Every seated player of the round, A to Z (case and accents aside), with his seat."""
    lines = [
        SeatFinder(name, table.number, seat + 1)
        for table in drawn.tables
        for seat, name in enumerate(table.players)
    ]
    return sorted(lines, key=lambda line: (sort_key(line.player), line.table, line.seat))


def sort_key(name: str) -> str:
    """A name as the A–Z list orders it.

    >>> sorted(["omar", "Lina", "Émile", "ziad"], key=sort_key)
    ['Émile', 'Lina', 'omar', 'ziad']
    """
    plain = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in plain if not unicodedata.combining(ch)).casefold()


def requested_round(event: services.EventView) -> int:
    """``?round=n`` among the drawn rounds (the last one by default); else a 404, so that no
    request makes a new render at will."""
    if not event.drawn:
        abort(404)
    raw = request.args.get("round")
    if raw is None:
        return len(event.drawn)
    number = int(raw) if raw.isdecimal() and len(raw) < 4 else 0
    if not 1 <= number <= len(event.drawn):
        abort(404)
    return number


@bp.get("/events/<event_id>/round-sheet.pdf")
def event_round_sheet(event_id: str) -> Response:
    """A round's sheet for the wall: its tables and seats, and an A–Z list to find one's seat."""
    loaded = services.load_event(event_id)
    number = requested_round(loaded)
    drawn = loaded.drawn[number - 1]

    def html() -> str:
        return render_template(
            "events/sheets/round.html",
            page=event_page(loaded),
            drawn=drawn,
            finder=seat_finder(drawn),
            date=night_date(loaded),
            page_url=pdf.public_url("web.event", event_id=event_id),
        )

    return _pdf(_night_pdf(loaded, ("round", number), html), f"round-{number}.pdf")


def night_date(event: services.EventView) -> str:
    """The night's date as the paper prints it: ``2026-12-04``, in the chosen digits."""
    when: datetime | None = event.created_at
    return "" if when is None else ltr(localize_digits(when.date().isoformat()))


# --- results: what the PDF and the standalone page add to the standings ------------------------


def results_context(event: services.EventView) -> dict[str, Any]:
    """What the results (PDF and standalone page) show beside the night's page: its date,
    the director's corrections and each player's points round by round."""
    return {
        "date": night_date(event),
        "corrections": [correction_json(c) for c in director_corrections(event)],
        "by_round": round_points(event),
    }


def round_points(event: services.EventView) -> dict[str, list[object]]:
    """Per player, per drawn round: his table's points (None while it counts nothing yet,
    ``"bye"`` when he sat out, ``""`` when he was not there)."""
    out: dict[str, list[object]] = {p.name: [""] * len(event.drawn) for p in event.players}
    for index, drawn in enumerate(event.drawn):
        for name in drawn.sitting_out:
            out.setdefault(name, [""] * len(event.drawn))[index] = "bye"
        for table in drawn.tables:
            points = table_points(table.result(), event.scoring, event.places)
            for seat, name in enumerate(table.players):
                row = out.setdefault(name, [""] * len(event.drawn))
                row[index] = points_value(points[seat]) if event.counts(table) else None
    return out


def correction_json(correction: Correction) -> dict[str, Any]:
    """A correction for the templates: where, which deal, what changed, when."""
    return {
        "round": correction.round,
        "table": correction.table,
        "deal": correction.n,
        "action": correction.action,
        "at": correction.at,
        "when": ltr(localize_digits(correction.at.strftime("%Y-%m-%d %H:%M UTC"))),
        "before": correction.before,
        "after": correction.after,
        "changes": correction.changes,
    }


@bp.get("/events/<event_id>/results.csv")
def event_results_csv(event_id: str) -> Response:
    """The final standings as CSV, one row per player, with each round's points."""
    loaded = services.load_event(event_id)
    response = make_response(results_csv(loaded))
    response.mimetype = "text/csv"
    response.headers["Content-Disposition"] = f'attachment; filename="results-{event_id}.csv"'
    response.headers["Cache-Control"] = "no-cache"
    return response


def results_csv(event: services.EventView) -> str:
    """rank, player, points, tables played, byes, bye points, points per table, tie-break
    (the rule that put him below the line above, when tied on points), then ``round N``:
    his points in each round (``bye`` for a round sat out, empty when he was not there or
    his table has no deal yet), then what is not settled yet: ``provisional`` (the part of
    his points from a table still playing) and that table (``playing_round``,
    ``playing_table``, ``playing_deals``: empty when he is at none), as the API's standings
    say it. Every name is a :func:`cell`, never a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rounds = [f"round {r.number}" for r in event.drawn]
    writer.writerow(
        [
            "rank",
            "player",
            "points",
            "tables_played",
            "byes",
            "bye_points",
            "points_per_table",
            "tie_break",
            *rounds,
            "provisional",
            "playing_round",
            "playing_table",
            "playing_deals",
        ]
    )
    by_round = round_points(event)
    playing = event.playing()
    for line in event.standings():
        cells: Sequence[object] = by_round.get(line.player, [""] * len(rounds))
        table = playing.get(line.player)
        at: Sequence[object] = ("", "", "") if table is None else [*playing_json(table).values()]
        writer.writerow(
            [
                line.rank,
                cell(line.player),
                points_value(line.points),
                line.tables,
                line.byes,
                points_value(line.bye_points),
                points_value(line.average),
                line.tie_break or "",
                *("" if value is None else value for value in cells),
                points_value(line.provisional),
                *at,
            ]
        )
    return out.getvalue()


@bp.get("/events/<event_id>/results.html")
def event_results_page(event_id: str) -> Response:
    """The results as one standalone page for a club's website: no script, no menu."""
    loaded = services.load_event(event_id)
    etag = f"{loaded.version}-{current_locale()}-{current_digits()}-{RESULTS_FORMAT}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        page = event_page(loaded)
        context = results_context(loaded)
        html = render_template(
            "events/standalone/results.html",
            page=page,
            page_url=pdf.public_url("web.event", own_host=True, event_id=event_id),
            **context,
        )
        response = make_response(html)
        response.headers["Content-Disposition"] = f'inline; filename="results-{event_id}.html"'
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    # A page to copy onto another site: it runs nothing and loads nothing but itself.
    response.headers["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    )
    return response


@bp.get("/events/<event_id>/results.pdf")
def event_results(event_id: str) -> Response:
    """The night's name and date, the final standings, every round and table, and the
    director's corrections."""
    loaded = services.load_event(event_id)

    def html() -> str:
        return render_template(
            "events/sheets/results.html",
            page=event_page(loaded),
            page_url=pdf.public_url("web.event", event_id=event_id),
            **results_context(loaded),
        )

    return _pdf(_night_pdf(loaded, ("results",), html), "results.pdf")
