"""A circle's season ladder: its club nights added up, as a page and as a PDF.

- ``GET /circles/<id>/ladder``: the page (blueprint ``web``);
- ``GET /circles/<id>/ladder.pdf?paper=a4|letter`` (blueprint ``export``, beside the
  circle's table), rendered by the sheets' render processes and kept in their cache by
  (circle, its version, every night's id and version, paper, language, digits): one
  render per version of the data, each part checked.

The rule, said on the page and the PDF: each night gives a player who played at least one
table there one **ladder point for every player he finished above**, and half a point for
every player who shared his place. Nights of any size and any scoring (match points or
game totals) so compare. The ladder ranks by ladder points, then nights won, then best
place; players level on all three share a place. A player is the same from night to
night by his name, compared as the circle compares members' names.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from flask import Response, current_app, render_template, request

from scorekeeper.rules.events.standings import Standing, points_value
from scorekeeper.store.circles import services
from scorekeeper.store.circles.input import name_key
from scorekeeper.store.events.records import circle_nights
from scorekeeper.store.events.services import EventView
from scorekeeper.text.locale import current_digits, current_locale, localize_digits, ltr
from scorekeeper.web.blueprint import bp as pages
from scorekeeper.web.paper import pdf
from scorekeeper.web.paper.pdf import bp as exports
from scorekeeper.web.paper.pdf import requested_paper
from scorekeeper.web.paper.qr import qr_data_uri

LADDER_FORMAT = "l1"
"""Bumped when the ladder's layout changes, so that old ETags stop matching."""


@dataclass(frozen=True)
class NightLine:
    """A club night of the season as the ladder counts it."""

    id: str
    name: str
    date: str
    closed: bool
    players: int
    """Who played at least one table there."""
    winners: tuple[str, ...]


@dataclass
class LadderLine:
    """A player's season: his ladder points and what the tie-breaks read."""

    player: str
    member_id: int | None = None
    ladder_points: Fraction = Fraction(0)
    nights: int = 0
    won: int = 0
    best: int | None = None
    night_points: Fraction = Fraction(0)
    place: int = 0
    places: list[int] = field(default_factory=list)

    @property
    def average(self) -> Fraction:
        """Ladder points per night played."""
        return self.ladder_points / self.nights if self.nights else Fraction(0)

    def rank_key(self) -> tuple[Any, ...]:
        return (-self.ladder_points, -self.won, self.best or 0)


def night_ladder_points(lines: Sequence[Standing]) -> dict[str, Fraction]:
    """Each player's ladder points for one night: one for every player placed below him,
    half for every other player sharing his place (those who played no table left out).

    >>> lines = [Standing("A", 6, 1, 0, 2), Standing("B", 4, 2, 0, 2),
    ...          Standing("C", 4, 2, 0, 2), Standing("D", 0, 4, 0, 2), Standing("E", 0, 5, 0, 0)]
    >>> {k: str(v) for k, v in night_ladder_points(lines).items()}
    {'A': '3', 'B': '3/2', 'C': '3/2', 'D': '0'}
    """
    played = [line for line in lines if line.tables > 0]
    return {
        line.player: Fraction(sum(1 for o in played if o.rank > line.rank))
        + Fraction(sum(1 for o in played if o.rank == line.rank) - 1, 2)
        for line in played
    }


def build_ladder(
    circle: services.CircleData, nights: Sequence[EventView]
) -> tuple[list[LadderLine], list[NightLine]]:
    """The season's ladder over ``nights`` (oldest first), ranked, and the nights counted."""
    players: dict[str, LadderLine] = {}
    counted = []
    for night in nights:
        standings = night.standings()
        points = night_ladder_points(standings)
        if not points:
            continue  # no table has a deal yet: nothing to count
        for line in standings:
            if line.player not in points:
                continue
            key = name_key(line.player)
            member = circle.member_named(line.player)
            entry = players.setdefault(key, LadderLine(line.player, member.id if member else None))
            entry.ladder_points += points[line.player]
            entry.nights += 1
            entry.won += int(line.rank == 1)
            entry.best = line.rank if entry.best is None else min(entry.best, line.rank)
            entry.night_points += Fraction(line.points)
            entry.places.append(line.rank)
        counted.append(night_line(night, standings, len(points)))
    ranked = sorted(players.values(), key=lambda e: (*e.rank_key(), name_key(e.player)))
    for index, entry in enumerate(ranked):
        level = index > 0 and ranked[index - 1].rank_key() == entry.rank_key()
        entry.place = ranked[index - 1].place if level else index + 1
    return ranked, counted


def night_line(night: EventView, standings: Sequence[Standing], players: int) -> NightLine:
    when = night.created_at
    date = "" if when is None else ltr(localize_digits(when.date().isoformat()))
    winners = tuple(s.player for s in standings if s.rank == 1 and s.tables > 0)
    return NightLine(night.id, night.name, date, night.closed, players, winners)


def ladder_json(lines: Sequence[LadderLine]) -> list[dict[str, Any]]:
    """The ladder's lines for the templates: points as numbers (2.5), places in order."""
    return [
        {
            "place": line.place,
            "player": line.player,
            "member": line.member_id,
            "ladder_points": points_value(line.ladder_points),
            "nights": line.nights,
            "won": line.won,
            "best": line.best,
            "night_points": points_value(line.night_points),
            "average": points_value(line.average),
        }
        for line in lines
    ]


def ladder_context(circle: services.CircleData) -> tuple[dict[str, Any], str]:
    """What the page and the PDF show, and the version of its data (the circle's and each
    night's), for the caches and the ETag."""
    nights = circle_nights(circle.id)
    lines, counted = build_ladder(circle, nights)
    versions = ",".join(f"{n.id}:{n.version}" for n in nights)
    digest = hashlib.sha256(f"{circle.version}|{versions}".encode()).hexdigest()[:16]
    context = {"circle": circle, "ladder": ladder_json(lines), "nights": counted}
    return context, digest


@pages.get("/circles/<circle_id>/ladder")
def circle_ladder(circle_id: str) -> str:
    """The season ladder of the circle's club nights, with its rule said."""
    circle = services.load_circle(circle_id)
    context, _version = ladder_context(circle)
    return render_template("circles/ladder.html", **context)


@exports.get("/circles/<circle_id>/ladder.pdf")
def circle_ladder_pdf(circle_id: str) -> Response:
    """The season ladder as PDF; 304 if the caller's copy is current."""
    paper = requested_paper()
    circle = services.load_circle(circle_id)
    context, version = ladder_context(circle)
    locale, digits = current_locale(), current_digits()
    etag = f"{version}-{paper}-{locale}-{digits}-{LADDER_FORMAT}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        cache: pdf.PdfCache = current_app.extensions["pdf_cache"]
        key = ("ladder", circle.id, version, paper, locale, digits)
        data = cache.get_or_render(key, lambda: render_ladder(context, paper))
        response = Response(data, mimetype="application/pdf")
        name = f"ladder-{circle.id}.pdf"
        response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"  # a night may change: always revalidate
    return response


def render_ladder(context: dict[str, Any], paper: str) -> bytes:
    circle = context["circle"]
    view_url = pdf.public_url("web.circle_ladder", circle_id=circle.id)
    html = render_template(
        "circles/sheets/ladder.html",
        **context,
        view_url=view_url,
        qr=qr_data_uri(view_url),
        printed=localize_digits(datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")),
    )
    return pdf.html_to_pdf(html, paper)
