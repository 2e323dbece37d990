"""PDF renders outside the web worker: render processes, a time limit and a server-wide bound.

A web worker never runs WeasyPrint itself. It hands the HTML to a render
process (:mod:`scorekeeper.web.paper.engine`, started with ``subprocess``: a new
interpreter, never a fork of a worker) and waits for the PDF:

- **Nothing crosses a fork.** The processes and the lock of a :class:`Renderer`
  belong to the process that made them; a forked child (a gunicorn worker
  forked from the master that loaded the app) starts with none
  (``os.register_at_fork``), so no lock can be inherited held.
- **A time limit that cuts off.** A render that takes longer than
  ``PDF_RENDER_TIMEOUT`` seconds is stopped by killing its process:
  :class:`SheetUnavailable` (a 503 page) and no thread left waiting.
- **A bound for the whole server.** At most ``PDF_RENDER_SLOTS`` renders run at
  once across all the workers of one server: each render holds one of that
  many slot files, locked with ``flock`` (a lock the kernel drops when its
  process dies, so a killed worker never keeps a slot). A request that finds
  no slot free within ``PDF_QUEUE_WAIT`` seconds (2 by default: it holds a
  thread and a connection meanwhile) gets a 503 with ``Retry-After``; the other
  tables' pages are never queued behind sheets. While it waits and renders, a
  request holds none of its worker's request slots nor a database connection
  (:func:`scorekeeper.web.paper.pdf.html_to_pdf`,
  :func:`scorekeeper.web.server.bodies.work_slot_lent`).
- **A bound per client.** One client (an address, an IPv6 /64:
  :func:`~scorekeeper.web.server.workers.client_of`) has at most ``PDF_PER_CLIENT``
  renders running or waiting at once, across the server; one more is a 429
  at once, so that a few looping clients cannot fill the queue.
- **The tables first.** A render process runs at the lowest ``nice``, so the
  pages keep their latency while sheets render on every core.

A render process is kept for the next render of the same worker: WeasyPrint's
start-up (about a second) is paid once, after the fork, by :meth:`Renderer.prewarm`
(gunicorn's ``post_fork``) or by the first download. The processes, the slots
and the frames are :mod:`scorekeeper.web.server.workers`', shared with the claim desk.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.web.paper.engine import Job
from scorekeeper.web.server import workers
from scorekeeper.web.server.workers import ChildStopped, NoSlot, ProcessPool

log = logging.getLogger(__name__)


RENDER_TIMEOUT = 20.0
QUEUE_WAIT = 2.0
PER_CLIENT = 2
RETRY_AFTER_SECONDS = 5
ENGINE_MODULE = "scorekeeper.web.paper.engine"
IDLE_KEPT = 4
"""Render processes a worker keeps (one per thread that may render at once)."""


class SheetUnavailable(Exception):
    """The sheet could not be rendered now (every slot busy, or too slow): a 503, not a bug."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        """``"client"`` (this client has its renders already: a 429), ``"busy"`` (no free
        slot in time), ``"timeout"`` or ``"failed"``."""


@dataclass(frozen=True)
class Limits:
    """How long to wait and how many renders at once; from the app's settings."""

    timeout: float = RENDER_TIMEOUT
    queue_wait: float = QUEUE_WAIT
    slots: int = os.cpu_count() or 1
    # Read when a Limits is made, not at import: a test run points TMPDIR elsewhere.
    slot_dir: Path = field(default_factory=lambda: Path(tempfile.gettempdir()) / "scorekeeper-pdf")
    per_client: int = PER_CLIENT
    client: str = "unknown"
    """Whose render this is (:func:`~scorekeeper.web.server.workers.client_of`)."""


SETTINGS = {
    "PDF_RENDER_TIMEOUT": float,
    "PDF_QUEUE_WAIT": float,
    "PDF_RENDER_SLOTS": int,
    "PDF_PER_CLIENT": int,
}


def config_from_env(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The render settings the environment gives (``PDF_RENDER_TIMEOUT=30``…), as numbers,
    and ``PDF_SLOT_DIR``, the slots' folder (the default is one per server).

    A value that is not a positive number is refused at start-up, naming the setting.
    """
    settings = workers.settings_from_env(SETTINGS, overrides)
    folder = os.environ.get("PDF_SLOT_DIR", "").strip()
    if folder and "PDF_SLOT_DIR" not in overrides:
        settings["PDF_SLOT_DIR"] = folder
    return settings


def slot_dir_for(*server_settings: str) -> Path:
    """A slot folder shared by every worker of one server (same settings, same folder).

    >>> slot_dir_for("a") == slot_dir_for("a") != slot_dir_for("b")
    True
    """
    return workers.server_folder("pdf", *server_settings)


@contextlib.contextmanager
def server_slot(limits: Limits) -> Iterator[None]:
    """Hold one of the client's places, then one of ``limits.slots`` render slots;
    :class:`SheetUnavailable` ``"client"`` at once if the client has none left, ``"busy"``
    if no render slot frees up in time."""
    name = workers.client_slot_name("client", limits.client)
    try:
        place = workers.hold_slot(limits.slot_dir, name, limits.per_client, 0)
        with place, workers.hold_slot(limits.slot_dir, "slot", limits.slots, limits.queue_wait):
            yield
    except NoSlot as full:
        raise SheetUnavailable("busy" if str(full) == "slot" else "client") from None


class Renderer(ProcessPool):
    """The render processes of this process, idle ones kept for the next render."""

    def __init__(self) -> None:
        super().__init__(ENGINE_MODULE, keep=IDLE_KEPT)

    def render(self, job: Job, limits: Limits) -> bytes:
        """The PDF of ``job``, rendered by an idle process (or a new one) within the limits."""
        self._check_process()
        with server_slot(limits):
            try:
                return self.run(lambda child: _render_with(child, job, limits.timeout))
            except ChildStopped as stopped:  # the process was killed: no thread left on it
                log.warning("PDF render stopped (%s) after %.1f s", stopped.reason, limits.timeout)
                raise SheetUnavailable(stopped.reason) from None


def _render_with(child: workers.Child, job: Job, timeout: float) -> bytes:
    """The PDF from ``child``; a failed render raises, so that its process is not reused."""
    tag, payload = child.call(b"J", job.encode(), time.monotonic() + timeout)
    if tag != b"K":
        raise RuntimeError(f"the PDF render failed: {payload.decode(errors='replace')}")
    return payload


RENDERER = Renderer()
"""This process's renderer (a forked child gets a fresh one)."""
os.register_at_fork(after_in_child=RENDERER._forget)
