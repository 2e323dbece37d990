"""The claim pool: claims searched in solver processes, within limits that hold for the whole
server, with honest time limits and cancellation (scorekeeper/web/disputes/pool.py)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules.errors import MalformedError
from scorekeeper.web.disputes import pool
from scorekeeper.web.disputes.pool import ClaimLimits, ClaimUnavailable

SLOW = "tests.server.slow_solver"
SMALL = {
    "contracts": ["collections"],
    "hands": {"0": ["2S", "3S"], "1": ["AS", "KS"], "2": ["QS", "JS"], "3": ["TS", "9S"]},
    "leader": 0,
    "claim": {"seat": 1, "min_score": 0},
    "names": ["Rana", "Sami", "Omar", "Lina"],
}


def limits(tmp_path: Path, **changes: Any) -> ClaimLimits:
    """Limits in a folder of this test's; the tests' threads stand for several workers'."""
    return ClaimLimits(folder=tmp_path / "claims", **{"waiting_threads": 10, **changes})


@pytest.fixture(autouse=True)
def _no_solver_left() -> Iterator[None]:
    """Each test starts and ends with no idle solver (other tests may have left some)."""
    pool.SOLVERS.close()
    yield
    pool.SOLVERS.close()


def slow_claim(seconds: float) -> dict[str, Any]:
    return {**SMALL, "time_limit": seconds}


def in_background(
    body: dict[str, Any], bound: ClaimLimits, client: str = "a"
) -> tuple[threading.Thread, list[Any]]:
    """A claim judged in another thread (as another request); its outcome in the list."""
    outcome: list[Any] = []

    def judge() -> None:
        try:
            outcome.append(pool.judge(body, bound, client))
        except Exception as error:
            outcome.append(error)

    thread = threading.Thread(target=judge)
    thread.start()
    return thread, outcome


def wait_until_running(bound: ClaimLimits, count: int) -> None:
    """Until ``count`` searches hold a run slot."""
    bound.folder.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        held = 0
        for slot in range(bound.slots):
            fd = pool.workers.try_lock(bound.folder / f"run-{slot}")
            if fd is None:
                held += 1
            else:
                os.close(fd)
        if held >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{count} searches did not start")


def test_a_claim_is_searched_in_a_solver_process(tmp_path: Path) -> None:
    answer = pool.judge(SMALL, limits(tmp_path), "a")
    assert (answer["holds"], answer["guaranteed"], answer["line"][:2]) == (False, -30, ["2S", "KS"])
    assert answer["verdict"]["part"] == "claim.fails"
    (solver,) = pool.SOLVERS._idle  # kept for the next claim, not this process
    assert solver.alive() and solver.pid != os.getpid()


def test_the_engines_refusal_comes_back_as_the_same_error(tmp_path: Path) -> None:
    with pytest.raises(MalformedError) as refused:
        pool.judge({**SMALL, "time_limit": 100}, limits(tmp_path), "a")
    (problem,) = refused.value.problems
    assert (problem.code, problem.field) == ("bad_time_limit", "time_limit")


def test_one_claim_more_than_the_places_is_refused_busy(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=2, queue=0, per_client=9, module=SLOW)
    running = [in_background(slow_claim(2), bound) for _ in range(2)]
    wait_until_running(bound, 2)
    with pytest.raises(ClaimUnavailable) as refused:  # at once: nothing may queue
        pool.judge(SMALL, bound, "a")
    assert refused.value.reason == "busy"
    for thread, outcome in running:
        thread.join(30)
        assert outcome[0]["decided"] is False  # not decided in time, never a guess
    assert pool.judge(slow_claim(0.1), bound, "a")["decided"] is False  # places free again


def test_a_queued_claim_waits_for_a_place_then_runs(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=1, queue=1, per_client=9, module=SLOW)
    first, _ = in_background(slow_claim(1), bound)
    wait_until_running(bound, 1)
    answer = pool.judge(slow_claim(0.1), bound, "b")
    assert answer["decided"] is False
    assert not first.is_alive()  # it ran in the first claim's place, once that was done
    first.join(30)


