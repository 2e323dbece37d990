"""A circle as one backup file (its members, and each game in the games' backup format),
restorable as a new circle: new links, its games restored as new games.

>>> sorted(CIRCLE_KEYS)
['format', 'format_version', 'games', 'members', 'name', 'ratings', 'rules']
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.errors import MalformedError, Problem, RulesError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store.backup import export_game, write_backup
from scorekeeper.store.backup_format import IMPORT_BYTES_MAX, Backup, parse_backup
from scorekeeper.store.circles import services
from scorekeeper.store.circles.errors import CircleRefusal
from scorekeeper.store.circles.input import (
    clean_circle_name,
    clean_colour,
    clean_emoji,
    clean_member_names,
)
from scorekeeper.store.transactions import write_transaction

FORMAT = "scorekeeper-circle"
FORMAT_VERSION = 1
CIRCLE_KEYS = {"format", "format_version", "name", "ratings", "rules", "members", "games"}
GAMES_MAX = 2000
"""The most games a circle's backup holds: four games a week for ten years."""
WHOLE_GAME_BYTES = 28 * 1024
"""What a whole game (20 deals, with a few redeals and corrections) takes in the circle's
file, indented as the page writes it: 22 KB measured without them;
tests/server/test_served_backups.py builds such games and keeps this true."""
CIRCLE_HEAD_BYTES = 64 * 1024
"""Everything in the file but its games: the name, the rules and up to 64 members with their
colour and emoji."""
RESTORE_BYTES_MAX = CIRCLE_HEAD_BYTES + max(GAMES_MAX * WHOLE_GAME_BYTES, IMPORT_BYTES_MAX)
"""The largest circle backup a restore reads (about 57 MB): :data:`GAMES_MAX` whole games, or
fewer with longer histories, and never less than the largest single game the app holds.
Past it, 413; a file with more games than :data:`GAMES_MAX`, 422 naming ``games``."""


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

    All or nothing: the whole file is checked first (the circle, its members,
    and every game replayed by the games' own checks), then the circle, its
    members and its games are written in one transaction. A refused file
    (422, naming the field: ``games.2.log.7.entry``) writes nothing.
    """
    games = [(seats, _game(i, game)) for i, (seats, game) in enumerate(_check(data))]
    assert isinstance(data, dict)
    rules = RuleSet.from_dict(data.get("rules") or {})
    name = clean_circle_name(data.get("name"))
    members = [m if isinstance(m, dict) else {} for m in data["members"]]
    names = clean_member_names([m.get("name") for m in members])
    looks = [(clean_colour(m.get("colour")), clean_emoji(m.get("emoji"))) for m in members]
    with write_transaction() as session:
        connection = session.connection()
        circle_id, token, ids = services.insert_circle(
            connection, name, names, bool(data.get("ratings")), rules
        )
        for member_id, (colour, emoji) in zip(ids, looks, strict=True):
            if colour or emoji:
                services.set_looks(connection, circle_id, member_id, colour, emoji)
        for seats, backup in games:
            game_id, _game_token = write_backup(session, backup)
            members_at = [ids[s] for s in seats]
            services.insert_link(
                connection, circle_id, game_id, backup.created_at, backup.game, members_at
            )
    return circle_id, token


def _game(index: int, data: dict[str, Any]) -> Backup:
    """One game of the file, checked and replayed; its problems name ``games.<index>``."""
    try:
        return parse_backup(data)
    except RulesError as error:
        raise error.at(f"games.{index}") from None


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
            # Worded here, untranslated, as the backup format's other refusals (backup_format).
            message = "A game's seats repeat a member."
            raise MalformedError([Problem("backup_invalid", message, None, f"games.{i}.seats")])
        out.append((list(seats or []), game or {}))
    return out
