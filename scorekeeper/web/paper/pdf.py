"""Printing, shared by every feature's PDF: the render processes, the PDF cache, the paper.

A document is HTML from a feature's templates; :func:`html_to_pdf` hands it to a
render process (:mod:`scorekeeper.web.paper.renderer`, which runs
:mod:`scorekeeper.web.paper.engine`). Every PDF route is on one blueprint, ``export``
(:data:`bp`), so that endpoint names do not depend on the feature a route lives in.

Costs and how they are kept down:

- WeasyPrint's start-up (~1 s) is paid once per web worker, after the fork,
  by the render process it keeps;
- the HTML is sent without its indentation, and a QR code is a tiny PNG
  (:func:`~scorekeeper.web.paper.qr.qr_data_uri`: one image drawn on every page,
  made once per address) rather than an SVG path parsed again for each page;
- finished PDFs are kept in a small LRU (:class:`PdfCache`) keyed by what
  changes the output and nothing else (a game's sheet: game, version, paper,
  language and digits). Every part of a key is checked against its few known
  values, so no request can make a new key at will: the host is never part of
  it (the links a PDF prints start with ``PUBLIC_URL``, or are relative:
  :func:`public_url`).

A document is in the request's language and direction: the page footer
(:func:`~scorekeeper.web.paper.engine.page_css`) follows it, and names are set
by :func:`name_kind`.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Callable, Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, has_request_context, request, url_for
from flask.blueprints import BlueprintSetupState

from scorekeeper.extensions import db
from scorekeeper.store.cache import LRUCache
from scorekeeper.text.locale import current_digits, text_direction
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.paper import renderer as pdf_renderer
from scorekeeper.web.paper.engine import PAPERS, Job
from scorekeeper.web.paper.renderer import Limits
from scorekeeper.web.server import workers
from scorekeeper.web.server.bodies import work_slot_lent

__all__ = ["PAPERS", "PdfCache", "bp", "html_to_pdf", "public_url", "requested_paper"]

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
    Raises :class:`~scorekeeper.web.paper.renderer.SheetUnavailable` when the server is
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


bp = Blueprint("export", __name__)


@bp.record_once
def _setup(state: BlueprintSetupState) -> None:
    app = state.app
    size = app.config.get("PDF_CACHE_SIZE", CACHE_SIZE)
    app.extensions["pdf_cache"] = PdfCache(size)
    # One slot folder per server: every worker forked from this app shares it.
    server = (app.instance_path, app.config["SQLALCHEMY_DATABASE_URI"])
    app.config.setdefault("PDF_SLOT_DIR", str(pdf_renderer.slot_dir_for(*server)))


def app_cache() -> PdfCache:
    """The app's PDFs as rendered (:class:`PdfCache`), shared by every PDF route."""
    cache: PdfCache = current_app.extensions["pdf_cache"]
    return cache


def requested_paper() -> str:
    """The ``paper`` query parameter of every PDF, checked: "a4" (default) or "letter";
    else a 400 naming the choices (never a render, never a new cache entry)."""
    values = request.args.getlist("paper")
    if len(values) > 1:
        abort(400, description=_("Give the paper size once: paper=a4 or paper=letter."))
    paper = (values[0] if values else "a4").strip().lower()
    if paper not in PAPERS:
        shown = values[0][:20]
        message = _("“%(paper)s” is not a paper size; use paper=a4 or paper=letter.", paper=shown)
        abort(400, description=message)
    return paper
