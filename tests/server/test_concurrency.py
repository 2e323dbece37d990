"""Many phones writing one game at once, against gunicorn (3 workers × 4 threads).

On a SQLite file and on PostgreSQL: afterwards the deal log is exactly one
valid game, every acknowledged write is in it (in the order of the versions
it was given), no write is there twice, and every refusal was a clear
409/412 (or a 503 "busy") — never a 500.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

pytestmark = pytest.mark.served

THREADS = 12
REQUESTS = 20
REFUSALS = {409, 412, 503}
QUEENS = ("QS", "QH", "QD", "QC")


def captures_for(contract: str, rng: random.Random) -> dict[str, Any]:
    """Captures that are valid for ``contract`` whoever the king is."""
    seats = [0, 1, 2, 3]
    rng.shuffle(seats)
    counts = [4, 3, 3, 3]
    rng.shuffle(counts)
    if contract == "king":
        return {"king_of_hearts": {"taker": seats[0], "doubled_by": None}}
    if contract == "queens":
        return {"queens": {q: {"taker": rng.randrange(4), "doubled_by": None} for q in QUEENS}}
    if contract == "diamonds":
        return {"diamonds": counts}
    if contract == "collections":
        return {"tricks": counts}
    return {"trix_order": seats}


@dataclass
class Outcome:
    """One request and its answer."""

    kind: str
    status: int
    body: Any
    n: int | None = None
    sent: int | None = None
    """The version sent in If-Match, if any."""

    @property
    def changed_nothing(self) -> bool:
        """An edit to what the deal already was: 200, and no new version."""
        return self.kind == "edit" and self.body["game"]["version"] == self.sent


class Phone:
    """A thread's view of the game: its last known state, and what it was told."""

    def __init__(self, server: Any, game_id: str, token: str, seed: int) -> None:
        self.client = server.client()
        self.game_id = game_id
        self.auth = {"Authorization": f"Bearer {token}"}
        self.rng = random.Random(seed)
        self.state: dict[str, Any] | None = None
        self.outcomes: list[Outcome] = []

    @property
    def url(self) -> str:
        return f"/api/v1/games/{self.game_id}"

    def run(self, barrier: threading.Barrier) -> None:
        self.refresh()
        barrier.wait()
        try:
            for _ in range(REQUESTS):
                self.one_request()
        finally:
            self.client.close()

    def refresh(self) -> None:
        status, _, body = self.client.call("GET", self.url)
        assert status == 200, body
        self.state = body

    def if_match(self) -> dict[str, str]:
        assert self.state is not None
        return {**self.auth, "If-Match": f'"{self.state["version"]}"'}

    def one_request(self) -> None:
        roll = self.rng.random()
        if roll < 0.45:
            self.record(with_version=True)
        elif roll < 0.65:
            self.record(with_version=False)
        elif roll < 0.85:
            self.edit()
        elif roll < 0.95:
            self.redeal()
        else:
            self.undo()

    def remember(
        self, kind: str, status: int, body: Any, n: int | None = None, sent: int | None = None
    ) -> None:
        self.outcomes.append(Outcome(kind, status, body, n, sent))
        if isinstance(body, dict) and isinstance(body.get("game"), dict):
            self.state = body["game"]  # 2xx and 412 answers carry the fresh game

    def record(self, with_version: bool) -> None:
        assert self.state is not None
        contracts = self.state["available_contracts"] or ["trix"]
        contract = self.rng.choice(contracts)
        body = {"contracts": [contract], "captures": captures_for(contract, self.rng)}
        headers = self.if_match() if with_version else self.auth
        status, _, answer = self.client.call("POST", f"{self.url}/deals", body, headers)
        self.remember("record", status, answer)

    def edit(self) -> None:
        deals = [d for k in self.state["kingdoms"] for d in k["deals"]] if self.state else []
        if not deals:
            return self.record(with_version=True)
        deal = self.rng.choice(deals)
        contract = deal["contracts"][0]
        body = {"contracts": [contract], "captures": captures_for(contract, self.rng)}
        path = f"{self.url}/deals/{deal['n']}"
        sent = self.state["version"] if self.state else None
        status, _, answer = self.client.call("PUT", path, body, self.if_match())
        self.remember("edit", status, answer, deal["n"], sent)
        return None

    def redeal(self) -> None:
        body = {"kind": "redeal", "seat": self.rng.randrange(4)}
        status, _, answer = self.client.call("POST", f"{self.url}/redeals", body, self.if_match())
        self.remember("redeal", status, answer)

    def undo(self) -> None:
        status, _, answer = self.client.call(
            "DELETE", f"{self.url}/deals/last", None, self.if_match()
        )
        self.remember("undo", status, answer)


