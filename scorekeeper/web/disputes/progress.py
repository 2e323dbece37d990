"""What a claim's page says while it is judged, or when it was stopped unjudged."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.text.disputes import gettext
from scorekeeper.text.locale import format_number

REFRESH_SECONDS = 2
"""How often a claim's page refreshes itself while it is judged (without JavaScript)."""


@dataclass(frozen=True)
class Progress:
    """A claim still being judged, or stopped: what its page shows."""

    state: str
    message: str
    elapsed: float
    limit: float
    refresh: int = REFRESH_SECONDS

    @property
    def finished(self) -> bool:
        return self.state not in ("waiting", "running")


def sentence(state: str, elapsed: float, limit: float, reason: str | None) -> str:
    """One sentence for the claim's state, in the reader's language."""
    if state == "waiting":
        return gettext(
            "Waiting for a free place: every place for judging claims is taken. "
            "The search starts as soon as one frees up."
        )
    if state == "running":
        return gettext(
            "Judging the claim: %(elapsed)s s of at most %(limit)s s.",
            elapsed=format_number(int(elapsed)),
            limit=format_number(round(limit)),
        )
    return stopped(reason)


def stopped(reason: str | None) -> str:
    """Why a claim was stopped before it was judged; nothing was decided."""
    if reason == "cancelled":
        return gettext(
            "This claim was stopped because nobody was following its page any more. "
            "Nothing was decided; judge it again."
        )
    if reason == "busy":
        return gettext(
            "No place for judging claims came free in time. Nothing was decided; "
            "try again in a minute."
        )
    if reason == "lost":
        return gettext(
            "The server restarted while judging this claim. Nothing was decided; judge it again."
        )
    return gettext("This claim could not be judged. Nothing was decided; try again.")
