"""Every page route: importing this module adds each feature's routes to :data:`bp`."""

from __future__ import annotations

from scorekeeper.web.backup import routes as backup  # noqa: F401
from scorekeeper.web.blueprint import bp
from scorekeeper.web.circles import routes as circles  # noqa: F401
from scorekeeper.web.deals import routes as deals  # noqa: F401
from scorekeeper.web.disputes import claims, routes  # noqa: F401  (the dispute desk)
from scorekeeper.web.events import clock as event_clock  # noqa: F401  (the round clock)
from scorekeeper.web.events import controls as event_controls  # noqa: F401
from scorekeeper.web.events import paper as event_paper  # noqa: F401  (its paper)
from scorekeeper.web.events import routes as events  # noqa: F401  (club nights)
from scorekeeper.web.games import routes as games  # noqa: F401
from scorekeeper.web.home import routes as home  # noqa: F401
from scorekeeper.web.live import routes as live  # noqa: F401
from scorekeeper.web.offline import routes as offline  # noqa: F401
from scorekeeper.web.sharing import routes as sharing  # noqa: F401

__all__ = ["bp"]
