"""The standings of a club night, from the results of its tables.

Two ways to score, the director's choice:

- ``totals``: each player adds up his game totals. Tables are comparable only
  because every game adds up to 0; a rule set that is not zero-sum is flagged
  (:attr:`Standings.comparable`).
- ``places``: match points by place at the table, e.g. 3/2/1/0; players tied at
  a table share the points of the places they cover (two tied first: 2.5 each).

In a partnership event both partners score their team's total (and so share
their team's places). Players tied on points are ordered by rules anyone can
check by hand (:data:`TIE_RULES`):

1. ``head_to_head``: a mini-league of the tied players. For each pair of them at
   each table they shared, +1 to the one placed higher there, -1 to the one placed
   lower, 0 when level; summed per player.
2. ``score``: the total score, the sum of his game totals.
3. ``trix_firsts``: most Trix firsts.
4. ``shared``: still level on all three, they share the place.

Each line says which rule separated it from the line above in its tied group
(:attr:`Standing.tie_break`), and :func:`tie_groups` sums it up per group.

A table counts once its game has a deal (a table just drawn would share out the places
before a card is played). Until its game finishes, its result so far counts as a
finished table's would, and each line says how much of its points is still open
(:attr:`Standing.provisional`), so that the points from finished tables can be told.

A :class:`Tally` is kept up to date one table at a time: :meth:`Tally.apply`
replaces a table's previous result by its new one in time proportional to the
table, never to the event.

>>> tally = Tally(Scoring.PLACES, (3, 2, 1, 0))
>>> names = ("Rana", "Sami", "Omar", "Lina")
>>> tally.apply(TableResult(1, 1, names, (120, -40, -40, -40), (1, 0, 0, 0)))
>>> [(s.player, str(s.points), s.rank) for s in tally.standings()]
[('Rana', '3', 1), ('Lina', '1', 2), ('Omar', '1', 2), ('Sami', '1', 2)]
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.wire import json_list

PLAYERS_AT_TABLE = 4
DEFAULT_PLACES = (3, 2, 1, 0)


class Byes(enum.Enum):
    """What a round sat out (a bye) is worth: a rule of the night."""

    AVERAGE = "average"
    """The average of the player's own tables played, counted again as the night goes on."""
    FIXED = "fixed"
    """A fixed number of points."""
    NONE = "none"
    """Nothing."""


class Ranking(enum.Enum):
    """What ranks the players: their points, or their points per table played."""

    POINTS = "points"
    AVERAGE = "average"


@dataclass(frozen=True)
class ByeRule:
    """A bye's worth for a player with ``own`` points from ``tables`` tables played.

    >>> ByeRule(Byes.AVERAGE).worth(5, 2), ByeRule(Byes.FIXED, 2).worth(5, 2)
    (Fraction(5, 2), 2)
    >>> ByeRule(Byes.AVERAGE).worth(0, 0), ByeRule().worth(9, 3)
    (0, 0)
    """

    kind: Byes = Byes.NONE
    points: int = 0

    def worth(self, own: Points, tables: int) -> Points:
        if self.kind is Byes.FIXED:
            return self.points
        if self.kind is Byes.AVERAGE and tables:
            return whole_if_can(Fraction(own) / tables)
        return 0


class Scoring(enum.Enum):
    """How a table's result becomes a player's points."""

    TOTALS = "totals"
    """The game's total, added up over the rounds (zero-sum rule sets)."""
    PLACES = "places"
    """Match points by place at the table (ties share)."""


@dataclass(frozen=True)
class TableResult:
    """A table's game as the standings see it: players in seat order and their totals.

    ``totals`` are per seat; in a partnership event each seat holds its team's total.
    """

    round: int
    table: int
    players: tuple[str, str, str, str]
    totals: tuple[int, int, int, int]
    trix_firsts: tuple[int, int, int, int] = (0, 0, 0, 0)
    deals: int = 0
    finished: bool = False

    @property
    def key(self) -> tuple[int, int]:
        return self.round, self.table


