"""The engine's sentences, written once: every message template, and how one is filled in.

Every :class:`~scorekeeper.rules.errors.Problem` has a template here, under its
:attr:`~scorekeeper.rules.errors.Problem.key` (the ``code``, or ``code.variant``);
the errors' constructors fill it in with the problem's ``params`` to make the
English ``message`` (:func:`english`), so a call site gives the code, the rule,
the field and the params, never a sentence. The conventions for ``params`` are
in :mod:`scorekeeper.rules.errors`.

The same templates are the msgids the translators translate: they are marked
with :func:`N_` and :meth:`Plural.ngettext` for ``pybabel extract`` (babel.cfg
reads every module of the package), and :mod:`scorekeeper.text.messages` says a
problem in the request's language with :func:`render` and that language's
translations. This module is standard-library Python, as the rest of the engine
(the phone's engine runs it in Pyodide): translations are anything with
``gettext`` and ``ngettext`` (:class:`Translations`), English is the standard
library's :class:`gettext.NullTranslations`.

>>> english("bad_seat.king", {"value": "7"})
'The king must be a seat 0–3, not 7.'
>>> english("diamonds_sum", {"total": 12, "listed": joined("comma", ["5", "7"])})
'Diamonds must add up to 13; these add up to 12 (5, 7).'
>>> english("contract_repeated", {"label": part("contract.queens")})
'Queens is named twice; a deal plays each contract once.'
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol


def N_(message: str) -> str:  # noqa: N802 (gettext's conventional name)
    """Mark ``message`` for ``pybabel extract``; it is translated when rendered."""
    return message


class Plural(NamedTuple):
    """A template whose wording depends on a number (``ngettext``)."""

    singular: str
    plural: str
    num: str = "count"
    """The param that chooses the form."""

    @classmethod
    def ngettext(cls, singular: str, plural: str, num: str = "count") -> Plural:
        """Named so that ``pybabel extract`` (keyword ``ngettext``) finds both forms."""
        return cls(singular, plural, num)


Template = str | Plural


class Translations(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


ENGLISH: Translations = gettext.NullTranslations()
"""The source language: every template as written here."""

CONTRACT_NAMES: dict[str, str] = {
    # Translators: a contract, as players call it at the table. Arabic: شيخ الكبة (the King of
    # Hearts, "Sheikh Koobbah"); elsewhere players use the transliteration "Sheikh Koobbah" or
    # their own words for the King of Hearts.
    "king": N_("King of Hearts"),
    # Translators: a contract, as players call it. Arabic: بنات ("Banat", the queens); in other
    # languages the transliteration "Banat" or the word for the queens.
    "queens": N_("Queens"),
    # Translators: a contract, as players call it. Arabic: ديناري ("Dinari", the diamonds); in
    # other languages the transliteration "Dinari" or the word for the diamonds.
    "diamonds": N_("Diamonds"),
    # Translators: a contract, as players call it. Arabic: لطوش ("Ltoosh", the tricks taken); in
    # other languages the transliteration "Ltoosh" or the word for collecting tricks.
    "collections": N_("Collections"),
    # Translators: a contract, as players call it. Arabic: تركس; in other languages "Trix"
    # (the game itself is called Trex or Trix).
    "trix": N_("Trix"),
}
"""The contracts' names by their wire values, as players say them in each language (R3–R7)."""

WORDS: dict[str, Template] = {
    # Pieces of sentences (``part()`` in the engine), and how lists are joined.
    # Translators: the end of a list: "Rana, Sami and Omar" (head is "Rana, Sami").
    "join.and": N_("%(head)s and %(last)s"),
    # Translators: the separator between the items of a list ("Rana, Sami"); Arabic: "، ".
    "join.comma": N_(", "),
    "word.seat": N_("seat %(seat)d"),
    "word.seat_start": N_("Seat %(seat)d"),
    "word.the_card": N_("the %(card)s"),
    "word.the_king": N_("the king"),
    "word.tally": N_("%(player)s %(count)d"),
    "word.tally_seat": N_("seat %(seat)d: %(count)d"),
    "word.named_twice": N_("%(player)s twice"),
    "word.named_three_times": N_("%(player)s three times"),
    "word.named_four_times": N_("%(player)s four times"),
    "word.spades": Plural.ngettext("%(count)d spade", "%(count)d spades"),
    "word.hearts": Plural.ngettext("%(count)d heart", "%(count)d hearts"),
    "word.diamonds": Plural.ngettext("%(count)d diamond", "%(count)d diamonds"),
    "word.clubs": Plural.ngettext("%(count)d club", "%(count)d clubs"),
    "word.cards": Plural.ngettext("%(count)d card", "%(count)d cards"),
    "word.spade_row": N_("the spade row"),
    "word.heart_row": N_("the heart row"),
    "word.diamond_row": N_("the diamond row"),
    "word.club_row": N_("the club row"),
    "word.row_runs": N_("%(row)s runs %(low)s–%(high)s"),
    "word.row_only": N_("%(row)s holds only the %(card)s"),
    "word.row_closed": N_("%(row)s is not opened yet (only the %(card)s opens it)"),
    # The later entry that an edit would break (history.breaks_later).
    "word.deal_n": N_("deal %(n)d"),
    "word.redeal_after": N_("the redeal after deal %(n)d"),
    "word.misdeal_after": N_("the misdeal after deal %(n)d"),
    "word.first_redeal": N_("the first redeal"),
    "word.first_misdeal": N_("the first misdeal"),
    **{f"contract.{value}": name for value, name in CONTRACT_NAMES.items()},
    # A claim's verdict (rules/claims/check.py: claim_verdict), on the page and in the API.
    "claim.undecided": N_("Not decided in time (%(seconds)s s): no ruling."),
    "claim.holds": N_(
        "The claim holds: %(player)s can make sure of at least %(claimed)s from here (%(why)s)."
    ),
    "claim.fails": N_(
        "The claim fails: the others can hold %(player)s to %(score)s; see the line."
    ),
    "claim.fails_below": N_(
        "The claim fails: the others can keep %(player)s below %(claimed)s; see the line."
    ),
    "claim.why.no_tricks": N_("the claimant takes no more tricks whatever the others do"),
    "claim.why.no_king": N_("the claimant does not take the K♥ whatever the others do"),
    "claim.why.first_out": N_("the claimant goes out first whatever the others do"),
    "claim.why.whatever": N_("whatever the others do"),
    "claim.why.best": N_("best play gives the claimant %(score)s"),
}

