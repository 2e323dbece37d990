"""Work that runs outside the web worker: child processes, server-wide slots and frames.

Slow or heavy work (a PDF render, a claim's search) never runs in a request
thread's interpreter. A web worker hands it to a child process (started with
``subprocess``: a new interpreter, ``python -m <module>``, never a fork of a
worker) and waits for the answer. What the PDF sheets and the claim desk share:

- **Nothing crosses a fork.** The children and the lock of a :class:`ProcessPool`
  belong to the process that made them; a forked child (a gunicorn worker
  forked from the master that loaded the app) starts with none
  (:meth:`ProcessPool._forget`, called by ``os.register_at_fork`` and checked
  by pid), so no lock can be inherited held and no thread runs before the fork.
- **A time limit that cuts off.** :meth:`Child.call` waits until a deadline,
  checking twice a second whether the asker still wants the answer;
  past the deadline, or when the asker has gone, the child is killed
  (:class:`ChildStopped`): no thread is left waiting and no CPU is left burning.
- **Bounds for the whole server.** :func:`hold_slot` holds one of ``count``
  lock files, locked with ``flock`` (a lock the kernel drops when its process
  dies, so a killed worker never keeps a slot): at most ``count`` holders at
  once across every worker of one server.
- **Children die with their parent.** The kernel kills a child the moment the
  worker that started it dies, and a worker the moment its master dies (the
  parent-death signal, :func:`die_with_parent`, armed by each child in
  :func:`exit_with_parent` and by gunicorn.conf.py in each worker; children are
  started by one long-lived thread, :func:`spawn`). So a SIGKILL of the master
  alone leaves neither workers nor searches running.
- **The tables first.** A child doing long searches or renders runs at a lower
  priority (:func:`lower_priority`): the pages keep their latency while every core works.
- **One client, one share.** Limits per client count an IPv6 address by its /64
  prefix (:func:`client_of`): one home or phone is given a whole /64, so counting
  each of its addresses would give it thousands of shares.

One job is one frame (:func:`write_frame`): a one-byte tag, the payload's
length, the payload. Nothing here imports Flask: the children import it too.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import hashlib
import ipaddress
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from scorekeeper.paths import PROJECT_ROOT

T = TypeVar("T")
POLL_SECONDS = 0.05
"""How often a wait for a free slot tries again."""
CHECK_SECONDS = 0.5
"""How often a wait for a child's answer asks whether it is still wanted."""
IDLE_KEPT = 2
"""Idle children a process keeps for its next jobs."""
NICENESS = 19
"""How much lower a long job's priority is than the web workers'."""


class NoSlot(Exception):
    """Every slot stayed taken for the whole wait (or the asker went away meanwhile)."""


class ChildStopped(Exception):
    """A child was stopped before it answered: a limit, not a bug."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        """``"timeout"`` (past its deadline), ``"cancelled"`` (the asker went away) or
        ``"failed"`` (the child died)."""


# --- settings --------------------------------------------------------------------------------


def settings_from_env(
    kinds: Mapping[str, type],
    overrides: Mapping[str, Any],
    zero_allowed: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The settings of ``kinds`` the environment gives (``PDF_RENDER_SLOTS=3``…), as numbers.

    A value that is not a positive number (or 0, for a name in ``zero_allowed``) is
    refused at start-up, naming the setting.
    """
    settings: dict[str, Any] = {}
    for name, kind in kinds.items():
        raw = os.environ.get(name, "").strip()
        if name in overrides or not raw:
            continue
        try:
            value = kind(raw)
        except ValueError:
            value = -1
        if value < 0 or (value == 0 and name not in zero_allowed):
            what = "a number of 0 or more" if name in zero_allowed else "a positive number"
            raise ValueError(f"{name} must be {what}, not {raw!r}")
        settings[name] = value
    return settings


