"""The score sheet and the blank sheet as PDF (docs/STYLE.md §11).

The content comes ready-made from :mod:`scorekeeper.web.sheets.content` (data) and
:mod:`scorekeeper.web.sheets.chart` (the SVG chart); this module lays it out with the
templates in ``templates/sheets/`` and hands the HTML to a render process
(:mod:`scorekeeper.web.paper.renderer`, which runs :mod:`scorekeeper.web.paper.engine`).

The rendering itself (the processes, the cache, the paper) is every PDF's, in
:mod:`scorekeeper.web.paper.pdf`. What the sheet adds: WeasyPrint's time goes with
the number of boxes (cells, lines, text runs) and of glyphs, so the deals table is
lean: a deal's number shares the contract's cell, its four scores and its four
running totals are one cell each of monospaced figures (:func:`figures`) rather
than eight cells, and rows are told apart by tints and a few rules rather than a
border around every cell (``benchmarks/README.md`` has the figures). A game's sheet
is kept by game, version, paper, language and digits, so an unchanged game is
rendered once per language; the blank sheet without names by paper, language and
digits, and with names each time, never kept (names are endless; they would push
the games' sheets out of the cache).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime

from flask import render_template
from markupsafe import Markup

from scorekeeper.rules.contracts import Contract
from scorekeeper.text.locale import format_number, localize_digits, text_direction
from scorekeeper.text.messages import contract_label
from scorekeeper.web.paper import pdf as paper
from scorekeeper.web.paper.qr import qr_data_uri
from scorekeeper.web.sheets.chart import legend_sample, progression_svg
from scorekeeper.web.sheets.content import Sheet

FIGURE_COLUMN = 7
"""Characters per score column of the deals table (``sheet.css`` sizes ``.c-num`` to match)."""
FIGURE_SPACE = "\u2007"
LRM = "\u200e"
"""LEFT-TO-RIGHT MARK: a strong left-to-right character that takes no room."""


def figures(values: Sequence[int]) -> str:
    """Four scores as one run of monospaced text, each ending at the end of its own column.

    The deals table sets a row's four deal scores (and its four running totals)
    in one cell of monospaced figures rather than four cells: a quarter of the
    cells, boxes and text runs for WeasyPrint to lay out and draw. Every
    character of the monospaced font, figure spaces and minus signs included, is
    as wide as a digit, so padding each score to :data:`FIGURE_COLUMN`
    characters puts it under its player's column. The run is always set left to
    right (the cell is ``dir="ltr"``): right to left, the seats' columns are
    mirrored, so the scores are given last seat first. Each score opens with a
    left-to-right mark: Arabic-Indic digits count as right to left for the spaces
    and signs between them, so ``٠   −٧٥`` would set its minus after the ٧٥ (the
    isolates of :func:`~scorekeeper.text.locale.isolate` did not hold in a run of
    several numbers in one cell either).

    >>> figures([0, -150, 75, 0]).replace(FIGURE_SPACE, "_").replace(LRM, "")
    '0___−150_____75______0'
    """
    ordered = list(values)[::-1] if text_direction() == "rtl" else list(values)
    out = []
    for i, value in enumerate(ordered):
        text = format_number(value)
        width = sum(1 for ch in text if unicodedata.category(ch) != "Cf")  # not ALM, LRI…
        out.append((FIGURE_SPACE * (FIGURE_COLUMN - width) if i else "") + LRM + text)
    return "".join(out)


def render_sheet(sheet: Sheet, paper_size: str, game_url: str) -> bytes:
    """The score sheet of one game as PDF bytes."""
    html = render_template(
        "sheets/sheet.html",
        sheet=sheet,
        figures=figures,
        kinds=paper.name_kinds(sheet.players),
        game_url=game_url,
        qr=qr_data_uri(game_url),
        chart=Markup(progression_svg(sheet.series)),
        samples=[Markup(legend_sample(seat)) for seat in range(4)],
        printed=localize_digits(datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")),
    )
    return paper.html_to_pdf(html, paper_size)


def render_blank(players: Sequence[str], paper_size: str) -> bytes:
    """The blank sheet to fill in with a pen; ``players`` may be fewer than four (or none)."""
    names = [*players, "", "", "", ""][:4]
    html = render_template(
        "sheets/blank.html",
        players=names,
        kinds=paper.name_kinds(names),
        contracts=[contract_label(contract) for contract in Contract],
    )
    return paper.html_to_pdf(html, paper_size)
