"""Splitting a round's players into tables of four and a bench, with the fewest repeats.

The search behind :func:`scorekeeper.rules.events.draw.draw_round`. A split seats
every player of the pool at a table of four, but for ``bench.size`` of them, who
sit out; they must come from ``bench.eligible`` (the players equally entitled to
sit out: the fairness of who sits out is decided before, by the draw). The cost
of a split is the tablemates it repeats (plus repeated partnerships, weighted, in
a partnership event); the bench costs nothing, so choosing who sits out is part
of the search: a repeat is avoided by benching one of its players when the
fairness allows it.

- Up to :data:`EXACT_LIMIT` players at tables, a branch and bound over every split
  (the lowest free player sits out or takes one of his tables with three players
  after him, the cheapest first, so each split is met once) finds the cheapest; it
  starts from the heuristic's split and stops as soon as a split costs no more than
  the pool's lower bound (no repeat, on a fresh night). A budget of states
  (:data:`NODE_BUDGET`) keeps a round fast on dense nights (19 players from about
  round 15), which then take the cheapest split found within it.
- Above, a greedy fill improved by swaps between tables, and between a table and
  the bench.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol


class PlayedTable(Protocol):
    """A table of a past round, as :class:`Meetings` reads it (a draw's ``Table``)."""

    @property
    def seats(self) -> tuple[str, ...]: ...

    def partners(self) -> tuple[tuple[str, str], tuple[str, str]]: ...


class PlayedRound(Protocol):
    """A past round, as :class:`Meetings` reads it (a draw's ``Round``)."""

    @property
    def tables(self) -> Sequence[PlayedTable]: ...

    @property
    def seated(self) -> tuple[str, ...]: ...

    @property
    def sitting_out(self) -> tuple[str, ...]: ...


TABLE_SIZE = 4
EXACT_LIMIT = 16
"""Players at tables up to which the cheapest split is searched for (and found, within
:data:`NODE_BUDGET`)."""
NODE_BUDGET = 30_000
"""States the exact search may visit: past it, the cheapest split found so far is taken
(a round stays well under a second). Nights of up to 16 players stay far below it, 25
rounds included (at most about 3,200); 19 players (three sit out) reach it in a round
or two of 25, when every pair has met and many splits cost nearly the same."""
PARTNER_WEIGHT = 1000
"""A repeated partnership outweighs any number of repeated tablemates."""
SWAP_PASSES = 8
ATTEMPT_BUDGET = 400
"""Players times attempts: small pools try many fills, large ones few."""
SCAN_LIMIT = 64
"""Candidates looked at for a seat before the cheapest so far is taken."""


@dataclass
class Meetings:
    """Who has shared a table (and partnered) with whom, counted over past rounds."""

    tablemates: dict[str, dict[str, int]] = field(default_factory=dict)
    partners: dict[str, dict[str, int]] = field(default_factory=dict)
    sat_out: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, history: Sequence[PlayedRound]) -> Meetings:
        """The counts of ``history``; a round a player missed counts as a sit-out."""
        meetings = cls()
        everyone = {name for r in history for name in (*r.seated, *r.sitting_out)}
        for played in history:
            seated = set(played.seated)
            for name in everyone - seated:
                meetings.sat_out[name] = meetings.sat_out.get(name, 0) + 1
            for table in played.tables:
                for a, b in itertools.combinations(table.seats, 2):
                    _count(meetings.tablemates, a, b)
                for a, b in table.partners():
                    _count(meetings.partners, a, b)
        return meetings

    def met(self, a: str, b: str) -> int:
        return self.tablemates.get(a, {}).get(b, 0)

    def partnered(self, a: str, b: str) -> int:
        return self.partners.get(a, {}).get(b, 0)


def _count(counts: dict[str, dict[str, int]], a: str, b: str) -> None:
    row_a, row_b = counts.setdefault(a, {}), counts.setdefault(b, {})
    row_a[b] = row_a.get(b, 0) + 1
    row_b[a] = row_b.get(a, 0) + 1


@dataclass(frozen=True)
class Bench:
    """Who may sit out of the pool, and how many must."""

    size: int = 0
    eligible: frozenset[str] = frozenset()


@dataclass
class Split:
    """Tables of four and the bench."""

    groups: list[list[str]]
    bench: list[str]


# --- costs -----------------------------------------------------------------------------------


def table_cost(group: Sequence[str], meetings: Meetings, partnership: bool) -> int:
    """Repeated tablemates the group would add, plus repeated partnerships (weighted)."""
    cost = sum(meetings.met(a, b) for a, b in itertools.combinations(group, 2))
    if partnership and len(group) == TABLE_SIZE:
        cost += PARTNER_WEIGHT * min(pairing_cost(p, meetings) for p in pairings(group))
    return cost


