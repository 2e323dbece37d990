"""The claim pool under gunicorn: claims beyond the server's places are refused with a clear
429/503, a dropped connection stops its search (the solver process is killed and the CPU
comes back), and a claim's page follows its search without JavaScript.

The server runs the tests' slow solver (tests/server/slow_solver.py: every search keeps a
CPU busy for the claim's whole time limit), so that these tests do not depend on how fast
the real search is; tests/web/disputes and tests/rules cover the real one's answers.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import threading
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.server.serving import Client, Server

pytestmark = pytest.mark.served

ENV = {
    "CLAIM_SOLVER_MODULE": "tests.server.slow_solver",
    "CLAIM_SLOTS": "2",
    "CLAIM_QUEUE": "0",
    "CLAIM_PER_CLIENT": "2",
    "TRUSTED_PROXIES": "1",  # the tests speak for several addresses (X-Forwarded-For)
}
CLAIM = {
    "contracts": ["collections"],
    "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
    "leader": 0,
    "claim": {"seat": 1, "min_score": 0},
}
FORM = {
    "contract": "collections",
    "hands-0": "2S 3S",
    "hands-1": "AS KS",
    "hands-2": "QS JS",
    "hands-3": "TS 9S",
    "leader": "0",
    "claimant": "1",
    "min_score": "0",
}


def _proc(pid: int) -> tuple[str, int, int, bytes] | None:
    """(state, parent, CPU ticks, command line) of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat, open(f"/proc/{pid}/cmdline", "rb") as cmd:
            fields = stat.read().rsplit(")", 1)[1].split()
            return fields[0], int(fields[1]), int(fields[11]) + int(fields[12]), cmd.read()
    except (OSError, IndexError, ValueError):
        return None


def _lowered(pid: int) -> bool:
    """Whether a process runs at the lowest priority: Linux's idle class, or nice 19
    (:func:`scorekeeper.web.server.workers.lower_priority`)."""
    if os.sched_getscheduler(pid) == getattr(os, "SCHED_IDLE", None):
        return True
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16]) == 19  # field 19: nice


def solvers(server: Server, module: bytes = b"slow_solver") -> dict[int, int]:
    """The server's solver processes still alive (children of its workers), with the CPU
    ticks each has used."""
    found = {}
    for entry in os.listdir("/proc"):
        info = _proc(int(entry)) if entry.isdigit() else None
        if not info or info[0] in ("Z", "X") or module not in info[3]:
            continue
        worker = _proc(info[1])
        if worker and worker[1] == server.process.pid:
            found[int(entry)] = info[2]
    return found


def wait_for_solvers(server: Server, count: int, within: float = 20) -> dict[int, int]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if len(found := solvers(server)) == count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{count} solver processes expected, found {solvers(server)}")


def claim(
    server: Server, address: str, seconds: float, leader: int = 0
) -> tuple[int, dict[str, str], Any]:
    client = Client(int(server.url.rsplit(":", 1)[1]), timeout=60)
    try:
        body = {**CLAIM, "time_limit": seconds, "leader": leader}  # leader: another claim
        return client.call("POST", "/api/v1/check/claim", body, {"X-Forwarded-For": address})
    finally:
        client.close()


def test_claims_beyond_the_servers_places_are_refused_clearly(
    database_url: str, serve: Callable[..., Server]
) -> None:
    server = serve(database_url, workers=3, threads=4, env=ENV)
    answers: list[tuple[int, dict[str, str], Any]] = []
    running = [  # two claims (the same one twice would be searched once)
        threading.Thread(target=lambda n=n: answers.append(claim(server, "10.0.0.1", 4, n)))
        for n in range(2)
    ]
    for thread in running:
        thread.start()
    searching = wait_for_solvers(server, 2)
    # The same address a third time: its share is used up.
    status, headers, body = claim(server, "10.0.0.1", 1)
    assert status == 429 and headers["retry-after"] == "5", body
    assert body["errors"][0]["message"].startswith("Claims sent from this address")
    # Another address: the server's two places are taken and nothing may queue.
    status, headers, body = claim(server, "10.0.0.2", 1)
    # honest: when the first running search must end (4 s and the line's grace), not later
    assert status == 503 and 1 <= int(headers["retry-after"]) <= 9, body
    assert body["errors"][0]["message"].startswith("Every place for judging claims is taken")
    assert server.client().call("GET", "/help")[0] == 200  # the pages are served meanwhile
    # ...and come first: the searches run at the lowest priority.
    deadline = time.monotonic() + 20  # each lowers itself as it starts
    while not all(_lowered(pid) for pid in searching) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(_lowered(pid) for pid in searching)
    for thread in running:
        thread.join(60)
    assert [a[0] for a in answers] == [200, 200]
    for _status, _headers, answer in answers:  # honest: not decided in time, not a guess
        assert answer["decided"] is False and answer["holds"] is None
        assert answer["message"] == "Not decided in time (4 s): no ruling."
    assert claim(server, "10.0.0.2", 1)[0] == 200  # the places came back


