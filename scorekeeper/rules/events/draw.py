"""The seat draw of a club night: tables of four, round after round.

A round is drawn from the players present, the rounds already played and a
seed, so the same inputs always give the same tables (the director prints
the seed with the round). The draw

- seats every present player once, or lets him sit out when the players are
  not a multiple of four; sit-outs go to those who have sat out least (a round
  a player missed counts as one), so nobody sits out twice before everyone
  has once;
- keeps apart players who already shared a table, as far as it can: it adds
  as few repeated tablemates as possible. Up to 12 seated players every
  partition into tables is tried, so the round is the best there is; above
  that a greedy fill is improved by swaps between tables;
- in a partnership event, seats partners opposite each other (seats 0 and 2,
  1 and 3) and avoids partnering two players twice before anything else.

>>> players = ["Rana", "Sami", "Omar", "Lina", "Hadi", "Maya", "Nour", "Ziad", "Dana"]
>>> first = draw_round(players, [], seed=42)
>>> len(first.tables), len(first.sitting_out), first.seed
(2, 1, '42-1')
>>> second = draw_round(players, [first], seed=42)
>>> second.sitting_out[0] != first.sitting_out[0]
True
>>> draw_round(players, [], seed=42) == first
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from scorekeeper.rules.errors import IllegalError, MalformedError, RulesError

TABLE_SIZE = 4
EXACT_LIMIT = 12
"""Seated players up to which every partition into tables is tried."""
PARTNER_WEIGHT = 1000
"""A repeated partnership outweighs any number of repeated tablemates."""
SWAP_PASSES = 8

Four = tuple[str, str, str, str]


@dataclass(frozen=True)
class Table:
    """One table of a round: its number (from 1) and its players in seat order (R1)."""

    number: int
    seats: Four

    def partners(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """The two partnerships, seats 0 and 2 against 1 and 3 (R9.5)."""
        return (self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])


@dataclass(frozen=True)
class Round:
    """A drawn round: its number (from 1), the seed it was drawn with, tables, sit-outs."""

    number: int
    seed: str
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...]

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(name for table in self.tables for name in table.seats)


@dataclass
class Meetings:
    """Who has shared a table (and partnered) with whom, counted over past rounds."""

    tablemates: dict[str, dict[str, int]] = field(default_factory=dict)
    partners: dict[str, dict[str, int]] = field(default_factory=dict)
    sat_out: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, history: Sequence[Round]) -> Meetings:
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


def round_seed(seed: int, number: int) -> str:
    """The seed a round is drawn with: the event's seed and the round's number.

    >>> round_seed(42, 3)
    '42-3'
    """
    return f"{seed}-{number}"


def draw_round(
    present: Sequence[str], history: Sequence[Round], seed: int, *, partnership: bool = False
) -> Round:
    """The next round for the players ``present``, after the rounds of ``history``."""
    check_present(present)
    number = len(history) + 1
    rng = random.Random(round_seed(seed, number))
    meetings = Meetings.of(history)
    out = choose_sit_outs(present, meetings, rng)
    seated = [name for name in present if name not in set(out)]
    groups = group_tables(seated, meetings, rng, partnership)
    tables = tuple(
        Table(i + 1, seat_order(group, meetings, rng, partnership))
        for i, group in enumerate(groups)
    )
    return Round(number, round_seed(seed, number), tables, tuple(out))


def check_present(present: Sequence[str]) -> None:
    """At least four players, each named once."""
    if len(present) < TABLE_SIZE:
        raise IllegalError.one(
            "event_too_few_players",
            f"A round needs at least 4 players present; there are {len(present)}.",
            field="players",
            count=len(present),
        )
    seen: set[str] = set()
    for name in present:
        if name.casefold() in seen:
            raise MalformedError.one(
                "event_player_twice",
                f"{name} is listed twice among the players.",
                field="players",
                player=name,
            )
        seen.add(name.casefold())


def choose_sit_outs(present: Sequence[str], meetings: Meetings, rng: random.Random) -> list[str]:
    """The players sitting out: those who sat out least, drawn by lot among equals."""
    count = len(present) % TABLE_SIZE
    order = list(present)
    rng.shuffle(order)
    order.sort(key=lambda name: meetings.sat_out.get(name, 0))
    return order[:count]


# --- grouping into tables ---------------------------------------------------------------------


def table_cost(group: Sequence[str], meetings: Meetings, partnership: bool) -> int:
    """Repeated tablemates the group would add, plus repeated partnerships (weighted)."""
    cost = sum(meetings.met(a, b) for a, b in itertools.combinations(group, 2))
    if partnership and len(group) == TABLE_SIZE:
        cost += PARTNER_WEIGHT * min(_pairing_cost(p, meetings) for p in _pairings(group))
    return cost


def _pairings(group: Sequence[str]) -> Iterator[tuple[tuple[str, str], tuple[str, str]]]:
    """The three ways to split four players into two partnerships."""
    a, b, c, d = group
    yield (a, b), (c, d)
    yield (a, c), (b, d)
    yield (a, d), (b, c)


def _pairing_cost(pairing: tuple[tuple[str, str], tuple[str, str]], meetings: Meetings) -> int:
    return sum(meetings.partnered(x, y) for x, y in pairing)


def group_tables(
    seated: Sequence[str], meetings: Meetings, rng: random.Random, partnership: bool
) -> list[list[str]]:
    """The seated players in tables of four, with as few repeats as this draw can find."""
    order = list(seated)
    rng.shuffle(order)
    if len(order) <= EXACT_LIMIT:
        return best_partition(order, meetings, partnership)
    best: list[list[str]] = []
    best_cost = -1
    for _attempt in range(attempts_for(len(order))):
        groups = greedy_fill(order, meetings)
        improve_by_swaps(groups, meetings, partnership, rng)
        cost = partition_cost(groups, meetings, partnership)
        if best_cost < 0 or cost < best_cost:
            best, best_cost = groups, cost
        if cost == 0:
            break
        rng.shuffle(order)
    return best


ATTEMPT_BUDGET = 400
"""Seated players times attempts: small events try many fills, large ones few."""


def attempts_for(seated: int) -> int:
    """How many greedy fills to try: the best is kept (1 for 800 players, 4 for 100, 12 for 32)."""
    return max(1, min(12, ATTEMPT_BUDGET // max(seated, 1)))


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


def partition_cost(groups: Iterable[Sequence[str]], meetings: Meetings, partnership: bool) -> int:
    return sum(table_cost(group, meetings, partnership) for group in groups)


def best_partition(
    players: Sequence[str], meetings: Meetings, partnership: bool
) -> list[list[str]]:
    """The cheapest partition, the first found among equals (the players come shuffled)."""
    return min(
        partitions(players), key=lambda groups: partition_cost(groups, meetings, partnership)
    )


SCAN_LIMIT = 64
"""Candidates looked at for a seat before the cheapest so far is taken."""


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
    groups: list[list[str]], meetings: Meetings, partnership: bool, rng: random.Random
) -> None:
    """Swap players between tables while a swap lowers the cost of a costly table."""
    for _ in range(SWAP_PASSES):
        costs = [table_cost(g, meetings, partnership) for g in groups]
        costly = [i for i, cost in enumerate(costs) if cost > 0]
        if not costly:
            return
        improved = False
        for i in costly:
            improved |= _improve_table(groups, costs, i, meetings, partnership, rng)
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


# --- seats -----------------------------------------------------------------------------------


def seat_order(
    group: Sequence[str], meetings: Meetings, rng: random.Random, partnership: bool
) -> Four:
    """The table's seats: drawn by lot; partners opposite each other in a partnership event."""
    if not partnership:
        seats = list(group)
        rng.shuffle(seats)
        return (seats[0], seats[1], seats[2], seats[3])
    pairing = min(_pairings(group), key=lambda p: _pairing_cost(p, meetings))
    (a, c), (b, d) = pairing
    if rng.random() < 0.5:
        a, c = c, a
    if rng.random() < 0.5:
        b, d = d, b
    return (a, b, c, d) if rng.random() < 0.5 else (b, a, d, c)