def pairings(group: Sequence[str]) -> Iterator[tuple[tuple[str, str], tuple[str, str]]]:
    """The three ways to split four players into two partnerships."""
    a, b, c, d = group
    yield (a, b), (c, d)
    yield (a, c), (b, d)
    yield (a, d), (b, c)


def pairing_cost(pairing: tuple[tuple[str, str], tuple[str, str]], meetings: Meetings) -> int:
    return sum(meetings.partnered(x, y) for x, y in pairing)


def partition_cost(groups: Iterable[Sequence[str]], meetings: Meetings, partnership: bool) -> int:
    return sum(table_cost(group, meetings, partnership) for group in groups)


def partitions(players: Sequence[str]) -> Iterator[list[list[str]]]:
    """Every way to split the players (a multiple of four) into unordered tables of four."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, TABLE_SIZE - 1):
        remaining = [name for name in rest if name not in others]
        for tail in partitions(remaining):
            yield [[first, *others], *tail]


# --- the split -------------------------------------------------------------------------------


def split_pool(
    pool: Sequence[str], bench: Bench, meetings: Meetings, rng: random.Random, partnership: bool
) -> Split:
    """The pool at tables and on the bench, with as few repeats as this search can find
    (the fewest there are, up to :data:`EXACT_LIMIT` players at tables)."""
    order = list(pool)
    rng.shuffle(order)
    exact = len(order) - bench.size <= EXACT_LIMIT
    # A small pool's fill only starts the exact search off: one attempt is enough.
    attempts = 1 if exact else attempts_for(len(order))
    best = heuristic_split(order, bench, meetings, rng, partnership, attempts)
    if exact:
        cost = partition_cost(best.groups, meetings, partnership)
        if cost > 0:
            best = ExactSearch(order, bench, meetings, partnership).run(best, cost)
    return best


def heuristic_split(
    order: list[str],
    bench: Bench,
    meetings: Meetings,
    rng: random.Random,
    partnership: bool,
    attempts: int,
) -> Split:
    """The best of a few greedy fills, each improved by swaps (the bench included)."""
    best: Split | None = None
    best_cost = -1
    order = list(order)
    for _attempt in range(attempts):
        benched = [name for name in order if name in bench.eligible][: bench.size]
        seated = [name for name in order if name not in set(benched)]
        split = Split(greedy_fill(seated, meetings), benched)
        improve_by_swaps(split, bench, meetings, partnership, rng)
        cost = partition_cost(split.groups, meetings, partnership)
        if best is None or cost < best_cost:
            best, best_cost = split, cost
        if cost == 0:
            break
        rng.shuffle(order)
    assert best is not None  # at least one attempt
    return best


def attempts_for(players: int) -> int:
    """How many greedy fills to try: the best is kept (1 for 800 players, 4 for 100, 12 for 32)."""
    return max(1, min(12, ATTEMPT_BUDGET // max(players, 1)))


def greedy_fill(order: list[str], meetings: Meetings) -> list[list[str]]:
    """Fill tables one by one: each seat goes to the first candidate who adds no repeat."""
    pool = list(order)
    groups: list[list[str]] = []
    while pool:
        group = [pool.pop()]
        while len(group) < TABLE_SIZE:
            group.append(pool.pop(_cheapest_index(pool, group, meetings)))
        groups.append(group)
    return groups


def _cheapest_index(pool: Sequence[str], group: Sequence[str], meetings: Meetings) -> int:
    best, best_cost = len(pool) - 1, -1
    for index in range(len(pool) - 1, max(-1, len(pool) - 1 - SCAN_LIMIT), -1):
        seen = meetings.tablemates.get(pool[index])
        cost = 0 if not seen else sum(seen.get(name, 0) for name in group)
        if cost == 0:
            return index
        if best_cost < 0 or cost < best_cost:
            best, best_cost = index, cost
    return best


def improve_by_swaps(
    split: Split, bench: Bench, meetings: Meetings, partnership: bool, rng: random.Random
) -> None:
    """Swap players between tables, or a table and the bench, while a swap lowers the cost
    of a costly table."""
    groups = split.groups
    for _ in range(SWAP_PASSES):
        costs = [table_cost(g, meetings, partnership) for g in groups]
        costly = [i for i, cost in enumerate(costs) if cost > 0]
        if not costly:
            return
        improved = False
        for i in costly:
            improved |= _improve_table(groups, costs, i, meetings, partnership, rng) or (
                _bench_swap(split, bench, costs, i, meetings, partnership)
            )
        if not improved:
            return


def _improve_table(
    groups: list[list[str]],
    costs: list[int],
    i: int,
    meetings: Meetings,
    partnership: bool,
    rng: random.Random,
) -> bool:
    """The first swap of one of table ``i``'s players that lowers the total cost."""
    others = list(range(len(groups)))
    rng.shuffle(others)
    for seat in range(TABLE_SIZE):
        for j in others:
            if j == i:
                continue
            for other_seat in range(TABLE_SIZE):
                a, b = list(groups[i]), list(groups[j])
                a[seat], b[other_seat] = b[other_seat], a[seat]
                cost_a = table_cost(a, meetings, partnership)
                cost_b = table_cost(b, meetings, partnership)
                if cost_a + cost_b < costs[i] + costs[j]:
                    groups[i], groups[j], costs[i], costs[j] = a, b, cost_a, cost_b
                    return True
    return False


