"""Sentences about a game's history: what another phone's write did, and why a version is stale.

In the request's language (English outside a request); nothing here touches
the database: the web layer passes the stored revisions in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.rules.contracts import Contract
from scorekeeper.text.locale import format_number, isolate_name, ngettext
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import N_, describe_contracts

# Each sentence is whole, for each kind of write and each kind of entry, so that it can be
# translated as one sentence (not glued from "deal 7" and "Sami's King of Hearts").
ALREADY: dict[tuple[str, str], str] = {
    # Translators: %(king)s is the name of the deal's king, %(contracts)s the contract(s) he
    # announced ("Deal 7 was already recorded: Sami's King of Hearts.").
    ("record", "deal"): N_("Deal %(n)s was already recorded: %(king)s's %(contracts)s."),
    ("edit", "deal"): N_("Deal %(n)s was changed: %(king)s's %(contracts)s."),
    ("undo", "deal"): N_("Deal %(n)s (%(king)s's %(contracts)s) was undone."),
    ("redeal", "redeal"): N_("A redeal was already recorded."),
    ("redeal", "misdeal"): N_("A misdeal was already recorded."),
    ("undo", "redeal"): N_("A redeal was undone."),
    ("undo", "misdeal"): N_("A misdeal was undone."),
    ("other", ""): N_("The game was changed."),
}
"""What another phone's write did, said to a phone whose write came too late (stale version)."""
MEANWHILE: dict[tuple[str, str], str] = {
    # Translators: another phone recorded this deal while this page was open; %(king)s is the
    # name of the deal's king, %(contracts)s the contract(s) he announced.
    ("record", "deal"): N_("Deal %(n)s was recorded meanwhile: %(king)s's %(contracts)s."),
    ("edit", "deal"): N_("Deal %(n)s was corrected meanwhile: %(king)s's %(contracts)s."),
    ("undo", "deal"): N_("Deal %(n)s (%(king)s's %(contracts)s) was undone meanwhile."),
    ("redeal", "redeal"): N_("A redeal was recorded meanwhile."),
    ("redeal", "misdeal"): N_("A misdeal was recorded meanwhile."),
    ("undo", "redeal"): N_("A redeal was undone meanwhile."),
    ("undo", "misdeal"): N_("A misdeal was undone meanwhile."),
    ("other", ""): N_("The game was changed meanwhile."),
}
"""The same, said to a phone that follows the game live (static/live.js)."""


def _entry_kind(entry: dict[str, Any]) -> str:
    kind = entry.get("kind")
    return kind if kind in ("redeal", "misdeal") else "deal"


def change_sentence(
    names: Sequence[str],
    action: str,
    before: Any,
    after: Any,
    sentences: dict[tuple[str, str], str] = ALREADY,
) -> str:
    """One sentence saying what a write did, in the request's language.

    ``sentences`` is :data:`ALREADY` (a stale-version message) or :data:`MEANWHILE`
    (a live update). The king's name is isolated in right-to-left text.
    """
    entry = after if action in ("record", "redeal", "edit") else before
    if action not in ("record", "redeal", "edit", "undo") or not isinstance(entry, dict):
        return _(sentences["other", ""])
    kind = _entry_kind(entry)
    template = sentences.get((action, kind))
    if template is None:
        return _(sentences["other", ""])
    if kind != "deal":
        return _(template)
    king = entry.get("king")
    contracts = describe_contracts(Contract(c) for c in entry.get("contracts", []))
    return _(
        template,
        n=format_number(entry.get("n")),
        king=isolate_name(names[king] if isinstance(king, int) else "?"),
        contracts=contracts,
    )


def stale_page_message(names: Sequence[str], changes: Sequence[tuple[str, Any, Any]]) -> str:
    """What a page says when its entry came too late: what the other phones did meanwhile,
    in players' words (no version numbers; the API's :func:`stale_message` has them).

    >>> stale_page_message(["Rana", "Sami", "Omar", "Lina"], [])
    'Someone else changed this game meanwhile.'
    """
    if not changes:
        return _("Someone else changed this game meanwhile.")
    sentences = [change_sentence(names, *change, sentences=MEANWHILE) for change in changes[-3:]]
    more = len(changes) - 3
    if more > 0:
        sentences.insert(
            0,
            ngettext(
                "%(count)s earlier change, then:",
                "%(count)s earlier changes, then:",
                more,
                count=format_number(more),
            ),
        )
    return " ".join(sentences)


def stale_message(
    names: Sequence[str], expected: int, current: int, changes: Sequence[tuple[str, Any, Any]]
) -> str:
    """Why ``expected`` is stale: what changed since, and what to do."""
    versions = {"expected": format_number(expected), "current": format_number(current)}
    if not changes:
        return _(
            "Version %(expected)s is not a version of this game; it is at version %(current)s. "
            "Reload it and try again.",
            **versions,
        )
    sentences = [change_sentence(names, *change) for change in changes[-3:]]
    more = len(changes) - 3
    if more > 0:
        earlier = ngettext(
            "%(count)s earlier change, then:",
            "%(count)s earlier changes, then:",
            more,
            count=format_number(more),
        )
        sentences.insert(0, earlier)
    now = _(
        "The game is now at version %(current)s, not %(expected)s; "
        "reload it and check before saving again.",
        **versions,
    )
    return " ".join([*sentences, now])
