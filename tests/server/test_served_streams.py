"""Event streams through gunicorn: a phone listening on one server hears a deal recorded
on another at once; a worker's stream slots are bounded; a stopping server ends its
streams instead of waiting for them (scorekeeper/web/live/streams.py)."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from scorekeeper.web.live.streams import HEARTBEAT_SECONDS
from tests.server.serving import Client, Server
from tests.web.events.test_api import kingdom

pytestmark = pytest.mark.served

PUSHED_WITHIN = HEARTBEAT_SECONDS / 2
"""How long a test waits for a pushed event: generous, and shorter than a stream takes to
find a change by itself (its wait times out after HEARTBEAT_SECONDS, and it reads again)."""


class Listener:
    """A raw connection reading one game's event stream in a thread of its own."""

    def __init__(self, server: Server, game_id: str) -> None:
        port = int(server.url.rsplit(":", 1)[1])
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        request = (
            f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.head = b""
        self.versions: queue.Queue[int] = queue.Queue()
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        try:
            while chunk := self.sock.recv(4096):
                buffer += chunk
                if not self.head and b"\r\n\r\n" in buffer:
                    self.head, buffer = buffer.split(b"\r\n\r\n", 1)
                for version in _versions_in(buffer):
                    self.versions.put(version)
                buffer = buffer[buffer.rfind(b"\n\n") + 2 :] if b"\n\n" in buffer else buffer
        except OSError:
            pass
        self.ended.set()

    def next_version(self, within: float = 30.0) -> int:
        return self.versions.get(timeout=within)

    def close(self) -> None:
        """Closed as a browser closes it (shut down: the reading thread holds the socket)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def _versions_in(buffer: bytes) -> Iterator[int]:
    complete = buffer[: buffer.rfind(b"\n\n")] if b"\n\n" in buffer else b""
    for line in complete.split(b"\n"):
        if line.startswith(b"data: "):
            yield int(line[6:].strip())


def record(client: Client, game_id: str, token: str, n: int) -> int:
    """The new version after the kingdom's deal ``n``."""
    auth = {"Authorization": f"Bearer {token}"}
    status, _headers, answer = client.call(
        "POST", f"/api/v1/games/{game_id}/deals", kingdom()[n], auth
    )
    assert status == 201, answer
    return int(answer["game"]["version"])


def test_served_a_stream_on_one_server_hears_a_deal_recorded_on_another(
    serve: Callable[..., Server], database_url: str
) -> None:
    one = serve(database_url, workers=2)
    other = serve(database_url, workers=2) if database_url.startswith("postgresql") else one
    recorder = one.client()
    game_id, token, state = recorder.new_game()
    listener = Listener(other, game_id)
    try:
        assert listener.next_version() == state["version"]  # the version it starts at
        assert b"200 OK" in listener.head and b"text/event-stream" in listener.head
        for n in range(3):
            version = record(recorder, game_id, token, n)
            # Pushed: a stream that missed the change would only find it when its wait
            # times out, HEARTBEAT_SECONDS after its last event; half that is a guard.
            assert listener.next_version(within=PUSHED_WITHIN) == version
    finally:
        listener.close()


def test_served_streams_beyond_a_workers_slots_are_refused_at_once(
    serve: Callable[..., Server], database_url: str
) -> None:
    server = serve(database_url, workers=1, env={"LIVE_STREAMS": "2"})
    client = server.client()
    game_id, _token, _state = client.new_game()
    listeners = [Listener(server, game_id) for _ in range(2)]
    try:
        for listener in listeners:
            listener.next_version()
        status, headers, body = client.call("GET", f"/games/{game_id}/stream")
        assert status == 503 and headers["retry-after"] == "30"
        assert "checks for changes every few seconds" in body["errors"][0]["message"]
        status, _headers, _body = client.call("GET", f"/games/{game_id}/version")
        assert status == 200  # the request threads stay free for everything else
        listeners[0].close()
        _wait_for_a_slot(server, game_id)
    finally:
        for listener in listeners:
            listener.close()


def _wait_for_a_slot(server: Server, game_id: str, within: float = 60.0) -> None:
    """A closed stream's slot comes back once the server notices (at its next heartbeat)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        listener = Listener(server, game_id)
        try:
            listener.ended.wait(1.0)
            if b"200 OK" in listener.head:
                return
        finally:
            listener.close()
    raise AssertionError("the closed stream's slot never came back")


def test_served_a_stopping_server_ends_its_streams_at_once(
    serve: Callable[..., Server], database_url: str
) -> None:
    server = serve(database_url, workers=2)
    game_id, _token, _state = server.client().new_game()
    listeners = [Listener(server, game_id) for _ in range(4)]
    for listener in listeners:
        listener.next_version()
    server.stop()
    # Stopped by SIGTERM alone: had the workers waited for their streams' own end (25 s),
    # stop() would have killed the master after its 20 s.
    assert server.process.returncode == 0
    assert all(listener.ended.wait(30) for listener in listeners)  # a guard
