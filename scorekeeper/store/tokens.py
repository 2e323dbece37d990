"""Game ids and edit tokens.

A game's id is what you share to let people *read* it: 96 random bits.
Its edit token lets people *write*: 256 random bits, stored only as a
SHA-256 hash and compared in constant time. Its last four characters check
the rest, so that a link cut short or mistyped can be told from a link that
was the game's and has been replaced (:func:`looks_issued`).

>>> len(new_game_id()), len(new_edit_token())
(16, 47)
>>> token = new_edit_token()
>>> hash_matches(hash_token(token), token), hash_matches(hash_token(token), token + "x")
(True, False)
"""

from __future__ import annotations

import base64
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


TOKEN_CHECK_LENGTH = 4
"""Characters of the check at a token's end (24 bits: a typo passes it once in 16 million)."""


def _check(body: str) -> str:
    digest = hashlib.sha256(b"edit-token-check:" + body.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:TOKEN_CHECK_LENGTH]


def new_edit_token() -> str:
    """A fresh, URL-safe edit token (shown once, never stored in clear), ending in its check."""
    body = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
    return body + _check(body)


def looks_issued(token: str) -> bool:
    """Whether ``token`` has the shape and check of a token this app issued (not whether it
    is any game's): a token failing it was mistyped or cut short.

    >>> token = new_edit_token()
    >>> looks_issued(token), looks_issued(token[:-1]), looks_issued(token[:5] + "!" + token[6:])
    (True, False, False)
    """
    body, check = token[:-TOKEN_CHECK_LENGTH], token[-TOKEN_CHECK_LENGTH:]
    if not token.isascii() or len(body) < EDIT_TOKEN_BYTES:
        return False
    return hmac.compare_digest(_check(body), check)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored for ``token``."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def hash_matches(stored_hash: str, token: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, in constant time."""
    return hmac.compare_digest(stored_hash.encode("ascii"), hash_token(token).encode("ascii"))
