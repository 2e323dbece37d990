"""A stand-in claim solver for the tests of the claim pool: every search is slow.

Run as ``python -m tests.server.slow_solver`` (``CLAIM_SOLVER_MODULE``), it
answers like :mod:`scorekeeper.web.disputes.solver` but keeps a CPU busy for
the claim's whole ``time_limit`` before answering "not decided in time", as the
engine does with a search too big for its limit. So the tests of the limits
and of cancellation do not depend on how fast the real search becomes.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, BinaryIO

from scorekeeper.rules.claims.check import ClaimResult, claim_verdict
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.web.server.workers import exit_with_parent, lower_priority, read_frame, write_frame


def burn(seconds: float) -> int:
    """Busy for ``seconds`` of wall time, as a search is (the count of loops)."""
    loops, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        loops += sum(range(1000)) > 0
    return loops


def answer(body: dict[str, Any]) -> dict[str, Any]:
    limit = float(body.get("time_limit") or 20)
    loops = burn(limit)
    verdict, english = claim_verdict(
        ClaimResult(None, None, [], False), RuleSet(), (), "", 0, limit, [0, 0, 0, 0]
    )
    return {
        "ok": True,
        "holds": None,
        "guaranteed": None,
        "guaranteed_known": False,
        "line": [],
        "decided": False,
        "nodes": loops,
        "message": english,
        "verdict": verdict,
    }


def serve(jobs: BinaryIO, answers: BinaryIO) -> None:
    while (frame := read_frame(jobs)) is not None:
        write_frame(answers, b"K", json.dumps(answer(json.loads(frame[1]))).encode())


if __name__ == "__main__":
    exit_with_parent()
    lower_priority()
    serve(sys.stdin.buffer, sys.stdout.buffer)
