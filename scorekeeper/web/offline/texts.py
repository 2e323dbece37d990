"""The words of offline play on the game page, sent with the phone's copy of the game.

They travel in ``/games/<id>/offline.json`` (kept by the service worker for
offline use) rather than in the game page, which stays light for the phones
that never go offline. A ``%(n)s`` left in a text is filled in on the phone.
"""

from __future__ import annotations

from scorekeeper.rules.contracts import Contract
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import MESSAGES, contract_label
from scorekeeper.web.blueprint import RED, SYMBOLS
from scorekeeper.web.deals.fields import TRIX_PLACE_MISSING
from scorekeeper.web.deals.same_deal import RECORDED_BY, RECORDED_BY_THIS_PHONE


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
        **same_deal_texts(),
        **form_texts(),
        "contracts": {c.value: contract_label(c) for c in Contract},
        "symbols": {c.value: SYMBOLS[c] for c in Contract},
        "red": [c.value for c in RED],
        **board_texts(),
    }


def same_deal_texts() -> dict[str, str]:
    """The offline "the same deal?" (game.js), in the words of the server's page
    (templates/deals/same_deal.html, web/deals/same_deal.py): the same translations."""
    n = "%(n)s"
    by = {f"by-{source}": str(text) for source, text in RECORDED_BY.items()}
    return {
        "same-question": _("The same deal?"),
        "same-recorded": _("Deal %(n)s was recorded meanwhile", n=n),
        "same-moved": _("The game has moved on"),
        "same-yes": _("Both say the same: it is one deal, and it is already recorded."),
        "same-differ": _(
            "They differ. If they are the same deal, discard yours and correct deal %(n)s if "
            "it is wrong.",
            n=n,
        ),
        "discard-mine": _("Discard mine"),
        "next-king": _(
            "Mine is the next deal: save it as deal %(n)s, %(king)s king", n=n, king="%(king)s"
        ),
        "next": _("Mine is the next deal: save it as deal %(n)s", n=n),
        "not-next": _("Yours cannot be the next deal (deal %(n)s):", n=n),
        "played-when": _("Played %(when)s.", when="%(when)s"),
        "king-was": _("%(king)s was king.", king="%(king)s"),
        **by,
        "by-own": str(RECORDED_BY_THIS_PHONE),
    }


def form_texts() -> dict[str, object]:
    """The deal form's own checks before the engine is ready (form.js): the four Trix places,
    in the server's form's words, and the engine's sentence for a player named twice."""
    return {
        "trix-places": [str(text) for text in TRIX_PLACE_MISSING],
        "trix-twice": _(str(MESSAGES["trix_order_not_permutation"])),
    }


def board_texts() -> dict[str, str]:
    """The game page's own sentences, for the board the phone draws (game.js): the same
    msgids as templates/games/game.html and layout/macros.html, so the same translations."""
    n, total, king = "%(n)s", "%(total)s", "%(king)s"
    return {
        "tie": _("Tie for first place"),
        "kingdom-of": _(
            "Kingdom %(number)s of %(total)s: <strong>%(king)s</strong> is king.",
            number="%(number)s", total=total, king=king,
        ),
        "kingdom-deals": _(
            "Kingdom %(number)s of %(total)s: <strong>%(king)s</strong> is king and deals.",
            number="%(number)s", total=total, king=king,
        ),
        "kingdom-seven": _(
            "Kingdom %(number)s of %(total)s: whoever was dealt the 7♥ on this deal is king. "
            "The deal form asks who it was.",
            number="%(number)s", total=total,
        ),
        "dealer-line": _(
            "%(dealer)s deals; %(leader)s leads; %(king)s is king.",
            dealer="%(dealer)s", leader="%(leader)s", king=king,
        ),
        "team-line": _("This kingdom belongs to the team %(names)s.", names="%(names)s"),
        "first-lead": _(
            "First lead in a trick contract: %(leader)s. First to play in Trix: %(first)s.",
            leader="%(leader)s", first="%(first)s",
        ),
        "which": _("Which contract did %(king)s announce?", king=king),
        "which-any": _("Which contract was announced?"),
        "last-deal": _("Last entry: deal %(n)s, %(contracts)s.", n=n, contracts="%(contracts)s"),
        "last-redeal": _("Last entry: a redeal."),
        "last-misdeal": _("Last entry: a misdeal."),
        "edit": _("Edit"),
        "undo-button": _("Undo"),
        "undo-deal": _(
            "Yes, undo the last entry (deal %(n)s: %(contracts)s).", n=n, contracts="%(contracts)s"
        ),
        "undo-redeal": _("Yes, undo the last entry (a redeal)."),
        "undo-misdeal": _("Yes, undo the last entry (a misdeal)."),
        "undo-submit": _("Undo last entry"),
        "cancel": _("Cancel"),
        "sheet-head": _(
            "Kingdom %(number)s: %(name)s is king", number="%(number)s", name="%(name)s"
        ),
        "sheet-head-team": _(
            "Kingdom %(number)s: %(name)s is king, for the team %(names)s",
            number="%(number)s", name="%(name)s", names="%(names)s",
        ),
        "sheet-head-seven": _(
            "Kingdom %(number)s: the 7♥ decides who is king", number="%(number)s"
        ),
        "tie-break": _("Tie-break deals"),
        "total": _("Total"),
        "so-far": _("So far"),
        "expected": _("✗ expected %(total)s", total=total),
        "contract": _("Contract"),
        "played": _("Contracts played"),
        "king": _("King"),
        "redeal-row": _("Redeal."),
        "misdeal-row": _("Misdeal."),
        "not-checked": _("not checked yet"),
    }  # fmt: skip
