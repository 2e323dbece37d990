"""What the store refuses, said to players: a game or deal that is not there, a stale
version, a stored log the engine no longer replays.

The store raises plain exceptions with the facts (:mod:`scorekeeper.store.snapshot`);
the web layer's one error path (:mod:`scorekeeper.web.errors`) words them here,
in the request's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.rules.errors import Problem
from scorekeeper.text.history import stale_message, stale_page_message
from scorekeeper.text.locale import format_number, ngettext
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import translate_problems


def game_not_found() -> str:
    return _("There is no game at this address; check the link.")


def event_not_found() -> str:
    return _("There is no club night at this address; check the link.")


def deal_not_found(n: int, deals_played: int) -> str:
    return ngettext(
        "This game has no deal %(n)s; it has %(count)s deal so far.",
        "This game has no deal %(n)s; it has %(count)s deals so far.",
        deals_played,
        n=format_number(n),
        count=format_number(deals_played),
    )


def stale(
    names: Sequence[str],
    expected: int,
    current: int,
    changes: Sequence[tuple[str, Any, Any]],
    race: bool = False,
) -> str:
    """Why version ``expected`` is stale: what the other phones wrote since, and what to do."""
    if race:
        return _("Someone else changed this game at the same moment; nothing was saved.")
    return stale_message(names, expected, current, changes)


def stale_on_page(
    names: Sequence[str], changes: Sequence[tuple[str, Any, Any]], race: bool = False
) -> str:
    """The same, said on a page: what the other phones wrote meanwhile, no version numbers."""
    if race:
        return _("Someone else changed this game at the same moment; nothing was saved.")
    return stale_page_message(names, changes)


def unreplayable(position: int | None, problems: Sequence[Problem]) -> str:
    """A stored log the current engine refuses: which entry, and the engine's reason."""
    reason = " ".join(translate_problems(problems)).rstrip(".")
    if position is None:
        return _(
            "This game's log cannot be replayed under the current rules engine: its house "
            "rules are refused (%(reason)s). Nothing was changed; its backup (JSON export) "
            "still has every deal.",
            reason=reason,
        )
    return _(
        "This game's log cannot be replayed under the current rules engine: entry "
        "%(number)s is refused (%(reason)s). Nothing was changed; its backup (JSON "
        "export) still has every deal.",
        number=format_number(position + 1),
        reason=reason,
    )