# --- changes during a round ------------------------------------------------------------------


def not_seated(player: str, number: int) -> RulesError:
    """The refusal for a player who has no seat in round ``number``."""
    return IllegalError.one(
        "event_player_not_seated",
        f"{player} has no seat in round {number}.",
        field="player",
        player=player,
        n=number,
    )


def replace_player(drawn: Round, leaving: str, substitute: str) -> Round:
    """``substitute`` takes the seat of ``leaving`` (he may have been sitting out)."""
    tables = []
    found = False
    for table in drawn.tables:
        if leaving in table.seats:
            found = True
            seats = tuple(substitute if name == leaving else name for name in table.seats)
            table = replace(table, seats=(seats[0], seats[1], seats[2], seats[3]))
        tables.append(table)
    if not found:
        raise not_seated(leaving, drawn.number)
    if substitute in drawn.seated:
        raise IllegalError.one(
            "event_player_seated",
            f"{substitute} already has a seat in round {drawn.number}.",
            field="substitute",
            player=substitute,
            n=drawn.number,
        )
    out = tuple(name for name in drawn.sitting_out if name != substitute)
    return replace(drawn, tables=tuple(tables), sitting_out=out)


def redraw_seed(drawn: Round, times: int) -> str:
    """The seed of the ``times``-th re-draw of a round: its own seed, marked.

    >>> redraw_seed(Round(2, "42-2", (), ()), 1)
    '42-2-r1'
    """
    return f"{drawn.seed}-r{times}"


