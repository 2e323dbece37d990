"""What the claim searches share: the result, the deadline and the MTD(f) driver.

A claim search answers "how much can the claimant make sure of from here?"
(:mod:`.search` for trick contracts, :mod:`.trix` for Trix).
Both are fail-soft alpha-beta searches over the claimant's score *from the
current position on*, so that a transposition-table entry does not depend on
the path that led to it.  :func:`adjudicate` runs one of them: a null-window
test at the claimed score decides the claim, then MTD(f) narrows the exact
value, then, when the claim fails, the search walks out a defeating line.
The exact value may be given a short budget of its own (``exact_seconds``), so
that a ruling decided at once is not held back by a value that takes long to
find: it is then ``None`` ("still unknown").

>>> class Fixed:  # a toy search whose true value is 40
...     nodes, deadline = 0, float("inf")
...     def bounds(self): return (-100, 100)
...     def value(self, alpha, beta): return 40
...     def defeating_line(self, target, deadline, exact): return [7]
>>> adjudicate(Fixed(), 0)
ClaimResult(holds=True, guaranteed=40, line=[], decided=True, nodes=0)
>>> adjudicate(Fixed(), 50).line
[7]
>>> adjudicate(Fixed(), 50, verdict_first=False) == adjudicate(Fixed(), 50)
True
>>> class Slow(Fixed):  # its verdict is quick, its exact value runs out of time
...     def value(self, alpha, beta):
...         if alpha < 39: return 40
...         raise SearchTimeout
>>> ruling = adjudicate(Slow(), 0, exact_seconds=0.5)
>>> ruling.holds, ruling.guaranteed, ruling.decided, ruling.exact_known
(True, None, True, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

DEFAULT_TIME_LIMIT = 20.0
"""Seconds a claim search may take when the caller gives no deadline."""
MAX_TIME_LIMIT = 60.0
"""The longest ``time_limit`` the JSON check accepts."""
CHECK_EVERY = 1023
"""The searches look at the clock when ``nodes & CHECK_EVERY == 0``."""
LINE_GRACE = 5.0
"""Seconds granted to walk out a defeating line once the claim is decided and its value sought
(past the deadline if need be)."""
DEFAULT_EXACT_LIMIT = 2.0
"""Seconds the JSON check seeks the exact value for once the claim is decided (the table
waits for the ruling, not for the value)."""
INFINITY = 1 << 40
"""Larger than any score a rule set can produce (values are at most 10 000 each)."""


@dataclass(frozen=True)
class SearchOptions:
    """Which speed-ups a trick-contract search uses; all on by default.

    Each one only prunes or reorders, so switching it off changes no answer,
    only the time: the tests compare every switch off and on with a plain
    minimax.
    """

    equivalence: bool = True
    """Play cards of a run (adjacent once the played cards are gone) as one move."""
    table: bool = True
    """Keep bounds of positions already searched (at the start of each trick)."""
    quick_bounds: bool = True
    """Cut where no trick can change hands any more (sure tricks, sure losers)."""
    ordering: bool = True
    """Try first the cards the contract makes likely best."""
    verdict_first: bool = True
    """Decide the claim with one null-window search before the exact value is searched for."""
    partition: bool = True
    """Share table bounds among positions alike in the ranks that mattered (needs ``table``)."""
    cheap_first: bool = True
    """At the defenders' nodes, look for short refutations first (growing node budgets)."""
    escape: bool = True
    """Settle positions where the claimant, holding no penalty card, can keep every one out of
    his tricks: each suit of his ducks or can bring him none (needs ``quick_bounds``)."""
    banded: bool = True
    """Where taking things never helps the claimant, ask the banded games (:mod:`.banded`) at
    the claim's position whether he can keep what he takes within what the claim leaves him to
    lose: with far fewer positions, they may settle it either way."""


ALL_ON = SearchOptions()


class SearchTimeout(Exception):
    """The deadline passed in the middle of a search."""


class OverBudget(Exception):
    """A search given a node budget ran out of it before it was settled."""


class Budgeted(Protocol):
    """A search that counts its nodes and stops (:class:`OverBudget`) past ``node_limit``."""

    nodes: int
    node_limit: int


T = TypeVar("T")


def cheapest_first(
    search: Budgeted,
    moves: Sequence[int],
    budgets: tuple[int, int],
    attempt: Callable[[int], T],
    restore: Callable[[], None],
) -> Iterator[tuple[int, T]]:
    """Each move with its result, each move first tried within a small node budget.

    A move that refutes often does so in a short forcing line, while one that
    fails needs its whole subtree searched; so each is first searched within
    ``budgets[0]`` nodes, those that ran out again with 8 times as many, and
    after ``budgets[1]`` without a limit. The results are the same as trying
    the moves one after the other, the refuting one often found sooner.
    ``attempt(card)`` plays and searches the move; when its budget runs out,
    ``restore()`` puts the position back. An enclosing budget that runs out is
    raised on.
    """
    pending, budget = moves, budgets[0]
    while pending:
        later: list[int] = []
        for card in pending:
            outer = search.node_limit
            if budget:
                search.node_limit = min(outer, search.nodes + budget)
            try:
                result = attempt(card)
            except OverBudget:
                search.node_limit = outer
                restore()
                if search.nodes > outer:
                    raise
                later.append(card)
                continue
            search.node_limit = outer
            yield card, result
        pending = later
        budget = budget * 8 if 0 < budget < budgets[1] else 0


