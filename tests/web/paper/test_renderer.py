"""Render processes: nothing inherited across a fork, a time limit that cuts off, and a
bound on renders shared by every process of a server (scorekeeper/web/paper/renderer.py)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.web.paper import engine as pdf_engine
from scorekeeper.web.paper import renderer as pdf_renderer
from scorekeeper.web.paper.engine import Job
from scorekeeper.web.paper.renderer import (
    RENDERER,
    Limits,
    Renderer,
    SheetUnavailable,
    server_slot,
)

BLANK = Job(
    html="<!DOCTYPE html><html><body><p>Trix</p></body></html>",
    paper="a4",
    page_label="%(page)s / %(pages)s",
)


def limits(tmp_path: Path, **changes: float) -> Limits:
    return Limits(slot_dir=tmp_path / "slots", **changes)  # type: ignore[arg-type]


def test_building_the_app_starts_no_thread_and_no_render_process(
    make_app: Callable[..., Flask],
) -> None:
    """What a gunicorn master does before it forks: load the app. Nothing may run then."""
    before, processes = set(threading.enumerate()), list(RENDERER._idle)
    make_app(TESTING=False)
    deadline = time.monotonic() + 2  # a short timer (the rate limiter's expiry) may come and go
    while (started := set(threading.enumerate()) - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not started
    assert RENDERER._idle == processes


def test_a_forked_child_starts_with_a_free_lock_and_no_processes() -> None:
    """The hang under gunicorn: a lock held in the master at the fork stayed held for good."""
    renderer = Renderer()
    os.register_at_fork(after_in_child=renderer._forget)
    with renderer._lock:  # held, as by a render in another thread, at the moment of the fork
        pid = os.fork()
        if pid == 0:  # the child: a gunicorn worker
            ok = not renderer._lock.locked() and renderer._idle == []
            os._exit(0 if ok else 1)
    _pid, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_the_module_renderer_also_forgets_across_a_fork() -> None:
    with RENDERER._lock:
        pid = os.fork()
        if pid == 0:
            os._exit(0 if not RENDERER._lock.locked() else 1)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def test_a_render_gives_a_pdf_and_keeps_its_process_for_the_next(tmp_path: Path) -> None:
    renderer = Renderer()
    try:
        first = renderer.render(BLANK, limits(tmp_path))
        assert first.startswith(b"%PDF-")
        assert len(renderer._idle) == 1
        process = renderer._idle[0]
        assert renderer.render(BLANK, limits(tmp_path)).startswith(b"%PDF-")
        assert renderer._idle == [process]
    finally:
        renderer.close()


def test_a_render_past_its_limit_is_cut_off_and_the_next_one_works(tmp_path: Path) -> None:
    renderer = Renderer()
    try:
        renderer.prewarm()
        slow = renderer._idle[0]
        with pytest.raises(SheetUnavailable) as caught:
            renderer.render(BLANK, limits(tmp_path, timeout=0.0001))
        assert caught.value.reason == "timeout"
        assert not slow.alive()  # killed: no thread and no process left on it
        assert renderer._idle == []
        assert renderer.render(BLANK, limits(tmp_path)).startswith(b"%PDF-")
    finally:
        renderer.close()


def test_a_render_error_is_an_error_and_the_process_is_not_reused(tmp_path: Path) -> None:
    renderer = Renderer()
    try:
        with pytest.raises(RuntimeError, match="the PDF render failed"):
            renderer.render(Job(html="<p>x</p>", paper="legal", page_label="x"), limits(tmp_path))
        assert renderer.render(BLANK, limits(tmp_path)).startswith(b"%PDF-")
    finally:
        renderer.close()


def test_no_free_slot_within_the_wait_is_busy(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=1, queue_wait=0.05)
    with server_slot(bound):
        with pytest.raises(SheetUnavailable) as caught, server_slot(bound):
            pass
        assert caught.value.reason == "busy"
    with server_slot(bound):  # released
        pass


def test_slots_are_shared_between_threads_and_processes(tmp_path: Path) -> None:
    bound = limits(tmp_path, slots=2, queue_wait=0.0)
    with server_slot(bound):
        pid = os.fork()
        if pid == 0:  # another worker of the same server takes the second slot, then dies
            with server_slot(bound):
                os.kill(os.getpid(), signal.SIGKILL)
        os.waitpid(pid, 0)
        # The dead worker's slot came back with its death; then both are taken.
        with server_slot(bound), pytest.raises(SheetUnavailable), server_slot(bound):
            pass


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PDF_RENDER_TIMEOUT", "2.5")
    monkeypatch.setenv("PDF_RENDER_SLOTS", "3")
    assert pdf_renderer.config_from_env({}) == {"PDF_RENDER_TIMEOUT": 2.5, "PDF_RENDER_SLOTS": 3}
    assert pdf_renderer.config_from_env({"PDF_RENDER_SLOTS": 1}) == {"PDF_RENDER_TIMEOUT": 2.5}
    monkeypatch.setenv("PDF_RENDER_SLOTS", "many")
    with pytest.raises(ValueError, match="PDF_RENDER_SLOTS must be a positive number"):
        pdf_renderer.config_from_env({})


def test_weasyprint_is_the_major_version_whose_internals_the_engine_sets() -> None:
    """pdf_engine sets a few WeasyPrint internals; an upgrade must fail here, not in a sheet."""
    import weasyprint

    assert int(weasyprint.__version__.split(".")[0]) == pdf_engine.WEASYPRINT_MAJOR
    assert callable(getattr(weasyprint.HTML, "_ua_stylesheets", None))
    probe = weasyprint.HTML(string="<p>x</p>")
    for name in ("base_url", "url_fetcher", "media_type", "wrapper_element", "etree_element"):
        assert hasattr(probe, name), name
