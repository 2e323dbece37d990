"""Slow clients and a killed master, under gunicorn (gunicorn.conf.py).

- A POST whose body never arrives is answered 408 (scorekeeper/web/server/bodies.py) and
  holds no work slot meanwhile: with two dozen of them open, and a handful of
  connections sending their headers a byte at a time, the pages still answer.
- A SIGKILL of the master alone leaves no worker and no claim search running
  (the workers' parent-death signal, the children's watch of their parent).

Timings are benchmarks/abuse.py's to print; these tests only assert what happens,
with generous guard timeouts.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

import pytest

from tests.server.serving import (
    Client,
    Server,
    children_of,
    long_claim_request,
    post_request,
    running,
    slow_solvers_of,
)

pytestmark = pytest.mark.served

GUARD_SECONDS = 30.0
"""The longest a test waits for what must happen (never a speed assertion)."""
SLOW_BODIES = 24
SLOW_HEADS = 6
CLAIMS_ENV = {"CLAIM_SOLVER_MODULE": "tests.server.slow_solver", "CLAIM_SLOTS": "1"}


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


@contextmanager
def half_sent(server: Server, count: int, head: bytes) -> Iterator[list[socket.socket]]:
    """``count`` connections that sent ``head`` and then nothing more; closed afterwards."""
    with ExitStack() as stack:
        socks = []
        for _ in range(count):
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port_of(server))))
            sock.sendall(head)
            socks.append(sock)
        yield socks


def answer_of(sock: socket.socket) -> bytes:
    """Whatever the server sends before it closes the connection (b"" if it just closes)."""
    sock.settimeout(GUARD_SECONDS)
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def test_slow_bodies_get_408_and_the_pages_still_answer(
    database_url: str, serve: Callable[..., Server]
) -> None:
    server = serve(database_url, workers=2, threads=4, env={"BODY_TIMEOUT": "5"})
    game_id, _token, _state = server.client().new_game()
    bodies = half_sent(server, SLOW_BODIES, post_request("/api/v1/games", 200, b'{"players": ['))
    heads = half_sent(server, SLOW_HEADS, b"GET /help HTTP/1.1\r\nHost: 127.")
    with bodies as slow, heads as slower:
        time.sleep(0.5)  # every one of them is on a thread of its worker by now
        page = Client(port_of(server), timeout=GUARD_SECONDS)
        assert page.call("GET", f"/games/{game_id}")[0] == 200
        assert page.call("POST", "/api/v1/games", {"players": ["A", "B", "C", "D"]})[0] == 201
        answers = [answer_of(sock) for sock in slow]
        cut = [answer_of(sock) for sock in slower]
    statuses = {answer.split(b"\r\n", 1)[0] for answer in answers}
    assert statuses == {b"HTTP/1.1 408 Request Timeout"}, statuses
    body = json.loads(answers[0].split(b"\r\n\r\n", 1)[1])
    assert body["ok"] is False and "did not arrive within 5 seconds" in body["errors"][0]["message"]
    assert cut == [b""] * SLOW_HEADS  # a head past its deadline: closed, unanswered


def _wait_until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + GUARD_SECONDS
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {GUARD_SECONDS} s: {what}")
        time.sleep(0.1)


def test_a_killed_master_leaves_no_worker_and_no_search(
    database_url: str, serve: Callable[..., Server]
) -> None:
    server = serve(database_url, workers=2, threads=4, env=CLAIMS_ENV)
    _wait_until(lambda: len(children_of(server.process.pid)) == 2, "both workers forked")
    workers = children_of(server.process.pid)
    claim = socket.create_connection(("127.0.0.1", port_of(server)))
    claim.sendall(long_claim_request())  # and it waits
    try:
        searches: list[int] = []
        _wait_until(lambda: bool(searches.extend(slow_solvers_of(workers)) or searches), "a search")
        os.kill(server.process.pid, signal.SIGKILL)  # the master alone
        server.process.wait(GUARD_SECONDS)
        # The claim's client is still there: only their master's death can stop them.
        _wait_until(lambda: not any(map(running, workers)), f"the workers {workers} end")
        _wait_until(lambda: not any(map(running, searches)), f"the search {searches} ends")
    finally:
        claim.close()


def test_a_body_on_its_way_holds_no_work_slot(
    database_url: str, serve: Callable[..., Server]
) -> None:
    """With one work slot, a page is served while a body is on its way; the body, whole
    within its deadline, is then served as usual."""
    server = serve(database_url, workers=1, threads=1, env={"BODY_TIMEOUT": "20"})
    data = json.dumps({"players": ["Rana", "Sami", "Omar", "Lina"]}).encode()
    sock = socket.create_connection(("127.0.0.1", port_of(server)))
    with sock:
        sock.sendall(post_request("/api/v1/games", len(data), data[:10]))
        done = threading.Event()
        page = threading.Thread(
            target=lambda: (server.client().call("GET", "/help"), done.set()), daemon=True
        )
        page.start()
        assert done.wait(GUARD_SECONDS)  # the one work slot is free while the body comes
        sock.sendall(data[10:])
        assert answer_of_first(sock).startswith(b"HTTP/1.1 201")


def answer_of_first(sock: socket.socket) -> bytes:
    """The first bytes the server answers."""
    sock.settimeout(GUARD_SECONDS)
    return sock.recv(65536)
