"""A claim judged for the pages: a job that outlives its request, and its progress.

The claim form's post admits the claim (:func:`~scorekeeper.web.disputes.pool.admit`:
a 429 or 503 at once when the limits are reached), starts it and redirects
to its page, ``/disputes/claims/<id>``. A thread of the worker that took the
post waits for the solver process (:func:`~scorekeeper.web.disputes.pool.search`);
it holds no request thread. The job lives in files, in the server's claim
folder, so that any worker can show its page:

- ``job.json``: the form as it was posted (to show it again) and the claim's body;
- ``state.json``: ``waiting``, ``running``, then ``done`` (the engine's answer),
  ``refused`` (the engine's problems, shown beside their fields) or ``stopped``;
- ``owner``: locked by the thread running the job while it runs. A job that
  says it runs but whose lock is free lost its worker (a restart): ``stopped``;
- ``seen``: touched by each look at the page (a refresh, or the script's
  status request). Nobody looked for :data:`ABANDONED_AFTER` seconds: the
  tab was closed, and the search is stopped.

The same claim (the same game and body) posted while its job runs starts no
other search: the post is sent to the running job's page
(``positions/<key>`` names it). Jobs are kept for :data:`KEEP_SECONDS` after
they start; their ids are 128 random bits, so a job is seen only by whoever has
its link (or posts the very same claim while it runs).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import shutil
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.rules.errors import RulesError
from scorekeeper.web.disputes import pool
from scorekeeper.web.disputes.pool import ClaimLimits, ClaimUnavailable
from scorekeeper.web.disputes.solver import decode_refusal, encode_refusal
from scorekeeper.web.server import workers

log = logging.getLogger(__name__)

JOB_ID = re.compile(r"[A-Za-z0-9_-]{22}")
KEEP_SECONDS = 3600.0
ABANDONED_AFTER = 15.0
"""Seconds without a look at a job's page after which its search is stopped."""
RUNNING = ("waiting", "running")


@dataclass(frozen=True)
class Job:
    """What a job's page shows."""

    id: str
    form: list[tuple[str, str]]
    body: dict[str, Any]
    state: str
    """``waiting``, ``running``, ``done``, ``refused`` or ``stopped``."""
    limit: float
    """The search's time limit (seconds)."""
    elapsed: float
    """Seconds since the search started (0 while waiting)."""
    answer: dict[str, Any] | None = None
    refusal: RulesError | None = None
    reason: str | None = None
    """Why it stopped: ``cancelled``, ``busy``, ``failed`` or ``lost``."""

    @property
    def finished(self) -> bool:
        return self.state not in RUNNING


def jobs_folder(limits: ClaimLimits) -> Path:
    return limits.folder / "jobs"


def _write_json(path: Path, value: dict[str, Any]) -> None:
    """Written whole or not at all: a page reading it meanwhile sees the old state."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    temporary.write_text(json.dumps(value), encoding="utf-8")
    os.replace(temporary, path)


def _set_state(folder: Path, state: str, **facts: Any) -> None:
    _write_json(folder / "state.json", {"state": state, "at": time.time(), **facts})


# --- starting a job --------------------------------------------------------------------------


def start(
    body: dict[str, Any],
    form: Sequence[tuple[str, str]],
    limits: ClaimLimits,
    client: str,
    game: str | None = None,
) -> tuple[str, threading.Event]:
    """Admit the claim and start its search; its id, and an event set when it is finished.

    The same claim running already (the same ``game`` and body): that job's id, and an
    event already set (this post waits for nothing).
    """
    prune(limits)
    key = pool.position_key(body, game)
    running = _running_job(limits, key)
    if running is not None:
        joined = threading.Event()
        joined.set()
        return running, joined
    places = pool.admit(limits, client, game)
    job_id = secrets.token_urlsafe(16)
    folder = jobs_folder(limits) / job_id
    try:
        folder.mkdir(mode=0o700, parents=True)
        owner = workers.try_lock(folder / "owner")
        assert owner is not None  # a new folder: nobody else holds it
        job = {"form": list(form), "body": body, "limit": pool.time_limit(body)}
        _write_json(folder / "job.json", job)
        _set_state(folder, "waiting")
        (folder / "seen").touch()
        _name_position(limits, key, job_id)
    except BaseException:
        places.close()
        raise
    done = threading.Event()
    thread = threading.Thread(
        target=_run,
        args=(folder, body, limits, places, owner, done),
        name=f"claim-{job_id[:6]}",
        daemon=True,
    )
    thread.start()
    return job_id, done


def _run(
    folder: Path,
    body: dict[str, Any],
    limits: ClaimLimits,
    places: contextlib.ExitStack,
    owner: int,
    done: threading.Event,
) -> None:
    """The job's thread: search, keep the outcome, free the places."""
    try:
        answer = pool.search(
            body,
            limits,
            wanted=lambda: _looked_at_lately(folder),
            started=lambda: _set_state(folder, "running", started=time.time()),
        )
        _set_state(folder, "done", answer=answer)
    except RulesError as error:
        _set_state(folder, "refused", refusal=encode_refusal(error).decode())
    except ClaimUnavailable as unavailable:
        _set_state(folder, "stopped", reason=unavailable.reason)
    except Exception:
        log.exception("claim job %s failed", folder.name)
        _set_state(folder, "stopped", reason="failed")
    finally:
        places.close()
        os.close(owner)
        done.set()