def test_a_dropped_connection_stops_its_search(
    database_url: str, serve: Callable[..., Server]
) -> None:
    server = serve(database_url, workers=2, threads=4, env=ENV)
    port = int(server.url.rsplit(":", 1)[1])
    data = json.dumps({**CLAIM, "time_limit": 30}).encode()
    sock = socket.create_connection(("127.0.0.1", port))
    head = (
        f"POST /api/v1/check/claim HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    ).encode()
    sock.sendall(head + data)
    ((pid, ticks),) = wait_for_solvers(server, 1).items()
    time.sleep(1)
    burning = _proc(pid)
    assert burning is not None and burning[2] > ticks  # the search is using a CPU
    sock.close()
    wait_for_solvers(server, 0, within=20)  # killed, not left to run its 30 s
    # Its place is free: the next claim runs at once.
    status, _headers, answer = claim(server, "10.0.0.3", 1)
    assert status == 200 and answer["decided"] is False


def _form_session(server: Server) -> tuple[str, str]:
    """(session cookie, CSRF token) of a browser that opened the claim form."""
    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=30)
    conn.request("GET", "/disputes/claim")
    response = conn.getresponse()
    page = response.read().decode()
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(response.getheader("Set-Cookie") or "")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, page[:500]
    conn.close()
    return "; ".join(f"{k}={m.value}" for k, m in cookie.items()), token.group(1)


def _get(server: Server, path: str, cookie: str) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=30)
    try:
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        headers = {k.lower(): v for k, v in response.getheaders()}
        return response.status, headers, response.read().decode()
    finally:
        conn.close()


def test_a_claims_page_follows_its_search_without_javascript(
    database_url: str, serve: Callable[..., Server]
) -> None:
    server = serve(database_url, workers=3, threads=4, env=ENV)
    cookie, token = _form_session(server)
    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=30)
    form = urlencode({**FORM, "time_limit": "4", "csrf_token": token})
    conn.request(
        "POST",
        "/disputes/claim",
        body=form,
        headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
    )
    response = conn.getresponse()
    response.read()
    conn.close()
    assert response.status == 303
    page = (response.getheader("Location") or "").split("#")[0]
    status, headers, body = _get(server, page, cookie)  # most likely served by another worker
    assert status == 200 and headers["cache-control"] == "no-store"
    assert f'<noscript><meta http-equiv="refresh" content="2; url={page}"></noscript>' in body
    assert "script-src 'self'" in headers["content-security-policy"] and "<script>" not in body
    assert re.search(r"Judging the claim: \d s of at most 4 s\.", body), body
    deadline = time.monotonic() + 20
    while "http-equiv" in body and time.monotonic() < deadline:
        time.sleep(0.5)  # what the browser does every 2 s
        status, headers, body = _get(server, page, cookie)
    assert status == 200 and "Not decided in time (4 s): no ruling." in body
    assert 'data-testid="claim-progress"' not in body


def _scheduling(pid: int) -> tuple[int, int, int]:
    """(session, nice, scheduling policy) of a process (proc(5): fields 6, 19 and 41)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[3]), int(fields[16]), int(fields[38])


def test_the_solver_yields_the_cpu_to_the_pages(
    database_url: str, serve: Callable[..., Server]
) -> None:
    """The real solver process, kept for the next claim, runs in Linux's idle class at the
    lowest nice, in the server's own session: within one session (one autogroup) a woken
    web worker preempts an idle-class process at once."""
    server = serve(database_url, workers=2, threads=4, env={"TRUSTED_PROXIES": "1"})
    status, _headers, answer = claim(server, "10.0.0.4", 5)
    assert status == 200 and answer["decided"] is True, answer
    kept = solvers(server, b"scorekeeper.web.disputes.solver")
    assert len(kept) == 1, kept
    (pid,) = kept
    session, nice, policy = _scheduling(pid)
    assert (session, nice, policy) == (_scheduling(server.process.pid)[0], 19, os.SCHED_IDLE)
