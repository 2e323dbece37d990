"""Claims judged outside the request threads: a bounded pool of solver processes.

A claim's search may take many seconds of CPU. It runs in a solver process
(:mod:`scorekeeper.web.disputes.solver`, kept by each web worker for its next
claims: :class:`~scorekeeper.web.server.workers.ProcessPool`), never in a request
thread, and within bounds that hold for the whole server (every gunicorn
worker of it), counted with the lock files of :func:`~scorekeeper.web.server.workers.hold_slot`:

- **Running**: at most ``CLAIM_SLOTS`` searches at once (default: one fewer than the
  cores, at least one: :data:`SLOTS`).
- **Queued**: at most ``CLAIM_QUEUE`` more claims wait for a free place, each
  for at most ``CLAIM_QUEUE_WAIT`` seconds; beyond that, a 503 whose
  ``Retry-After`` is honest: the seconds until the first running search must
  end (:func:`seconds_to_a_place`), each search having left its end in a file
  beside its place.
- **Per client**: at most ``CLAIM_PER_CLIENT`` claims (default 1) of one client
  running or waiting; beyond that, a 429. A client is an address, an IPv6 /64
  (:func:`~scorekeeper.web.server.workers.client_of`): three clients hold three of the
  server's places, never all of them (by default at least five: :data:`QUEUE`).
- **Per game**: one claim at a time for one game (a claim posted from a game's
  pages); another one meanwhile is a 429.
- **The same claim once**: a claim on the same position (the same game and body)
  as one being searched is not searched again: it waits for that search and gets
  its answer (:func:`judge` here, :func:`scorekeeper.web.disputes.jobs.start` for
  the pages), holding no place.
- **Per web worker**: at most ``CLAIM_WAITING_THREADS`` request threads wait
  for a claim's answer (the API's), so that a worker always has threads left
  for the tables' pages; beyond that, a 503.

A search has its own time limit (the claim's ``time_limit``): the engine then
answers "not decided in time", never a guess. Once the claim is decided, its
exact value is sought for at most ``CLAIM_EXACT_SECONDS`` (default
:data:`~scorekeeper.rules.claims.core.DEFAULT_EXACT_LIMIT`, 2 s) on a position
of at most ``CLAIM_EXACT_CARDS`` cards in play (default :data:`EXACT_CARDS`),
and not at all on a bigger one, unless the claim asks for another
``exact_time_limit``: the ruling does not wait for the limit. Should its
process still be busy well past that limit, it is killed and the answer is
the same. A search whose asker has gone (the API's client
closed its connection; nobody looks at the progress page any more) is killed
at once: :class:`ClaimUnavailable` ``"cancelled"``, and its slot is free for
the next claim.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
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
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.web.disputes.solver import decode_refusal, encode_refusal
from scorekeeper.web.server import workers
from scorekeeper.web.server.workers import ChildStopped, NoSlot, ProcessPool

log = logging.getLogger(__name__)

SOLVER_MODULE = "scorekeeper.web.disputes.solver"
CORES = os.cpu_count() or 1
SLOTS = max(1, CORES - 1)
"""Searches at once by default: one core is always left to the pages. A busy core is
not only the searches' CPU time, which their low priority yields: on a virtual machine
every disk flush also waits for the host while all the guest's cores run (measured: an
``fsync`` took 0.4 ms with one core free and 3.9 ms with both busy, even at the lowest
priority), and each recorded deal waits for one."""
QUEUE = 2 * CORES + 2
"""Places to wait in by default: with :data:`SLOTS`, at least five, so that a few clients
with one place each never hold them all."""
QUEUE_WAIT = 30.0
RETRY_AFTER_SECONDS = 5
"""Retry-After of a 429 (this client or game has a claim in the pool; its end is its own)."""
SHARED_KEPT = 60.0
"""Seconds a search's answer is kept for the same claim asked meanwhile."""
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
    "CLAIM_EXACT_CARDS": int,
}
EXACT_CARDS = 36
"""Cards in play up to which a decided claim's exact value is sought by default: nine a
hand. Measured on the 50 seeded whole deals, the exact value was found within the 2 s
budget for 1 of them (tens of millions of nodes at the median), against half of them
within 115,000 nodes from nine cards a hand: on a bigger position the budget would only
delay the ruling it cannot improve. A Trix claim's exact value comes within milliseconds
at any size: it always gets the budget."""


class ClaimUnavailable(Exception):
    """The claim cannot be judged now (a limit, not a bug): a 429 or a 503."""

    def __init__(self, reason: str, retry_after: int = RETRY_AFTER_SECONDS) -> None:
        super().__init__(reason)
        self.retry_after = retry_after
        """Seconds after which the same claim may find a place (``Retry-After``)."""
        self.reason = reason
        """``"client"`` (this client has too many claims: 429), ``"game"`` (this game has a
        claim being judged: 429), ``"busy"`` (the queue is full or no place came free in
        time), ``"cancelled"`` (nobody waits for it any more) or ``"failed"`` (its process
        died)."""


