"""WeasyPrint rendering of the score sheet and the blank sheet (STYLE.md: pdf.py).

The content comes ready-made from :mod:`scorekeeper.sheet` (data) and
:mod:`scorekeeper.chart` (the SVG chart); this module only lays it out with
the templates in ``templates/pdf/`` and turns the HTML into PDF bytes.

Costs and how they are kept down:

- importing WeasyPrint (~0.5 s) and its first render are paid once per
  process, by :func:`prewarm` (a background thread at app start-up outside
  tests) or by the first download;
- one Fontconfig configuration and the parsed stylesheets are reused by every
  render (they hold no per-document state: the sheets use installed fonts by
  family name, never ``@font-face``); renders are serialised by a lock,
  which also keeps WeasyPrint's shared objects single-threaded;
- a short user-agent stylesheet (``templates/pdf/ua.css``) replaces
  WeasyPrint's full HTML5 one, the HTML is sent without its indentation, and
  the QR code is a tiny PNG (one image drawn on every page, made once per
  address) rather than an SVG path parsed again for each page;
- the templates are well-formed XHTML, read by the C XML parser rather than
  WeasyPrint's pure-Python HTML5 one (:func:`parse_xhtml`; tens of
  milliseconds for a 20-deal sheet);
- WeasyPrint's time goes with the number of boxes (cells, lines, text runs)
  and of glyphs, so the deals table is lean: a deal's number shares the
  contract's cell, its four scores and its four running totals are one cell
  each of monospaced figures (:func:`figures`) rather than eight cells, and
  rows are told apart by tints and a few rules rather than a border around
  every cell (separate borders: collapsing them is costly as well). A finished
  20-deal sheet renders in about 1.15x the time of the benchmark's bare
  20-row table (``benchmarks/pdf_sheet.py``; it was 2x);
- finished PDFs are kept in a small LRU (:class:`PdfCache`) keyed by game,
  version, paper, language and digits, so an unchanged game is rendered once
  per language.

A sheet is in the request's language (its words come translated from
:mod:`scorekeeper.sheet` and the templates); an Arabic sheet is right to left
(``dir="rtl"`` on its ``<html>``, logical properties in ``sheet.css``, the page
footer on the other side: :func:`page_css`) and set in an Arabic font.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any
from xml.etree import ElementTree

import segno
from flask import render_template
from markupsafe import Markup

from scorekeeper import PROJECT_ROOT
from scorekeeper.chart import legend_sample, progression_svg
from scorekeeper.i18n import (
    current_digits,
    format_number,
    isolate,
    localize_digits,
    text_direction,
)
from scorekeeper.i18n import gettext as _
from scorekeeper.lru import LRUCache
from scorekeeper.messages import contract_label
from scorekeeper.rules.contracts import Contract
from scorekeeper.sheet import Sheet

PAPERS = {"a4": "A4", "letter": "letter"}
"""Paper sizes by query value (``?paper=``), as CSS ``@page`` sizes."""
CSS_DIR = PROJECT_ROOT / "templates" / "pdf"
CACHE_SIZE = 64

_lock = threading.Lock()


class PdfCache(LRUCache[Hashable, bytes]):
    """Rendered PDFs by (game, version, paper, language, digits)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        super().__init__(size)

    def get_or_render(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        """The cached PDF for ``key``, rendering (and keeping) it on a miss."""
        return self.get_or_make(key, render)


# --- WeasyPrint, set up once -----------------------------------------------------------------


@dataclass(frozen=True)
class _Engine:
    """WeasyPrint and what every render shares, set up once per process."""

    html: Any
    """An ``HTML`` class that applies ``ua.css`` instead of the full HTML5 stylesheet and
    takes a parsed tree (:func:`parse_xhtml`) or, failing that, the HTML text."""
    fonts: Any
    fetcher: Any


@lru_cache(maxsize=1)
def _engine() -> _Engine:
    import cssselect2  # type: ignore[import-untyped]  # WeasyPrint's, no type information
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    ua = weasyprint.CSS(string=(CSS_DIR / "ua.css").read_text(encoding="utf-8"))

    class SheetHTML(weasyprint.HTML):  # type: ignore[misc]
        def __init__(self, html: str, tree: Any, url_fetcher: Any) -> None:
            if tree is None:  # not well-formed XHTML: WeasyPrint's own HTML5 parser
                super().__init__(string=html, url_fetcher=url_fetcher)
                return
            # What HTML.__init__ sets after parsing (a sheet has no <base>).
            self.base_url = None
            self.url_fetcher = url_fetcher
            self.media_type = "print"
            self.wrapper_element = cssselect2.ElementWrapper.from_html_root(tree)
            self.etree_element = tree

        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            return [ua]

    default_fetcher = weasyprint.urls.URLFetcher()

    def fetch(url: str, *args: Any, **kwargs: Any) -> Any:
        # Sheets are self-contained: only their own data: URIs (the QR code) are read.
        if not url.startswith("data:"):
            raise ValueError(f"score sheets load no external resources ({url[:60]})")
        return default_fetcher.fetch(url)

    return _Engine(SheetHTML, fonts, fetch)


_BLOCK_STRUCTURE = frozenset({"html", "head", "body", "table", "thead", "tbody", "tr", "colgroup"})
"""Elements whose whitespace-only text means nothing (between rows, cells, …)."""


def parse_xhtml(html: str) -> ElementTree.Element | None:
    """The sheet as an element tree, or None if ``html`` is not a well-formed XHTML document.

    The sheet templates are XHTML (``<br/>``, ``<!DOCTYPE html>``), so the C XML
    parser reads them in well under a millisecond, where WeasyPrint's pure-Python
    HTML5 parser takes tens of milliseconds. Whitespace between rows and cells
    is dropped: each bit would become a box for WeasyPrint to build and discard.
    Inline SVG keeps its namespace, as the HTML5 parser gives it.

    >>> root = parse_xhtml("<html><body><table> <tr> <td>1 2</td> </tr> </table></body></html>")
    >>> ElementTree.tostring(root, encoding="unicode")
    '<html><body><table><tr><td>1 2</td></tr></table></body></html>'
    >>> parse_xhtml("<p>Trix<br>♥</p>") is None
    True
    """
    try:
        root = ElementTree.fromstring(html)
    except ElementTree.ParseError:
        return None
    if root.tag != "html":
        return None
    for element in root.iter():
        if element.tag in _BLOCK_STRUCTURE:
            if element.text and element.text.isspace():
                element.text = None
            for child in element:
                if child.tail and child.tail.isspace():
                    child.tail = None
    return root


@lru_cache(maxsize=len(PAPERS))
def _stylesheets(paper: str) -> tuple[Any, ...]:
    """The parsed sheet stylesheet and the page size for ``paper`` (parsed once each)."""
    import weasyprint

    fonts = _engine().fonts
    main = weasyprint.CSS(
        string=(CSS_DIR / "sheet.css").read_text(encoding="utf-8"), font_config=fonts
    )
    size = weasyprint.CSS(string=f"@page {{ size: {PAPERS[paper]}; }}", font_config=fonts)
    return (main, size)


_PLACEHOLDER = re.compile(r"%\((page|pages)\)s")


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def page_css(direction: str, label: str, digits: str) -> str:
    """The page footer: the game's link on the start side, ``Page 1 of 2`` on the end side.

    ``label`` is the translated ``Page %(page)s of %(pages)s``; ``digits`` the counters' digits.

    >>> print(page_css("ltr", "Page %(page)s of %(pages)s", "latn"))  # doctest: +ELLIPSIS
    @page { @bottom-left { content: element(footer); ... content: "Page " counter(page) " of " ...
    """
    style = ", arabic-indic" if digits == "arab" else ""
    pieces = []
    for i, piece in enumerate(_PLACEHOLDER.split(label)):
        if i % 2:
            pieces.append(f"counter({piece}{style})")
        elif piece:
            pieces.append(_css_string(piece))
    start, end = ("right", "left") if direction == "rtl" else ("left", "right")
    counters = "@counter-style arabic-indic { system: numeric; symbols: ٠ ١ ٢ ٣ ٤ ٥ ٦ ٧ ٨ ٩ } "
    return (
        f"@page {{ @bottom-{start} {{ content: element(footer); vertical-align: top; "
        f"width: 150mm; text-align: {start}; }} "
        f"@bottom-{end} {{ content: {' '.join(pieces)}; vertical-align: top; "
        f"padding-top: 4mm; font-size: 8pt; color: #333; text-align: {end}; }} }}"
        + (f" {counters}" if style else "")
    )


@lru_cache(maxsize=32)
def _page_stylesheet(direction: str, label: str, digits: str) -> Any:
    import weasyprint

    return weasyprint.CSS(string=page_css(direction, label, digits), font_config=_engine().fonts)


_SPACES = re.compile(r"[ \t\r\n]+")
"""Template indentation; not the figure spaces of :func:`figures`."""


def html_to_pdf(html: str, paper: str) -> bytes:
    """WeasyPrint: the HTML document as PDF bytes, on ``paper`` ("a4" or "letter").

    The page footer is in the request's language and direction (:func:`page_css`).
    """
    # Template indentation is only work for the HTML parser; one space keeps the meaning.
    html = _SPACES.sub(" ", html)
    # Translators: the printed sheet's page number, at the foot of each page.
    label = _("Page %(page)s of %(pages)s")
    direction, digits = text_direction(), current_digits()
    with _lock:
        engine = _engine()
        document = engine.html(html, parse_xhtml(html), engine.fetcher)
        sheets = (*_stylesheets(paper), _page_stylesheet(direction, label, digits))
        pdf: bytes = document.write_pdf(stylesheets=sheets, font_config=engine.fonts)
        return pdf


def prewarm() -> None:
    """Import WeasyPrint and render a tiny sheet so that the first download is quick.

    It loads the fonts a sheet uses (regular, bold, monospaced, Arabic).
    """
    html_to_pdf(
        '<!DOCTYPE html><html><body><p>Trix <b>♥</b> <bdi class="ar">تركس</bdi> '
        '<span class="mono">−75</span></p></body></html>',
        "a4",
    )


def prewarm_in_background(logger: logging.Logger) -> None:
    """Start :func:`prewarm` in a daemon thread (the app is served meanwhile)."""

    def run() -> None:
        try:
            prewarm()
        except Exception:  # a failed warm-up only means a slower first download
            logger.exception("PDF pre-warm failed")

    threading.Thread(target=run, name="pdf-prewarm", daemon=True).start()


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


def figures(values: Sequence[int]) -> str:
    """Four scores as one run of monospaced text, each ending at the end of its own column.

    The deals table sets a row's four deal scores (and its four running totals)
    in one cell of monospaced figures rather than four cells: a quarter of the
    cells, boxes and text runs for WeasyPrint to lay out and draw. Every
    character of the monospaced font, figure spaces and minus signs included, is
    as wide as a digit, so padding each score to :data:`FIGURE_COLUMN`
    characters puts it under its player's column. Right to left, the numbers
    keep their own order (isolated, :func:`~scorekeeper.i18n.isolate`) and the
    padding follows each one, as the mirrored columns need.

    >>> figures([0, -150, 75, 0]).replace(FIGURE_SPACE, "_")
    '0___−150_____75______0'
    """
    out = []
    for i, value in enumerate(values):
        text = format_number(value)
        width = sum(1 for ch in text if unicodedata.category(ch) != "Cf")  # not ALM, LRI…
        out.append((FIGURE_SPACE * (FIGURE_COLUMN - width) if i else "") + isolate(text))
    return "".join(out)


def render_sheet(sheet: Sheet, paper: str, game_url: str) -> bytes:
    """The score sheet of one game as PDF bytes."""
    html = render_template(
        "pdf/sheet.html",
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
        "pdf/blank.html",
        players=names,
        kinds=name_kinds(names),
        contracts=[contract_label(contract) for contract in Contract],
    )
    return html_to_pdf(html, paper)
