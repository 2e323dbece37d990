"""The body first, then a work slot (scorekeeper/web/server/bodies.py): a body on its way holds no
slot, a body that does not arrive in time is a 408 that never reaches the app, and the
app gets the whole body, chunked or not, or its own 413."""

from __future__ import annotations

import io
import json
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.store.backup_format import IMPORT_BYTES_MAX
from scorekeeper.store.circles.backup import RESTORE_BYTES_MAX
from scorekeeper.web.server.bodies import (
    LARGE_READERS,
    UPLOAD_RATE_MIN,
    BodyFirst,
    readers_of,
    route_limit_of,
)


class Echo:
    """A WSGI app that answers the body it got, and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        self.calls += 1
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        start_response("200 OK", [("Content-Type", "application/octet-stream")])
        return [body]


class Answer:
    """What a middleware answered: its status, headers and body."""

    def __init__(self) -> None:
        self.status = ""
        self.headers: dict[str, str] = {}

    def __call__(self, status: str, headers: list[tuple[str, str]]) -> None:
        self.status, self.headers = status, dict(headers)


@pytest.fixture
def connection() -> Iterator[tuple[socket.socket, socket.socket]]:
    """(the server's end, the client's end) of a connection."""
    server, client = socket.socketpair()
    yield server, client
    server.close()
    client.close()


def environ_of(server: socket.socket, path: str = "/api/v1/games", **more: str) -> dict[str, Any]:
    return {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "wsgi.input": server.makefile("rb"),
        "gunicorn.socket": server,
        **more,
    }


def call(middleware: BodyFirst, environ: dict[str, Any]) -> tuple[Answer, bytes]:
    answer = Answer()
    body = b"".join(middleware(environ, answer))
    return answer, body


def test_the_app_gets_the_whole_body(connection: tuple[socket.socket, socket.socket]) -> None:
    server, client = connection
    app = Echo()
    client.sendall(b'{"players": 4}')
    answer, body = call(BodyFirst(app, 1), environ_of(server, CONTENT_LENGTH="14"))
    assert (answer.status, body) == ("200 OK", b'{"players": 4}')


def test_a_chunked_body_arrives_whole(connection: tuple[socket.socket, socket.socket]) -> None:
    """gunicorn hands the app the body without its chunks: the app then sees its length."""
    server, client = connection
    seen: dict[str, Any] = {}

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        seen.update(environ)
        start_response("200 OK", [])
        return [environ["wsgi.input"].read()]

    client.sendall(b"all of it")
    client.shutdown(socket.SHUT_WR)  # the end of the (dechunked) body
    environ = environ_of(server, HTTP_TRANSFER_ENCODING="chunked")
    answer, body = call(BodyFirst(app, 1), environ)
    assert body == b"all of it"
    assert seen["CONTENT_LENGTH"] == "9" and "HTTP_TRANSFER_ENCODING" not in seen


def test_a_slow_body_is_a_408_that_never_reaches_the_app(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    server, client = connection
    app = Echo()
    client.sendall(b'{"pla')  # and nothing more
    answer, body = call(
        BodyFirst(app, 1, body_timeout=0.5), environ_of(server, CONTENT_LENGTH="100")
    )
    assert answer.status == "408 Request Timeout" and app.calls == 0
    assert "did not arrive within 0.5 seconds" in json.loads(body)["errors"][0]["message"]
    assert answer.headers["Content-Security-Policy"]


def test_a_trickled_body_is_cut_at_its_deadline(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    """A byte now and then keeps every single read short of its own timeout: the whole
    body's deadline still holds."""
    server, client = connection
    app = Echo()
    stop = threading.Event()

    def trickle() -> None:
        while not stop.wait(0.1):
            try:
                client.sendall(b"a")
            except OSError:
                return

    sender = threading.Thread(target=trickle)
    sender.start()
    try:
        answer, body = call(
            BodyFirst(app, 1, body_timeout=0.8), environ_of(server, "/games", CONTENT_LENGTH="99")
        )
    finally:
        stop.set()
        sender.join()
    assert answer.status == "408 Request Timeout" and app.calls == 0
    assert answer.headers["Content-Type"].startswith("text/html") and b"0.8 seconds" in body