_CARDS_AND_CONTRACTS: dict[str, Template] = {
    # cards.py, contracts.py (R1, R2)
    "bad_suit": N_("“%(text)s” is not a suit (use S, H, D, C)."),
    "bad_rank": N_("“%(text)s” is not a rank (use A K Q J T 9 … 2)."),
    "bad_card": N_("“%(text)s” is not a card (write e.g. KH, 10D, 10♦)."),
    "bad_card.short": N_("“%(text)s” is not a card (write e.g. KH, 10D)."),
    "bad_card.not_text": N_("%(value)s is not a card."),
    "bad_contract": N_("“%(text)s” is not a contract; use one of %(allowed)s."),
}

_RULE_SETS: dict[str, Template] = {
    # ruleset.py (R2, R9)
    "rules_shape": N_("The rule set must be a JSON object."),
    "rules_unknown_field": N_("“%(name)s” is not a house rule this app knows."),
    "rules_bad_value": N_("The house rule “%(name)s” cannot be %(value)s; use one of %(allowed)s."),
    "rules_not_bool": N_("The house rule “%(name)s” must be true or false, not %(value)s."),
    "rules_values_shape": N_("“values” must be an object of point values."),
    "rules_unknown_value": N_(
        "“%(name)s” is not a point value; use king, queen, diamond, trick or trix."
    ),
    "rules_value_range.king": N_(
        "The value of a king must be a whole number from 0 to 10000, not %(value)s."
    ),
    "rules_value_range.queen": N_(
        "The value of a queen must be a whole number from 0 to 10000, not %(value)s."
    ),
    "rules_value_range.diamond": N_(
        "The value of a diamond must be a whole number from 0 to 10000, not %(value)s."
    ),
    "rules_value_range.trick": N_(
        "The value of a trick must be a whole number from 0 to 10000, not %(value)s."
    ),
    "rules_trix_values": N_(
        "The Trix values must be four whole numbers, 1st to 4th place, not %(value)s."
    ),
    "rules_king_order": N_("“king_order” must list the four seats 0–3 once each, not %(value)s."),
    "rules_kingdoms": N_("“kingdoms” must be 4 (full game) or 1 (short game), not %(value)s."),
    "rules_king_order_missing": N_(
        "A custom kingdom order needs “king_order”: the four seats in the order they will be king."
    ),
    "rules_king_order_unused": N_(
        "“king_order” is only used with the custom kingdom order; "
        'set “kingdom_order” to "custom" or remove it.'
    ),
    "rules_first_dealer": N_(
        "“first_dealer” must be the seat 0–3 of the player who deals first, not %(value)s."
    ),
    "rules_first_dealer_missing": N_(
        'The dealer rule "%(dealer)s" needs “first_dealer”: the seat of the player who deals '
        "the first deal (R2)."
    ),
    "rules_first_dealer_unused": N_(
        "“first_dealer” is only used when the dealer is not the king; set “dealer” to "
        '"first_any" or "rotates", or remove it (R2).'
    ),
    "rules_rounds": N_("“rounds” must be 1 (two team kingdoms) or 2 (twice round), not %(value)s."),
    "rules_rounds.unused": N_(
        "“rounds” counts rounds of team kingdoms; set “team_kingdoms” to true or remove it."
    ),
    "rules_team_kingdoms.partnership": N_(
        "Team kingdoms need partnerships: set “partnership” to true."
    ),
    "rules_team_kingdoms.order": N_(
        "Under team kingdoms the kingdom passes to the other team, to the player on the king's "
        'right; set “kingdom_order” to "right".'
    ),
    "rules_team_kingdoms.short": N_(
        "Under team kingdoms the length of the game is set by “rounds” (1: two kingdoms, "
        "2: four); remove “kingdoms”."
    ),
    "rules_contract_order": N_(
        "“contract_order” must list the five contracts once each (%(allowed)s) in the agreed "
        "order, or be null; not %(value)s."
    ),
    "rules_contract_order_combination": N_(
        "A fixed contract order plays the five contracts one by one (R2), so it cannot go with "
        'combinations (R9.6); set “combination” to "off" or remove the order.'
    ),
}

