"""Claims judged outside the request threads: a bounded pool of solver processes.

A claim's search may take many seconds of CPU. It runs in a solver process
(:mod:`scorekeeper.web.disputes.solver`, kept by each web worker for its next
claims: :class:`~scorekeeper.web.workers.ProcessPool`), never in a request
thread, and within bounds that hold for the whole server (every gunicorn
worker of it), counted with the lock files of :func:`~scorekeeper.web.workers.hold_slot`:

- **Running**: at most ``CLAIM_SLOTS`` searches at once (default: one fewer than the
  cores, at least one: :data:`SLOTS`).
- **Queued**: at most ``CLAIM_QUEUE`` more claims wait for a free place, each
  for at most ``CLAIM_QUEUE_WAIT`` seconds; beyond that, a 503 with ``Retry-After``.
- **Per client**: at most ``CLAIM_PER_CLIENT`` claims of one address running
  or waiting; beyond that, a 429.
- **Per web worker**: at most ``CLAIM_WAITING_THREADS`` request threads wait
  for a claim's answer (the API's), so that a worker always has threads left
  for the tables' pages; beyond that, a 503.

A search has its own time limit (the claim's ``time_limit``): the engine then
answers "not decided in time", never a guess. Once the claim is decided, its
exact value is sought for at most ``CLAIM_EXACT_SECONDS`` (default
:data:`~scorekeeper.rules.claims.core.DEFAULT_EXACT_LIMIT`, 2 s), unless the
claim asks for another ``exact_time_limit``: the ruling does not wait for the
limit. Should its process still be busy well past that limit, it is killed
and the answer is the same. A search whose asker has gone (the API's client
closed its connection; nobody looks at the progress page any more) is killed
at once: :class:`ClaimUnavailable` ``"cancelled"``, and its slot is free for
the next claim.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import current_app, request

from scorekeeper.rules.claims.check import ClaimResult, claim_verdict
from scorekeeper.rules.claims.core import DEFAULT_EXACT_LIMIT, DEFAULT_TIME_LIMIT, LINE_GRACE
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.web import workers
from scorekeeper.web.disputes.solver import decode_refusal
from scorekeeper.web.workers import ChildStopped, NoSlot, ProcessPool

log = logging.getLogger(__name__)

SOLVER_MODULE = "scorekeeper.web.disputes.solver"
CORES = os.cpu_count() or 1
SLOTS = max(1, CORES - 1)
"""Searches at once by default: one core is always left to the pages. A busy core is
not only the searches' CPU time, which their low priority yields: on a virtual machine
every disk flush also waits for the host while all the guest's cores run (measured: an
``fsync`` took 0.4 ms with one core free and 3.9 ms with both busy, even at the lowest
priority), and each recorded deal waits for one."""
QUEUE_WAIT = 30.0
RETRY_AFTER_SECONDS = 5
QUEUE_POLL = 0.5
"""How often a queued claim tries for a free place (rarely: each try wakes a web worker)."""
OVERRUN = 5.0
"""Seconds past the time limit and the line's grace before a search's process is killed."""
SETTINGS = {
    "CLAIM_SLOTS": int,
    "CLAIM_QUEUE": int,
    "CLAIM_PER_CLIENT": int,
    "CLAIM_QUEUE_WAIT": float,
    "CLAIM_WAITING_THREADS": int,
    "CLAIM_EXACT_SECONDS": float,
}


class ClaimUnavailable(Exception):
    """The claim cannot be judged now (a limit, not a bug): a 429 or a 503."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        """``"client"`` (this address has too many claims: 429), ``"busy"`` (the queue is
        full or no place came free in time), ``"cancelled"`` (nobody waits for it any more)
        or ``"failed"`` (its process died)."""


@dataclass(frozen=True)
class ClaimLimits:
    """How many claims at once, and how long to wait; from the app's settings."""

    folder: Path
    """The server's lock files (shared by its workers)."""
    slots: int = SLOTS
    queue: int = 2 * CORES
    per_client: int = 2
    queue_wait: float = QUEUE_WAIT
    waiting_threads: int = 2
    module: str = SOLVER_MODULE
    exact_seconds: float = DEFAULT_EXACT_LIMIT
    """How long a decided claim's exact value is sought (its ``exact_time_limit``)."""


def config_from_env(overrides: dict[str, Any]) -> dict[str, Any]:
    """The claim settings the environment gives (``CLAIM_SLOTS=4``…), as numbers;
    ``CLAIM_SOLVER_MODULE`` names another solver (the tests' slow one)."""
    zero_allowed = frozenset({"CLAIM_QUEUE", "CLAIM_EXACT_SECONDS"})
    settings = workers.settings_from_env(SETTINGS, overrides, zero_allowed)
    module = os.environ.get("CLAIM_SOLVER_MODULE", "").strip()
    if module and "CLAIM_SOLVER_MODULE" not in overrides:
        settings["CLAIM_SOLVER_MODULE"] = module
    return settings


