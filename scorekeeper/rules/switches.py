"""The switches of a rule set (R9): one enum per house rule with several values, and the
point values of R9.7. :mod:`scorekeeper.rules.ruleset` puts them together.

>>> SelfCapture("quadruple").multiplier, Dealer("rotates").value
(4, 'rotates')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class SelfCapture(enum.Enum):
    """What a doubled card costs the holder who takes it himself (R3, R4)."""

    SINGLE = "single"
    """Default: the plain value (−75 / −25), no bonus."""
    DOUBLE = "double"
    """House rule: the doubled value (−150 / −50); the deal is then not zero-sum."""
    QUADRUPLE = "quadruple"
    """House rule (seed 003/004): four times the value (−300 / −100); not zero-sum either."""

    @property
    def multiplier(self) -> int:
        """How many times its value a doubled card costs the holder who takes it."""
        return {"single": 1, "double": 2, "quadruple": 4}[self.value]


class HeartLead(enum.Enum):
    """When hearts may be led in King of Hearts (R3)."""

    FREE = "free"
    """Default: any time."""
    ONLY_HEARTS = "only_hearts"
    """No heart lead unless the leader holds only hearts."""
    BROKEN = "broken"
    """No heart lead until a heart was discarded on another suit, unless only hearts are held."""


class Starter(enum.Enum):
    """Who leads the first trick (R10) or plays first in Trix (R7)."""

    KING = "king"
    """Default: the king (dealer)."""
    RIGHT_OF_KING = "right_of_king"
    """The player on the king's right (eldest hand)."""


class Dealer(enum.Enum):
    """Who deals each deal (R2); the first lead (R10) and first Trix turn (R7) count from him."""

    KING = "king"
    """Default: the king deals every deal of his kingdom."""
    FIRST_ANY = "first_any"
    """House rule (seed 000/001): an agreed player deals the first deal; then the king deals."""
    ROTATES = "rotates"
    """House rule (seed 003/004): an agreed player deals first; the deal passes right every deal."""


class Combination(enum.Enum):
    """Trex Complex (R9.6): several trick contracts in one deal."""

    OFF = "off"
    """Default: one contract per deal."""
    ALL_FOUR = "all_four"
    """Regional form: only all four trick contracts at once."""
    ANY = "any"
    """Any two or more of the four trick contracts."""


class KingdomOrder(enum.Enum):
    """Who is the next king (R2)."""

    RIGHT = "right"
    """Default: the next seat on the right."""
    SEVEN_OF_HEARTS = "seven_of_hearts"
    """Whoever is dealt the 7♥ on the kingdom's first deal (the next eligible if already king)."""
    CUSTOM = "custom"
    """An order agreed before the game (``king_order``)."""


class RevokeRule(enum.Enum):
    """The revoke penalty (R10)."""

    REMAINING = "remaining"
    """Default: the offender takes everything not yet taken at the revoke."""
    WHOLE = "whole"
    """The offender is charged the whole contract; the others score 0."""


class TrixRevoke(enum.Enum):
    """A Trix player who passed while holding a legal play (R10, R7)."""

    FLAG = "flag"
    """Default: the violation is reported; the table decides."""
    LAST = "last"
    """House rule: the offender finishes last."""


class ClosedSuit(enum.Enum):
    """A Trix row completed while another suit's Jack has not been laid yet (R7)."""

    PLAY_ON = "play_on"
    """Default: play on."""
    REPLAY = "replay"
    """House rule (seed 000/001): the deal is void and is dealt again; the contract is not used."""


class Tiebreak(enum.Enum):
    """Ties for first place (R12)."""

    TRIX_WINS = "trix_wins"
    """Default: more Trix first places wins; still tied, an extra deal."""
    EXTRA_DEAL = "extra_deal"
    """An extra deal decides at once."""


@dataclass(frozen=True)
class Values:
    """Point values of R9.7 (magnitudes for penalties; the Trix awards by place)."""

    king: int = 75
    queen: int = 25
    diamond: int = 10
    trick: int = 15
    trix: tuple[int, int, int, int] = (200, 150, 100, 50)

    def to_dict(self) -> dict[str, Any]:
        return {
            "king": self.king,
            "queen": self.queen,
            "diamond": self.diamond,
            "trick": self.trick,
            "trix": list(self.trix),
        }
