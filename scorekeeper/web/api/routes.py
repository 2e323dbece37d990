"""The JSON API's blueprints, each with its routes (mounted at ``/api/v1``).

- :mod:`.checks`: ``POST /check/<kind>``, and the API's error format;
- :mod:`.games` and :mod:`.backup`: games, deals, redeals, export and import;
- :mod:`scorekeeper.web.circles.api`: circles, their games and their players' statistics.
- :mod:`.events`: club nights (events, rounds, the director's changes).
"""

from __future__ import annotations

from scorekeeper.web.api import (
    backup,  # noqa: F401  (routes of the games blueprint)
    checks,
    events,
    games,
)
from scorekeeper.web.circles import api as circles

BLUEPRINTS = (checks.bp, games.bp, circles.bp, events.bp)