def check_places(raw: object) -> tuple[int, int, int, int]:
    """Four whole numbers, from first place to fourth, never rising.

    >>> check_places([3, 2, 1, 0])
    (3, 2, 1, 0)
    >>> check_places([1, 2, 3, 4])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.MalformedError: The points by place must be four whole numbers \
from first place to fourth, never rising (such as [3, 2, 1, 0]); not [1, 2, 3, 4].
    >>> check_places(4)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.MalformedError: “places” must be a JSON list, not a number.
    """
    places = json_list(raw, "places")
    numbers = [p for p in places if isinstance(p, int) and not isinstance(p, bool)]
    good = (
        len(places) == PLAYERS_AT_TABLE
        and len(numbers) == PLAYERS_AT_TABLE
        and all(-1000 <= p <= 1000 for p in numbers)
        and all(a >= b for a, b in zip(numbers, numbers[1:], strict=False))
    )
    if not good:
        shown = "[" + ", ".join(str(p) for p in places) + "]"
        raise MalformedError.one(
            "event_places",
            field="places",
            value=shown,
        )
    return (numbers[0], numbers[1], numbers[2], numbers[3])


Points = int | Fraction
"""Standings points: exact, and a plain int whenever whole (Fraction arithmetic is
about twenty times slower, and a club night's standings add up every table)."""


def exact(numerator: int, denominator: int = 1) -> Points:
    """``numerator / denominator`` exactly, as an int when whole.

    >>> exact(6, 2), exact(5, 2)
    (3, Fraction(5, 2))
    """
    whole, rest = divmod(numerator, denominator)
    return whole if rest == 0 else Fraction(numerator, denominator)


def whole_if_can(points: Points) -> Points:
    """``points`` as an int if whole (a sum of halves can be)."""
    if isinstance(points, Fraction) and points.denominator == 1:
        return points.numerator
    return points


def place_points(totals: Sequence[int], places: Sequence[int]) -> tuple[Points, ...]:
    """Each seat's match points: the places it covers, shared among those tied with it.

    >>> [str(p) for p in place_points([50, 50, -40, -60], [3, 2, 1, 0])]
    ['5/2', '5/2', '1', '0']
    >>> [str(p) for p in place_points([0, 0, 0, 0], [3, 2, 1, 0])]
    ['3/2', '3/2', '3/2', '3/2']
    """
    ordered = sorted(totals, reverse=True)
    points = []
    for total in totals:
        first = ordered.index(total)
        tied = ordered.count(total)
        points.append(exact(sum(places[first : first + tied]), tied))
    return tuple(points)


def table_points(
    result: TableResult, scoring: Scoring, places: Sequence[int]
) -> tuple[Points, ...]:
    """What each seat of the table earns towards the standings."""
    if scoring is Scoring.TOTALS:
        return tuple(result.totals)
    return place_points(result.totals, places)


TIE_RULES = ("head_to_head", "score", "trix_firsts", "shared")
"""The rules that order players tied on points, in the order they are asked."""


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    player: str
    points: Points
    rank: int
    trix_firsts: int
    tables: int
    head_to_head: int = 0
    """His mini-league score against the players tied with him on points: +1 for each of
    them he finished above at a shared table, -1 for each he finished below."""
    score: int = 0
    """His total score: the sum of his game totals."""
    tie_break: str | None = None
    """The rule of :data:`TIE_RULES` that put him below the line above, when both are tied
    on points (None for the first of a tied group, and for a player tied with nobody)."""
    byes: int = 0
    """Rounds he sat out while present."""
    bye_points: Points = 0
    """What his byes added to his points (by the night's :class:`ByeRule`)."""
    average: Points = 0
    """His points per table played (byes left out)."""
    provisional: Points = 0
    """The part of his points that is not settled yet: what his tables still playing add
    to them, their result so far and what it moves an average bye (0 once every table of
    his has finished). His points from finished tables are ``points - provisional``."""


@dataclass(frozen=True)
class TieGroup:
    """Players tied on points, in their final order, and the rules that ordered them."""

    points: Points
    players: tuple[str, ...]
    rules: tuple[str, ...]
    """The rules of :data:`TIE_RULES` that separated some of them, in the order asked."""


