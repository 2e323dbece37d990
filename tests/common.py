"""What many tests share: the four players and short names for the five contracts."""

from __future__ import annotations

from scorekeeper.rules.contracts import Contract

NAMES = ["Rana", "Sami", "Omar", "Lina"]
"""The players in seat order (seat 0 first), as most tests name them."""
K, Q, D, C, T = (
    Contract.KING,
    Contract.QUEENS,
    Contract.DIAMONDS,
    Contract.COLLECTIONS,
    Contract.TRIX,
)