_CAPTURES: dict[str, Template] = {
    # captures.py: the shape of a deal's captures (R3–R7, R11)
    "captures_shape": N_("“captures” must be an object."),
    "captures_unknown": N_(
        "“%(name)s” is not a kind of capture; use king_of_hearts, queens, diamonds, tricks, "
        "trix_order."
    ),
    "capture_shape": N_(
        "Say who took %(what)s: an object with “taker” (a seat 0–3) and “doubled_by” "
        "(a seat or null)."
    ),
    "capture_unknown": N_("“%(name)s” is not part of a capture; use taker and doubled_by."),
    "bad_seat.taker": N_("The taker of %(what)s must be a seat 0–3, not %(value)s."),
    "bad_seat.doubled_by": N_(
        "Whoever doubled %(what)s must be a seat 0–3 or null, not %(value)s."
    ),
    "queens_shape": N_("“queens” must be an object with QS, QH, QD and QC."),
    "queens_key": N_("“%(name)s” is not a queen; use QS, QH, QD, QC."),
    "queen_twice": N_("%(card)s is given twice."),
    "queen_missing": N_(
        "Say who took the %(card)s: each of the four queens is taken by exactly one player."
    ),
    "counts_shape.diamonds": N_(
        "“diamonds” must list the diamonds each of the four players took, whole numbers "
        "from 0 to 13, not %(value)s."
    ),
    "counts_shape.tricks": N_(
        "“tricks” must list the tricks each of the four players took, whole numbers "
        "from 0 to 13, not %(value)s."
    ),
    "trix_order_shape": N_(
        "“trix_order” must list the four seats, first out first, not %(value)s."
    ),
}

_DEAL_CHECKS: dict[str, Template] = {
    # validation.py, scoring.py: is the deal consistent (R2, R9.6, R11)
    "missing_king_of_hearts": N_("Say who took the K♥ (King of Hearts)."),
    "missing_queens": N_("Say who took each of the four queens (Queens)."),
    "missing_diamonds": N_("Say how many diamonds each player took (Diamonds)."),
    "missing_trix_order": N_("Say the order in which the players went out (Trix)."),
    "missing_tricks": N_("Say how many tricks each player took (Collections)."),
    "missing_tricks.combination": N_(
        "A combination needs the tricks each player took, to check the other captures."
    ),
    "diamonds_sum": N_("Diamonds must add up to 13; these add up to %(total)d (%(listed)s)."),
    "tricks_sum": N_("Tricks must add up to 13; these add up to %(total)d (%(listed)s)."),
    "trix_order_not_permutation": N_(
        "The Trix order must name each player once; it names %(twice)s and leaves out %(left_out)s."
    ),
    "doubling_off": N_(
        "Doubling is off under these house rules, so the %(card)s cannot be doubled "
        "(here by %(player)s)."
    ),
    "queen_of_diamonds_not_counted": N_(
        "%(player)s took the Q♦, which is a diamond too, so %(player)s's diamonds cannot be 0."
    ),
    "penalty_without_trick": N_(
        "%(player)s took %(what)s but no trick; whoever takes a card takes at least one trick."
    ),
    "penalty_exceeds_tricks": Plural.ngettext(
        "%(player)s took %(cards)d penalty cards (%(what)s) in only %(tricks)d trick; "
        "a trick holds at most %(max)d cards.",
        "%(player)s took %(cards)d penalty cards (%(what)s) in only %(tricks)d tricks; "
        "%(tricks)d tricks hold at most %(max)d cards.",
        num="tricks",
    ),
    "contracts_empty": N_("Choose the contract of this deal."),
    "contract_repeated": N_("%(label)s is named twice; a deal plays each contract once."),
    "combination_off": N_(
        "Only one contract per deal under these house rules; this deal names %(count)d (%(names)s)."
    ),
    "combination_with_trix": N_(
        "Trix is always played on its own, never combined with other contracts (%(names)s)."
    ),
    "combination_not_all_four": N_(
        "Under these house rules a combination must be all four trick contracts at once, "
        "not %(names)s."
    ),
}

