"""Cards said in words, for screen readers: ``queen of spades``, not ``Q♠``.

A symbol is read aloud as "Q black spade suit" or not at all, so every card a
person can tap or hear is named by its rank and suit in the reader's language.
"""

from __future__ import annotations

from scorekeeper.rules.cards import ALL_CARDS, Card, Rank, Suit
from scorekeeper.text.locale import gettext
from scorekeeper.text.locale import lazy_gettext as _l

# Translators: a card's rank as it is said before its suit ("queen" of spades).
RANK_NAMES = {
    Rank.ACE: _l("ace"),
    Rank.KING: _l("king"),
    Rank.QUEEN: _l("queen"),
    Rank.JACK: _l("jack"),
    Rank.TEN: _l("ten"),
    Rank.NINE: _l("nine"),
    Rank.EIGHT: _l("eight"),
    Rank.SEVEN: _l("seven"),
    Rank.SIX: _l("six"),
    Rank.FIVE: _l("five"),
    Rank.FOUR: _l("four"),
    Rank.THREE: _l("three"),
    Rank.TWO: _l("two"),
}
# Translators: a suit as it is said after a rank (queen of "spades").
SUIT_NAMES = {
    Suit.SPADES: _l("spades"),
    Suit.HEARTS: _l("hearts"),
    Suit.DIAMONDS: _l("diamonds"),
    Suit.CLUBS: _l("clubs"),
}


def card_name(card: Card | str) -> str:
    """``queen of spades`` for ``QS``, ``Q♠`` or the card itself, in the reader's language."""
    if isinstance(card, str):
        card = Card.parse(card)
    # Translators: a card in words, e.g. "queen of spades"; rank and suit are the words above.
    return gettext(
        "%(rank)s of %(suit)s", rank=str(RANK_NAMES[card.rank]), suit=str(SUIT_NAMES[card.suit])
    )


def capitalized(text: str) -> str:
    """``Queen of spades``: a name that stands alone (a button's), with its capital."""
    return text[:1].upper() + text[1:]


def card_names() -> dict[str, str]:
    """Every card's standalone name by its notation (``QS``): what the card picker says."""
    return {str(card): capitalized(card_name(card)) for card in ALL_CARDS}
