"""The standings board's live content for a big night: how long one render takes.

Each new version of a night (a deal at any table) costs one render of the board's
content per process (``/events/<id>/board/live`` is then kept by version); each
table's piece is kept until its own game changes. Prints, for 15, 50, 100 and 200
tables: the size of the content, its first render (after a round is drawn: every
piece new; once a deal is played at every table: every table's piece new), and the
best of 5 later ones (the tables' pieces kept), after the draw (with the "find your
seat" list of every player) and while the round is played.

    .venv/bin/python benchmarks/board_render.py
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask, render_template

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.store.events import services
from scorekeeper.web.events.present import board_page

TABLES = (15, 50, 100, 200)
RUNS = 5
TRIX = {"contracts": ["trix"], "captures": {"trix_order": [0, 1, 2, 3]}}


def night(app: Flask, tables: int) -> tuple[str, list[dict[str, str]]]:
    client = app.test_client()
    players = [f"Player {i:03d}" for i in range(4 * tables)]
    made = client.post("/api/v1/events", json={"name": "Big", "players": players}).json
    assert made is not None
    token = made["director_token"]
    drawn = client.post(
        f"/api/v1/events/{made['id']}/rounds", headers={"Authorization": f"Bearer {token}"}
    ).json
    assert drawn is not None
    return str(made["id"]), drawn["tables"]


def best(render: Callable[[], str]) -> tuple[float, int]:
    times: list[float] = []
    size = 0
    for _ in range(RUNS):
        started = time.perf_counter()
        size = len(render())
        times.append(time.perf_counter() - started)
    return min(times) * 1000, size


def measure(app: Flask, event_id: str) -> tuple[float, float, int]:
    def render() -> str:
        return render_template("events/_board.html", page=board_page(services.load_event(event_id)))

    with app.test_request_context():
        started = time.perf_counter()
        render()
        cold = (time.perf_counter() - started) * 1000
        warm, size = best(render)
    return cold, warm, size


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'b.sqlite'}", "TESTING": True}
        )
        with app.app_context():
            db.create_all()
            print(f"{'tables':>7}{'stage':>10}{'KiB':>8}{'first ms':>10}{'kept ms':>9}")
            for tables in TABLES:
                event_id, drawn = night(app, tables)
                cold, warm, size = measure(app, event_id)
                print(f"{tables:>7}{'seating':>10}{size / 1024:>8.0f}{cold:>10.1f}{warm:>9.1f}")
                client = app.test_client()
                for table in drawn:
                    headers = {"Authorization": f"Bearer {table['edit_token']}"}
                    client.post(f"/api/v1/games/{table['game']}/deals", json=TRIX, headers=headers)
                cold, warm, size = measure(app, event_id)
                print(f"{tables:>7}{'playing':>10}{size / 1024:>8.0f}{cold:>10.1f}{warm:>9.1f}")


if __name__ == "__main__":
    main()