@dataclass(frozen=True)
class ClaimLimits:
    """How many claims at once, and how long to wait; from the app's settings."""

    folder: Path
    """The server's lock files (shared by its workers)."""
    slots: int = SLOTS
    queue: int = QUEUE
    per_client: int = 1
    queue_wait: float = QUEUE_WAIT
    waiting_threads: int = 2
    module: str = SOLVER_MODULE
    exact_seconds: float = DEFAULT_EXACT_LIMIT
    """How long a decided claim's exact value is sought (its ``exact_time_limit``)."""
    exact_cards: int = EXACT_CARDS
    """Only on positions with at most this many cards in play; 0 on bigger ones."""

    def exact_limit(self, body: dict[str, Any]) -> Any:
        """The ``exact_time_limit`` a claim gets: its own, else the server's where the
        position is small enough for the exact value to be found in time, else 0 (the
        ruling comes at once; the page offers to work the value out)."""
        asked = body.get("exact_time_limit")
        if asked is not None:
            return asked  # as sent: the engine refuses one that is not a number
        cards = cards_in_play(body)
        trix = body.get("contracts") == ["trix"]  # its exact value comes in milliseconds
        if cards is not None and cards > self.exact_cards and not trix:
            return 0.0
        return self.exact_seconds


def config_from_env(overrides: dict[str, Any]) -> dict[str, Any]:
    """The claim settings the environment gives (``CLAIM_SLOTS=4``…), as numbers;
    ``CLAIM_SOLVER_MODULE`` names another solver (the tests' slow one)."""
    zero_allowed = frozenset({"CLAIM_QUEUE", "CLAIM_EXACT_SECONDS", "CLAIM_EXACT_CARDS"})
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
        queue=int(config.get("CLAIM_QUEUE", QUEUE)),
        per_client=int(config.get("CLAIM_PER_CLIENT") or 1),
        queue_wait=float(config.get("CLAIM_QUEUE_WAIT") or QUEUE_WAIT),
        waiting_threads=int(config.get("CLAIM_WAITING_THREADS") or max(1, threads // 2)),
        module=str(config.get("CLAIM_SOLVER_MODULE") or SOLVER_MODULE),
        exact_seconds=float(config.get("CLAIM_EXACT_SECONDS", DEFAULT_EXACT_LIMIT)),
        exact_cards=int(config.get("CLAIM_EXACT_CARDS", EXACT_CARDS)),
    )


def cards_in_play(body: dict[str, Any]) -> int | None:
    """The cards still held and on the table in a claim's body; None where its shape is
    wrong (the engine then refuses it, naming the field)."""
    hands, trick = body.get("hands"), body.get("current_trick") or []
    if not isinstance(hands, dict) or not isinstance(trick, list):
        return None
    held = [hand for hand in hands.values() if isinstance(hand, list)]
    if len(held) != len(hands):
        return None
    return sum(map(len, held)) + len(trick)


# --- admission -------------------------------------------------------------------------------


def position_key(body: dict[str, Any], game: str | None = None) -> str:
    """What makes two claims the same: the game they come from and their whole body.

    >>> position_key({"a": 1, "b": 2}) == position_key({"b": 2, "a": 1}) != position_key({})
    True
    """
    text = json.dumps({"game": game, "body": body}, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def admit(limits: ClaimLimits, client: str, game: str | None = None) -> contextlib.ExitStack:
    """The claim's places: one of its client's, its game's (if it comes from one) and one
    in the server's queue, held until the returned stack is closed; :class:`ClaimUnavailable`
    at once when any is full."""
    stack = contextlib.ExitStack()
    try:
        _hold(
            stack, limits, workers.client_slot_name("client", client), limits.per_client, "client"
        )
        if game:
            _hold(stack, limits, workers.client_slot_name("game", game), 1, "game")
        _hold(stack, limits, "queue", limits.slots + limits.queue, "busy")
    except BaseException:
        stack.close()
        raise
    return stack


def _hold(
    stack: contextlib.ExitStack, limits: ClaimLimits, name: str, count: int, why: str
) -> None:
    try:
        stack.enter_context(workers.hold_slot(limits.folder, name, count, 0))
    except NoSlot:
        wait = seconds_to_a_place(limits) if why == "busy" else RETRY_AFTER_SECONDS
        raise ClaimUnavailable(why, wait) from None


def seconds_to_a_place(limits: ClaimLimits) -> int:
    """When a place should come free: the seconds until the first running search must end
    (its time limit and the line's grace, from its start), at least 1; the pool's
    :data:`RETRY_AFTER_SECONDS` if no search says."""
    now, ends = time.time(), []
    for slot in range(max(1, limits.slots)):
        with contextlib.suppress(OSError, ValueError):
            ends.append(float((limits.folder / f"run-{slot}.ends").read_text()))
    future = [end - now for end in ends if end > now]
    return max(1, math.ceil(min(future))) if future else RETRY_AFTER_SECONDS


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
    :class:`ClaimUnavailable`. The same claim asked while it is searched (by any worker)
    waits for that search's answer instead of starting another."""
    key = position_key(body)
    _prune_shared(limits)
    while True:
        kept = _kept(limits, key)
        if kept is not None:
            return kept
        if _locked(_shared_folder(limits) / f"{key}.lock"):  # another request searches it
            with WAITING.hold(limits.waiting_threads):
                _wait_for_other(limits, key, body, wanted)
            continue  # its answer, or (it stopped without one) this request searches it
        places = admit(limits, client)
        with places, WAITING.hold(limits.waiting_threads), _searching(limits, key) as mine:
            if mine:  # else another request took it meanwhile: wait for its answer
                return _publish(limits, key, lambda: search(body, limits, wanted))


def _shared_folder(limits: ClaimLimits) -> Path:
    return limits.folder / "shared"


@contextlib.contextmanager
def _searching(limits: ClaimLimits, key: str) -> Iterator[bool]:
    """Hold the position's lock while searching it; False if another request holds it."""
    folder = _shared_folder(limits)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = workers.try_lock(folder / f"{key}.lock")
    try:
        yield fd is not None
    finally:
        if fd is not None:
            os.close(fd)


def _publish(
    limits: ClaimLimits, key: str, search_it: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """The search's answer, kept a while for the same claim asked meanwhile (a refusal too)."""
    path = _shared_folder(limits) / f"{key}.json"
    try:
        answer = search_it()
    except RulesError as refusal:
        _write_shared(path, {"refusal": encode_refusal(refusal).decode()})
        raise
    _write_shared(path, {"answer": answer})
    return answer


def _write_shared(path: Path, value: dict[str, Any]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    temporary.write_text(json.dumps({**value, "at": time.time()}), encoding="utf-8")
    os.replace(temporary, path)


def _kept(limits: ClaimLimits, key: str) -> dict[str, Any] | None:
    """The answer to the same claim searched less than :data:`SHARED_KEPT` seconds ago
    (its refusal raised), or None."""
    try:
        kept = json.loads((_shared_folder(limits) / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if time.time() - float(kept.get("at", 0)) > SHARED_KEPT:
        return None
    if "refusal" in kept:
        raise decode_refusal(str(kept["refusal"]).encode())
    answer: dict[str, Any] = kept["answer"]
    return answer


def _wait_for_other(
    limits: ClaimLimits, key: str, body: dict[str, Any], wanted: Callable[[], bool] | None
) -> None:
    """Wait while another request searches the same claim (holding no place), no longer
    than a claim would wait for its place and search."""
    lock = _shared_folder(limits) / f"{key}.lock"
    deadline = time.monotonic() + limits.queue_wait + time_limit(body) + LINE_GRACE + OVERRUN
    while _locked(lock):
        if time.monotonic() > deadline:
            raise ClaimUnavailable("busy", seconds_to_a_place(limits))
        if wanted is not None and not wanted():
            raise ClaimUnavailable("cancelled")
        time.sleep(QUEUE_POLL)


def _prune_shared(limits: ClaimLimits) -> None:
    """Forget the kept answers past :data:`SHARED_KEPT` and the locks nobody holds."""
    folder = _shared_folder(limits)
    if not folder.is_dir():
        return
    old = time.time() - SHARED_KEPT
    for path in folder.iterdir():
        with contextlib.suppress(OSError):
            if path.stat().st_mtime < old and not (path.suffix == ".lock" and _locked(path)):
                path.unlink()


def _locked(path: Path) -> bool:
    """Whether another holds the lock of ``path`` (no such file: nobody)."""
    if not path.exists():
        return False
    fd = workers.try_lock(path)
    if fd is None:
        return True
    os.close(fd)
    return False


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
        with place as slot, _ends_told(limits, slot, body):
            if started is not None:
                started()
            return _search(body, limits, wanted)
    except NoSlot:
        if wanted is not None and not wanted():
            raise ClaimUnavailable("cancelled") from None
        raise ClaimUnavailable("busy", seconds_to_a_place(limits)) from None


@contextlib.contextmanager
def _ends_told(limits: ClaimLimits, slot: int, body: dict[str, Any]) -> Iterator[None]:
    """While the search runs, its place's file says when it must end (for Retry-After)."""
    path = limits.folder / f"run-{slot}.ends"
    with contextlib.suppress(OSError):
        path.write_text(str(time.time() + time_limit(body) + LINE_GRACE))
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()


def _search(
    body: dict[str, Any], limits: ClaimLimits, wanted: Callable[[], bool] | None
) -> dict[str, Any]:
    deadline = time.monotonic() + time_limit(body) + LINE_GRACE + OVERRUN
    job = {**body, "exact_time_limit": limits.exact_limit(body)}
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
    """Whose claims these are: the address the proxies in front are trusted to give, an
    IPv6 address by its /64 (:func:`~scorekeeper.web.server.workers.client_of`)."""
    return workers.client_of(request.remote_addr)
