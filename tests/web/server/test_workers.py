"""Child processes, server-wide slots and the client watch shared by the PDF renders and the
claim desk (scorekeeper/web/server/workers.py)."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest

from scorekeeper.web.server import workers
from scorekeeper.web.server.workers import ChildStopped, NoSlot, ProcessPool

SLOW = "tests.server.slow_solver"
BODY = b'{"time_limit": 30}'


def test_a_slot_is_refused_once_all_are_held_and_freed_when_released(tmp_path: Path) -> None:
    with (
        workers.hold_slot(tmp_path, "run", 2, 0) as first,
        workers.hold_slot(tmp_path, "run", 2, 0),
        pytest.raises(NoSlot),
        workers.hold_slot(tmp_path, "run", 2, 0),
    ):
        pass
    assert first == 0
    with workers.hold_slot(tmp_path, "run", 2, 0) as again:
        assert again == 0


def test_a_wait_for_a_slot_ends_when_the_asker_goes_away(tmp_path: Path) -> None:
    wanted = threading.Event()
    wanted.set()
    threading.Timer(0.2, wanted.clear).start()
    outcome: list[type[BaseException]] = []

    def wait_for_the_slot() -> None:  # an hour's wait: only the asker's leaving ends it
        with (
            pytest.raises(NoSlot) as gave_up,
            workers.hold_slot(tmp_path, "run", 1, 3600, wanted.is_set),
        ):
            pass
        outcome.append(gave_up.type)

    with workers.hold_slot(tmp_path, "run", 1, 0):
        waiting = threading.Thread(target=wait_for_the_slot, daemon=True)
        waiting.start()
        waiting.join(30)
    assert outcome == [NoSlot]


def test_slots_of_a_killed_process_come_back(tmp_path: Path) -> None:
    pid = os.fork()
    if pid == 0:
        with workers.hold_slot(tmp_path, "run", 1, 0):
            os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)
    with workers.hold_slot(tmp_path, "run", 1, 0):
        pass


def test_a_child_past_its_deadline_is_killed_and_not_kept() -> None:
    pool = ProcessPool(SLOW)
    children: list[workers.Child] = []

    def ask(child: workers.Child) -> tuple[bytes, bytes]:
        children.append(child)
        return child.call(b"J", BODY, time.monotonic() + 0.5)

    with pytest.raises(ChildStopped) as stopped:
        pool.run(ask)
    assert stopped.value.reason == "timeout"
    assert not children[0].alive() and pool._idle == []


def test_a_child_nobody_waits_for_is_killed_at_once() -> None:
    pool = ProcessPool(SLOW)
    children: list[workers.Child] = []
    asked = time.monotonic()

    def ask(child: workers.Child) -> tuple[bytes, bytes]:
        children.append(child)
        return child.call(b"J", BODY, time.monotonic() + 60, lambda: time.monotonic() < asked + 1)

    with pytest.raises(ChildStopped) as stopped:
        pool.run(ask)
    assert stopped.value.reason == "cancelled"  # not a timeout at the 60 s deadline
    assert not children[0].alive()


def test_a_child_that_answered_is_kept_for_the_next_job() -> None:
    pool = ProcessPool(SLOW)
    try:
        tag, _answer = pool.run(
            lambda c: c.call(b"J", b'{"time_limit": 0.1}', time.monotonic() + 30)
        )
        assert tag == b"K" and len(pool._idle) == 1
        kept = pool._idle[0]
        pool.run(lambda c: c.call(b"J", b'{"time_limit": 0.1}', time.monotonic() + 30))
        assert pool._idle == [kept]
    finally:
        pool.close()


def test_a_child_stops_when_its_parent_dies() -> None:
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # a web worker that starts a child, reports its pid and is killed
        os.close(reader)
        child = workers.Child(SLOW)
        os.write(writer, str(child.pid).encode())
        os.kill(os.getpid(), signal.SIGKILL)
    os.close(writer)
    child_pid = int(os.read(reader, 32))
    os.waitpid(pid, 0)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _running(child_pid):
        time.sleep(0.1)
    assert not _running(child_pid)


def test_a_child_outlives_the_thread_that_started_it() -> None:
    """The kernel's parent-death signal follows the thread that started a process: a claim's
    thread that ends must not take the solver it left idle with it."""
    started: list[workers.Child] = []

    def start_and_ask() -> None:
        child = workers.Child(SLOW)
        started.append(child)
        child.call(b"J", b'{"time_limit": 0.1}', time.monotonic() + 60)  # it is armed now

    thread = threading.Thread(target=start_and_ask)
    thread.start()
    thread.join()
    try:
        time.sleep(1)
        assert _running(started[0].pid)
    finally:
        started[0].kill()


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def test_a_pool_forgets_its_children_and_lock_across_a_fork() -> None:
    pool = ProcessPool(SLOW)
    with pool._lock:
        pid = os.fork()
        if pid == 0:
            pool._check_process()
            os._exit(0 if not pool._lock.locked() and pool._idle == [] else 1)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def test_a_closed_connection_is_seen_and_a_waiting_one_is_not() -> None:
    ours, theirs = socket.socketpair()
    wanted = workers.peer_still_there(ours)
    assert wanted()
    theirs.sendall(b"GET / HTTP/1.1\r\n")  # a pipelined request: the client is still there
    assert wanted()
    theirs.close()
    ours.recv(100)
    assert not wanted()
    ours.close()


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    kinds = {"CLAIM_SLOTS": int, "CLAIM_QUEUE": int}
    monkeypatch.setenv("CLAIM_SLOTS", "3")
    monkeypatch.setenv("CLAIM_QUEUE", "0")
    zero = frozenset({"CLAIM_QUEUE"})
    assert workers.settings_from_env(kinds, {}, zero) == {"CLAIM_SLOTS": 3, "CLAIM_QUEUE": 0}
    monkeypatch.setenv("CLAIM_SLOTS", "0")
    with pytest.raises(ValueError, match="CLAIM_SLOTS must be a positive number, not '0'"):
        workers.settings_from_env(kinds, {}, zero)
    monkeypatch.setenv("CLAIM_SLOTS", "1")
    monkeypatch.setenv("CLAIM_QUEUE", "-1")
    with pytest.raises(ValueError, match="CLAIM_QUEUE must be a number of 0 or more"):
        workers.settings_from_env(kinds, {}, zero)
