"""A real server: the app under gunicorn (gunicorn.conf.py) on loopback, and its databases.

Shared by the server tests (tests/server/conftest.py) and the benchmarks
(load_tables.py, abuse.py); no pytest here. ``start_server`` runs ``python -m
gunicorn -c gunicorn.conf.py wsgi:app`` on a free 127.0.0.1 port in its own
process group (so that a test can kill the master and its workers at once),
with rate limits off: all the simulated phones share one loopback address. The
helpers at the end look at a server's processes (/proc): its workers, their
solvers, whether one still runs.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorekeeper import create_app
from scorekeeper.extensions import db

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Rana", "Sami", "Omar", "Lina"]
START_TIMEOUT = 90.0
LONG_CLAIM = {
    "contracts": ["collections"],
    "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
    "leader": 0,
    "claim": {"seat": 1, "min_score": 0},
    "time_limit": 60,
}
"""A claim that keeps a search busy for a minute under the tests' slow solver
(``CLAIM_SOLVER_MODULE=tests.server.slow_solver``)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def create_schema(database_url: str) -> None:
    """The app's tables in an empty database."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "schema"})
    with app.app_context():
        db.create_all()
        db.engine.dispose()


@dataclass
class Server:
    """A gunicorn process group serving the app; ``url`` is its base address."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the master and every worker at once (they share a process group)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    def stop(self) -> None:
        """A graceful stop, as a service manager asks it: TERM to the master, which stops
        its workers (one still booting ends at once: gunicorn.conf.py's ``post_fork``).
        Should the master still wait past a few seconds, TERM goes to each process of
        the group, and whatever is left is then killed."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 20), (None, 10)):
            try:
                self.process.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                if sig is not None:
                    self.kill(sig)
        self.kill(signal.SIGKILL)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def client(self) -> Client:
        """A new keep-alive connection to this server (one per thread)."""
        return Client(int(self.url.rsplit(":", 1)[1]))


def start_server(
    database_url: str,
    log: Path,
    workers: int | None = 3,
    threads: int | None = 4,
    env: dict[str, str] | None = None,
) -> Server:
    """Start gunicorn and wait until it answers.

    ``workers``/``threads`` None: gunicorn.conf.py's own defaults; ``env`` adds settings
    (``GUNICORN_CERTFILE`` and ``GUNICORN_KEYFILE``: served over HTTPS, ``url`` https://).
    """
    port = free_port()
    settings = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "server-tests",
        "RATELIMIT_ENABLED": "0",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        **(env or {}),
    }
    if workers is not None:
        settings["WEB_CONCURRENCY"] = str(workers)
    if threads is not None:
        settings["GUNICORN_THREADS"] = str(threads)
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "wsgi:app"]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=settings,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    tls = bool(settings.get("GUNICORN_CERTFILE"))
    server = Server(f"{'https' if tls else 'http'}://127.0.0.1:{port}", process, log)
    _wait_ready(server, port, tls)
    return server


def _answers(port: int, tls: bool) -> bool:
    if not tls:
        status, _, _ = Client(port).call("GET", "/help")
        return status == 200
    unverified = ssl._create_unverified_context()  # the tests' own self-signed certificate
    conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=unverified)
    try:
        conn.request("GET", "/help")
        return conn.getresponse().status == 200
    finally:
        conn.close()


def _wait_ready(server: Server, port: int, tls: bool = False) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited:\n{server.log_text()}")
        try:
            if _answers(port, tls):
                return
        except OSError:
            pass
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"gunicorn did not answer within {START_TIMEOUT} s:\n{server.log_text()}")


@dataclass
class Client:
    """One keep-alive HTTP connection (use one per thread); JSON in, JSON out."""

    port: int
    timeout: float = 30.0
    conn: http.client.HTTPConnection | None = field(default=None, repr=False)

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        """(status, headers, parsed JSON body or None)."""
        data = None if body is None else json.dumps(body).encode()
        head = {"Content-Type": "application/json", **(headers or {})}
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=data, headers=head)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()  # a keep-alive connection the server closed: the request
                if attempt == 2 or method != "GET":  # was not processed; retry only GETs
                    raise
        parsed = (
            json.loads(raw) if raw and "json" in response.getheader("Content-Type", "") else None
        )
        return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def new_game(self, **body: Any) -> tuple[str, str, dict[str, Any]]:
        """(id, edit token, state) of a game created through the API."""
        status, _, answer = self.call("POST", "/api/v1/games", {"players": PLAYERS, **body})
        assert status == 201, answer
        return answer["id"], answer["edit_token"], answer["game"]


@contextlib.contextmanager
def fresh_database(admin_url: str, prefix: str = "sk") -> Iterator[str]:
    """A new PostgreSQL database with the app's tables, on the server of ``admin_url``;
    dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        create_schema(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# --- processes -------------------------------------------------------------------------------


def post_request(path: str, length: int, start: bytes) -> bytes:
    """A JSON POST's head and the first bytes of its body of ``length`` bytes."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    )
    return head.encode() + start


def long_claim_request() -> bytes:
    """The whole request of :data:`LONG_CLAIM`, to send on a connection kept open."""
    data = json.dumps(LONG_CLAIM).encode()
    return post_request("/api/v1/check/claim", len(data), data)


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def slow_solvers_of(workers: list[int]) -> list[int]:
    """The tests' slow solver processes that ``workers`` started."""
    found = []
    for worker in workers:
        for child in children_of(worker):
            with contextlib.suppress(OSError), open(f"/proc/{child}/cmdline", "rb") as cmd:
                if b"slow_solver" in cmd.read():
                    found.append(child)
    return found