def redraw_round(
    drawn: Round,
    history: Sequence[Round],
    leaving: str,
    started: Iterable[int],
    seed: str,
    *,
    partnership: bool = False,
) -> Round:
    """Round ``drawn`` drawn again without ``leaving``, for the tables not yet ``started``.

    The tables whose numbers are in ``started`` are kept as they are; the players of the
    others, with those sitting out, are drawn again (``seed``) into the freed table
    numbers. ``leaving`` must sit at a table that has not started.

    >>> first = draw_round(["A", "B", "C", "D", "E", "F", "G", "H", "I"], [], seed=1)
    >>> leaver = first.tables[1].seats[0]
    >>> again = redraw_round(first, [], leaver, [1], "1-1-r1")
    >>> again.tables[0] == first.tables[0], len(again.tables), again.sitting_out
    (True, 2, ())
    """
    kept_numbers = set(started)
    table = next((t for t in drawn.tables if leaving in t.seats), None)
    if table is None:
        raise not_seated(leaving, drawn.number)
    if table.number in kept_numbers:
        raise IllegalError.one(
            "event_table_started",
            f"Table {table.number} has started: {leaving} can be replaced there, but the "
            "table cannot be drawn again.",
            field="player",
            player=leaving,
            table=table.number,
        )
    kept = [t for t in drawn.tables if t.number in kept_numbers]
    freed = sorted(t.number for t in drawn.tables if t.number not in kept_numbers)
    pool = [n for t in drawn.tables if t.number in freed for n in t.seats if n != leaving]
    pool += [name for name in drawn.sitting_out if name != leaving]
    rng = random.Random(seed)
    meetings = Meetings.of(history)
    out = choose_sit_outs(pool, meetings, rng)
    seated = [name for name in pool if name not in set(out)]
    groups = group_tables(seated, meetings, rng, partnership) if seated else []
    new = [
        Table(number, seat_order(group, meetings, rng, partnership))
        for number, group in zip(freed, groups, strict=False)
    ]
    tables = tuple(sorted([*kept, *new], key=lambda t: t.number))
    return Round(drawn.number, drawn.seed, tables, tuple(out))


def repeated_tablemates(rounds: Sequence[Round]) -> int:
    """How many times two players met again at a table (each meeting past the first).

    >>> t = Table(1, ("a", "b", "c", "d"))
    >>> repeated_tablemates([Round(1, "s", (t,), ()), Round(2, "s", (t,), ())])
    6
    """
    counts: dict[tuple[str, str], int] = {}
    for played in rounds:
        for table in played.tables:
            for a, b in itertools.combinations(sorted(table.seats), 2):
                counts[a, b] = counts.get((a, b), 0) + 1
    return sum(count - 1 for count in counts.values())


def repeats_lower_bound(rounds: Sequence[Round]) -> int:
    """Repeated tablemates no draw could avoid: a player seated ``k`` times meets ``3k``
    tablemates among the ``n - 1`` others.

    >>> t = Table(1, ("a", "b", "c", "d"))
    >>> repeats_lower_bound([Round(1, "s", (t,), ()), Round(2, "s", (t,), ())])
    6
    """
    seated: dict[str, int] = {}
    everyone: set[str] = set()
    for played in rounds:
        everyone.update(played.seated, played.sitting_out)
        for name in played.seated:
            seated[name] = seated.get(name, 0) + 1
    others = len(everyone) - 1
    excess = sum(max(0, 3 * k - others) for k in seated.values())
    return (excess + 1) // 2
