"""POST /api/v1/check/play of a full deal against the app's cheapest JSON request.

Run: ``python benchmarks/api_check_play.py [requests] [runs]``. Through the
Flask test client, in one process and one run, best of several runs, it
times per request:

* the cheapest JSON answers the app gives (an unknown API address, a redeal
  check, a one-contract deal check);
* ``check/play`` of a complete 13-trick deal with its four hands.

Target: check/play costs at most 2x the cheapest.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from flask.testing import FlaskClient  # noqa: E402

from benchmarks.timing import best_per_call  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.rules.cards import ALL_CARDS  # noqa: E402
from scorekeeper.rules.contracts import Contract  # noqa: E402
from scorekeeper.rules.deals import random_deal  # noqa: E402
from scorekeeper.rules.ruleset import RuleSet  # noqa: E402


def full_deal_body() -> dict[str, Any]:
    hands, tricks = random_deal(random.Random(1), RuleSet(), [Contract.QUEENS], 0)
    return {
        "contracts": ["queens"],
        "king": 0,
        "hands": {str(s): [str(c) for c in ALL_CARDS if c.bit & hands[s]] for s in range(4)},
        "tricks": [[str(ALL_CARDS[c]) for c in trick] for trick in tricks],
    }


REDEAL = {
    "contract": "king",
    "hand": ["KH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "2C", "3C", "4C"],
}
DEAL = {
    "contracts": ["king"],
    "king": 0,
    "captures": {"king_of_hearts": {"taker": 2, "doubled_by": None}},
}


def per_request(
    client: FlaskClient, method: str, url: str, body: Any, count: int, runs: int, status: int
) -> float:
    """Best-of-``runs`` seconds per request."""

    def request() -> None:
        response = client.open(url, method=method, json=body)
        assert response.status_code == status, response.get_json()

    return best_per_call(request, count, runs)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    client = app.test_client()
    cases = {
        "GET unknown API address (404)": ("GET", "/api/v1/nothing", None, 404),
        "POST check/redeal": ("POST", "/api/v1/check/redeal", REDEAL, 200),
        "POST check/deal (King of Hearts)": ("POST", "/api/v1/check/deal", DEAL, 200),
        "POST check/play (full 13-trick deal)": (
            "POST",
            "/api/v1/check/play",
            full_deal_body(),
            200,
        ),
    }
    for method, url, body, status in cases.values():  # warm up
        per_request(client, method, url, body, 20, 1, status)
    times = {
        name: per_request(client, *case[:3], count, runs, case[3]) for name, case in cases.items()
    }
    cheapest = min(t for name, t in times.items() if "check/play" not in name)
    for name, seconds in times.items():
        print(f"{name:40s} {seconds * 1e6:8.0f} µs/request  {seconds / cheapest:4.2f}x cheapest")
    play = times["POST check/play (full 13-trick deal)"]
    verdict = "meets" if play <= 2 * cheapest else "MISSES"
    print(
        f"check/play is {play / cheapest:.2f}x the cheapest JSON request: {verdict} the 2x target"
    )


if __name__ == "__main__":
    main()