_TRICK_PLAY: dict[str, Template] = {
    # tricks.py, trickplay.py, rulings.py: trick records (R1, R3, R9.4, R10)
    "card_not_held.you": N_("You do not hold %(card)s."),
    "must_follow_suit.you": N_("You must follow suit: you hold %(held)s."),
    "heart_lead_forbidden.you": N_(
        "You may not lead a heart while you hold a card of another suit."
    ),
    "hearts_not_broken.you": N_(
        "You may not lead a heart until a heart has been discarded on another suit."
    ),
    "must_discard_penalty.you": N_(
        "You cannot follow suit, so you must discard a penalty card: you hold %(held)s."
    ),
    "not_trick_contracts": N_(
        "A trick record needs one or more trick contracts (King of Hearts, Queens, Diamonds, "
        "Collections); Trix is checked from its plays."
    ),
    "bad_seat.king": N_("The king must be a seat 0–3, not %(value)s."),
    "doubling_off.doubled": N_(
        "Doubling is off in this game's rules, so %(card)s cannot be doubled."
    ),
    "not_doubleable": N_(
        "%(card)s cannot be doubled in this deal: only the K♥ in King of Hearts and the "
        "queens in Queens can be."
    ),
    "doubled_twice": N_("%(card)s is listed twice among the doubled cards."),
    "card_twice_in_hand": N_("%(card)s is given twice in seat %(seat)d's hand."),
    "too_many_tricks": N_("A deal has 13 tricks; this record has %(count)d."),
    "empty_trick": N_("Trick %(trick)d has no cards."),
    "trick_too_long": N_("Trick %(trick)d has %(count)d cards; a trick has 4."),
    "trick_incomplete": N_("Trick %(trick)d has only %(count)d cards but is not the last."),
    "card_twice": N_("%(card)s is played twice: in trick %(first)d and again in trick %(trick)d."),
    "card_not_held": N_(
        "In trick %(trick)d, seat %(seat)d plays %(card)s, a card not in that player's hand."
    ),
    "hands_count": N_("Give the hands of all four players, not %(count)d."),
    "hand_size": N_("Seat %(seat)d's hand has %(count)d cards; each player is dealt 13."),
    "hands_overlap": N_("%(card)s is in both seat %(other)d's and seat %(seat)d's hands."),
    "record_incomplete": N_(
        "Without the hands every card must be played, but only %(played)d of 52 were; "
        "give the four hands to check an unfinished deal."
    ),
}

_TRIX: dict[str, Template] = {
    # trix.py: the layout and Trix play records (R1, R7)
    "layout_shape": N_(
        'The layout must give each opened row\'s low and high end, like {"S": ["8S", "QS"]}.'
    ),
    "layout_row_twice": N_("The layout gives the row “%(name)s” twice."),
    "layout_row_shape.spade": N_(
        "Give the spade row as its low and high end, two spades, not %(value)s."
    ),
    "layout_row_shape.heart": N_(
        "Give the heart row as its low and high end, two hearts, not %(value)s."
    ),
    "layout_row_shape.diamond": N_(
        "Give the diamond row as its low and high end, two diamonds, not %(value)s."
    ),
    "layout_row_shape.club": N_(
        "Give the club row as its low and high end, two clubs, not %(value)s."
    ),
    "layout_row_without_jack.spade": N_(
        "A row grows from its Jack: the spade row cannot run %(low)s–%(high)s."
    ),
    "layout_row_without_jack.heart": N_(
        "A row grows from its Jack: the heart row cannot run %(low)s–%(high)s."
    ),
    "layout_row_without_jack.diamond": N_(
        "A row grows from its Jack: the diamond row cannot run %(low)s–%(high)s."
    ),
    "layout_row_without_jack.club": N_(
        "A row grows from its Jack: the club row cannot run %(low)s–%(high)s."
    ),
    "card_not_placeable": N_("The %(card)s cannot be laid: %(row)s."),
    "card_not_placeable.turn": N_(
        "On turn %(turn_number)d, %(player)s plays the %(card)s, which cannot be laid: %(row)s."
    ),
    "hands_count.trix": N_("Give four hands, one per seat, not %(count)d."),
    "hand_size.player": N_("%(player)s must be dealt 13 different cards, not %(count)d cards."),
    "card_in_two_hands": N_("The %(card)s is in both %(other)s's and %(player)s's hands."),
    "record_incomplete.trix": N_(
        "Without the hands the record must run to the end of the deal (three players out); "
        "here %(count)d went out."
    ),
    "play_after_end": N_("Turn %(turn_number)d comes after the deal ended: %(out)s were out."),
    "card_twice.trix": N_(
        "On turn %(turn_number)d the %(card)s is played again; it was played on turn %(first)d."
    ),
    "card_not_held.trix": N_(
        "On turn %(turn_number)d, %(player)s plays the %(card)s, but %(holder)s holds it."
    ),
}

