"""The dispute desk's sentences, in the reader's language.

The engine's rulings (``check_play``'s ``ruling``, a violation's
``message``, a redeal's ``reason``, a claim's ``message``) are English
sentences without templates. The pages say the same things from the data
(the violation's code, trick, seat and card; the verdict's code; the claim's
numbers) with gettext, so that an Arabic table reads them in Arabic. In
English they read as the engine's own sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext

from scorekeeper.rules.cards import ALL_CARDS, SUIT_MASKS, Card, cards_of
from scorekeeper.rules.ruleset import RevokeRule, RuleSet, TrixRevoke
from scorekeeper.rules.trickplay import BROKEN_HEARTS, MUST_DISCARD, MUST_FOLLOW, NO_HEART_LEAD
from scorekeeper.text import locale as i18n
from scorekeeper.text.locale import current_digits, isolate, isolate_name
from scorekeeper.text.locale import format_number as number
from scorekeeper.text.messages import current_translations, render


def gettext(msgid: str, /, **values: Any) -> str:
    """Flask-Babel's ``gettext``, typed (``%(name)s`` placeholders filled from ``values``).

    In a right-to-left page, cards and signed numbers are isolated left to right.
    """
    return isolate(i18n.gettext(msgid, **values))


def ngettext(singular: str, plural: str, num: int, /, **values: Any) -> str:
    """Flask-Babel's ``ngettext``, typed (``%(num)d`` is ``num``)."""
    return isolate(i18n.ngettext(singular, plural, num, **values))


TRIX_PASS = "trix_pass_with_legal_play"
RULE_NAMES = {
    MUST_FOLLOW: lazy_gettext("R10: whoever can follow suit must"),
    NO_HEART_LEAD: lazy_gettext("R3: no heart lead while holding another suit"),
    BROKEN_HEARTS: lazy_gettext("R3: no heart lead before hearts are broken"),
    MUST_DISCARD: lazy_gettext("R9.4: unable to follow suit, discard a penalty card"),
    TRIX_PASS: lazy_gettext("R7: a player who can lay a card must play one"),
}
"""The rule each kind of violation breaks, in words."""
_SUIT_COUNT_KEYS = ("word.spades", "word.hearts", "word.diamonds", "word.clubs")


def and_list(items: Sequence[str]) -> str:
    """``a, b and c`` in the reader's language (the engine catalogue's own words)."""
    if len(items) < 2:
        return "".join(items)
    head = gettext(", ").join(items[:-1])
    return gettext("%(head)s and %(last)s", head=head, last=items[-1])


def pretty_cards(mask: int) -> str:
    """``K♥, 7♦ and 2♣``."""
    return and_list([c.pretty for c in cards_of(mask)])


def suit_count(mask: int, suit: int) -> str:
    """``3 spades``, from the engine catalogue's plural words, in the page's digits."""
    n = (mask & SUIT_MASKS[suit]).bit_count()
    return render(_SUIT_COUNT_KEYS[suit], {"count": n}, current_translations(), current_digits())


# --- card-by-card checks ---------------------------------------------------------------------


def violation_sentence(code: str, player: str, card: Card, trick: int, held: str) -> str:
    """One illegal play of a trick record (``held``: what made it illegal)."""
    values = {"player": player, "card": card.pretty, "trick": trick, "held": held}
    if code == MUST_FOLLOW:
        return gettext(
            "%(player)s played %(card)s on trick %(trick)d while holding %(held)s, "
            "and must follow suit.",
            **values,
        )
    if code == NO_HEART_LEAD:
        return gettext(
            "%(player)s led %(card)s on trick %(trick)d while holding another suit; "
            "hearts may be led only by a player who holds nothing else.",
            **values,
        )
    if code == BROKEN_HEARTS:
        return gettext(
            "%(player)s led %(card)s on trick %(trick)d while holding another suit, "
            "before any heart had been discarded on another suit.",
            **values,
        )
    return gettext(
        "%(player)s discarded %(card)s on trick %(trick)d while holding %(held)s; "
        "a player who cannot follow suit must discard a penalty card.",
        **values,
    )


def trick_ruling(rules: RuleSet, player: str | None, trick: int | None, done: int) -> str:
    """R10's ruling on the first violation (``player`` None: there was none)."""
    if player is None or trick is None:
        if done == 13:
            return gettext("All 13 tricks were played legally; the captures stand as played.")
        return gettext(
            "No revoke so far: %(done)d of 13 tricks are complete and the deal is not finished.",
            done=done,
        )
    if rules.revoke is RevokeRule.REMAINING:
        return gettext(
            "%(player)s revoked on trick %(trick)d; under the standard penalty (R10), "
            "%(player)s takes every trick from trick %(trick)d on.",
            player=isolate_name(player),
            trick=trick,
        )
    return gettext(
        "%(player)s revoked on trick %(trick)d; under the house rule (R10), the deal is scored "
        "as if %(player)s had taken all 13 tricks: %(player)s is charged the whole contract, "
        "the others score nothing for captures, and a doubling bonus still goes to the card's "
        "holder.",
        player=isolate_name(player),
        trick=trick,
    )


