"""Kill the server (SIGKILL, master and workers) in the middle of a burst of writes.

The SQLite file must then open, pass ``PRAGMA integrity_check``, and hold
every game and deal the server had acknowledged (201) before it died.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.store import games as services

pytestmark = pytest.mark.served

WRITERS = 8
ACKS_BEFORE_KILL = 80
DEALS = [
    {"contracts": ["trix"], "captures": {"trix_order": [1, 0, 3, 2]}},
    {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1, "doubled_by": None}}},
    {"contracts": ["diamonds"], "captures": {"diamonds": [5, 4, 3, 1]}},
    {"contracts": ["collections"], "captures": {"tricks": [2, 3, 4, 4]}},
]


class Burst:
    """Writer threads creating games and recording deals as fast as they can."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.lock = threading.Lock()
        self.games: list[str] = []
        self.deals: list[tuple[str, int, dict[str, Any]]] = []
        self.stop = threading.Event()

    def write(self) -> None:
        client = self.server.client()
        try:
            while not self.stop.is_set():
                self.one_game(client)
        except (OSError, http.client.HTTPException):
            return  # the server died under us: what was acknowledged is recorded

    def one_game(self, client: Any) -> None:
        game_id, token, _ = client.new_game()
        with self.lock:
            self.games.append(game_id)
        auth = {"Authorization": f"Bearer {token}"}
        for n, deal in enumerate(DEALS, start=1):
            status, _, body = client.call("POST", f"/api/v1/games/{game_id}/deals", deal, auth)
            assert status == 201, body
            with self.lock:
                self.deals.append((game_id, n, body["deal"]))

    def acknowledged(self) -> int:
        with self.lock:
            return len(self.deals)


def run_and_kill(server: Any) -> Burst:
    burst = Burst(server)
    threads = [threading.Thread(target=burst.write) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while burst.acknowledged() < ACKS_BEFORE_KILL and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # SIGKILL to the whole process group, mid-burst
    burst.stop.set()
    for thread in threads:
        thread.join(timeout=60)
    server.process.wait(timeout=10)
    return burst


def check_file(path: Path, burst: Burst) -> None:
    """Integrity, WAL mode, and every acknowledged game and deal present."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        stored = {row[0] for row in conn.execute("SELECT id FROM games")}
        assert set(burst.games) <= stored
        for game_id, n, deal in burst.deals:
            row = conn.execute(
                "SELECT payload FROM log_entries WHERE game_id = ? AND position = ?",
                (game_id, n - 1),
            ).fetchone()
            assert row is not None, (game_id, n)
            payload = json.loads(row[0])
            assert (payload["contracts"], payload["captures"]) == (
                deal["contracts"],
                deal["captures"],
            )
    finally:
        conn.close()


def test_sigkill_mid_burst_keeps_every_acknowledged_deal(
    serve: Any, sqlite_url: str, tmp_path: Path
) -> None:
    server = serve(sqlite_url, workers=3, threads=4)
    burst = run_and_kill(server)
    assert burst.acknowledged() >= ACKS_BEFORE_KILL
    check_file(Path(sqlite_url.removeprefix("sqlite:///")), burst)
    app = create_app({"SQLALCHEMY_DATABASE_URI": sqlite_url, "SECRET_KEY": "after-the-crash"})
    with app.app_context():  # the app opens it, and every acknowledged deal replays
        for game_id, n, deal in burst.deals:
            loaded = services.load_game(game_id)
            assert loaded.game.deals_played >= n
            assert loaded.game.deals[n - 1].to_dict() == deal
