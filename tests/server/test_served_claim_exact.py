"""Through gunicorn, with the real solver: ``check/claim`` answers a decided claim without
waiting for its exact value, which gets ``CLAIM_EXACT_SECONDS`` of its own (here 0: the
bounds decide these claims at once, while the exact value takes thousands of nodes; see
tests/rules/claims/test_exact_budget.py), and a claim may ask for longer."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.rules.claims.test_exact_budget import EXACT, claim
from tests.server.serving import Server


@pytest.mark.served
def test_the_served_api_rules_at_once_and_says_the_exact_value_is_unknown(
    database_url: str, serve: Callable[..., Server]
) -> None:
    server = serve(database_url, workers=2, threads=4, env={"CLAIM_EXACT_SECONDS": "0"})
    client = server.client()
    status, _, answer = client.call("POST", "/api/v1/check/claim", claim(-90))
    assert status == 200, answer
    assert (answer["decided"], answer["holds"], answer["line"]) == (True, True, [])
    assert (answer["guaranteed"], answer["guaranteed_known"]) == (None, False)
    assert answer["message"].startswith(
        "The claim holds: \u2068Rana\u2069 can make sure of at least −90"
    )

    status, _, answer = client.call("POST", "/api/v1/check/claim", claim(15))
    assert status == 200, answer
    assert (answer["holds"], answer["guaranteed"], answer["guaranteed_known"]) == (
        False,
        None,
        False,
    )
    assert len(answer["line"]) == 24
    assert answer["verdict"]["part"] == "claim.fails_below"

    asked = claim(15, exact_time_limit=60)  # the claim's own budget beats the server's
    status, _, answer = client.call("POST", "/api/v1/check/claim", asked)
    assert status == 200, answer
    assert (answer["holds"], answer["guaranteed"], answer["guaranteed_known"]) == (
        False,
        EXACT,
        True,
    )

    status, _, refused = client.call("POST", "/api/v1/check/claim", claim(0, exact_time_limit=-1))
    assert status == 422, refused
    assert (refused["errors"][0]["code"], refused["errors"][0]["field"]) == (
        "bad_exact_time_limit",
        "exact_time_limit",
    )