@dataclass(frozen=True)
class ClaimResult:
    """The verdict on a claim.

    ``guaranteed`` is the most the claimant can make sure of from the position
    (None when time ran out before it was exact); ``holds`` is
    ``guaranteed >= min_score`` (None when no ``min_score`` was given or time ran
    out first); ``line`` is a defeating line of card indices (None for a Trix
    pass) when the claim fails; ``decided`` says whether ``holds`` was settled in
    time (or, without ``min_score``, whether ``guaranteed`` was).
    """

    holds: bool | None
    guaranteed: int | None
    line: list[int | None] = field(default_factory=list)
    decided: bool = True
    nodes: int = 0

    @property
    def exact_known(self) -> bool:
        """Whether ``guaranteed`` is the exact value (False: still unknown)."""
        return self.guaranteed is not None


class Search(Protocol):
    """What :func:`adjudicate` needs of a search."""

    nodes: int
    deadline: float
    """The ``time.monotonic()`` value at which :meth:`value` raises :class:`SearchTimeout`."""

    def bounds(self) -> tuple[int, int]:
        """Cheap proven bounds (low, high) on the root's value."""

    def value(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value of the root; may raise :class:`SearchTimeout`."""

    def defeating_line(
        self, target: int, deadline: float, exact: int | None = None
    ) -> list[int | None]:
        """Plays to the end of the deal holding the claimant below ``target`` (at ``exact``)."""


def deadline_after(seconds: float | None) -> float:
    """A ``time.monotonic()`` deadline ``seconds`` from now (default :data:`DEFAULT_TIME_LIMIT`)."""
    return time.monotonic() + (DEFAULT_TIME_LIMIT if seconds is None else seconds)


def mtd(search: Search, low: int, high: int, guess: int) -> int:
    """The exact root value by MTD(f): null-window tests that squeeze [low, high] to a point.

    Fail-soft answers jump straight to the next possible score, so scores on
    a coarse grid (multiples of 5, 15, 25…) cost few tests.

    >>> class Toy:
    ...     nodes = 0
    ...     def value(self, alpha, beta): return 30 if beta <= 30 else 15
    >>> mtd(Toy(), -100, 100, 0)  # type: ignore[arg-type]
    30
    """
    g = min(max(guess, low), high)
    while low < high:
        beta = g + 1 if g == low else g
        g = search.value(beta - 1, beta)
        if g < beta:
            high = g
        else:
            low = g
    return low


def adjudicate(
    search: Search,
    min_score: int | None,
    verdict_first: bool = True,
    exact_seconds: float | None = None,
) -> ClaimResult:
    """Decide a claim (null window at ``min_score``), then its exact value, then a defeating line.

    A timeout after the claim is decided still gives a ruling
    (``guaranteed`` None); one before gives ``decided=False``. Without
    ``verdict_first`` the exact value is searched for first and decides.
    ``exact_seconds``: once the claim is decided, the exact value is sought
    for at most that long (and never past the deadline), so that the ruling
    comes as soon as it is known; None: until the deadline.
    """
    low, high = search.bounds()
    holds: bool | None = None
    guaranteed: int | None = None
    if not verdict_first and min_score is not None:
        return _exact_first(search, min_score, low, high)
    try:
        if min_score is not None:
            g = search.value(min_score - 1, min_score)
            holds = g >= min_score
            low, high = (g, high) if holds else (low, g)
            if exact_seconds is not None:
                search.deadline = min(search.deadline, time.monotonic() + exact_seconds)
        guaranteed = mtd(search, low, high, low if holds else high)
    except SearchTimeout:
        if holds is None:
            return ClaimResult(None, None, [], False, search.nodes)
    line: list[int | None] = []
    if holds is False and min_score is not None:
        line = search.defeating_line(min_score, _line_deadline(), guaranteed)
    return ClaimResult(holds, guaranteed, line, True, search.nodes)


def _exact_first(search: Search, min_score: int, low: int, high: int) -> ClaimResult:
    """:func:`adjudicate` the slow way: the exact value first, the verdict from it."""
    try:
        guaranteed = mtd(search, low, high, high)
    except SearchTimeout:
        return ClaimResult(None, None, [], False, search.nodes)
    if guaranteed >= min_score:
        return ClaimResult(True, guaranteed, [], True, search.nodes)
    line = search.defeating_line(min_score, _line_deadline(), guaranteed)
    return ClaimResult(False, guaranteed, line, True, search.nodes)


def _line_deadline() -> float:
    """Walking out a line re-uses the proof's table, so it is mostly quick: it gets a grace of
    its own from the end of the value's search, not from the deadline, because the ruling
    waits for it (where it is slow it is slow throughout: on the benchmark's whole deals 22,
    23 and 36 it walked no card in 12–15 s, so a longer wait bought nothing)."""
    return time.monotonic() + LINE_GRACE
