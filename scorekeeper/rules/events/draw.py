"""The seat draw of a club night: tables of four, round after round.

A round is drawn from the players present, the rounds already played and a
seed, so the same inputs always give the same tables (the director prints
the seed with the round). The night's :class:`DrawMethod` says how:

- **avoid repeats** (the default): the tables are drawn by lot, keeping apart
  players who already shared a table. Who sits out and the tables are chosen
  together (:mod:`~scorekeeper.rules.events.grouping`): when a player must sit
  out among several equally entitled, the one whose seat would repeat a
  tablemate sits out, so that the round adds as few repeats as possible (the
  fewest there are, up to 16 players at tables, within a search budget that only
  dense late rounds reach);
- **swiss**: from round 2, tables of consecutive places in the standings (the
  first four together, and so on), a player swapped with the next table where
  that avoids a repeat;
- **rotation**: a schedule fixed in advance for 8, 12 or 16 players
  (:mod:`~scorekeeper.rules.events.rotations`), where every pair meets as evenly
  as the count allows; with another count present, the round avoids repeats.

Whatever the method, every present player is seated once or sits out when the
players are not a multiple of four; sit-outs go to those who have sat out least
(a round a player missed counts as one), so nobody sits out twice before
everyone has once. In a partnership event partners sit opposite each other
(seats 0 and 2, 1 and 3), and a repeated partnership weighs more than any
number of repeated tablemates.

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

import enum
import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from scorekeeper.rules.errors import IllegalError, MalformedError, RulesError
from scorekeeper.rules.events import rotations
from scorekeeper.rules.events.grouping import (
    TABLE_SIZE,
    Bench,
    Meetings,
    pairing_cost,
    pairings,
    split_pool,
    table_cost,
)

Four = tuple[str, str, str, str]
SWISS_PASSES = 4


class DrawMethod(enum.Enum):
    """How a night's rounds are drawn."""

    AVOID_REPEATS = "avoid_repeats"
    """By lot, keeping apart players who already shared a table (the default)."""
    SWISS = "swiss"
    """From round 2, players of neighbouring places in the standings at one table."""
    ROTATION = "rotation"
    """A schedule fixed in advance for 8, 12 or 16 players."""


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


def round_seed(seed: int, number: int) -> str:
    """The seed a round is drawn with: the event's seed and the round's number.

    >>> round_seed(42, 3)
    '42-3'
    """
    return f"{seed}-{number}"


def draw_round(
    present: Sequence[str],
    history: Sequence[Round],
    seed: int,
    *,
    partnership: bool = False,
    method: DrawMethod = DrawMethod.AVOID_REPEATS,
    standings: Sequence[str] = (),
) -> Round:
    """The next round for the players ``present``, after the rounds of ``history``.

    ``standings`` (the players from first to last) orders the tables of a Swiss draw.
    """
    check_present(present)
    number = len(history) + 1
    rng = random.Random(round_seed(seed, number))
    meetings = Meetings.of(history)
    out: list[str] = []
    if method is DrawMethod.ROTATION and rotations.schedule(len(present)):
        groups = rotations.rotation_round(present, seed, number)
    elif method is DrawMethod.SWISS and history:
        groups, out = swiss_tables(present, meetings, standings, partnership)
    else:
        groups, out = seat_pool(present, meetings, rng, partnership)
    tables = tuple(
        Table(i + 1, seat_order(group, meetings, rng, partnership))
        for i, group in enumerate(groups)
    )
    return Round(number, round_seed(seed, number), tables, tuple(out))


def sit_out_rule(present: Sequence[str], meetings: Meetings) -> tuple[list[str], Bench]:
    """Who must sit out (sat out fewer times than anyone else who could), and the bench
    still to fill from the players equally entitled to sit out.

    >>> forced, bench = sit_out_rule(list("ABCDEF"), Meetings(sat_out={"A": 1, "B": 1}))
    >>> forced, bench.size, sorted(bench.eligible)
    ([], 2, ['C', 'D', 'E', 'F'])
    """
    count = len(present) % TABLE_SIZE
    if not count:
        return [], Bench()
    times = {name: meetings.sat_out.get(name, 0) for name in present}
    line = sorted(times.values())[count - 1]
    forced = [name for name in present if times[name] < line]
    tied = frozenset(name for name in present if times[name] == line)
    return forced, Bench(count - len(forced), tied)