def server_folder(kind: str, *server_settings: str) -> Path:
    """A folder shared by every worker of one server (same settings, same folder).

    >>> server_folder("pdf", "a") == server_folder("pdf", "a") != server_folder("pdf", "b")
    True
    >>> server_folder("claims", "a").name.startswith("scorekeeper-claims-")
    True
    """
    digest = hashlib.sha256("\0".join(server_settings).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"scorekeeper-{kind}-{os.getuid()}-{digest}"


def client_of(address: str | None) -> str:
    """Whom a per-client limit counts: an IPv4 address, or an IPv6 address's /64 prefix.

    >>> client_of("203.0.113.7"), client_of("2001:db8:1:2:aaaa::1"), client_of("::ffff:10.0.0.1")
    ('203.0.113.7', '2001:db8:1:2::/64', '10.0.0.1')
    >>> client_of(None), client_of("not an address")
    ('unknown', 'not an address')
    """
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # no zone index (fe80::1%eth0)
    except ValueError:
        return address  # not an address (a test client's name): counted as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_slot_name(kind: str, client: str) -> str:
    """The lock files' name for ``client``'s places of ``kind`` (no address in a file name).

    >>> client_slot_name("pdf", "a") == client_slot_name("pdf", "a") != client_slot_name("pdf", "b")
    True
    """
    return f"{kind}-{hashlib.sha256(client.encode(errors='replace')).hexdigest()[:16]}"


# --- server-wide slots -----------------------------------------------------------------------


def try_lock(path: Path) -> int | None:
    """An open descriptor holding ``path``'s exclusive lock, or None if another holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        if error.errno not in (errno.EAGAIN, errno.EACCES):
            raise
        return None
    return fd


@contextlib.contextmanager
def hold_slot(
    folder: Path,
    name: str,
    count: int,
    wait: float,
    wanted: Callable[[], bool] | None = None,
    every: float = POLL_SECONDS,
) -> Iterator[int]:
    """Hold one of ``count`` slots called ``name`` (its number); :class:`NoSlot` if none
    frees up within ``wait`` seconds (tried again ``every`` seconds), or as soon as
    ``wanted()`` turns false."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    deadline = time.monotonic() + wait
    while True:
        for slot in range(max(1, count)):
            fd = try_lock(folder / f"{name}-{slot}")
            if fd is None:
                continue
            try:
                yield slot
            finally:
                os.close(fd)  # closing the descriptor releases its lock
            return
        if time.monotonic() >= deadline or (wanted is not None and not wanted()):
            raise NoSlot(name)
        time.sleep(every)


# --- frames ----------------------------------------------------------------------------------


def write_frame(stream: BinaryIO, tag: bytes, payload: bytes) -> None:
    """One frame: a one-byte tag, the payload's length (4 bytes, big-endian), the payload."""
    stream.write(tag + len(payload).to_bytes(4, "big") + payload)
    stream.flush()


def read_frame(stream: BinaryIO) -> tuple[bytes, bytes] | None:
    """(tag, payload), or None at the end of the stream."""
    head = stream.read(5)
    if len(head) < 5:
        return None
    size = int.from_bytes(head[1:], "big")
    payload = stream.read(size)
    if len(payload) < size:
        return None
    return head[:1], payload


PARENT_VARIABLE = "SCOREKEEPER_PARENT_PID"
"""The worker's pid, given to its children: one still starting when the worker died
was already someone else's child when it first asked for its parent."""
PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal this process gets when its parent dies."""


def die_with_parent(parent: int, sig: int = signal.SIGKILL) -> bool:
    """Have the kernel send ``sig`` to this process the moment its parent ``parent`` dies
    (Linux's parent-death signal; gunicorn.conf.py arms it in each worker against the
    master). False where there is none. A parent already gone by then ends this process
    at once, since the signal is armed only for a parent still alive.

    The kernel's "parent" is the *thread* that started the process: a worker is
    forked by the master's main thread, and the children here are all started by
    one thread of their worker (:func:`spawn`).
    """
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    if os.getppid() != parent:
        os.kill(os.getpid(), sig)
    return armed


def exit_with_parent(every: float = 0.5) -> None:
    """In a child: stop this process as soon as its parent (the web worker) is gone.

    A search runs in the main thread and reads its next job only when done, so a
    worker that was killed or recycled must not leave it burning a CPU for the
    rest of its search. The kernel kills the child the moment its worker dies
    (:func:`die_with_parent`); where it cannot, a thread watches the parent every
    ``every`` seconds. The watch alone was not enough: a search runs at the idle
    priority (:func:`lower_priority`), and on a busy machine its watch waited
    for a CPU for longer than 30 s.
    """
    parent = int(os.environ.get(PARENT_VARIABLE) or os.getppid())
    die_with_parent(parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def peer_still_there(sock: socket.socket) -> Callable[[], bool]:
    """Whether the client at the other end of ``sock`` still waits for its answer.

    A closed connection reads as readable with nothing to read; bytes waiting
    (a pipelined request) mean the client is still there.
    """

    def wanted() -> bool:
        try:
            if not select.select([sock], [], [], 0)[0]:
                return True
            return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
        except BlockingIOError:
            return True
        except (OSError, ValueError):
            return False

    return wanted


def lower_priority(niceness: int = NICENESS, idle: bool = True) -> None:
    """In a child doing long work: yield the CPU to the web workers, so that the tables'
    pages keep their latency while searches use every core. Linux's idle class
    (``idle``) runs the child only on CPU time nobody else wants; elsewhere, or without
    it, the lowest ``nice``.

    The child stays in its server's session (Linux's autogroup): there a woken web
    worker preempts it at once. In a session of its own at the lowest weight it was
    measured slower for the pages (benchmarks/README.md, claims_load.py).
    """
    with contextlib.suppress(OSError):
        os.nice(niceness)
    policy = getattr(os, "SCHED_IDLE", None)
    if idle and policy is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, policy, os.sched_param(0))


# --- children --------------------------------------------------------------------------------


_spawner: tuple[int, ThreadPoolExecutor] | None = None
_spawner_lock = threading.Lock()


def spawn(command: list[str], **options: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(command, **options)``, started by this process's spawning thread.

    The kernel's parent-death signal (:func:`die_with_parent`, which a child arms)
    follows the *thread* that started the child: a claim's thread that ends would
    kill the solver it started and left idle for the next claim. One thread that
    lives as long as this process starts every child, so the signal comes when the
    worker dies, and only then. Made anew in a forked process (checked by pid).
    """
    global _spawner
    with _spawner_lock:
        if _spawner is None or _spawner[0] != os.getpid():
            _spawner = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="spawner"))
        executor = _spawner[1]

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, **options)

    return executor.submit(start).result()


