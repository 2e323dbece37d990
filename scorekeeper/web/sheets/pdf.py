"""The score sheet and the blank sheet as PDF (docs/STYLE.md §11).

The content comes ready-made from :mod:`scorekeeper.web.sheets.content` (data) and
:mod:`scorekeeper.web.sheets.chart` (the SVG chart); this module lays it out with the
templates in ``templates/sheets/`` and hands the HTML to a render process
(:mod:`scorekeeper.web.sheets.renderer`, which runs :mod:`scorekeeper.web.sheets.engine`).

Costs and how they are kept down:

- WeasyPrint's start-up (~1 s) is paid once per web worker, after the fork,
  by the render process it keeps;
- the HTML is sent without its indentation, and the QR code is a tiny PNG
  (one image drawn on every page, made once per address) rather than an SVG
  path parsed again for each page;
- WeasyPrint's time goes with the number of boxes (cells, lines, text runs)
  and of glyphs, so the deals table is lean: a deal's number shares the
  contract's cell, its four scores and its four running totals are one cell
  each of monospaced figures (:func:`figures`) rather than eight cells, and
  rows are told apart by tints and a few rules rather than a border around
  every cell (``benchmarks/README.md`` has the figures);
- finished PDFs are kept in a small LRU (:class:`PdfCache`) keyed by what
  changes the output and nothing else: game, version, paper, language and
  digits, so an unchanged game is rendered once per language; the blank sheet
  without names by paper, language and digits. Every part of a key is checked
  against its few known values, so no request can make a new key at will: the
  host is never part of it (the links a PDF prints start with ``PUBLIC_URL``,
  or are relative: :func:`public_url`), and the blank sheet with names is
  rendered each time, never kept (names are endless; they would push the games'
  sheets out of the cache).

A sheet is in the request's language (its words come translated from
:mod:`scorekeeper.web.sheets.content` and the templates); an Arabic sheet is right to left
(``dir="rtl"`` on its ``<html>``, logical properties in ``sheet.css``, the page
footer on the other side: :func:`~scorekeeper.web.sheets.engine.page_css`) and set in
an Arabic font.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Callable, Hashable, Iterator, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import segno
from flask import current_app, has_request_context, render_template, request, url_for
from markupsafe import Markup

from scorekeeper.extensions import db
from scorekeeper.rules.contracts import Contract
from scorekeeper.store.cache import LRUCache
from scorekeeper.text.locale import (
    current_digits,
    format_number,
    localize_digits,
    text_direction,
)
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import contract_label
from scorekeeper.web.server import workers
from scorekeeper.web.server.bodies import work_slot_lent
from scorekeeper.web.sheets import renderer as pdf_renderer
from scorekeeper.web.sheets.chart import legend_sample, progression_svg
from scorekeeper.web.sheets.content import Sheet
from scorekeeper.web.sheets.engine import PAPERS, Job
from scorekeeper.web.sheets.renderer import Limits

__all__ = ["PAPERS", "PdfCache", "html_to_pdf", "public_url", "render_blank", "render_sheet"]

CACHE_SIZE = 64


class PdfCache(LRUCache[Hashable, bytes]):
    """Rendered PDFs by (game, version, paper, language, digits)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        super().__init__(size)

    def get_or_render(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        """The cached PDF for ``key``, rendering (and keeping) it on a miss; requests that
        miss it at once share one render, and wait for it as for their own
        (:func:`waiting_for_render`)."""
        return self.get_or_make(key, render, waiting=waiting_for_render)


@contextlib.contextmanager
def waiting_for_render() -> Iterator[None]:
    """While another request renders this PDF: no database connection, no work slot."""
    if has_request_context():
        db.session.close()
    with work_slot_lent():
        yield


# --- rendering -------------------------------------------------------------------------------

_SPACES = re.compile(r"[ \t\r\n]+")
"""Template indentation; not the figure spaces of :func:`figures`."""


def render_limits() -> Limits:
    """The app's render limits (``PDF_RENDER_TIMEOUT``, ``PDF_QUEUE_WAIT``,
    ``PDF_RENDER_SLOTS``, ``PDF_PER_CLIENT``) for this request's client."""
    config = current_app.config
    return Limits(
        timeout=float(config.get("PDF_RENDER_TIMEOUT", pdf_renderer.RENDER_TIMEOUT)),
        queue_wait=float(config.get("PDF_QUEUE_WAIT", pdf_renderer.QUEUE_WAIT)),
        slots=int(config.get("PDF_RENDER_SLOTS") or Limits.slots),
        slot_dir=Path(config["PDF_SLOT_DIR"]),
        per_client=int(config.get("PDF_PER_CLIENT") or pdf_renderer.PER_CLIENT),
        client=workers.client_of(request.remote_addr if has_request_context() else None),
    )


def public_url(endpoint: str, own_host: bool = False, **values: Any) -> str:
    """A page's address as a PDF prints it: ``PUBLIC_URL`` and the path, or the path alone.

    Never from the request's ``Host``: a PDF is kept and served to everyone who asks
    for it, so a forged host must neither make a new one nor leave its address in one.
    ``own_host``: a PDF only its owner may ask for (a club night's table cards, for its
    director) takes the request's host when ``PUBLIC_URL`` is unset, its key too.
    """
    base = str(current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    if own_host and not base:
        return url_for(endpoint, _external=True, **values)
    return base + url_for(endpoint, **values)


def html_to_pdf(html: str, paper: str) -> bytes:
    """The HTML document as PDF bytes, on ``paper`` ("a4" or "letter"), by a render process.

    The page footer is in the request's language and direction (:func:`page_css`).
    Raises :class:`~scorekeeper.web.sheets.renderer.SheetUnavailable` when the server is
    too busy or the render too slow.
    """
    job = Job(
        # Template indentation is only work for the HTML parser; one space keeps the meaning.
        html=_SPACES.sub(" ", html),
        paper=paper,
        # Translators: the printed sheet's page number, at the foot of each page.
        page_label=_("Page %(page)s of %(pages)s"),
        direction=text_direction(),
        digits=current_digits(),
    )
    limits = render_limits()
    if not has_request_context():
        return pdf_renderer.RENDERER.render(job, limits)
    # Everything the PDF shows is in the HTML: the session's connection goes back to the
    # pool, and the request's slot to the other requests, while it waits for the render.
    db.session.close()
    with work_slot_lent():
        return pdf_renderer.RENDERER.render(job, limits)


# --- the documents ---------------------------------------------------------------------------


def is_arabic(text: str) -> bool:
    """Whether ``text`` has a letter of the Arabic script.

    >>> is_arabic("سامي"), is_arabic("Sami")
    (True, False)
    """
    return any(unicodedata.name(ch, "").startswith("ARABIC") for ch in text)


def name_kind(name: str) -> str:
    """How a name is set in the sheet's left-to-right text.

    ``"ar"``: Arabic script, isolated (``<bdi dir="auto">``) in an Arabic font;
    ``"bdi"``: isolated, because it holds something other than left-to-right
    letters and spaces (right-to-left letters, digits, punctuation) that could
    reorder with its neighbours; ``""``: plain left-to-right letters, which
    isolation would not change (and each ``<bdi>`` costs the renderer a box).

    >>> name_kind("عمر"), name_kind("שרה"), name_kind("R2"), name_kind("Rana Haddad")
    ('ar', 'bdi', 'bdi', '')
    """
    if is_arabic(name):
        return "ar"
    if any(unicodedata.bidirectional(ch) not in ("L", "WS") for ch in name):
        return "bdi"
    return ""


def name_kinds(names: Sequence[str]) -> list[str]:
    return [name_kind(name) for name in names]


@lru_cache(maxsize=CACHE_SIZE)
def qr_data_uri(url: str) -> str:
    """A QR code for ``url`` as a PNG ``data:`` URI, one pixel per module (CSS scales it).

    Kept per address: a game's code does not change from one version of its sheet to the next.
    """
    qr = segno.make(url, error="m", micro=False)
    uri: str = qr.png_data_uri(scale=1, border=0)
    return uri


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


def render_sheet(sheet: Sheet, paper: str, game_url: str) -> bytes:
    """The score sheet of one game as PDF bytes."""
    html = render_template(
        "sheets/sheet.html",
        sheet=sheet,
        figures=figures,
        kinds=name_kinds(sheet.players),
        game_url=game_url,
        qr=qr_data_uri(game_url),
        chart=Markup(progression_svg(sheet.series)),
        samples=[Markup(legend_sample(seat)) for seat in range(4)],
        printed=localize_digits(datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")),
    )
    return html_to_pdf(html, paper)


def render_blank(players: Sequence[str], paper: str) -> bytes:
    """The blank sheet to fill in with a pen; ``players`` may be fewer than four (or none)."""
    names = [*players, "", "", "", ""][:4]
    html = render_template(
        "sheets/blank.html",
        players=names,
        kinds=name_kinds(names),
        contracts=[contract_label(contract) for contract in Contract],
    )
    return html_to_pdf(html, paper)