def _bench_swap(
    split: Split, bench: Bench, costs: list[int], i: int, meetings: Meetings, partnership: bool
) -> bool:
    """The first swap of one of table ``i``'s players as entitled to sit out as a benched
    one that lowers the table's cost (the bench costs nothing)."""
    group = split.groups[i]
    for seat, name in enumerate(group):
        if name not in bench.eligible:
            continue
        for place, benched in enumerate(split.bench):
            changed = [*group[:seat], benched, *group[seat + 1 :]]
            cost = table_cost(changed, meetings, partnership)
            if cost < costs[i]:
                split.groups[i], costs[i] = changed, cost
                split.bench[place] = name
                return True
    return False


# --- the exact search ------------------------------------------------------------------------


class ExactSearch:
    """Branch and bound over every split of a small pool (players by index, bit sets).

    A state is the set of players still free (how many of them sit out follows from its
    size). Every table of four the pool can seat is costed once, up front, and listed
    under its players from the cheapest: the lowest free player's tables are tried in
    that order, and the first too dear beside the best split found ends his list. Once a
    state has been searched through, the cost it needed at least is kept (``floor``), so
    that reaching it again by another way costs one lookup: the search is a dynamic
    programme over the states it could not prune. A split as cheap as the whole pool's
    lower bound ends the search.
    """

    def __init__(
        self, order: Sequence[str], bench: Bench, meetings: Meetings, partnership: bool
    ) -> None:
        # The most met first: their tables are the costly ones, found early, pruned early.
        self.names = sorted(order, key=lambda n: -sum(meetings.tablemates.get(n, {}).values()))
        self.partnership = partnership
        size = len(self.names)
        met = [[meetings.met(a, b) for b in self.names] for a in self.names]
        partners = [[meetings.partnered(a, b) for b in self.names] for a in self.names]
        self.nearest = [sorted((met[i][j], j) for j in range(size) if j != i) for i in range(size)]
        self.nearest_partner = [
            sorted((partners[i][j], j) for j in range(size) if j != i) for i in range(size)
        ]
        self.eligible = sum(1 << i for i, n in enumerate(self.names) if n in bench.eligible)
        self.tables = costed_tables(met, partners if partnership else None)
        # The tables the search seats a player at: the lowest free, with players after him.
        self.tables_from = [
            [(cost, mask) for cost, mask in self.tables[i] if mask & -mask == 1 << i]
            for i in range(size)
        ]
        self.floor: dict[int, int] = {}
        self.by_tables: set[int] = set()
        """The states whose floor has had :meth:`table_bound` too."""
        self.best_cost = 0
        self.best: tuple[list[int], list[int]] = ([], [])
        self.target = 0
        """The whole pool's lower bound: a split that costs no more ends the search."""
        self.nodes = 0

    def run(self, start: Split, cost: int) -> Split:
        """The cheapest split, or ``start`` when none is cheaper."""
        self.best_cost = cost
        everyone = (1 << len(self.names)) - 1
        self.target = max(self.pair_bound(everyone), self.table_bound(everyone))
        self._search(everyone, 0, [], [])
        if not self.best[0]:
            return start
        groups, benched = self.best
        return Split(
            [[name for i, name in enumerate(self.names) if mask >> i & 1] for mask in groups],
            [self.names[i] for i in benched],
        )

    def pair_bound(self, free: int) -> int:
        """What seating ``free`` costs at least: a seated player meets three of the others
        (and partners one, in a partnership event), each pair counted by both players;
        those who may sit out, the costliest first, count nothing."""
        shares: list[int] = []
        benchable: list[int] = []
        bits = free
        while bits:
            low = bits & -bits
            bits ^= low
            i = low.bit_length() - 1
            share = _cheapest(self.nearest[i], free, TABLE_SIZE - 1)
            if self.partnership:
                share += PARTNER_WEIGHT * _cheapest(self.nearest_partner[i], free, 1)
            (benchable if self.eligible & low else shares).append(share)
        return (sum(shares) + _all_but_dearest(benchable, free) + 1) // 2

    def table_bound(self, free: int) -> int:
        """Another such count, dearer to make and often higher: a seated player takes a
        quarter of his cheapest table among ``free`` (which holds the costs between his
        tablemates too)."""
        shares: list[int] = []
        benchable: list[int] = []
        bits = free
        while bits:
            low = bits & -bits
            bits ^= low
            share = 0
            for cost, mask in self.tables[low.bit_length() - 1]:
                if mask & free == mask:
                    share = cost
                    break
            (benchable if self.eligible & low else shares).append(share)
        total = sum(shares) + _all_but_dearest(benchable, free)
        return (total + TABLE_SIZE - 1) // TABLE_SIZE

    def _pruned(self, free: int, cost: int) -> bool:
        """Whether ``free`` costs at least the best split found, seen from ``cost``: by its
        floor, the cheap bound first, the dearer one only when the cheap one did not
        prune."""
        floor = self.floor.get(free)
        if floor is None:
            floor = self.floor[free] = self.pair_bound(free)
        if cost + floor >= self.best_cost:
            return True
        if free in self.by_tables:
            return False
        self.by_tables.add(free)
        floor = self.floor[free] = max(floor, self.table_bound(free))
        return cost + floor >= self.best_cost

    def _search(self, free: int, cost: int, groups: list[int], bench: list[int]) -> None:
        if not free:
            if cost < self.best_cost:
                self.best_cost, self.best = cost, (list(groups), list(bench))
            return
        if self.best_cost <= self.target:
            return  # as cheap as any split can be
        self.nodes += 1
        if self.nodes > NODE_BUDGET or self._pruned(free, cost):
            return
        left = free.bit_count() % TABLE_SIZE
        low = free & -free
        x = low.bit_length() - 1
        if left and self.eligible & low:
            bench.append(x)
            self._search(free ^ low, cost, groups, bench)
            bench.pop()
        if free.bit_count() >= TABLE_SIZE + left:  # room for his table and the bench
            for added, mask in self.tables_from[x]:
                total = cost + added
                if total >= self.best_cost:
                    break  # the rest of his tables cost as much or more
                if mask & free == mask:
                    groups.append(mask)
                    self._search(free ^ mask, total, groups, bench)
                    groups.pop()
        if self.nodes <= NODE_BUDGET:  # searched through: nothing cheaper from here
            self.floor[free] = max(self.floor[free], self.best_cost - cost)


