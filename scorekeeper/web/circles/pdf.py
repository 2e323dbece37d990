"""The circle's season as PDF: the table ranked, and each player's small charts.

``GET /circles/<id>/table.pdf?period=month|year|all&paper=a4|letter`` (blueprint
``export``, beside the score sheets), for whoever knows the circle's id, like
its page. The numbers are the page's (:mod:`.present`), laid out by
``templates/circles/sheets/table.html`` and rendered by the sheets' render
processes (:func:`scorekeeper.web.paper.pdf.html_to_pdf`: a time limit, a
bound for the whole server, never WeasyPrint in a web worker). A PDF is kept
in the sheets' cache by (circle, version, period and its first day, paper,
language, digits), each checked against its known values (an unknown period is
``all``), and its ETag names the same: one render per version of the circle's data.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Response, current_app, render_template, request
from markupsafe import Markup

from scorekeeper.store.circles import services
from scorekeeper.store.circles.stats import Result, running_totals
from scorekeeper.text import circles as words
from scorekeeper.text.locale import current_digits, current_locale, localize_digits
from scorekeeper.text.locale import lazy_gettext as _l
from scorekeeper.text.messages import contract_label
from scorekeeper.web.circles import charts
from scorekeeper.web.circles.present import member_state, table_view
from scorekeeper.web.paper import pdf
from scorekeeper.web.paper.pdf import bp, requested_paper
from scorekeeper.web.paper.qr import qr_data_uri

PDF_FORMAT = "c1"
"""Bumped when the layout changes, so that old ETags stop matching."""
RUNNING = _l("Running total")
PER_CONTRACT = _l("Points per deal, by contract")


def requested_period() -> str:
    period = request.args.get("period", "all")
    return period if period in services.PERIODS else "all"


def member_panels(
    circle: services.CircleData, table: list[dict[str, Any]], period: str
) -> list[dict[str, Any]]:
    """For each ranked member who played in the period: his running total over the period
    and his points per deal by contract, as small SVG charts."""
    since = services.period_start(period)
    panels = []
    for row in table:
        if not row["games"]:
            continue
        results: list[Result] = [
            r
            for r in services.member_results(circle, row["id"])
            if since is None or r.played_at >= since
        ]
        stats = member_state(circle, row["id"], period)
        bars = [(contract_label(c)[:3], r["average"]) for c, r in stats["per_contract"].items()]
        panels.append(
            {
                "row": row,
                "kind": pdf.name_kind(row["name"]),
                "running": Markup(
                    charts.line_svg([0, *running_totals(results)], label=str(RUNNING))
                ),
                "contracts": Markup(charts.bars_svg(bars, label=str(PER_CONTRACT))),
            }
        )
    return panels


def render_circle_pdf(circle: services.CircleData, period: str, paper: str) -> bytes:
    """The circle's table over ``period`` and its players' charts, as PDF bytes."""
    table = table_view(circle, period)
    view_url = pdf.public_url("web.circle", circle_id=circle.id)
    html = render_template(
        "circles/sheets/table.html",
        circle=circle,
        table=table,
        kinds={row["id"]: pdf.name_kind(row["name"]) for row in table},
        panels=member_panels(circle, table, period),
        title_kind=pdf.name_kind(circle.name),
        period_label=words.PERIODS[period],
        view_url=view_url,
        qr=qr_data_uri(view_url),
        printed=localize_digits(datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")),
    )
    return pdf.html_to_pdf(html, paper)


@bp.get("/circles/<circle_id>/table.pdf")
def circle_pdf(circle_id: str) -> Response:
    """The season's table of the circle as PDF; 304 if the caller's copy is current."""
    paper, period = requested_paper(), requested_period()
    circle = services.load_circle(circle_id)
    locale, digits = current_locale(), current_digits()
    since = services.period_start(period)
    first_day = since.date().isoformat() if since else "all"
    etag = f"{circle.version}-{period}-{first_day}-{paper}-{locale}-{digits}-{PDF_FORMAT}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        cache: pdf.PdfCache = current_app.extensions["pdf_cache"]
        key = ("circle", circle.id, circle.version, period, first_day, paper, locale, digits)
        data = cache.get_or_render(key, lambda: render_circle_pdf(circle, period, paper))
        response = Response(data, mimetype="application/pdf")
        name = f"circle-{circle.id}-{period}.pdf"
        response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"  # the circle may change: always revalidate
    return response
