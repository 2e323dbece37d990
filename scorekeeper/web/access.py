"""Who may change a game from this browser: edit rights kept in the session.

Creating a game gives the browser that created it edit rights: the game's id
is added to ``session["edit_games"]`` and its plaintext edit token kept in
``session["edit_tokens"]`` (so the browser can later use the JSON API or
share an edit link). The session cookie is signed, so it cannot be forged;
only the most recent games are remembered, to keep the cookie small.
"""

from __future__ import annotations

from flask import abort, session

EDIT_GAMES = "edit_games"
EDIT_TOKENS = "edit_tokens"
REMEMBERED = 20
"""Games remembered per browser: about 70 bytes each in the cookie."""
READ_ONLY = "You can follow this game's scores, but only the phone that started it can change them."


def grant_edit(game_id: str, token: str) -> None:
    """Give this browser edit rights for ``game_id`` (most recent first)."""
    games = [g for g in session.get(EDIT_GAMES, []) if g != game_id]
    games = [game_id, *games][:REMEMBERED]
    tokens = dict(session.get(EDIT_TOKENS, {}))
    tokens[game_id] = token
    session[EDIT_GAMES] = games
    session[EDIT_TOKENS] = {g: tokens[g] for g in games if g in tokens}


def can_edit(game_id: str) -> bool:
    return game_id in session.get(EDIT_GAMES, [])


def edit_token(game_id: str) -> str | None:
    """The plaintext edit token this browser holds for ``game_id``, if any."""
    token = session.get(EDIT_TOKENS, {}).get(game_id)
    return token if isinstance(token, str) else None


def require_edit(game_id: str) -> None:
    """Refuse (403) a write from a browser without edit rights for ``game_id``."""
    if not can_edit(game_id):
        abort(403, description=READ_ONLY)