def test_a_body_on_its_way_holds_no_work_slot(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    server, client = connection
    app = Echo()
    middleware = BodyFirst(app, 1, body_timeout=30)
    waiting = threading.Thread(
        target=call, args=(middleware, environ_of(server, CONTENT_LENGTH="10"))
    )
    waiting.start()
    try:
        answer = Answer()
        done = threading.Event()
        bodiless = {"PATH_INFO": "/help", "wsgi.input": io.BytesIO()}
        threading.Thread(target=lambda: (middleware(bodiless, answer), done.set())).start()
        assert done.wait(5)  # the only slot was free while the body was on its way
        assert answer.status == "200 OK"
    finally:
        client.sendall(b"0123456789")
        waiting.join()
    assert app.calls == 2


def test_a_body_too_long_goes_to_the_app_unread(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    """Its declared length is past the limit: the app answers its own 413."""
    server, client = connection
    app = Echo()
    client.sendall(b"x" * 64)
    answer, body = call(BodyFirst(app, 1, max_length=16), environ_of(server, CONTENT_LENGTH="64"))
    assert app.calls == 1 and len(body) == 64  # Echo reads it itself; Flask would refuse it


def test_more_bodies_than_the_readers_are_a_503(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    server, client = connection
    app = Echo()
    middleware = BodyFirst(app, 1, body_timeout=30, readers=1)
    first = threading.Thread(target=call, args=(middleware, environ_of(server, CONTENT_LENGTH="2")))
    first.start()
    other, other_client = socket.socketpair()
    try:
        for _ in range(100):  # until the first one reads
            answer, body = call(middleware, environ_of(other, CONTENT_LENGTH="2"))
            if answer.status.startswith("503"):
                break
            threading.Event().wait(0.01)
        assert answer.status == "503 Service Unavailable" and answer.headers["Retry-After"]
    finally:
        client.sendall(b"ok")
        first.join()
        other.close()
        other_client.close()
    assert readers_of(64) == 48


def test_a_slow_body_through_flask_is_a_408(make_app: Callable[..., Flask]) -> None:
    """The middleware is around the whole app: a body cut short is refused before Flask."""
    app = make_app(BODY_TIMEOUT=0.3)
    with app.app_context():
        db.create_all()
    server, client = socket.socketpair()
    try:
        client.sendall(b'{"players"')
        answer = Answer()
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": "/api/v1/games",
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "80",
            "wsgi.url_scheme": "http",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": "60",
            "wsgi.input": server.makefile("rb"),
            "gunicorn.socket": server,
        }
        body = b"".join(app(environ, answer))
    finally:
        server.close()
        client.close()
    assert answer.status.startswith("408") and json.loads(body)["ok"] is False


def test_a_route_with_its_own_limit_gets_its_whole_body_read_first(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    """A backup upload past ``MAX_CONTENT_LENGTH`` but within its route's limit is read
    whole by the middleware, chunked too: the app never reads it in a work slot."""
    server, client = connection
    seen: dict[str, Any] = {}

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        seen["input"] = environ["wsgi.input"]
        start_response("200 OK", [])
        return [environ["wsgi.input"].read()]

    sent = b"x" * 200
    client.sendall(sent)
    client.shutdown(socket.SHUT_WR)
    middleware = BodyFirst(app, 1, max_length=16, limit_of=lambda environ: 1000)
    answer, body = call(middleware, environ_of(server, HTTP_TRANSFER_ENCODING="chunked"))
    assert (answer.status, body) == ("200 OK", sent)  # whole, not cut at 16 + 1 bytes
    assert isinstance(seen["input"], io.BytesIO)


def test_a_stalled_upload_within_its_route_limit_is_a_408(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    """Declared past ``MAX_CONTENT_LENGTH`` and within the route's own limit, a body that
    never comes is refused by the middleware, never handed to the app to wait on."""
    server, client = connection
    app = Echo()
    client.sendall(b'{"format": "scorekeeper.game"')  # and nothing more
    middleware = BodyFirst(app, 1, body_timeout=0.5, max_length=16, limit_of=lambda e: 10_000)
    answer, _body = call(middleware, environ_of(server, CONTENT_LENGTH="1000"))
    assert answer.status == "408 Request Timeout" and app.calls == 0


def test_a_body_past_its_route_limit_goes_to_the_app_unread(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    server, client = connection
    seen: dict[str, Any] = {}

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        seen["input"] = environ["wsgi.input"]
        start_response("413 Content Too Large", [])
        return []

    middleware = BodyFirst(app, 1, max_length=16, limit_of=lambda environ: 100)
    answer, _body = call(middleware, environ_of(server, CONTENT_LENGTH="101"))
    assert answer.status.startswith("413") and not isinstance(seen["input"], io.BytesIO)


def test_a_large_upload_has_time_for_its_size() -> None:
    """The deadline grows with what a body past ``MAX_CONTENT_LENGTH`` declares (or, when
    chunked, with its route's limit): a large backup from a slow phone still arrives."""
    middleware = BodyFirst(Echo(), 1, body_timeout=10, max_length=256 * 1024)
    assert middleware.deadline_of(200, None) == middleware.deadline_of(256 * 1024, 4096) == 10
    assert middleware.deadline_of(None, 256 * 1024 + UPLOAD_RATE_MIN * 4) == 14
    assert middleware.deadline_of(256 * 1024 + UPLOAD_RATE_MIN * 2, 10**9) == 12


def test_few_large_bodies_are_read_at_once(
    connection: tuple[socket.socket, socket.socket],
) -> None:
    """Past :data:`LARGE_READERS` large bodies on their way, one more is a 503 (memory),
    while a small body still finds a reader."""
    server, client = connection
    app = Echo()
    middleware = BodyFirst(app, 1, body_timeout=30, max_length=4, limit_of=lambda e: 100)
    pairs = [socket.socketpair() for _ in range(LARGE_READERS)]
    readers = [
        threading.Thread(target=call, args=(middleware, environ_of(s, CONTENT_LENGTH="50")))
        for s, _c in pairs
    ]
    for reader in readers:
        reader.start()
    try:
        for _ in range(200):  # until every one of them reads
            answer, _body = call(middleware, environ_of(server, CONTENT_LENGTH="50"))
            if answer.status.startswith("503"):
                break
            threading.Event().wait(0.01)
        assert answer.status == "503 Service Unavailable" and answer.headers["Retry-After"]
        client.sendall(b"ok")
        answer, body = call(middleware, environ_of(server, CONTENT_LENGTH="2"))
        assert (answer.status, body) == ("200 OK", b"ok")
    finally:
        for _s, c in pairs:
            c.sendall(b"y" * 50)
        for reader in readers:
            reader.join()
        for s, c in pairs:
            s.close()
            c.close()


def test_the_backup_routes_have_their_own_limits(make_app: Callable[..., Flask]) -> None:
    """The middleware finds a request's limit by its route: the two game imports and the
    circle restore take their backups' sizes; every other route, ``MAX_CONTENT_LENGTH``."""
    app = make_app()
    limit_of = route_limit_of(app)

    def limit(path: str, method: str = "POST") -> int | None:
        return limit_of({"PATH_INFO": path, "REQUEST_METHOD": method, "SERVER_NAME": "x",
                         "SERVER_PORT": "80", "wsgi.url_scheme": "http"})  # fmt: skip

    assert limit("/api/v1/games/import") == limit("/games/import") == IMPORT_BYTES_MAX
    assert limit("/circles/restore") == RESTORE_BYTES_MAX > IMPORT_BYTES_MAX
    default = app.config["MAX_CONTENT_LENGTH"]
    assert limit("/api/v1/games") == limit("/no/such/page") == default
    assert limit("/api/v1/games/import", "PUT") == default  # no such route: the app answers
