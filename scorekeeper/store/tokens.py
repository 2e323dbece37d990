"""Game ids and edit tokens.

A game's id is what you share to let people *read* it: 96 random bits.
Its edit token lets people *write*: 256 random bits, stored only as a
SHA-256 hash and compared in constant time.

>>> len(new_game_id()), len(new_edit_token())
(16, 43)
>>> token = new_edit_token()
>>> hash_matches(hash_token(token), token), hash_matches(hash_token(token), token + "x")
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

GAME_ID_BYTES = 12
"""96 bits: API.md asks for at least 64."""
EDIT_TOKEN_BYTES = 32
"""256 bits."""
GAME_ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What an id can look like (ours are 16 URL-safe characters; room for older ones)."""


def new_game_id() -> str:
    """A fresh, URL-safe, unguessable game id."""
    return secrets.token_urlsafe(GAME_ID_BYTES)


def is_game_id(text: object) -> bool:
    """Whether ``text`` could be a game id: anything else is no game, without asking the
    database (PostgreSQL refuses a NUL in a query, and a surrogate cannot be encoded).

    >>> is_game_id(new_game_id()), is_game_id("a\\x00"), is_game_id("x" * 65)
    (True, False, False)
    """
    return isinstance(text, str) and GAME_ID_SHAPE.fullmatch(text) is not None


def new_edit_token() -> str:
    """A fresh, URL-safe edit token (shown once, never stored in clear)."""
    return secrets.token_urlsafe(EDIT_TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored for ``token``."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def hash_matches(stored_hash: str, token: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, in constant time."""
    return hmac.compare_digest(stored_hash.encode("ascii"), hash_token(token).encode("ascii"))
