"""The claim search, in a process of its own: a claim body in, the engine's answer out.

This module never runs inside a web worker. :mod:`scorekeeper.web.disputes.pool`
starts it as ``python -m scorekeeper.web.disputes.solver`` and talks to it over
its standard input and output (frames of :mod:`scorekeeper.web.server.workers`), so that

- a search of many seconds holds no web worker's thread nor its GIL: the
  other tables' pages are served meanwhile;
- a search nobody waits for any more is stopped for real (the process is
  killed), where a thread could only be abandoned.

A job is a ``J`` frame holding the JSON body of ``POST /api/v1/check/claim``.
The answer is ``K`` and the engine's JSON answer; ``R`` and the engine's
refusal (:func:`encode_refusal`); or ``E`` and the text of an unexpected error.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import traceback
from typing import Any, BinaryIO

from scorekeeper.rules.errors import (
    IllegalError,
    MalformedError,
    Problem,
    RulesError,
    StateError,
)
from scorekeeper.web.server.workers import exit_with_parent, lower_priority, read_frame, write_frame

REFUSALS: dict[str, type[RulesError]] = {
    kind.__name__: kind for kind in (RulesError, MalformedError, IllegalError, StateError)
}
WARM_UP = {
    "contracts": ["collections"],
    "hands": {"0": ["2S"], "1": ["AS"], "2": ["QS"], "3": ["TS"]},
    "leader": 0,
    "claim": {"seat": 0, "min_score": 0},
}
"""A one-card claim: the engine's modules are imported before the first real job."""


def encode_refusal(error: RulesError) -> bytes:
    """The engine's refusal as JSON: its kind and every problem, so that it is raised again
    in the web worker and worded there in the reader's language.

    >>> error = MalformedError.one("bad_time_limit", field="time_limit", value="9")
    >>> again = decode_refusal(encode_refusal(error))
    >>> type(again).__name__, again.problems == error.problems
    ('MalformedError', True)
    """
    problems = [dataclasses.asdict(p) for p in error.problems]
    return json.dumps({"kind": type(error).__name__, "problems": problems}, default=str).encode()


def decode_refusal(data: bytes) -> RulesError:
    """The refusal :func:`encode_refusal` wrote."""
    raw = json.loads(data)
    kind = REFUSALS.get(raw.get("kind"), RulesError)
    return kind([Problem(**p) for p in raw["problems"]])


def answer(body: dict[str, Any]) -> tuple[bytes, bytes]:
    """One job's answer frame (tag, payload)."""
    from scorekeeper.rules.checks import check_claim  # see serve()

    try:
        return b"K", json.dumps(check_claim(body)).encode()
    except RulesError as error:
        return b"R", encode_refusal(error)


def serve(jobs: BinaryIO, answers: BinaryIO) -> None:
    """Warm up, then answer job frames until ``jobs`` ends (its parent has gone).

    The engine is imported here, not with this module, so that a new solver process
    spends its fifth of a second of imports at its low priority (:func:`lower_priority`,
    called first), not at the web workers' expense.
    """
    answer(WARM_UP)
    while (frame := read_frame(jobs)) is not None:
        try:
            tag, payload = answer(json.loads(frame[1]))
        except Exception as error:  # the parent turns it into a logged error
            traceback.print_exc(file=sys.stderr)
            tag, payload = b"E", f"{type(error).__name__}: {error}".encode(errors="replace")
        write_frame(answers, tag, payload)


if __name__ == "__main__":
    exit_with_parent()
    lower_priority()
    serve(sys.stdin.buffer, sys.stdout.buffer)