_GAMES: dict[str, Template] = {
    # redeal.py, game.py, game_log.py: hands, kingdoms and the deal log (R1, R2, R8, R12)
    "hand_card_twice": N_("A hand cannot hold the same card twice (%(listed)s)."),
    "hand_size.hand": N_("A hand has 13 cards; this one has %(count)d."),
    "contract_already_played": Plural.ngettext(
        "The kingdom of %(player)s has already had %(played)s; the contract left is %(left)s.",
        "The kingdom of %(player)s has already had %(played)s; the contracts left are %(left)s.",
    ),
    "seven_of_hearts_needed": N_(
        "Say who was dealt the 7♥: under the 7♥ rule that player is king of the new kingdom, "
        "or the nearest player to the right who has not been king yet."
    ),
    "not_the_king": N_("%(king_name)s is king of this kingdom and deals it, not %(given_name)s."),
    "not_the_king.extra": N_(
        "%(king_name)s, the first king, deals the extra deal, not %(given_name)s."
    ),
    "game_over": N_(
        "The game is over; %(winners)s won with %(total)d points, so no more deals can be recorded."
    ),
    "game_over.team": N_(
        "The game is over; %(winners)s won together with %(total)d points, so no more deals "
        "can be recorded."
    ),
    "redeal_contract": N_(
        "A redeal can only be claimed in King of Hearts or Trix; %(king_name)s announced %(label)s."
    ),
    "contract_not_all_four": N_(
        "Under “all four at once” (R9.6) the four trick contracts are always played together "
        "in one deal, then Trix: %(king_name)s cannot announce %(label)s alone."
    ),
    "contract_out_of_order": N_(
        "The table plays the contracts in a fixed order (R2): %(order)s; %(king_name)s plays "
        "%(label)s next, not %(given)s."
    ),
    "closed_suit_redeal": N_(
        "A Trix deal is dealt again for a closed suit only under the house rule "
        "“closed suit replays” (R7)."
    ),
    "closed_suit_redeal.trix": N_(
        "A closed suit voids a Trix deal: record it as a redeal of Trix (R7)."
    ),
    "redeal_reason": N_('A redeal\'s “reason” must be "closed_suit" or absent, not %(value)s.'),
    "entry_shape": N_("A deal must be a JSON object."),
    "redeal_kind": N_('A redeal\'s “kind” must be "redeal" or "misdeal", not %(value)s.'),
    "redeal_kind.built": N_('A redeal\'s kind must be "redeal" or "misdeal", not %(value)s.'),
    "note_shape": N_("A note must be text."),
    "players_count": Plural.ngettext(
        "Trex is played by exactly 4 players; %(count)d name was given.",
        "Trex is played by exactly 4 players; %(count)d names were given.",
    ),
    "player_name": N_("Player %(number)d needs a name."),
    "player_name_twice": N_("Two players are called %(name)s; give each player a different name."),
    "bad_seat.first_king": N_("The first king must be a seat 0–3, not %(value)s."),
    "first_king_not_in_order": N_(
        "The agreed kingdom order starts with %(first_name)s, so %(first_name)s is the first "
        "king, not %(given_name)s."
    ),
    "bad_seat.redeal_seat": N_("The player asking for a redeal must be a seat 0–3, not %(value)s."),
}

_REQUESTS: dict[str, Template] = {
    # checks.py, wire.py, game_input.py: request bodies (API.md)
    "cards_shape": N_('“%(name)s” must be a list of cards such as ["KH", "10D"].'),
    "hands_shape": N_("“hands” must give the four players' hands."),
    "hands_shape.seats": N_("“hands” must give the hands of seats 0, 1, 2 and 3."),
    "tricks_shape": N_(
        "“tricks” must be a list of tricks, each the cards in play order, leader first."
    ),
    "dealer_not_king": N_(
        "Under these rules the king deals every deal (R2), so %(king_name)s dealt, "
        "not %(dealer_name)s."
    ),
    "plays_shape": N_('“plays” must be a list of cards and "pass".'),
    "names_shape": N_("“names” must list the four players' names in seat order."),
    "unknown_field.this_request": N_("“%(name)s” is not a field of this request; use %(allowed)s."),
    "unknown_field.a_deal": N_("“%(name)s” is not a field of a deal; use %(allowed)s."),
    "unknown_field.a_redeal": N_("“%(name)s” is not a field of a redeal; use %(allowed)s."),
    "unknown_field.a_new_game": N_("“%(name)s” is not a field of a new game; use %(allowed)s."),
    "unknown_field.a_position": N_("“%(name)s” is not a field of a position; use %(allowed)s."),
    "bad_seat": N_("“%(name)s” must be a seat from 0 to 3, not %(value)s."),
    "bad_seat.what": N_("%(what)s must be a seat from 0 to 3, not %(value)s."),
    "bad_seat.input_first_king": N_("The first king must be a seat from 0 to 3, not %(value)s."),
    "bad_seat.input_king": N_("The king must be a seat from 0 to 3, not %(value)s."),
    "contracts_shape": N_('“contracts” must list the contract(s) announced, e.g. ["king"].'),
    "missing_field": N_("“%(name)s” is missing."),
    "missing_field.captures": N_("“captures” is missing: say what each player took in this deal."),
    "missing_field.kind": N_('“kind” is missing: "redeal" (a claim under R8) or "misdeal".'),
    "players_count.listed": Plural.ngettext(
        "Trex is played by exactly 4 players: list their four names; %(count)d name was given.",
        "Trex is played by exactly 4 players: list their four names; %(count)d names were given.",
    ),
    "players_count.not_listed": N_(
        "Trex is played by exactly 4 players: list their four names given."
    ),
    "player_name.not_text": N_("Player %(number)d's name must be text."),
    "player_name_length": N_(
        "Player %(number)d's name is %(length)d characters long; use at most %(max)d."
    ),
    "player_name_control": N_(
        "Player %(number)d's name contains a control character (such as a line break)."
    ),
    "note_length": N_("The note is %(length)d characters long; use at most %(max)d."),
    "text_unstorable": N_(
        "“%(name)s” contains a character that cannot be stored (a NUL, or half of a "
        "surrogate pair such as \\udfff): send it as UTF-8 text."
    ),
    "player_name_bidi": N_(
        "Player %(number)d's name contains a text-direction control character "
        "(such as U+202E); type the name without it."
    ),
    "player_name_invisible": N_(
        "Player %(number)d's name has no visible character; type letters or digits."
    ),
}

