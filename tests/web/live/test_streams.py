"""Work slots (scorekeeper/web/server/bodies.py) and stream slots
(scorekeeper/web/live/streams.py): the threads gunicorn adds for event streams never
run more ordinary requests at once than the request threads; a stream holds a work
slot only while it starts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.web.live.streams import _Stream
from scorekeeper.web.server.bodies import BodyFirst


class Counting:
    """A WSGI app that takes a while and counts how many of it run at once."""

    def __init__(self) -> None:
        self.running = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(0.05)
        with self.lock:
            self.running -= 1
        start_response("200 OK", [])
        return [b"ok"]


def test_no_more_requests_run_at_once_than_the_request_threads() -> None:
    app = Counting()
    slots = BodyFirst(app, 2)
    threads = [threading.Thread(target=slots, args=({}, lambda *a: None)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert app.most == 2


def test_a_stream_gives_its_slot_back_before_its_events() -> None:
    slots = BodyFirst(lambda environ, start: _events(), 1)
    stream = slots({}, lambda *a: None)
    finished = threading.Event()
    other = threading.Thread(target=lambda: (slots({}, lambda *a: None), finished.set()))
    other.start()
    assert finished.wait(2.0)  # the only slot was free while the stream was not yet read
    assert list(stream) == [b"data: 1\n\n"]


def _events() -> Iterator[bytes]:
    yield b"data: 1\n\n"


def test_a_stream_beyond_the_workers_stream_slots_is_a_503(make_app: Callable[..., Flask]) -> None:
    app = make_app(LIVE_STREAMS=0)
    with app.app_context():
        db.create_all()
    client = app.test_client()
    game = client.post(
        "/api/v1/games", json={"players": ["Rana", "Sami", "Omar", "Lina"]}
    ).get_json()
    response = client.get(f"/games/{game['id']}/stream")
    assert response.status_code == 503 and response.headers["Retry-After"] == "30"
    assert "checks for changes every few seconds" in response.get_json()["errors"][0]["message"]
    assert client.get("/games/nosuchgame1234/stream").status_code == 404


class FirstWait:
    """A version watch that notes how long a stream's first wait may last, then ends it."""

    def __init__(self) -> None:
        self.timeouts: list[float] = []

    def wait(self, kind: str, ident: str, seen: int, timeout: float) -> int | None:
        self.timeouts.append(timeout)
        return None


def test_streams_that_start_together_do_not_end_together() -> None:
    """Phones that connected at once (a server restart) must not reconnect in step each
    time: each stream lasts between three quarters of its seconds and all of them."""
    watch, slots = FirstWait(), threading.BoundedSemaphore(200)
    for _ in range(200):
        stream = _Stream(watch, "game", "g1", 1, slots, 10.0)  # type: ignore[arg-type]
        assert len(list(stream)) == 2  # the retry and the current version, then the end
    assert all(7.5 - 0.1 <= t <= 10.0 for t in watch.timeouts)
    assert max(watch.timeouts) - min(watch.timeouts) > 1.5
