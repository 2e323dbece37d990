"""A circle and its members' numbers as the API answers them and the pages show them."""

from __future__ import annotations

from typing import Any

from scorekeeper.store.circles import services
from scorekeeper.store.circles.ratings import MIN_GAMES, certainty, display_number
from scorekeeper.text.circles import rating_words


def rating_view(mu: float | None, sigma: float | None, games: int) -> dict[str, Any] | None:
    """``{"mu", "sigma", "display"}``, shown from a member's fifth finished game."""
    if mu is None or sigma is None or games < MIN_GAMES:
        return None
    number = display_number(mu)
    return {
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "display": rating_words(number, certainty(sigma)),
        "number": number,
        "certainty": certainty(sigma),
    }


def circle_state(circle: services.CircleData) -> dict[str, Any]:
    """API.md's circle: id, name, members (games, wins, rating) and its games' ids."""
    rows = {row["id"]: row for row in services.circle_table(circle)}
    games = services.linked_games(circle)
    members = []
    for member in circle.members:
        row = rows[member.id]
        rating = rating_view(member.mu, member.sigma, row["games"]) if circle.ratings else None
        members.append(
            {
                "id": member.id,
                "name": member.name,
                "colour": member.colour,
                "emoji": member.emoji,
                "games": row["games"],
                "wins": row["wins"],
                "rating": rating,
            }
        )
    return {
        "id": circle.id,
        "name": circle.name,
        "ratings": circle.ratings,
        "version": circle.version,
        "members": members,
        "games": [g.game_id for g in games],
        "finished_games": sum(1 for g in games if g.finished),
    }


def member_state(circle: services.CircleData, member_id: int, period: str) -> dict[str, Any]:
    """API.md's player statistics (with a few extensions: name, period, rating…)."""
    member = circle.member(member_id)
    stats = services.member_stats(circle, member_id, period)
    all_time = services.member_stats(circle, member_id, "all") if period != "all" else stats
    rating = rating_view(member.mu, member.sigma, all_time["games"]) if circle.ratings else None
    return {**stats, "name": member.name, "period": period, "rating": rating}


def table_view(circle: services.CircleData, period: str = "all") -> list[dict[str, Any]]:
    """The circle's table, ranked, each row with its rating as shown."""
    out: list[dict[str, Any]] = []
    all_time = {r["id"]: r for r in services.circle_table(circle)}
    rows = services.circle_table(circle, period)
    for index, row in enumerate(rows):
        member = circle.member(row["id"])
        games = all_time[row["id"]]["games"]
        rating = rating_view(member.mu, member.sigma, games) if circle.ratings else None
        # Level on everything the table ranks by (partners of a team game, R9.5): one place.
        level = index > 0 and _ranked_on(rows[index - 1]) == _ranked_on(row)
        place = out[-1]["place"] if level else index + 1
        out.append({**row, "place": place, "rating": rating})
    return out


def _ranked_on(row: dict[str, Any]) -> tuple[Any, ...]:
    """What the circle's table ranks a row by (its name aside)."""
    rating = row.get("rating")
    shown = (rating["mu"], rating["sigma"]) if isinstance(rating, dict) else None
    return (shown, row["games"], row["wins"], row["win_rate"], row["average_total"])