def seat_pool(
    present: Sequence[str], meetings: Meetings, rng: random.Random, partnership: bool
) -> tuple[list[list[str]], list[str]]:
    """The tables and sit-outs of an avoid-repeats draw, chosen together."""
    forced, bench = sit_out_rule(present, meetings)
    pool = [name for name in present if name not in set(forced)]
    split = split_pool(pool, bench, meetings, rng, partnership)
    benched = set(forced) | set(split.bench)
    return split.groups, [name for name in present if name in benched]


def swiss_tables(
    present: Sequence[str], meetings: Meetings, standings: Sequence[str], partnership: bool
) -> tuple[list[list[str]], list[str]]:
    """Tables of consecutive places; the sit-outs, among the equally entitled, are the
    lowest placed (as a Swiss tournament gives its bye)."""
    place = {name: i for i, name in enumerate(standings)}
    ranked = sorted(present, key=lambda name: place.get(name, len(place)))
    forced, bench = sit_out_rule(present, meetings)
    last_first = [name for name in reversed(ranked) if name in bench.eligible]
    out = set(forced) | set(last_first[: bench.size])
    seated = [name for name in ranked if name not in out]
    groups = [seated[i : i + TABLE_SIZE] for i in range(0, len(seated), TABLE_SIZE)]
    avoid_repeats_nearby(groups, meetings, partnership, place)
    return groups, [name for name in present if name in out]


def avoid_repeats_nearby(
    groups: list[list[str]], meetings: Meetings, partnership: bool, place: dict[str, int]
) -> None:
    """Swap a player with one of the next table while that lowers the two tables'
    repeats, the swap of the closest places first (so the tables stay near the standings)."""
    for _ in range(SWISS_PASSES):
        improved = False
        for i in range(len(groups) - 1):
            improved |= _best_neighbour_swap(groups, i, meetings, partnership, place)
        if not improved:
            return


def _best_neighbour_swap(
    groups: list[list[str]],
    i: int,
    meetings: Meetings,
    partnership: bool,
    place: dict[str, int],
) -> bool:
    upper, lower = groups[i], groups[i + 1]
    now = table_cost(upper, meetings, partnership) + table_cost(lower, meetings, partnership)
    best: tuple[int, int, list[str], list[str]] | None = None
    for a, b in itertools.product(range(TABLE_SIZE), range(TABLE_SIZE)):
        up, low = list(upper), list(lower)
        up[a], low[b] = low[b], up[a]
        cost = table_cost(up, meetings, partnership) + table_cost(low, meetings, partnership)
        gap = abs(place.get(upper[a], 0) - place.get(lower[b], 0))
        if cost < now and (best is None or (cost, gap) < (best[0], best[1])):
            best = (cost, gap, up, low)
    if best is None:
        return False
    groups[i], groups[i + 1] = best[2], best[3]
    return True


def check_present(present: Sequence[str]) -> None:
    """At least four players, each named once."""
    if len(present) < TABLE_SIZE:
        raise IllegalError.one(
            "event_too_few_players",
            field="players",
            count=len(present),
        )
    seen: set[str] = set()
    for name in present:
        if name.casefold() in seen:
            raise MalformedError.one(
                "event_player_twice",
                field="players",
                player=name,
            )
        seen.add(name.casefold())


# --- seats -----------------------------------------------------------------------------------


def seat_order(
    group: Sequence[str], meetings: Meetings, rng: random.Random, partnership: bool
) -> Four:
    """The table's seats: drawn by lot; partners opposite each other in a partnership event."""
    if not partnership:
        seats = list(group)
        rng.shuffle(seats)
        return (seats[0], seats[1], seats[2], seats[3])
    pairing = min(pairings(group), key=lambda p: pairing_cost(p, meetings))
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
    groups, out = (
        seat_pool(pool, meetings, rng, partnership) if len(pool) >= TABLE_SIZE else ([], pool)
    )
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
