"""WeasyPrint itself: HTML in, PDF bytes out, in a render process of its own.

This module never runs inside a web worker. :mod:`scorekeeper.web.paper.renderer`
starts it as ``python -m scorekeeper.web.paper.engine`` and talks to it over its
standard input and output, so that

- nothing WeasyPrint, Pango or Fontconfig holds (threads, locks, caches) is
  ever inherited across gunicorn's fork;
- a render that takes too long can be cut off for real (the process is
  killed), where a thread could only be abandoned;
- a render does not compete for the web worker's GIL with the other tables.

The process warms itself up (imports WeasyPrint, loads the fonts a sheet uses)
before it reads its first job. One job is one frame
(:func:`~scorekeeper.web.server.workers.write_frame`) of JSON with the fields of
:class:`Job`; the answer is a frame with ``K`` and the PDF bytes, or ``E``
and the error's text.

How a render is kept fast:

- one Fontconfig configuration and the parsed stylesheets are reused by every
  render (they hold no per-document state: the sheets use installed fonts by
  family name, never ``@font-face``);
- a short user-agent stylesheet (``templates/sheets/ua.css``) replaces
  WeasyPrint's full HTML5 one;
- the templates are well-formed XHTML, read by the C XML parser rather than
  WeasyPrint's pure-Python HTML5 one (:func:`parse_xhtml`).
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, BinaryIO
from xml.etree import ElementTree

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.web.server.workers import exit_with_parent, lower_priority, read_frame, write_frame

CSS_DIR = PROJECT_ROOT / "templates" / "sheets"
PAPERS = {"a4": "A4", "letter": "letter"}
"""Paper sizes by query value (``?paper=``), as CSS ``@page`` sizes."""
WEASYPRINT_MAJOR = 70
"""The WeasyPrint major version whose internals :class:`_Engine` sets (pinned in pyproject)."""


@dataclass(frozen=True)
class Job:
    """One document to render: the HTML and what its page footer says."""

    html: str
    paper: str
    page_label: str
    """The translated ``Page %(page)s of %(pages)s``."""
    direction: str = "ltr"
    digits: str = "latn"

    def encode(self) -> bytes:
        # ASCII JSON: a lone surrogate in a name travels as an escape, never breaks the frame.
        return json.dumps(asdict(self)).encode("ascii")

    @classmethod
    def decode(cls, data: bytes) -> Job:
        return cls(**json.loads(data))


# --- WeasyPrint, set up once per process -----------------------------------------------------


@dataclass(frozen=True)
class _Engine:
    """WeasyPrint and what every render shares."""

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


def render(job: Job) -> bytes:
    """The job's HTML as PDF bytes (in this process)."""
    engine = _engine()
    document = engine.html(job.html, parse_xhtml(job.html), engine.fetcher)
    sheets = (*_stylesheets(job.paper), _page_stylesheet(job.direction, job.page_label, job.digits))
    pdf: bytes = document.write_pdf(stylesheets=sheets, font_config=engine.fonts)
    return pdf


WARM_UP = Job(
    html=(
        '<!DOCTYPE html><html><body><p>Trix <b>♥</b> <bdi class="ar">تركس</bdi> '
        '<span class="mono">−75</span></p></body></html>'
    ),
    paper="a4",
    page_label="%(page)s / %(pages)s",
)
"""A tiny sheet with the fonts a real one uses (regular, bold, monospaced, Arabic)."""


def serve(jobs: BinaryIO, answers: BinaryIO) -> None:
    """Warm up, then answer job frames until ``jobs`` ends (its parent has gone)."""
    render(WARM_UP)
    while (frame := read_frame(jobs)) is not None:
        try:
            pdf = render(Job.decode(frame[1]))
        except Exception as error:  # the parent turns it into a logged error
            traceback.print_exc(file=sys.stderr)
            write_frame(answers, b"E", f"{type(error).__name__}: {error}".encode(errors="replace"))
        else:
            write_frame(answers, b"K", pdf)


if __name__ == "__main__":
    exit_with_parent()
    # Below the pages, but not in the idle class: someone waits for this sheet, and on a
    # machine that is never idle an idle-class render would only ever meet its time limit.
    lower_priority(idle=False)
    serve(sys.stdin.buffer, sys.stdout.buffer)
