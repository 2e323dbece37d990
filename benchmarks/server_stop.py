"""How long a served app takes to stop after SIGTERM, as ``scripts/run.sh`` serves it.

Run: ``python benchmarks/server_stop.py [--runs 5] [--workers 5] [--streams 4]``.

Each run starts the app under gunicorn (``gunicorn.conf.py``, through
tests/server/serving.py) on a SQLite file, lets every worker boot and serve,
opens ``--streams`` live pages' event streams, then sends SIGTERM to the
master alone, as a service manager does, and times until the master has
exited. It prints each run and the median. Target: under 5 s with streams
open (they are ended at once, not left to run their 25 s), and with none.

Before the workers ended their process at once (``worker_exit`` in
gunicorn.conf.py) and the master froze its heap (``gc.freeze``), five
workers on two busy cores took 28–34 s: each one's last garbage collection
walked, and so copied, the whole heap it shared with the master.
"""

from __future__ import annotations

import argparse
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.serving import create_schema, start_server  # noqa: E402


def open_stream(url: str, game_id: str) -> socket.socket:
    port = int(url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(
        f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    sock.recv(4096)  # the head: the stream is open
    return sock


def one_run(folder: Path, run: int, workers: int, streams: int) -> float:
    url = f"sqlite:///{folder / f'stop-{run}.sqlite'}"
    create_schema(url)
    server = start_server(url, folder / f"stop-{run}.log", workers=workers)
    client = server.client()
    game_id, _token, _state = client.new_game()
    for _ in range(workers * 4):  # every worker has served
        client.call("GET", f"/games/{game_id}")
    client.close()
    open_streams = [open_stream(server.url, game_id) for _ in range(streams)]
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=120)
    took = time.monotonic() - started
    for sock in open_streams:
        sock.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=5)
    parser.add_argument("--streams", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for streams in sorted({0, args.streams}):
            times = [one_run(Path(tmp), run, args.workers, streams) for run in range(args.runs)]
            shown = ", ".join(f"{t:.2f}" for t in times)
            print(
                f"{args.workers} workers, {streams} streams open: SIGTERM to exit "
                f"median {statistics.median(times):.2f} s (runs: {shown})"
            )


if __name__ == "__main__":
    main()