def _positions(limits: ClaimLimits) -> Path:
    return limits.folder / "positions"


def _name_position(limits: ClaimLimits, key: str, job_id: str) -> None:
    """Say which job searches the claim ``key`` (the last one started wins)."""
    folder = _positions(limits)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = folder / f".{key}.{os.getpid()}.{threading.get_ident()}"
    temporary.write_text(job_id, encoding="ascii")
    os.replace(temporary, folder / key)


def _running_job(limits: ClaimLimits, key: str) -> str | None:
    """The job that searches the claim ``key`` now, if one does."""
    try:
        job_id = (_positions(limits) / key).read_text(encoding="ascii").strip()
    except OSError:
        return None
    job = read(limits, job_id, look=False)
    return job_id if job is not None and not job.finished else None


def _looked_at_lately(folder: Path) -> bool:
    try:
        return time.time() - (folder / "seen").stat().st_mtime < ABANDONED_AFTER
    except OSError:
        return False  # the job was removed


def prune(limits: ClaimLimits) -> None:
    """Remove the jobs older than :data:`KEEP_SECONDS` that nobody runs any more."""
    folder = jobs_folder(limits)
    if not folder.is_dir():
        return
    now = time.time()
    for job in folder.iterdir():
        with contextlib.suppress(OSError):
            if now - (job / "job.json").stat().st_mtime < KEEP_SECONDS:
                continue
            if _running(job):
                continue
            shutil.rmtree(job, ignore_errors=True)
    _prune_positions(limits, now)


def _prune_positions(limits: ClaimLimits, now: float) -> None:
    """Forget which job searched a claim once that job is long gone."""
    folder = _positions(limits)
    if folder.is_dir():
        for path in folder.iterdir():
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > KEEP_SECONDS:
                    path.unlink()


def _running(folder: Path) -> bool:
    """Whether the job's thread may still write to it.

    A finished state is enough: its thread writes nothing after it, though it
    may not have let go of the lock yet.
    """
    with contextlib.suppress(OSError, ValueError, KeyError):
        if _state_name(folder) not in RUNNING:
            return False
    return _owned(folder)


def _owned(folder: Path) -> bool:
    """Whether a thread holds the job's lock (it runs it, or is just letting go)."""
    owner = workers.try_lock(folder / "owner")
    if owner is None:
        return True
    os.close(owner)
    return False


def _state_name(folder: Path) -> str:
    return str(json.loads((folder / "state.json").read_text(encoding="utf-8"))["state"])


# --- reading a job ---------------------------------------------------------------------------


def read(limits: ClaimLimits, job_id: str, look: bool = True) -> Job | None:
    """The job ``job_id``, or None if there is none (any more); ``look`` marks it seen."""
    if not JOB_ID.fullmatch(job_id):
        return None
    folder = jobs_folder(limits) / job_id
    try:
        job = json.loads((folder / "job.json").read_text(encoding="utf-8"))
        state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if look:
        with contextlib.suppress(OSError):
            os.utime(folder / "seen")
    name = state["state"]
    if name in RUNNING and _lost(folder):
        name, state = "stopped", {"reason": "lost"}
    started = state.get("started")
    return Job(
        id=job_id,
        form=[(str(k), str(v)) for k, v in job["form"]],
        body=job["body"],
        state=name,
        limit=float(job["limit"]),
        elapsed=max(0.0, time.time() - started) if name == "running" and started else 0.0,
        answer=state.get("answer"),
        refusal=decode_refusal(state["refusal"].encode()) if "refusal" in state else None,
        reason=state.get("reason"),
    )


def _lost(folder: Path) -> bool:
    """Whether the job's thread is gone (its worker stopped) though the job never finished."""
    if _owned(folder):
        return False
    # It may have finished between the two reads: only a job still unfinished is lost.
    return _state_name(folder) in RUNNING