def trix_pass_sentence(player: str, turn: int, could: int) -> str:
    """A pass while holding a card that could be laid (R7)."""
    count = could.bit_count()
    cards = pretty_cards(could) if could else "?"
    return ngettext(
        "%(player)s passed on turn %(turn)d holding %(cards)s, which could have been played.",
        "%(player)s passed on turn %(turn)d holding %(cards)s, any of which could have been "
        "played.",
        count,
        player=isolate_name(player),
        turn=turn,
        cards=cards,
    )


def trix_ruling(
    rules: RuleSet,
    names: Sequence[str],
    offender: int | None,
    turn: int | None,
    order: Sequence[int] | None,
) -> str:
    """The Trix ruling: the finishing order, and what a pass with a legal play costs (R7)."""
    listing = and_list([isolate_name(names[s]) for s in order]) if order else ""
    if offender is None:
        if not order:
            return gettext("The play so far breaks no rule; the deal is not finished yet.")
        return gettext("No rule was broken; the finishing order is %(order)s.", order=listing)
    values = {"player": isolate_name(names[offender]), "turn": turn}
    if not order:
        return gettext(
            "%(player)s passed on turn %(turn)d holding a playable card (R7); "
            "the deal is not finished yet.",
            **values,
        )
    if rules.trix_revoke is TrixRevoke.LAST:
        return gettext(
            "%(player)s passed on turn %(turn)d holding a playable card (R7), so by the house "
            "rule that player finishes last: %(order)s.",
            order=listing,
            **values,
        )
    return gettext(
        "%(player)s passed on turn %(turn)d holding a playable card (R7); the finishing order "
        "stands (%(order)s) and the table decides.",
        order=listing,
        **values,
    )


def trix_void_ruling(player: str, card: Card, turn: int, jacks: int) -> str:
    """Under "closed suit replays" (R7): the play that completed a row before every Jack was
    laid voids the deal (``jacks``: the Jacks still in a hand)."""
    return ngettext(
        "%(player)s laid %(card)s on turn %(turn)d and completed its row while %(cards)s was "
        "still in a hand, so under the house rule (R7) the deal is void and is dealt again; "
        "nothing is scored.",
        "%(player)s laid %(card)s on turn %(turn)d and completed its row while %(cards)s were "
        "still in a hand, so under the house rule (R7) the deal is void and is dealt again; "
        "nothing is scored.",
        jacks.bit_count(),
        player=player,
        card=card.pretty,
        turn=turn,
        cards=pretty_cards(jacks),
    )


# --- redeals (R8) ----------------------------------------------------------------------------


def redeal_reason(code: str, hand: int) -> str:
    """Why a hand may, or may not, ask for a redeal (R8), from the verdict's code."""
    hearts = pretty_cards(hand & SUIT_MASKS[1])
    twos = pretty_cards(sum(ALL_CARDS[13 * s].bit for s in range(4)) & hand)
    reasons = {
        "only_king_of_hearts": lambda: gettext(
            "Your only heart is the K♥: you may ask for a redeal (R8)."
        ),
        "only_ace_of_hearts": lambda: gettext(
            "Your only heart is the A♥: you may ask for a redeal (R8)."
        ),
        "king_and_ace_of_hearts": lambda: gettext(
            "Your only hearts are the K♥ and A♥: you may ask for a redeal (R8)."
        ),
        "long_hearts_with_king": lambda: gettext(
            "You hold five or more hearts including the K♥ (%(cards)s): under this house rule "
            "you may ask for a redeal (R8).",
            cards=hearts,
        ),
        "hearts_not_eligible": lambda: gettext(
            "Your hearts: %(cards)s. A redeal needs the K♥ or A♥ alone, or exactly K♥ and A♥ (R8).",
            cards=hearts or gettext("none"),
        ),
        "four_twos": lambda: gettext("You hold all four 2s: you may ask for a redeal (R8)."),
        "three_twos_and_three": lambda: gettext(
            "You hold three 2s and the 3 of the fourth suit: you may ask for a redeal (R8)."
        ),
        "twos_not_eligible": lambda: gettext(
            "Your 2s: %(cards)s. A redeal needs all four 2s, or three 2s and the 3 of the "
            "fourth suit (R8).",
            cards=twos or gettext("none"),
        ),
    }
    if code in reasons:
        return reasons[code]()
    return gettext(
        "Redeal claims exist only for King of Hearts and Trix (R8); a misdeal is another "
        "matter: the same dealer deals again."
    )


# --- claims ----------------------------------------------------------------------------------


def claim_sentence(verdict: dict[str, Any]) -> str:
    """A claim's verdict (the claim check's ``verdict`` part) in the reader's language,
    its numbers in the page's digits."""
    return render(verdict["part"], _numbers(verdict.get("params", {})), current_translations())


def _numbers(params: dict[str, Any]) -> dict[str, Any]:
    """Scores as the reader writes them (−30, ٣٠−…), inside nested parts too."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, dict) and "part" in value:
            value = {"part": value["part"], "params": _numbers(value.get("params", {}))}
        elif isinstance(value, int) and not isinstance(value, bool):
            value = number(value)
        elif name == "player" and isinstance(value, str):
            value = isolate_name(value)  # a name never reorders the sentence around it
        out[name] = value
    return out