def play_at_once(server: Any, game_id: str, token: str) -> list[Outcome]:
    phones = [Phone(server, game_id, token, seed) for seed in range(THREADS)]
    barrier = threading.Barrier(THREADS)
    threads = [threading.Thread(target=p.run, args=(barrier,)) for p in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    return [o for p in phones for o in p.outcomes]


def check_refusals(outcomes: list[Outcome]) -> None:
    """Every refusal is a 409/412/503 in the API's error format, with a sentence."""
    statuses = Counter(o.status for o in outcomes)
    assert set(statuses) <= {200, 201} | REFUSALS, statuses
    for o in outcomes:
        if o.status in REFUSALS:
            assert o.body["ok"] is False and o.body["errors"], o
            assert all(e["message"].strip() for e in o.body["errors"]), o
        if o.status == 412:
            assert "game" in o.body  # the fresh state comes with the refusal


def acknowledged(outcomes: list[Outcome]) -> list[Outcome]:
    """The writes the server confirmed, in the order of the versions they made."""
    done = [o for o in outcomes if o.status in (200, 201) and not o.changed_nothing]
    done.sort(key=lambda o: o.body["game"]["version"])
    return done


def expected_log(done: list[Outcome]) -> list[dict[str, Any]]:
    """The log that applying every acknowledged write, in version order, gives."""
    log: list[dict[str, Any]] = []
    for o in done:
        if o.kind == "record":
            log.append({"contracts": o.body["deal"]["contracts"], **_caps(o.body["deal"])})
        elif o.kind == "redeal":
            log.append(o.body["redeal"])
        elif o.kind == "edit":
            deals = [i for i, e in enumerate(log) if "contracts" in e]
            log[deals[o.n - 1]] = {
                "contracts": o.body["deal"]["contracts"],
                **_caps(o.body["deal"]),
            }
        elif o.kind == "undo":
            log.pop()
    return log


def _caps(deal: dict[str, Any]) -> dict[str, Any]:
    return {"captures": deal["captures"]}


def stored_log(client: Any, game_id: str) -> list[dict[str, Any]]:
    status, _, backup = client.call("GET", f"/api/v1/games/{game_id}/export")
    assert status == 200
    assert [e["position"] for e in backup["log"]] == list(range(len(backup["log"])))
    entries = [e["entry"] for e in backup["log"]]
    return [{k: v for k, v in e.items() if k != "king"} for e in entries]


def test_many_phones_write_one_game_at_once(serve: Any, database_url: str) -> None:
    server = serve(database_url, workers=3, threads=4)
    client = server.client()
    game_id, token, _ = client.new_game()
    outcomes = play_at_once(server, game_id, token)
    assert "Traceback" not in server.log_text()
    check_refusals(outcomes)
    done = acknowledged(outcomes)
    assert len(done) >= 10, Counter((o.kind, o.status) for o in outcomes)
    status, _, state = client.call("GET", f"/api/v1/games/{game_id}")
    assert status == 200  # the stored log replays
    versions = [o.body["game"]["version"] for o in done]
    assert versions == list(range(2, state["version"] + 1))  # each write acknowledged once
    assert stored_log(client, game_id) == expected_log(done)
    numbers = [d["n"] for k in state["kingdoms"] for d in k["deals"]] + [
        d["n"] for d in state.get("extra_deals", [])
    ]
    assert numbers == list(range(1, len(numbers) + 1))  # no deal missing or twice
    client.close()


def test_two_phones_record_the_same_deal_exactly_one_is_saved(
    serve: Any, database_url: str
) -> None:
    server = serve(database_url, workers=2, threads=2)
    client = server.client()
    for _ in range(5):
        game_id, token, state = client.new_game()
        answers = same_deal_at_once(server, game_id, token, state["version"])
        assert sorted(s for s, _ in answers) == [201, 412]
        refused = next(body for s, body in answers if s == 412)
        message = refused["errors"][0]["message"]
        assert message.startswith(
            "Deal 1 was already recorded: \u2068Rana\u2069's King of Hearts."
        ), message
        assert refused["game"]["version"] == state["version"] + 1  # the fresh game
        _, _, fresh = client.call("GET", f"/api/v1/games/{game_id}")
        assert [d["n"] for d in fresh["kingdoms"][0]["deals"]] == [1]
    client.close()


def same_deal_at_once(server: Any, game_id: str, token: str, version: int) -> list[Any]:
    """Two phones post deal 1 (the same If-Match) at the same moment."""
    king = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1}}}
    headers = {"Authorization": f"Bearer {token}", "If-Match": f'"{version}"'}
    barrier = threading.Barrier(2)
    answers: list[tuple[int, Any]] = []

    def phone() -> None:
        own = server.client()
        own.call("GET", "/help")  # connect first, so that both posts leave together
        barrier.wait()
        status, _, body = own.call("POST", f"/api/v1/games/{game_id}/deals", king, headers)
        answers.append((status, body))
        own.close()

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers
