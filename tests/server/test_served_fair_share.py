"""Served, on both databases: PDFs that cannot be forced (only what changes a PDF makes
a render; a client has its share of renders, 429 past it) and honest ``Retry-After``
(none on a 2xx; the limiter's only on its own 429s; the app's own on its 503s and
the claim pool's answers).

The test holds the server's render slots itself (their lock files are in
``PDF_SLOT_DIR``): while it does, any request that needs a render is refused, so an
answer of 200 is one that needed none.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorekeeper.web.server import workers
from tests.server.serving import Server
from tests.server.test_served_claims import wait_for_solvers

pytestmark = pytest.mark.served

CLAIM = {
    "contracts": ["collections"],
    "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
    "claim": {"seat": 1, "min_score": 0},
}


def get(
    server: Server, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=60)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()


@contextlib.contextmanager
def every_render_slot(folder: Path, slots: int) -> Iterator[None]:
    """Hold the server's render slots from this process: no render can start meanwhile."""
    with contextlib.ExitStack() as stack:
        for _ in range(slots):
            stack.enter_context(workers.hold_slot(folder, "slot", slots, 0))
        yield


def wait_until_waiting(folder: Path, client: str, within: float = 20) -> None:
    """Until a request of ``client`` holds one of its render places (it waits for a slot)."""
    path = folder / f"{workers.client_slot_name('client', client)}-0"
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists():
            fd = workers.try_lock(path)
            if fd is None:
                return
            os.close(fd)
        time.sleep(0.05)
    raise AssertionError(f"no render of {client} came to wait")


def test_only_what_changes_a_pdf_makes_a_render(
    database_url: str, serve: Callable[..., Server], tmp_path: Path
) -> None:
    folder = tmp_path / "pdf-slots"
    env = {"PDF_SLOT_DIR": str(folder), "PDF_RENDER_SLOTS": "1", "PDF_QUEUE_WAIT": "0.2"}
    server = serve(database_url, workers=1, threads=4, env=env)  # one worker: one PDF cache
    game_id, _token, _state = server.client().new_game()
    sheet = f"/games/{game_id}/sheet.pdf"
    status, first, _body = get(server, sheet)
    assert status == 200 and get(server, "/sheets/blank.pdf")[0] == 200
    with every_render_slot(folder, 1):
        # Needs a render: refused while the test holds the slot (so the probe works).
        status, headers, _body = get(server, sheet + "?paper=letter")
        assert status == 503 and headers["retry-after"] == "5"
        # Needs none: an unknown language, digits, parameter or host is the same sheet.
        for query, headers in [
            ("?lang=zz", {}),
            ("?digits=roman&x=1", {}),
            ("", {"Host": "evil.example"}),
            ("?paper=A4", {"Accept-Language": "xx"}),
        ]:
            status, answer, _body = get(server, sheet + query, headers)
            assert status == 200 and answer["etag"] == first["etag"], (query, headers)
        assert get(server, "/sheets/blank.pdf?lang=zz")[0] == 200
        # An unknown paper is refused, naming it: no render either.
        status, _headers, body = get(server, sheet + "?paper=a0")
        assert status == 400 and b"a0" in body
        # A blank sheet with names is never kept: each one is a render.
        assert get(server, "/sheets/blank.pdf?players=Rana")[0] == 503


def test_a_client_past_its_renders_gets_429_and_an_ipv6_64_is_one_client(
    database_url: str, serve: Callable[..., Server], tmp_path: Path
) -> None:
    folder = tmp_path / "pdf-slots"
    env = {
        "PDF_SLOT_DIR": str(folder),
        "PDF_RENDER_SLOTS": "1",
        "PDF_PER_CLIENT": "1",
        "PDF_QUEUE_WAIT": "3",
        "TRUSTED_PROXIES": "1",  # the test speaks for several clients (X-Forwarded-For)
    }
    server = serve(database_url, workers=2, threads=4, env=env)
    waiting: list[int] = []
    with every_render_slot(folder, 1):

        def first() -> None:
            path = "/sheets/blank.pdf?players=Rana"
            waiting.append(get(server, path, {"X-Forwarded-For": "2001:db8:7:8::1"})[0])

        thread = threading.Thread(target=first)
        thread.start()
        wait_until_waiting(folder, "2001:db8:7:8::/64")
        # The same /64, another address: the same client, whose one render waits.
        status, headers, body = get(
            server, "/sheets/blank.pdf?players=Sami", {"X-Forwarded-For": "2001:db8:7:8::2"}
        )
        assert status == 429 and headers["retry-after"] == "5"
        assert b"being prepared" in body
        # Another client waits its turn instead (a 503 after the short wait, not a 429).
        other = get(server, "/sheets/blank.pdf?players=Omar", {"X-Forwarded-For": "2001:db8:9::1"})
        assert other[0] == 503 and other[1]["retry-after"] == "5"
        thread.join(30)
    assert waiting == [503]
    status, _headers, _body = get(
        server, "/sheets/blank.pdf?players=Sami", {"X-Forwarded-For": "2001:db8:7:8::2"}
    )
    assert status == 200  # its place came back


def test_retry_after_is_honest(database_url: str, serve: Callable[..., Server]) -> None:
    """None on a 2xx; the limiter's on its own 429; the claim pool's on its 429 and 503."""
    env = {
        "RATELIMIT_ENABLED": "1",
        "RATELIMIT_WRITES": "3/minute",
        "CLAIM_SOLVER_MODULE": "tests.server.slow_solver",
        "CLAIM_SLOTS": "1",
        "CLAIM_QUEUE": "0",
        "CLAIM_PER_CLIENT": "1",
        "TRUSTED_PROXIES": "1",
    }
    server = serve(database_url, workers=2, threads=4, env=env)
    client = server.client()
    game_id, token, _state = client.new_game()
    auth = {"Authorization": f"Bearer {token}", "X-Forwarded-For": "192.0.2.1"}
    redeal = ("POST", f"/api/v1/games/{game_id}/redeals", {"kind": "misdeal"}, auth)
    statuses = [client.call(*redeal) for _ in range(4)]
    assert [s for s, _h, _b in statuses] == [201, 201, 201, 429]
    for _status, headers, _body in statuses[:3]:
        assert "retry-after" not in headers and "x-ratelimit-limit" not in headers
    assert 1 <= int(statuses[3][1]["retry-after"]) <= 60  # what is left of the minute
    assert "retry-after" not in client.call("GET", f"/api/v1/games/{game_id}")[1]

    def claim(address: str, seconds: float, leader: int = 0) -> tuple[int, dict[str, str]]:
        asker = server.client()
        try:
            body = {**CLAIM, "time_limit": seconds, "leader": leader}
            status, headers, _body = asker.call(
                "POST", "/api/v1/check/claim", body, {"X-Forwarded-For": address}
            )
            return status, headers
        finally:
            asker.close()

    answers: list[tuple[int, dict[str, str]]] = []
    running = threading.Thread(target=lambda: answers.append(claim("198.51.100.1", 6)))
    running.start()
    wait_for_solvers(server, 1)  # the first claim is searched: it holds its client's place
    status, headers = claim("198.51.100.1", 1, 1)
    assert status == 429 and headers["retry-after"] == "5"  # the pool's, not the limiter's 60
    status, headers = claim("198.51.100.2", 1, 1)
    # the one place is taken: when the running search must end (6 s and the line's grace)
    assert status == 503 and 1 <= int(headers["retry-after"]) <= 11
    running.join(60)
    assert answers[0][0] == 200 and "retry-after" not in answers[0][1]