_CLAIMS: dict[str, Template] = {
    # rules/claims (check.py, position.py): the claim check, check/claim (R1, R3, R7, R10)
    "claim_shape": N_("“claim” must give the claimant's “seat” and the “min_score” claimed."),
    "bad_min_score": N_("“min_score” must be a whole number of points, not %(value)s."),
    "bad_time_limit": N_(
        "“time_limit” must be a number of seconds above 0 and at most 60, not %(value)s."
    ),
    "bad_exact_time_limit": N_(
        "“exact_time_limit” must be a number of seconds from 0 to 60, not %(value)s."
    ),
    "bad_hearts_broken": N_("“hearts_broken” must be true or false, not %(value)s."),
    "unknown_field.a_claim": N_("“%(name)s” is not a field of a claim; use %(allowed)s."),
    "unknown_field.trix_field_in_tricks": N_(
        "“%(name)s” is for claims in Trix, not in trick contracts."
    ),
    "unknown_field.trick_field_in_trix": N_(
        "“%(name)s” is for claims in trick contracts, not in Trix."
    ),
    "trick_too_long.claim": N_(
        "The current trick can hold at most 3 cards before the claim, not %(count)d."
    ),
    "card_twice.hands": N_("The %(card)s is in two hands; %(player)s is the second."),
    "card_twice.current_trick": N_(
        "The %(card)s is in the current trick and also held, or played twice."
    ),
    "card_twice.in_layout": N_("The %(card)s held by %(player)s is also in the layout."),
    "card_twice.in_another_hand": N_("The %(card)s held by %(player)s is also in another hand."),
    # Translators: %(player)s starts the sentence: a name, or "Seat 2".
    "hand_sizes.over_13": Plural.ngettext(
        "%(player)s holds %(count)d card; a hand holds at most 13.",
        "%(player)s holds %(count)d cards; a hand holds at most 13.",
    ),
    # Translators: %(played)s is "1 card", "2 cards"; %(again)s is %(player)s again, mid-sentence.
    "hand_sizes.mid_trick": Plural.ngettext(
        "%(player)s holds %(count)d card, but with %(played)s in the current trick led by "
        "%(leader)s, %(again)s should hold %(want)d.",
        "%(player)s holds %(count)d cards, but with %(played)s in the current trick led by "
        "%(leader)s, %(again)s should hold %(want)d.",
    ),
    "hand_sizes.trick_empty": Plural.ngettext(
        "%(player)s holds %(count)d card, but with no card in the current trick every player "
        "holds the same number as the leader (%(leader)s holds %(want)d).",
        "%(player)s holds %(count)d cards, but with no card in the current trick every player "
        "holds the same number as the leader (%(leader)s holds %(want)d).",
    ),
    "must_follow_suit.claim": N_(
        "%(player)s could not have played %(card)s to the current trick: that hand still "
        "holds the suit led, which had to be followed."
    ),
    "heart_lead_forbidden.claim": N_(
        "%(player)s could not have played %(card)s to the current trick: a heart may be led "
        "only by a player who holds nothing else."
    ),
    "hearts_not_broken.claim": N_(
        "%(player)s could not have played %(card)s to the current trick: no heart may be led "
        "before hearts are broken while the leader holds another suit (give "
        '"hearts_broken": true if a heart was discarded on another suit earlier).'
    ),
    "must_discard_penalty.claim": N_(
        "%(player)s could not have played %(card)s to the current trick: with no card of the "
        "suit led, a penalty card had to be discarded, and that hand still holds one."
    ),
    # Translators: %(cards)s lists the missing cards, at most five.
    "cards_missing": Plural.ngettext(
        "Every card is either laid out or held; %(count)d card (%(cards)s) are neither.",
        "Every card is either laid out or held; %(count)d cards (%(cards)s) are neither.",
    ),
    # Translators: %(cards)s lists the first five missing cards; "…" says there are more.
    "cards_missing.more": Plural.ngettext(
        "Every card is either laid out or held; %(count)d card (%(cards)s…) are neither.",
        "Every card is either laid out or held; %(count)d cards (%(cards)s…) are neither.",
    ),
    "out_shape": N_("“out” must list the seats already out, first out first."),
    "out_shape.once": N_("“out” lists the seats already out, each once, at most three."),
    "out_mismatch.holding": Plural.ngettext(
        "%(player)s is listed as out but still holds %(count)d card.",
        "%(player)s is listed as out but still holds %(count)d cards.",
    ),
    "out_mismatch.empty": N_("%(player)s holds no card and so is out: list that seat in “out”."),
    "turn_of_player_out": N_("It cannot be %(player)s's turn: that player is already out."),
}

