"""A lean HTTP/1.1 keep-alive client on asyncio streams, for load generators.

A load generator shares the 2 cores with the server it measures. With a
thread per table and ``http.client`` it took about 1.3 of the 2 cores to
drive 800 polling phones, so the server was measured starved of CPU. One event
loop writing ready-made request bytes and reading just the status line,
the headers and ``Content-Length`` bytes costs a fraction of that. It only has
to understand the app's own answers (gunicorn: ``Content-Length`` bodies, and
chunked event streams, read by :class:`EventStream`).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

IDLE_REOPEN = 4.0
"""gunicorn closes a keep-alive connection idle for 5 s (``keepalive``): reopen
before that rather than race its close."""


class Answer:
    """One response: status, headers (lower-case names) and body."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class Connection:
    """One keep-alive connection to ``127.0.0.1:port``, one request at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0
        self.reconnects = 0

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: Any = None
    ) -> Answer:
        """Send one request and read its answer; a connection the server closed while
        idle is opened again and the request sent once more (it was never read)."""
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        head += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        if self.writer is not None and time.monotonic() - self.last_used > IDLE_REOPEN:
            self.close()
        reused = self.writer is not None
        try:
            answer = await self._exchange(message)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
            self.reconnects += 1
            answer = await self._exchange(message)
        self.last_used = time.monotonic()
        if answer.headers.get("connection", "").lower() == "close":
            self.close()
        return answer

    async def _exchange(self, message: bytes) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(message)
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        if not status_line.strip():
            raise ConnectionResetError("closed before the answer")
        status = int(status_line.split(b" ", 2)[1])
        raw = await self.reader.readuntil(b"\r\n\r\n")
        headers = {}
        for line in raw.decode("latin-1").split("\r\n"):
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        body = await self.reader.readexactly(length) if length else b""
        return Answer(status, headers, body)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class EventStream:
    """One server-sent event stream (``text/event-stream``, chunked), read event by event."""

    def __init__(self, port: int, path: str) -> None:
        self.port = port
        self.path = path
        self.status = 0
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self._text = ""

    async def open(self) -> int:
        """Send the request and read the answer's head; its status."""
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        self.writer.write((head + "Accept: text/event-stream\r\n\r\n").encode())
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        self.status = int(status_line.split(b" ", 2)[1])
        raw = await self.reader.readuntil(b"\r\n\r\n")
        if self.status != 200:
            self.close()
        elif b"chunked" not in raw.lower():
            raise ValueError("an event stream that is not chunked")
        return self.status

    async def next_data(self) -> str | None:
        """The data of the next event, or None when the server ended the stream."""
        assert self.reader is not None
        while "\n\n" not in self._text:
            size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
            chunk = await self.reader.readexactly(size + 2)
            if size == 0:
                return None
            self._text += chunk[:-2].decode()
        event, self._text = self._text.split("\n\n", 1)
        data = [line[6:] for line in event.split("\n") if line.startswith("data: ")]
        return "\n".join(data) if data else await self.next_data()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