def limits_from(config: Any, folder: Path) -> ClaimLimits:
    """The limits an app's ``config`` sets (defaults for the rest)."""
    threads = int(os.environ.get("GUNICORN_THREADS", "4") or 4)
    return ClaimLimits(
        folder=folder,
        slots=int(config.get("CLAIM_SLOTS") or SLOTS),
        queue=int(config.get("CLAIM_QUEUE", 2 * CORES)),
        per_client=int(config.get("CLAIM_PER_CLIENT") or 2),
        queue_wait=float(config.get("CLAIM_QUEUE_WAIT") or QUEUE_WAIT),
        waiting_threads=int(config.get("CLAIM_WAITING_THREADS") or max(1, threads // 2)),
        module=str(config.get("CLAIM_SOLVER_MODULE") or SOLVER_MODULE),
        exact_seconds=float(config.get("CLAIM_EXACT_SECONDS", DEFAULT_EXACT_LIMIT)),
    )


# --- admission -------------------------------------------------------------------------------


def _client_key(client: str) -> str:
    return hashlib.sha256(client.encode(errors="replace")).hexdigest()[:16]


def admit(limits: ClaimLimits, client: str) -> contextlib.ExitStack:
    """The claim's places: one of its client's and one in the server's queue, held until
    the returned stack is closed; :class:`ClaimUnavailable` at once when either is full."""
    stack = contextlib.ExitStack()
    try:
        try:
            name = f"client-{_client_key(client)}"
            stack.enter_context(workers.hold_slot(limits.folder, name, limits.per_client, 0))
        except NoSlot:
            raise ClaimUnavailable("client") from None
        try:
            places = limits.slots + limits.queue
            stack.enter_context(workers.hold_slot(limits.folder, "queue", places, 0))
        except NoSlot:
            raise ClaimUnavailable("busy") from None
    except BaseException:
        stack.close()
        raise
    return stack


class _Waiting:
    """This worker's request threads waiting for a claim (a forked child starts with none)."""

    def __init__(self) -> None:
        self._forget()

    def _forget(self) -> None:
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self.count = 0

    @contextlib.contextmanager
    def hold(self, most: int) -> Iterator[None]:
        if self._pid != os.getpid():
            self._forget()
        with self._lock:
            if self.count >= most:
                raise ClaimUnavailable("busy")
            self.count += 1
        try:
            yield
        finally:
            with self._lock:
                self.count -= 1


WAITING = _Waiting()
SOLVERS = ProcessPool(SOLVER_MODULE)
"""This process's solver processes (a forked child gets none)."""
os.register_at_fork(after_in_child=WAITING._forget)
os.register_at_fork(after_in_child=SOLVERS._forget)


# --- judging ---------------------------------------------------------------------------------


def judge(
    body: dict[str, Any],
    limits: ClaimLimits,
    client: str,
    wanted: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """The engine's answer to ``body`` (``POST /api/v1/check/claim``), searched in a solver
    process while this thread waits; raises the engine's refusal, or
    :class:`ClaimUnavailable`."""
    with admit(limits, client), WAITING.hold(limits.waiting_threads):
        return search(body, limits, wanted)


def search(
    body: dict[str, Any],
    limits: ClaimLimits,
    wanted: Callable[[], bool] | None = None,
    started: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Wait for a free place (the claim already admitted), then search; ``started`` is
    called when the search begins."""
    try:
        place = workers.hold_slot(
            limits.folder, "run", limits.slots, limits.queue_wait, wanted, QUEUE_POLL
        )
        with place:
            if started is not None:
                started()
            return _search(body, limits, wanted)
    except NoSlot:
        raise ClaimUnavailable("busy" if wanted is None or wanted() else "cancelled") from None


def _search(
    body: dict[str, Any], limits: ClaimLimits, wanted: Callable[[], bool] | None
) -> dict[str, Any]:
    deadline = time.monotonic() + time_limit(body) + LINE_GRACE + OVERRUN
    exact = body.get("exact_time_limit")  # the claim's own, else the server's
    job = {**body, "exact_time_limit": limits.exact_seconds if exact is None else exact}
    payload = json.dumps(job).encode()
    try:
        tag, answer = SOLVERS.run(
            lambda child: child.call(b"J", payload, deadline, wanted), limits.module
        )
    except ChildStopped as stopped:  # its process was killed: no CPU left burning
        log.warning("claim search stopped (%s)", stopped.reason)
        if stopped.reason == "timeout":
            return undecided(time_limit(body))
        raise ClaimUnavailable(stopped.reason) from None
    if tag == b"R":
        raise decode_refusal(answer)
    if tag != b"K":
        raise RuntimeError(f"the claim search failed: {answer.decode(errors='replace')}")
    result: dict[str, Any] = json.loads(answer)
    return result


def time_limit(body: dict[str, Any]) -> float:
    """The search's own limit; a bad value is the engine's to refuse (so the default here)."""
    raw = body.get("time_limit")
    if isinstance(raw, int | float) and not isinstance(raw, bool) and 0 < raw <= 60:
        return float(raw)
    return DEFAULT_TIME_LIMIT


def undecided(limit: float) -> dict[str, Any]:
    """The engine's answer for a search that ran out of time: no ruling, never a guess."""
    result = ClaimResult(None, None, [], False)
    verdict, english = claim_verdict(result, RuleSet(), (), "", 0, limit, [0, 0, 0, 0])
    return {
        "ok": True,
        "holds": None,
        "guaranteed": None,
        "guaranteed_known": False,
        "line": [],
        "decided": False,
        "nodes": 0,
        "message": english,
        "verdict": verdict,
    }


# --- the app's limits ------------------------------------------------------------------------


def app_limits() -> ClaimLimits:
    """The current app's limits; its lock files in a folder shared by the server's workers
    (``CLAIM_FOLDER``, by default one per instance folder and database)."""
    config = current_app.config
    folder = config.get("CLAIM_FOLDER") or workers.server_folder(
        "claims", current_app.instance_path, str(config["SQLALCHEMY_DATABASE_URI"])
    )
    return limits_from(config, Path(folder))


def client_address() -> str:
    """Whose claims these are (the address the proxies in front are trusted to give)."""
    return request.remote_addr or "unknown"