_WEB: dict[str, Template] = {
    # store/game_store.py, store/games.py: the store's own refusals
    "edit_breaks_later_deal": N_("Changing deal %(n)d this way would break %(later)s: %(reason)s"),
    "nothing_to_undo": N_("There is nothing to undo: no deal has been recorded yet."),
    "entry_id_reused": N_(
        "The entry id %(entry_id)s was already used for another change to this game; "
        "send this change under a new id."
    ),
    "too_many_redeals": N_(
        "Deal %(n)s was dealt again %(count)s times, the most one deal may be; record the deal "
        "as it is played (or undo the last redeal)."
    ),
    "game_full": N_(
        "This game has kept %(max)s changes, the most one game can hold; start a new game to go on."
    ),
    "json_type.object": N_("“%(name)s” must be a JSON object, not %(kind)s."),
    "json_type.list": N_("“%(name)s” must be a JSON list, not %(kind)s."),
    "bad_entry_id": N_("“entry_id” must be 1 to 64 letters, digits, “-” or “_”, not %(value)s."),
    # store/positions.py: a deal typed for a position another phone took
    "deal_already_recorded": N_(
        "Deal %(n)d was recorded meanwhile; this entry, typed for deal %(n)d, was not saved."
    ),
    "position_moved": N_(
        "This entry was typed for deal %(n)d, but the next deal is now deal %(next)d; "
        "it was not saved."
    ),
    "position_moved.king": N_(
        "This entry was typed for deal %(n)d with %(typed)s as king, but %(king)s is king now; "
        "it was not saved."
    ),
    "bad_position.shape": N_('“position” must be an object such as {"n": 10, "king": 1}.'),
    "bad_position.n": N_("“position.n” must be the deal's number, from 1 to %(max)d."),
    "bad_position.king": N_("“position.king” must be the king's seat, from 0 to 3, or null."),
    "bad_position.game": N_("“position.game” must be the game's id."),
    # store/played.py: the phone's clock at Save
    "bad_played_at": N_(
        "“played_at” must be a date and time with its UTC offset (ISO 8601, such as "
        "2026-12-03T21:42:05+03:00), not %(value)s."
    ),
    "played_at_out_of_range.future": N_(
        "The time this deal was played, %(played)s, is more than %(minutes)d minutes ahead "
        "of the server's clock: check the phone's clock."
    ),
    "played_at_out_of_range.early": N_(
        "The time this deal was played, %(played)s, is before this game was created "
        "(%(created)s): check the phone's clock."
    ),
}

_EVENTS: dict[str, Template] = {  # club nights: rules/events/, store/event*.py
    # rules/events/draw.py
    "event_too_few_players": N_("A round needs at least 4 players present; there are %(count)d."),
    "event_player_twice": N_("%(player)s is listed twice among the players."),
    "event_player_not_seated": N_("%(player)s has no seat in round %(n)d."),
    "event_player_seated": N_("%(player)s already has a seat in round %(n)d."),
    "event_not_a_player": N_("%(player)s is not among this club night's players."),
    "event_table_started": N_(
        "Table %(table)d has started: %(player)s can be replaced there, but the table cannot "
        "be drawn again."
    ),
    # store/events/changes.py
    "event_table_finished": N_(
        "Table %(table)d has finished its game: nobody needs to take the seat of %(player)s."
    ),
    "event_redraw_not_last": N_(
        "Only the last round drawn can be drawn again; round %(last)d has been drawn after "
        "round %(n)d."
    ),
    "event_player_left": N_("%(player)s has left this club night and cannot take a seat."),
    "event_name_needed": N_("“%(what)s” must be a player's name."),
    # rules/events/standings.py
    "event_places": N_(
        "The points by place must be four whole numbers from first place to fourth, never "
        "rising (such as [3, 2, 1, 0]); not %(value)s."
    ),
    # store/events/input.py
    "event_circle": N_("“circle” must be a circle's id."),
    "unknown_field.a_new_event": N_("“%(name)s” is not a field of a new event; use %(allowed)s."),
    "unknown_field.a_player_who_leaves": N_(
        "“%(name)s” is not a field of a player who leaves; use %(allowed)s."
    ),
    # rules/events/tables.py (the same words as the deal form's)
    "first_king_needed": N_("Choose who was dealt the 7♥."),
    "event_name": N_("Give the club night a name of 1 to %(max)d characters, on one line."),
    "event_players": N_("List the players present by name (at most %(max)d)."),
    "event_rules_partnership": N_(
        "The rule set's “partnership” must agree with the event's “partnership”."
    ),
    "event_rules_kingdoms": N_(
        "A round of one kingdom plays one kingdom per table: “rules.kingdoms” must be 1."
    ),
    "event_flag": N_("“%(what)s” must be true or false."),
    "event_number": N_("“%(what)s” must be a whole number from %(low)d to %(high)d."),
    "event_choice": N_("“%(what)s” must be one of %(allowed)s."),
    "event_rotation_size": N_("A fixed rotation is for 8, 12 or 16 players; there are %(count)d."),
    # store/events/services.py, store/events/results.py
    "event_all_rounds_drawn": N_(
        "No round is left to draw: all the planned rounds (%(count)d) have been drawn."
    ),
    "event_no_such_round": N_("This club night has no round %(n)d; %(count)d have been drawn."),
    "event_closed": N_("This club night is closed: its games can no longer be changed."),
    "event_round_locked": N_(
        "Round %(n)d of this club night is locked by the director: its games can no longer "
        "be changed."
    ),
}

