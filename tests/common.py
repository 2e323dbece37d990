"""What many tests share: the four players and short names for the five contracts."""

from __future__ import annotations

from flask.testing import FlaskClient

from scorekeeper.rules.contracts import Contract

NAMES = ["Rana", "Sami", "Omar", "Lina"]
"""The players in seat order (seat 0 first), as most tests name them."""
K, Q, D, C, T = (
    Contract.KING,
    Contract.QUEENS,
    Contract.DIAMONDS,
    Contract.COLLECTIONS,
    Contract.TRIX,
)


def owner_token(client: FlaskClient, game_id: str) -> str | None:
    """The edit token a browser that created ``game_id`` holds (sealed in its session)."""
    from scorekeeper.web.sharing import access

    with client.session_transaction() as session:
        seals = dict(session.get("own_seals", []))
    with client.application.test_request_context():  # unsealing uses the app's secret
        return access.unseal(seals.get(game_id))
