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
    kept = list(pool.SOLVERS._idle)  # kept for the next claim (with any an earlier test
    assert kept  # left there), each a process of its own
    assert all(solver.alive() and solver.pid != os.getpid() for solver in kept)


def test_the_engines_refusal_comes_back_as_the_same_error(tmp_path: Path) -> None:
    with pytest.raises(MalformedError) as refused:
        pool.judge({**SMALL, "time_limit": 100}, limits(tmp_path), "a")
    (problem,) = refused.value.problems
    assert (problem.code, problem.field) == ("bad_time_limit", "time_limit")


def test_one_claim_more_than_the_places_is_refused_busy(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=2, queue=0, per_client=9, module=SLOW)
    running = [in_background(slow_claim(2 + n / 10), bound) for n in range(2)]  # two claims
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


def test_a_queued_claim_waits_no_longer_than_the_queue_wait_and_is_told_when_a_place_frees(
    tmp_path: Path,
) -> None:
    bound = limits(tmp_path, slots=1, queue=1, per_client=9, queue_wait=0.3, module=SLOW)
    first, _ = in_background(slow_claim(6), bound)
    wait_until_running(bound, 1)
    with pytest.raises(ClaimUnavailable) as refused:
        pool.judge(SMALL, bound, "b")
    assert refused.value.reason == "busy"
    # the running search must end within its 6 s and the line's grace: not the pool's 5 s
    assert 5 < refused.value.retry_after <= 6 + pool.LINE_GRACE
    first.join(30)
    assert pool.seconds_to_a_place(bound) == pool.RETRY_AFTER_SECONDS  # nothing runs


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


# --- fair to the room ------------------------------------------------------------------------


def test_the_same_claim_asked_twice_at_once_is_searched_once(tmp_path: Path) -> None:
    """No place to queue in: without sharing, the second would be refused busy."""
    bound = limits(tmp_path, slots=1, queue=0, per_client=1, module=SLOW)
    first, first_outcome = in_background(slow_claim(1), bound, client="10.0.0.1")
    wait_until_running(bound, 1)
    second = pool.judge(slow_claim(1), bound, "10.0.0.2")
    first.join(30)
    assert second == first_outcome[0] and second["decided"] is False
    # kept a while for the same claim: answered at once, even from a client at its share
    with pool.admit(bound, "10.0.0.3"):
        assert pool.judge(slow_claim(1), bound, "10.0.0.3") == second


def test_the_same_refusal_is_shared_too(tmp_path: Path) -> None:
    bound = limits(tmp_path)
    for _ in range(2):
        with pytest.raises(MalformedError):
            pool.judge({**SMALL, "time_limit": 100}, bound, "a")


def test_one_game_has_one_claim_at_a_time(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=3, per_client=9)
    with pool.admit(bound, "a", game="g1"):
        with pytest.raises(ClaimUnavailable) as refused:
            pool.admit(bound, "b", game="g1")
        assert refused.value.reason == "game" and refused.value.retry_after == 5
        pool.admit(bound, "b", game="g2").close()
    pool.admit(bound, "b", game="g1").close()


def test_by_default_three_clients_leave_places_to_the_others(tmp_path: Path) -> None:
    for cores in (1, 2, 8):
        slots, queue = max(1, cores - 1), 2 * cores + 2
        bound = pool.limits_from({"CLAIM_SLOTS": slots, "CLAIM_QUEUE": queue}, tmp_path)
        assert bound.per_client == 1 and slots + queue - 3 * bound.per_client >= 2
    assert pool.limits_from({}, tmp_path).queue == pool.QUEUE


def test_an_ipv6_client_is_its_64(make_app: Any) -> None:
    app = make_app()
    for address, client in [
        ("2001:db8:a:b:1::1", "2001:db8:a:b::/64"),
        ("2001:db8:a:b:ffff::2", "2001:db8:a:b::/64"),
        ("203.0.113.9", "203.0.113.9"),
    ]:
        with app.test_request_context(environ_base={"REMOTE_ADDR": address}):
            assert pool.client_address() == client
