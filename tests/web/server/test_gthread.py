"""The head deadlines of scorekeeper/web/server/gthread.py: a request's head that is not in by its
deadline has its connection's reading side shut, so that the thread reading it is freed;
a head that came in time is left alone."""

from __future__ import annotations

import socket
import threading
import time

from scorekeeper.web.server.gthread import HeadDeadlines


def test_a_head_past_its_deadline_is_cut_and_its_reader_freed() -> None:
    server, client = socket.socketpair()
    heads = HeadDeadlines(0.2)
    read: list[bytes] = []
    with server, client:
        client.sendall(b"GET /help HTTP/1.1\r\nHo")  # and the rest never comes
        heads.arm(server)
        assert server.recv(100).startswith(b"GET")
        reader = threading.Thread(target=lambda: read.append(server.recv(100)))
        reader.start()  # blocked, as gunicorn's parser is, waiting for the rest
        assert heads.cut_late(time.monotonic()) == 0  # not yet due
        time.sleep(0.3)
        assert heads.cut_late(time.monotonic()) == 1
        reader.join(5)
        assert not reader.is_alive() and read == [b""]  # as if the client had gone


def test_a_head_in_time_is_left_alone() -> None:
    server, client = socket.socketpair()
    heads = HeadDeadlines(0.1)
    with server, client:
        heads.arm(server)
        heads.disarm()  # the whole head arrived: the app's own limits apply now
        time.sleep(0.2)
        assert heads.cut_late(time.monotonic()) == 0
        client.sendall(b"body")
        assert server.recv(10) == b"body"