class Child:
    """One child process (``python -m <module>``) and its pipes."""

    def __init__(self, module: str) -> None:
        env = {
            **os.environ,
            PARENT_VARIABLE: str(os.getpid()),
            "PYTHONPATH": os.pathsep.join(
                filter(None, (str(PROJECT_ROOT), os.environ.get("PYTHONPATH")))
            ),
        }
        self.module = module
        self.popen = spawn(
            [sys.executable, "-m", module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=PROJECT_ROOT,
            env=env,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def call(
        self,
        tag: bytes,
        payload: bytes,
        deadline: float,
        wanted: Callable[[], bool] | None = None,
    ) -> tuple[bytes, bytes]:
        """Send one job and read its answer frame, by ``deadline`` (``time.monotonic``)."""
        assert self.popen.stdin is not None
        write_frame(self.popen.stdin, tag, payload)  # type: ignore[arg-type]
        head = self._read(5, deadline, wanted)
        return head[:1], self._read(int.from_bytes(head[1:], "big"), deadline, wanted)

    def _read(self, size: int, deadline: float, wanted: Callable[[], bool] | None) -> bytes:
        """Exactly ``size`` bytes of the answer, or :class:`ChildStopped`."""
        assert self.popen.stdout is not None
        fd = self.popen.stdout.fileno()
        chunks: list[bytes] = []
        while size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChildStopped("timeout")
            if not select.select([fd], [], [], min(left, CHECK_SECONDS))[0]:
                if wanted is not None and not wanted():
                    raise ChildStopped("cancelled")
                continue
            chunk = os.read(fd, min(size, 1 << 20))
            if not chunk:
                raise ChildStopped("failed")  # the process died
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


class ProcessPool:
    """The children of this process that run ``module``, idle ones kept for the next job."""

    def __init__(self, module: str, keep: int = IDLE_KEPT) -> None:
        self.module = module
        self.keep = keep
        self._forget()

    def _forget(self) -> None:
        """Start with nothing: no idle children, a new lock (also in a forked child)."""
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._idle: list[Child] = []

    def _check_process(self) -> None:
        if self._pid != os.getpid():  # inherited across a fork: none of this is ours
            self._forget()

    def prewarm(self) -> None:
        """Start one child now (it warms itself up while the worker serves)."""
        self._check_process()
        with self._lock:
            if not self._idle:
                self._idle.append(Child(self.module))

    def run(self, job: Callable[[Child], T], module: str | None = None) -> T:
        """``job`` run with an idle child (or a new one) of ``module`` (default: the pool's).

        A child that failed, was stopped or was interrupted is killed, never reused:
        its next answer would be out of step.
        """
        self._check_process()
        child = self._take(module or self.module)
        try:
            answer = job(child)
        except BaseException:
            child.kill()
            raise
        self._give_back(child)
        return answer

    def _take(self, module: str) -> Child:
        with self._lock:
            for child in reversed(self._idle):
                if child.module == module:
                    self._idle.remove(child)
                    if child.alive():
                        return child
                    child.kill()
                    break
        return Child(module)

    def _give_back(self, child: Child) -> None:
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(child)
                return
        child.kill()

    def close(self) -> None:
        """Stop the idle children (they also stop by themselves when this process ends)."""
        self._check_process()
        with self._lock:
            idle, self._idle = self._idle, []
        for child in idle:
            child.kill()
