"""Ratings from the circle's finished games (OpenSkill's Plackett–Luce model).

Each finished game is one match, rated from its final order (:func:`~.facts.final_places`):
four players, or under partnership (R9.5) two teams of two; equal places are
ties. The whole history is rated again from the start whenever a game of the
circle is finished, corrected or removed, so a rating is always what
replaying the games gives; no hand-written rating maths.

>>> games = [RatedGame("g1", (1, 2, 3, 4), (1, 2, 3, 4), False)]
>>> current, history = rate_history(games)
>>> current[1][0] > current[2][0] > current[3][0] > current[4][0], len(history)
(True, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MIN_GAMES = 5
"""A member's rating is shown after his fifth finished game."""
SCALE = 40
"""Display points per unit of mu; a new player shows as :data:`BASE`."""
BASE = 1000
START_MU = 25.0


@dataclass(frozen=True)
class RatedGame:
    """One finished game as a match: the member at each seat and each seat's place."""

    game_id: str
    members: tuple[int, int, int, int]
    places: tuple[int, int, int, int]
    partnership: bool


@dataclass(frozen=True)
class HistoryPoint:
    """A member's rating after the ``sequence``-th finished game."""

    member_id: int
    game_id: str
    sequence: int
    mu: float
    sigma: float


def rate_history(
    games: Sequence[RatedGame],
) -> tuple[dict[int, tuple[float, float]], list[HistoryPoint]]:
    """Every member's current (mu, sigma), and the history, rating ``games`` in order."""
    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    history: list[HistoryPoint] = []
    for sequence, game in enumerate(games, start=1):
        teams, ranks = _match(game)
        rated = model.rate(
            [[ratings.get(m) or model.rating() for m in team] for team in teams], ranks=ranks
        )
        for team, new in zip(teams, rated, strict=True):
            for member, rating in zip(team, new, strict=True):
                ratings[member] = rating
                history.append(
                    HistoryPoint(member, game.game_id, sequence, rating.mu, rating.sigma)
                )
    current = {m: (float(r.mu), float(r.sigma)) for m, r in ratings.items()}
    return current, history


def _match(game: RatedGame) -> tuple[list[list[int]], list[float]]:
    """The teams (one player each, or partners sitting opposite) and their places."""
    if game.partnership:
        teams = [[game.members[0], game.members[2]], [game.members[1], game.members[3]]]
        return teams, [float(game.places[0]), float(game.places[1])]
    return [[m] for m in game.members], [float(p) for p in game.places]


def display_number(mu: float) -> int:
    """The rating as one number, rounded to tens (a new player: 1,000).

    >>> display_number(25.0), display_number(31.04)
    (1000, 1240)
    """
    return int(round((BASE + SCALE * (mu - START_MU)) / 10.0)) * 10


def certainty(sigma: float) -> str:
    """How settled a rating is: ``"settling"`` early, ``"fair"``, then ``"settled"``.

    >>> certainty(8.0), certainty(5.0), certainty(2.5)
    ('settling', 'fair', 'settled')
    """
    if sigma >= 6.5:
        return "settling"
    if sigma >= 4.0:
        return "fair"
    return "settled"
