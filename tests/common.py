"""What many tests share: the four players and short names for the five contracts."""

from __future__ import annotations

import os

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
    from scorekeeper.web import access

    with client.session_transaction() as session:
        seals = dict(session.get("own_seals", []))
    with client.application.test_request_context():  # unsealing uses the app's secret
        return access.unseal(seals.get(game_id))


def on_ci() -> bool:
    """Running under CI (``CI=true``), where a missing prerequisite fails instead of skipping."""
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if on_ci() else "dev")
"""``ci``: every property's full count of examples, derandomized; ``dev``: fewer, random
(registered in tests/conftest.py)."""


def examples(full: int) -> int:
    """How many examples a Hypothesis property runs: ``full`` under the ``ci`` profile, a
    fifth of it (at least 10) under ``dev``.

    >>> examples(300) in (300, 60)
    True
    """
    return full if HYPOTHESIS_PROFILE == "ci" else max(10, full // 5)