PROBLEMS: dict[str, Template] = {
    **_CARDS_AND_CONTRACTS,
    **_RULE_SETS,
    **_CAPTURES,
    **_DEAL_CHECKS,
    **_TRICK_PLAY,
    **_TRIX,
    **_GAMES,
    **_REQUESTS,
    **_CLAIMS,
    **_WEB,
    **_EVENTS,
}
"""Every problem's template, by :attr:`Problem.key <scorekeeper.rules.errors.Problem.key>`."""

MESSAGES: dict[str, Template] = {**PROBLEMS, **WORDS}
"""The whole catalog: problems, then the pieces their params are made of."""


# --- pieces of sentences ------------------------------------------------------------------


def part(key: str, **params: Any) -> dict[str, Any]:
    """A piece of a message with words in it, for a problem's ``params``.

    It is rendered from its own template ``key`` with ``params``, in the
    reader's language: ``part("word.seat", seat=2)`` is "seat 2".
    """
    return {"part": key, "params": params}


def joined(how: str, items: Iterable[Any]) -> dict[str, Any]:
    """Items (text or :func:`part` values) joined for a problem's ``params``.

    ``how`` is ``"and"`` (``a, b and c``), ``"comma"`` (``a, b, c``) or
    ``"plus"`` (``a + b``, for the contracts of a combination).
    """
    return {"join": how, "items": list(items)}


# --- rendering ---------------------------------------------------------------------------


class Numbers(Protocol):
    """How a language writes numbers: the translated template's number slots, and a number."""

    def template(self, text: str) -> str: ...

    def number(self, value: int) -> str: ...


def render(
    key: str,
    params: Mapping[str, Any],
    translations: Translations,
    numbers: Numbers | None = None,
) -> str:
    """The template ``key`` in ``translations``' language, filled with ``params``; with
    ``numbers``, its whole numbers are written as ``numbers`` says (the text layer's
    digits: ١٢, a real minus sign).

    Raise ``KeyError`` (unknown key, missing param), ``TypeError`` or
    ``ValueError`` (a param of the wrong kind) rather than guess.
    """
    template = MESSAGES[key]
    values = {name: _value(value, translations, numbers) for name, value in params.items()}
    if isinstance(template, Plural):
        text = translations.ngettext(template.singular, template.plural, int(params[template.num]))
    else:
        text = translations.gettext(template)
    if numbers is not None:
        text = numbers.template(text)
    return text % values


def _value(value: Any, translations: Translations, numbers: Numbers | None) -> Any:
    if isinstance(value, dict) and "part" in value:
        return render(value["part"], value.get("params", {}), translations, numbers)
    if isinstance(value, dict) and "join" in value:
        items = [str(_value(item, translations, numbers)) for item in value["items"]]
        return join(value["join"], items, translations)
    if numbers is not None and isinstance(value, int) and not isinstance(value, bool):
        return numbers.number(value)
    return value


JOINING = (", ", "%(head)s and %(last)s")
"""The words :func:`join` puts between items (the msgids of ``join.comma``, ``join.and``)."""


def join(how: str, items: Sequence[str], translations: Translations) -> str:
    """``items`` joined as ``how`` says (:func:`joined`), in ``translations``' language."""
    comma = translations.gettext(JOINING[0])
    if how == "plus":
        return " + ".join(items)
    if how == "comma" or len(items) < 2:
        return comma.join(items)
    if how != "and":
        raise ValueError(f"unknown join {how!r}")
    head = comma.join(items[:-1])
    return translations.gettext(JOINING[1]) % {"head": head, "last": items[-1]}


def english(key: str, params: Mapping[str, Any]) -> str:
    """The template in English: for a problem, the engine's own message."""
    return render(key, params, ENGLISH)


NAME_PARAMS = frozenset(
    {"player", "name", "names", "king_name", "leader", "given_name", "first_name", "dealer_name"}
    | {"holder", "winners", "claimant"}
)
"""Params that carry players' names, which a reader's language sets apart (FSI … PDI) so that
no name reorders its sentence (``name`` is sometimes a field: isolating it is harmless)."""


def isolating(params: Mapping[str, Any], isolate: Callable[[str], str]) -> dict[str, Any]:
    """``params`` with each name (:data:`NAME_PARAMS`) passed through ``isolate``."""
    return {
        key: isolate(value) if key in NAME_PARAMS and isinstance(value, str) else value
        for key, value in params.items()
    }
