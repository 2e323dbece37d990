"""The version of the game a kept page shows, in a header the service worker reads.

The phone keeps a game's page and its copy of the game (``offline.json``) for offline
play, and draws every offline screen from the copy: static/offline/sw.js keeps the two
as one pair, of one version, and tells their versions by this header (an HTML page's
version is not otherwise readable without parsing it).
"""

from __future__ import annotations

from typing import TypeVar

from werkzeug.wrappers import Response

VERSION_HEADER = "X-Game-Version"

R = TypeVar("R", bound=Response)


def with_version(response: R, version: int) -> R:
    """``response`` (the game's page or its copy) naming the game's ``version``."""
    response.headers[VERSION_HEADER] = str(version)
    return response
