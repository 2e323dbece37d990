"""A club night's table: its first deal names the first king (R2).

The draw seats a table before anyone deals, so it cannot know who will be
dealt the 7♥ on the first deal, the player who is first king (R2). The
table's first deal says who it was. Only an agreed kingdom order fixes the
first king beforehand. The server (store/games.py) and the phone's engine
(web/offline/phone.py) both ask these functions.

>>> from scorekeeper.rules.captures import Captures
>>> from scorekeeper.rules.contracts import Contract
>>> rules = RuleSet()
>>> first_king_from_deal(rules)
True
>>> named_first_king(DealEntry((Contract.TRIX,), Captures(), king=2))
2
>>> named_first_king(DealEntry((Contract.TRIX,), Captures()))
Traceback (most recent call last):
...
scorekeeper.rules.errors.IllegalError: Choose who was dealt the 7♥.
"""

from __future__ import annotations

from scorekeeper.rules.errors import IllegalError, RulesError
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.rules.ruleset import KingdomOrder, RuleSet


def first_king_from_deal(rules: RuleSet) -> bool:
    """Whether a table playing ``rules`` learns its first king from its first deal: always,
    unless the agreed kingdom order names him (R2)."""
    return not (rules.kingdom_order is KingdomOrder.CUSTOM and bool(rules.king_order))


def first_king_needed() -> RulesError:
    """A table's first deal that does not say who was dealt the 7♥ (R2)."""
    return IllegalError.one("first_king_needed", rule="R2", field="king")


def named_first_king(first: DealEntry) -> int:
    """The seat a table's first deal names as dealt the 7♥; raise if it names none.

    A value that is not a seat is left to the engine, which names it (``bad_seat``).
    """
    if first.king is None:
        raise first_king_needed()
    return first.king
