"""PDF renders outside the web worker: render processes, a time limit and a server-wide bound.

A web worker never runs WeasyPrint itself. It hands the HTML to a render
process (:mod:`scorekeeper.web.sheets.engine`, started with ``subprocess``: a new
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
  no slot free within ``PDF_QUEUE_WAIT`` seconds gets a 503 with
  ``Retry-After``; the other tables' pages are never queued behind sheets.

A render process is kept for the next render of the same worker: WeasyPrint's
start-up (about a second) is paid once, after the fork, by :meth:`Renderer.prewarm`
(gunicorn's ``post_fork``) or by the first download.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import logging
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.web.sheets.engine import Job

log = logging.getLogger(__name__)


RENDER_TIMEOUT = 20.0
QUEUE_WAIT = 10.0
RETRY_AFTER_SECONDS = 5
_POLL_SECONDS = 0.05


class SheetUnavailable(Exception):
    """The sheet could not be rendered now (every slot busy, or too slow): a 503, not a bug."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        """``"busy"`` (no free slot in time), ``"timeout"`` or ``"failed"``."""


@dataclass(frozen=True)
class Limits:
    """How long to wait and how many renders at once; from the app's settings."""

    timeout: float = RENDER_TIMEOUT
    queue_wait: float = QUEUE_WAIT
    slots: int = os.cpu_count() or 1
    slot_dir: Path = Path(tempfile.gettempdir()) / "scorekeeper-pdf"


SETTINGS = {"PDF_RENDER_TIMEOUT": float, "PDF_QUEUE_WAIT": float, "PDF_RENDER_SLOTS": int}


def config_from_env(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The render settings the environment gives (``PDF_RENDER_TIMEOUT=30``…), as numbers.

    A value that is not a positive number is refused at start-up, naming the setting.
    """
    settings: dict[str, Any] = {}
    for name, kind in SETTINGS.items():
        raw = os.environ.get(name, "").strip()
        if name in overrides or not raw:
            continue
        try:
            value = kind(raw)
        except ValueError:
            value = 0
        if value <= 0:
            raise ValueError(f"{name} must be a positive number, not {raw!r}")
        settings[name] = value
    return settings


def slot_dir_for(*server_settings: str) -> Path:
    """A slot folder shared by every worker of one server (same settings, same folder).

    >>> slot_dir_for("a") == slot_dir_for("a") != slot_dir_for("b")
    True
    """
    digest = hashlib.sha256("\0".join(server_settings).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"scorekeeper-pdf-{os.getuid()}-{digest}"


@contextlib.contextmanager
def server_slot(limits: Limits) -> Iterator[None]:
    """Hold one of ``limits.slots`` render slots; :class:`SheetUnavailable` if none frees up."""
    limits.slot_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    deadline = time.monotonic() + limits.queue_wait
    while True:
        for slot in range(max(1, limits.slots)):
            fd = os.open(limits.slot_dir / f"slot-{slot}", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                os.close(fd)
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                continue
            try:
                yield
            finally:
                os.close(fd)  # closing the descriptor releases its lock
            return
        if time.monotonic() >= deadline:
            raise SheetUnavailable("busy")
        time.sleep(_POLL_SECONDS)


class _Process:
    """One render process (``python -m scorekeeper.web.sheets.engine``) and its pipes."""

    def __init__(self) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                filter(None, (str(PROJECT_ROOT), os.environ.get("PYTHONPATH")))
            ),
        }
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.web.sheets.engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=PROJECT_ROOT,
            env=env,
        )

    def render(self, job: Job, timeout: float) -> bytes:
        assert self.popen.stdin is not None and self.popen.stdout is not None
        frame = job.encode()
        self.popen.stdin.write(b"J" + len(frame).to_bytes(4, "big") + frame)
        self.popen.stdin.flush()
        deadline = time.monotonic() + timeout
        head = self._read(5, deadline)
        payload = self._read(int.from_bytes(head[1:], "big"), deadline)
        if head[:1] != b"K":
            raise RuntimeError(f"the PDF render failed: {payload.decode(errors='replace')}")
        return payload

    def _read(self, size: int, deadline: float) -> bytes:
        """Exactly ``size`` bytes of the answer, or :class:`SheetUnavailable` past ``deadline``."""
        assert self.popen.stdout is not None
        fd = self.popen.stdout.fileno()
        chunks: list[bytes] = []
        while size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise SheetUnavailable("timeout")
            chunk = os.read(fd, min(size, 1 << 20))
            if not chunk:
                raise SheetUnavailable("failed")  # the process died
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.popen.kill()
        with contextlib.suppress(Exception):
            self.popen.wait(timeout=5)
        for pipe in (self.popen.stdin, self.popen.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()


class Renderer:
    """The render processes of this process, idle ones kept for the next render."""

    def __init__(self) -> None:
        self._forget()

    def _forget(self) -> None:
        """Start with nothing: no idle processes, a new lock (also in a forked child)."""
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._idle: list[_Process] = []

    def _check_process(self) -> None:
        if self._pid != os.getpid():  # inherited across a fork: none of this is ours
            self._forget()

    def prewarm(self) -> None:
        """Start one render process now (it warms itself up while the worker serves)."""
        self._check_process()
        with self._lock:
            if not self._idle:
                self._idle.append(_Process())

    def render(self, job: Job, limits: Limits) -> bytes:
        """The PDF of ``job``, rendered by an idle process (or a new one) within the limits."""
        self._check_process()
        with server_slot(limits):
            process = self._take()
            try:
                pdf = process.render(job, limits.timeout)
            except SheetUnavailable as unavailable:
                process.kill()  # cut off: its next answer would be out of step
                log.warning(
                    "PDF render stopped (%s) after %.1f s", unavailable.reason, limits.timeout
                )
                raise
            except BaseException:
                process.kill()
                raise
            self._give_back(process)
            return pdf

    def _take(self) -> _Process:
        with self._lock:
            while self._idle:
                process = self._idle.pop()
                if process.alive():
                    return process
                process.kill()
        return _Process()

    def _give_back(self, process: _Process) -> None:
        with self._lock:
            self._idle.append(process)

    def close(self) -> None:
        """Stop the idle render processes (they also stop by themselves when this process ends)."""
        self._check_process()
        with self._lock:
            idle, self._idle = self._idle, []
        for process in idle:
            process.kill()


RENDERER = Renderer()
"""This process's renderer (a forked child gets a fresh one)."""
os.register_at_fork(after_in_child=RENDERER._forget)
