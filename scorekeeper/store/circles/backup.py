"""A circle as one backup file (its members, and each game in the games' backup format),
restorable as a new circle: new links, its games restored as new games.

>>> sorted(CIRCLE_KEYS)
['format', 'format_version', 'games', 'members', 'name', 'ratings', 'rules']
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.errors import MalformedError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store.backup import export_game, import_game
from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleRefusal

FORMAT = "scorekeeper-circle"
FORMAT_VERSION = 1
CIRCLE_KEYS = {"format", "format_version", "name", "ratings", "rules", "members", "games"}
GAMES_MAX = 5000


def export_circle(circle_id: str) -> dict[str, Any]:
    """The circle's backup: name, members (name, colour, emoji), and every game with the
    member at each seat (an index into ``members``)."""
    circle = services.load_circle(circle_id)
    index = {m.id: i for i, m in enumerate(circle.members)}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": circle.name,
        "ratings": circle.ratings,
        "rules": circle.rules,
        "members": [{"name": m.name, "colour": m.colour, "emoji": m.emoji} for m in circle.members],
        "games": [
            {"seats": [index[m] for m in g.members], "game": export_game(g.game_id)}
            for g in services.linked_games(circle)
        ],
    }


def import_circle(data: object) -> tuple[str, str]:
    """Restore a circle's backup as a new circle: (its id, its edit token).

    The file is checked whole before the circle is written; each game is
    checked and replayed by the games' own import.
    """
    games = _check(data)
    assert isinstance(data, dict)
    rules = RuleSet.from_dict(data.get("rules") or {})
    names = [m.get("name") if isinstance(m, dict) else None for m in data["members"]]
    circle, token = services.create_circle(
        data.get("name"), names, bool(data.get("ratings")), rules
    )
    ids = [m.id for m in circle.members]
    for seats, game in games:
        loaded, _game_token = import_game(game)
        services.link_game(circle.id, loaded, [ids[s] for s in seats])
    for member, raw in zip(circle.members, data["members"], strict=True):
        if raw.get("colour") or raw.get("emoji"):
            services.update_member(circle.id, member.id, raw.get("colour"), raw.get("emoji"))
    return circle.id, token


def _check(data: object) -> list[tuple[list[int], dict[str, Any]]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CircleRefusal.one("backup_circle", "format")
    if data.get("format_version") != FORMAT_VERSION or set(data) - CIRCLE_KEYS:
        raise CircleRefusal.one("backup_circle", "format_version")
    members, games = data.get("members"), data.get("games")
    if not isinstance(members, list) or not isinstance(games, list) or len(games) > GAMES_MAX:
        raise CircleRefusal.one("backup_circle", "games")
    out = []
    for i, item in enumerate(games):
        seats = item.get("seats") if isinstance(item, dict) else None
        game = item.get("game") if isinstance(item, dict) else None
        ok = isinstance(seats, list) and len(seats) == 4 and isinstance(game, dict)
        if not ok or not all(isinstance(s, int) and 0 <= s < len(members) for s in seats or []):
            raise CircleRefusal.one("backup_circle", f"games.{i}")
        if len(set(seats or [])) != 4:
            raise MalformedError.one(
                "backup_invalid", "A game's seats repeat a member.", field=f"games.{i}.seats"
            )
        out.append((list(seats or []), game or {}))
    return out