def costed_tables(
    met: Sequence[Sequence[int]], partners: Sequence[Sequence[int]] | None
) -> list[list[tuple[int, int]]]:
    """Every table of four of the players (by index, as a bit set) with its cost (with
    its partnerships when ``partners`` is given, as :func:`table_cost`), listed under
    each of its players from the cheapest."""
    size = len(met)
    tables: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for four in itertools.combinations(range(size), TABLE_SIZE):
        a, b, c, d = four
        cost = met[a][b] + met[a][c] + met[a][d] + met[b][c] + met[b][d] + met[c][d]
        if partners is not None:
            ab, ac, ad = partners[a][b], partners[a][c], partners[a][d]
            cd, bd, bc = partners[c][d], partners[b][d], partners[b][c]
            cost += PARTNER_WEIGHT * min(ab + cd, ac + bd, ad + bc)
        mask = 1 << a | 1 << b | 1 << c | 1 << d
        for i in four:
            tables[i].append((cost, mask))
    for listed in tables:
        listed.sort()
    return tables


def _all_but_dearest(shares: list[int], free: int) -> int:
    """The sum of the shares of those who may sit out, without the largest ones: as many
    as must sit out of ``free``."""
    count = free.bit_count() % TABLE_SIZE
    if not count:
        return sum(shares)
    return sum(sorted(shares)[: max(0, len(shares) - count)])


def _cheapest(nearest: Sequence[tuple[int, int]], free: int, count: int) -> int:
    """The sum of the ``count`` cheapest costs to players in ``free`` (``nearest`` sorted)."""
    total, found = 0, 0
    for cost, j in nearest:
        if free >> j & 1:
            total += cost
            found += 1
            if found == count:
                break
    return total