def test_a_queued_claim_waits_no_longer_than_the_queue_wait(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=1, queue=1, per_client=9, queue_wait=0.3, module=SLOW)
    first, _ = in_background(slow_claim(2), bound)
    wait_until_running(bound, 1)
    with pytest.raises(ClaimUnavailable) as refused:
        pool.judge(SMALL, bound, "b")
    assert refused.value.reason == "busy"
    first.join(30)


def test_one_client_has_at_most_its_share(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=3, queue=0, per_client=1, module=SLOW)
    first, _ = in_background(slow_claim(1.5), bound, client="10.0.0.1")
    wait_until_running(bound, 1)
    with pytest.raises(ClaimUnavailable) as refused:
        pool.judge(SMALL, bound, "10.0.0.1")
    assert refused.value.reason == "client"
    assert pool.judge(slow_claim(0.1), bound, "10.0.0.2")["decided"] is False
    first.join(30)


def test_a_worker_keeps_threads_for_the_tables(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=3, per_client=9, waiting_threads=1, module=SLOW)
    first, _ = in_background(slow_claim(1.5), bound)
    wait_until_running(bound, 1)
    with pytest.raises(ClaimUnavailable) as refused:
        pool.judge(SMALL, bound, "b")
    assert refused.value.reason == "busy"
    first.join(30)


def test_a_claim_nobody_waits_for_is_stopped_and_its_process_killed(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=1, module=SLOW)
    asked = time.monotonic()
    with pytest.raises(ClaimUnavailable) as stopped:
        pool.judge(slow_claim(30), bound, "a", wanted=lambda: time.monotonic() < asked + 1)
    assert stopped.value.reason == "cancelled"  # not left to run its 30 s
    assert pool.SOLVERS._idle == []  # killed, not kept
    wait_until_running(bound, 0)


def test_a_search_past_its_limit_is_killed_and_not_decided_in_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine stops at its limit by itself; should it not, its process is killed."""
    monkeypatch.setattr(pool, "LINE_GRACE", 0.0)
    monkeypatch.setattr(pool, "OVERRUN", -0.5)
    answer = pool.judge(slow_claim(1), limits(tmp_path, module=SLOW), "a")
    assert (answer["decided"], answer["holds"], answer["line"]) == (False, None, [])
    assert answer["message"] == "Not decided in time (1 s): no ruling."
    assert pool.SOLVERS._idle == []


def test_the_pool_forgets_its_solvers_and_waiting_threads_across_a_fork(tmp_path: Path) -> None:
    pool.judge(SMALL, limits(tmp_path), "a")
    with pool.WAITING.hold(5), pool.SOLVERS._lock:
        pid = os.fork()
        if pid == 0:
            pool.SOLVERS._check_process()
            with pool.WAITING.hold(1):  # this worker waits for nothing yet
                ok = pool.SOLVERS._idle == [] and not pool.SOLVERS._lock.locked()
            os._exit(0 if ok else 1)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CLAIM_SLOTS", "3")
    monkeypatch.setenv("CLAIM_QUEUE", "0")
    monkeypatch.setenv("CLAIM_SOLVER_MODULE", SLOW)
    settings = pool.config_from_env({})
    bound = pool.limits_from(settings, tmp_path)
    assert (bound.slots, bound.queue, bound.module) == (3, 0, SLOW)
    monkeypatch.setenv("CLAIM_PER_CLIENT", "none")
    with pytest.raises(ValueError, match="CLAIM_PER_CLIENT must be a positive number"):
        pool.config_from_env({})


def test_by_default_a_core_is_left_to_the_pages(tmp_path: Path) -> None:
    """Searches at once: one fewer than the cores (at least one), for the pages' disk
    flushes wait when every core of a virtual machine is busy, whatever the priorities."""
    bound = pool.limits_from({}, tmp_path)
    assert bound.slots == max(1, (os.cpu_count() or 1) - 1)
    assert pool.limits_from({"CLAIM_SLOTS": 4}, tmp_path).slots == 4
