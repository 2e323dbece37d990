"""The words of offline play on the game page, sent with the phone's copy of the game.

They travel in ``/games/<id>/offline.json`` (kept by the service worker for
offline use) rather than in the game page, which stays light for the phones
that never go offline. A ``%(n)s`` left in a text is filled in on the phone.
"""

from __future__ import annotations

from scorekeeper.rules.contracts import Contract
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import contract_label


def panel_texts() -> dict[str, object]:
    """Every sentence static/offline/game.js shows, in the request's language."""
    return {
        "getting": _("Getting this game ready for offline play…"),
        "ready": _("This game can be played offline on this phone."),
        "no-engine": _(
            "Offline play is not available: this server has no copy of the rules engine for phones."
        ),
        "no-browser": _("This browser cannot keep games for offline play."),
        "failed": _("The offline copy could not be made. Try again when the network is good."),
        "offline": _(
            "Offline: what you enter is checked and kept on this phone, and sent when the "
            "network is back."
        ),
        "view-only": _("Offline, this phone can only show the scores: it cannot change this game."),
        "deal-of": _("Deal %(n)s of %(total)s", n="%(n)s", total="%(total)s"),
        "deal": _("Deal %(n)s: %(contracts)s", n="%(n)s", contracts="%(contracts)s"),
        "kingdom-king": _(
            "Kingdom %(number)s: %(king)s is king.", number="%(number)s", king="%(king)s"
        ),
        "undo": _("Undo of the last entry"),
        "correction": _("Correction of deal %(n)s", n="%(n)s"),
        "redeal": _("Redeal."),
        "waiting": _("waiting to sync"),
        "game-over": _("Game over"),
        "synced": _("Everything entered offline is now on the server."),
        "theirs-none": _("The other phone recorded nothing new; the game changed in another way."),
        "conflict": _("This entry no longer fits the game"),
        "mine": _("What this phone entered"),
        "theirs": _("What the other phone recorded"),
        "keep": _("Keep it waiting"),
        "change": _("Change it"),
        "discard": _("Discard it"),
        "contracts": {c.value: contract_label(c) for c in Contract},
    }