def tie_groups(lines: Sequence[Standing], by_average: bool = False) -> list[TieGroup]:
    """The groups of two or more players tied on points (on points per table, when the
    night ranks by them), best first.

    >>> lines = [Standing("A", 5, 1, 0, 2), Standing("B", 5, 2, 0, 2, tie_break="score")]
    >>> tie_groups(lines)
    [TieGroup(points=5, players=('A', 'B'), rules=('score',))]
    """

    def value(line: Standing) -> Points:
        return line.average if by_average else line.points

    groups: list[list[Standing]] = []
    for line in lines:
        if groups and value(groups[-1][0]) == value(line):
            groups[-1].append(line)
        else:
            groups.append([line])
    return [
        TieGroup(
            value(group[0]),
            tuple(line.player for line in group),
            tuple(r for r in TIE_RULES if any(line.tie_break == r for line in group)),
        )
        for group in groups
        if len(group) > 1
    ]


@dataclass
class Tally:
    """Points, total scores, Trix firsts and tables per player, kept up to date table by
    table."""

    scoring: Scoring
    places: tuple[int, ...] = DEFAULT_PLACES
    points: dict[str, Points] = field(default_factory=dict)
    trix_firsts: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    """Each player's total score (the sum of his game totals), the second tie-break."""
    bye_rule: ByeRule = field(default_factory=ByeRule)
    ranking: Ranking = Ranking.POINTS
    byes: dict[str, int] = field(default_factory=dict)
    """Rounds each player sat out while present (:meth:`sit_out`)."""
    tables_of: dict[str, set[tuple[int, int]]] = field(default_factory=dict)
    playing_of: dict[str, set[tuple[int, int]]] = field(default_factory=dict)
    """Each player's tables counted before their game has finished (:meth:`provisional`)."""
    results: dict[tuple[int, int], TableResult] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        results: Iterable[TableResult],
        scoring: Scoring,
        places: Sequence[int] = DEFAULT_PLACES,
    ) -> Tally:
        tally = cls(scoring, tuple(places))
        for result in results:
            tally.apply(result)
        return tally

    def enter(self, players: Iterable[str]) -> None:
        """Players who count even before they have played (they show with 0 points)."""
        for name in players:
            self.points.setdefault(name, 0)
            self.trix_firsts.setdefault(name, 0)
            self.scores.setdefault(name, 0)
            self.tables_of.setdefault(name, set())

    def sit_out(self, players: Iterable[str]) -> None:
        """Players who sat a round out while present: a bye each."""
        for name in players:
            self.enter([name])
            self.byes[name] = self.byes.get(name, 0) + 1

    def apply(self, result: TableResult) -> None:
        """The table's new result, in place of its previous one (if any)."""
        old = self.results.get(result.key)
        if old is not None:
            self._add(old, -1)
        self.results[result.key] = result
        self._add(result, 1)

    def _add(self, result: TableResult, sign: int) -> None:
        earned = table_points(result, self.scoring, self.places)
        self.enter(result.players)
        for seat, name in enumerate(result.players):
            self.points[name] = whole_if_can(self.points[name] + sign * earned[seat])
            self.trix_firsts[name] += sign * result.trix_firsts[seat]
            self.scores[name] += sign * result.totals[seat]
            if sign > 0:
                self.tables_of[name].add(result.key)
            else:
                self.tables_of[name].discard(result.key)
            if not result.finished:
                self._mark_playing(name, result.key, sign)

    def _mark_playing(self, name: str, key: tuple[int, int], sign: int) -> None:
        playing = self.playing_of.setdefault(name, set())
        if sign > 0:
            playing.add(key)
        else:
            playing.discard(key)

    def bye_points(self, name: str) -> Points:
        """What ``name``'s byes are worth now (an average bye moves with his tables)."""
        byes = self.byes.get(name, 0)
        if not byes:
            return 0
        return whole_if_can(byes * self.bye_rule.worth(self.points[name], self.played(name)))

    def provisional(self, name: str) -> Points:
        """What ``name``'s tables still playing add to his points: their result so far
        counts as a finished table's would, so his points less this are what his finished
        tables and byes give (an average bye is then counted over finished tables only)."""
        keys = self.playing_of.get(name)
        if not keys:  # most players, most of the time: nothing to take away
            return 0
        earned = sum(self._earned(key, name) for key in keys)
        settled = whole_if_can(self.points[name] - earned)
        byes = self.byes.get(name, 0)
        if byes:
            worth = self.bye_rule.worth(settled, self.played(name) - len(keys))
            settled = whole_if_can(settled + byes * worth)
        return whole_if_can(self.total(name) - settled)

    def _earned(self, key: tuple[int, int], name: str) -> Points:
        result = self.results[key]
        return table_points(result, self.scoring, self.places)[result.players.index(name)]

    def played(self, name: str) -> int:
        return len(self.tables_of[name])

    def average(self, name: str) -> Points:
        """Points per table played, byes left out (0 before his first table)."""
        tables, points = self.played(name), self.points[name]
        if not tables:
            return 0
        return exact(points, tables) if isinstance(points, int) else whole_if_can(points / tables)

    def total(self, name: str) -> Points:
        """His points: his tables' and his byes'."""
        if name not in self.byes:  # most players, most rounds: no Fraction arithmetic
            return self.points[name]
        return whole_if_can(self.points[name] + self.bye_points(name))

    def standings(self) -> list[Standing]:
        """Everyone ranked: points (or points per table), then the tie-breaks of
        :data:`TIE_RULES`."""
        totals = {name: self.total(name) for name in self.points}
        rank_by = self.average if self.ranking is Ranking.AVERAGE else totals.__getitem__
        by_value: dict[Points, list[str]] = {}
        for name in self.points:
            by_value.setdefault(rank_by(name), []).append(name)
        lines: list[Standing] = []
        for value in sorted(by_value, reverse=True):
            lines.extend(self._rank_tied(by_value[value], len(lines) + 1, totals))
        return lines

    def _rank_tied(
        self, names: list[str], first_rank: int, totals: dict[str, Points]
    ) -> list[Standing]:
        league = self.head_to_head(names)
        keys = {n: (league[n], self.scores[n], self.trix_firsts[n]) for n in names}
        ordered = sorted(names, key=lambda n: (-keys[n][0], -keys[n][1], -keys[n][2], n))
        lines: list[Standing] = []
        for index, name in enumerate(ordered):
            rank, rule = first_rank + index, None
            if index:
                rule = separating_rule(keys[ordered[index - 1]], keys[name])
                if rule == "shared":
                    rank = lines[-1].rank
            byes = self.byes.get(name, 0)
            lines.append(
                Standing(
                    name,
                    totals[name],
                    rank,
                    self.trix_firsts[name],
                    len(self.tables_of[name]),
                    league[name],
                    self.scores[name],
                    rule,
                    byes,
                    self.bye_points(name) if byes else 0,
                    self.average(name),
                    self.provisional(name),
                )
            )
        return lines

    def head_to_head(self, names: Sequence[str]) -> dict[str, int]:
        """The mini-league of ``names``: for each pair of them at each table they shared,
        +1 to the one placed higher there, -1 to the one placed lower, 0 when level."""
        league = dict.fromkeys(names, 0)
        if len(names) < 2:
            return league
        group = set(names)
        shared = {key for name in names for key in self.tables_of[name]}
        for key in shared:
            result = self.results[key]
            here = [(seat, name) for seat, name in enumerate(result.players) if name in group]
            for seat, name in here:
                mine = result.totals[seat]
                league[name] += sum(
                    (mine > result.totals[other]) - (mine < result.totals[other])
                    for other, _n in here
                )
        return league


def separating_rule(above: Sequence[int], below: Sequence[int]) -> str:
    """The first tie-break on which two players tied on points differ, else ``shared``.

    >>> separating_rule((2, 10, 1), (0, 40, 3)), separating_rule((1, 5, 0), (1, 5, 0))
    ('head_to_head', 'shared')
    """
    if above == below:
        return "shared"
    return next(rule for rule, a, b in zip(TIE_RULES, above, below, strict=False) if a != b)


def points_value(points: Points) -> int | float:
    """Points for JSON: a whole number as an int, else rounded to two decimals.

    >>> points_value(Fraction(5, 2)), points_value(Fraction(6, 1)), points_value(Fraction(7, 3))
    (2.5, 6, 2.33)
    """
    if points.denominator == 1:
        return int(points)
    return round(float(points), 2)
