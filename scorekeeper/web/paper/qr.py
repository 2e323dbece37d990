"""QR codes, on pages and on paper: an SVG a page's CSS sizes, a PNG a PDF draws."""

from __future__ import annotations

import io
from functools import lru_cache

import segno

CODES_KEPT = 64
"""Addresses whose PNG is kept: a game's code is the same on every version of its sheet."""


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code: an SVG image without a fixed size (the page's CSS sizes it)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=1, border=2, omitsize=True, xmldecl=False, lineclass=None
    )
    return out.getvalue()


@lru_cache(maxsize=CODES_KEPT)
def qr_data_uri(url: str) -> str:
    """A QR code for ``url`` as a PNG ``data:`` URI, one pixel per module (CSS scales it).

    Kept per address: a game's code does not change from one version of its sheet to the next.
    """
    qr = segno.make(url, error="m", micro=False)
    uri: str = qr.png_data_uri(scale=1, border=0)
    return uri
