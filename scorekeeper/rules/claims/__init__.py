"""Claim adjudication: does a claim hold, whatever the others do? (R10, R7; API.md check/claim)

A claim: from this position, seat ``seat`` makes sure of at least
``min_score`` points from the rest of the deal, all hands known
(double-dummy), the three others acting together against him.

- :func:`check_claim` is the JSON check (:mod:`.check`);
- :func:`solve_claim` searches the trick contracts (:mod:`.search`, over the
  trick tree of :mod:`.tree`, with :mod:`.bits`, :mod:`.order`, :mod:`.quick`,
  :mod:`.partition`, :mod:`.banded` and :mod:`.weights`), :func:`solve_trix_claim` searches
  Trix (:mod:`.trix`);
- :mod:`.position` checks a position before any search;
- :mod:`.core` holds the result, the deadline and the shared search pieces.
"""

from scorekeeper.rules.claims.check import check_claim
from scorekeeper.rules.claims.core import DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT, ClaimResult
from scorekeeper.rules.claims.search import solve_claim
from scorekeeper.rules.claims.trix import solve_trix_claim

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "MAX_TIME_LIMIT",
    "ClaimResult",
    "check_claim",
    "solve_claim",
    "solve_trix_claim",
]
