"""The five contracts (R3–R7) and the combinations of R9.6.

>>> Contract.parse("queens").label
'Queens'
>>> [c.value for c in TRICK_CONTRACTS]
['king', 'queens', 'diamonds', 'collections']
"""

from __future__ import annotations

import enum

from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.sentences import english


class Contract(enum.Enum):
    """A contract the king announces before a deal (R2)."""

    KING = "king"
    """King of Hearts, Sheikh Koobbah: −75 to whoever takes the K♥ (R3)."""
    QUEENS = "queens"
    """Queens, Banat: −25 per queen taken (R4)."""
    DIAMONDS = "diamonds"
    """Diamonds, Dinari: −10 per diamond taken (R5)."""
    COLLECTIONS = "collections"
    """Collections, Ltoosh: −15 per trick taken (R6)."""
    TRIX = "trix"
    """Trix, the layout race: +200/+150/+100/+50 by finishing order (R7)."""

    @property
    def label(self) -> str:
        """The contract's name in English (its template ``contract.<value>``)."""
        return english(f"contract.{self.value}", {})

    @property
    def is_trick_contract(self) -> bool:
        return self is not Contract.TRIX

    @classmethod
    def parse(cls, text: object) -> Contract:
        for contract in cls:
            if text == contract.value:
                return contract
        names = ", ".join(f'"{c.value}"' for c in cls)
        raise MalformedError.one(
            "bad_contract",
            text=str(text),
            allowed=names,
        )


TRICK_CONTRACTS: tuple[Contract, ...] = (
    Contract.KING,
    Contract.QUEENS,
    Contract.DIAMONDS,
    Contract.COLLECTIONS,
)
ALL_CONTRACTS: tuple[Contract, ...] = (*TRICK_CONTRACTS, Contract.TRIX)


def canonical(
    contracts: frozenset[Contract] | set[Contract] | list[Contract],
) -> tuple[Contract, ...]:
    """Contracts in the rulebook's order, without duplicates."""
    chosen = set(contracts)
    return tuple(c for c in ALL_CONTRACTS if c in chosen)


def describe(contracts: tuple[Contract, ...]) -> str:
    """``King of Hearts + Queens``."""
    return " + ".join(c.label for c in contracts)
