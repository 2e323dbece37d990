"""The sheet is rendered once per (game, version, paper): a cache, ETags and 304s."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.store import games as services
from scorekeeper.web.paper import pdf

Play = Callable[..., services.LoadedGame]


def test_second_download_of_an_unchanged_game_comes_from_the_cache(
    client: FlaskClient, play: Play, renders: list[str]
) -> None:
    loaded = play(deals=5)
    first = client.get(f"/games/{loaded.id}/sheet.pdf")
    second = client.get(f"/games/{loaded.id}/sheet.pdf")
    assert first.status_code == second.status_code == 200
    assert second.data == first.data
    assert renders == ["a4"]
    client.get(f"/games/{loaded.id}/sheet.pdf?paper=letter")
    assert renders == ["a4", "letter"]  # each paper is its own entry


def test_a_new_deal_means_a_new_version_and_a_new_render(
    client: FlaskClient, play: Play, renders: list[str]
) -> None:
    loaded = play(deals=4)
    before = client.get(f"/games/{loaded.id}/sheet.pdf")
    trix = DealEntry((Contract.TRIX,), Captures(trix_order=(1, 2, 3, 0)))
    services.record_deal(loaded.id, trix)
    after = client.get(f"/games/{loaded.id}/sheet.pdf")
    assert renders == ["a4", "a4"]
    assert before.headers["ETag"] != after.headers["ETag"]


def test_if_none_match_with_the_current_etag_is_a_304_without_rendering(
    client: FlaskClient, play: Play, renders: list[str]
) -> None:
    loaded = play(deals=2)
    etag = client.get(f"/games/{loaded.id}/sheet.pdf").headers["ETag"]
    response = client.get(f"/games/{loaded.id}/sheet.pdf", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == etag
    letter = client.get(
        f"/games/{loaded.id}/sheet.pdf?paper=letter", headers={"If-None-Match": etag}
    )
    assert letter.status_code == 200  # another paper, another tag
    assert renders == ["a4", "letter"]


def test_the_cache_is_bounded(make_app: Callable[..., Flask]) -> None:
    cache = pdf.PdfCache(size=2)
    for n in range(5):
        cache.put(n, b"%d" % n)
    assert len(cache) == 2
    assert cache.get(0) is None and cache.get(4) == b"4"
    app = make_app(PDF_CACHE_SIZE=3)
    assert app.extensions["pdf_cache"].size == 3


def test_least_recently_used_entry_goes_first() -> None:
    cache = pdf.PdfCache(size=2)
    cache.put("a", b"a")
    cache.put("b", b"b")
    assert cache.get("a") == b"a"  # "a" is now the most recent
    cache.put("c", b"c")
    assert cache.get("b") is None and cache.get("a") == b"a"


GUARD_SECONDS = 30.0
"""The longest a test waits for what must happen (never a speed assertion)."""


def _misses_at_once(
    cache: pdf.PdfCache, count: int, render: Callable[[], bytes], started: threading.Event
) -> list[object]:
    """``count`` threads asking ``cache`` for one key at once: what each got (or raised).
    ``render`` waits for ``started``, set once every other thread waits for it."""
    waiting = threading.Semaphore(0)

    @contextmanager
    def counted() -> Iterator[None]:
        waiting.release()
        yield

    got: list[object] = []

    def ask() -> None:
        try:
            got.append(cache.get_or_make("sheet", render, waiting=counted))
        except RuntimeError as error:
            got.append(error)

    threads = [threading.Thread(target=ask) for _ in range(count)]
    for thread in threads:
        thread.start()
    for _ in range(count - 1):
        assert waiting.acquire(timeout=GUARD_SECONDS)
    started.set()
    for thread in threads:
        thread.join(GUARD_SECONDS)
    return got


def test_misses_of_one_key_at_once_share_one_render() -> None:
    started = threading.Event()
    cache = pdf.PdfCache(size=4)
    renders: list[int] = []

    def render() -> bytes:
        renders.append(1)
        assert started.wait(GUARD_SECONDS)
        return b"%PDF"

    assert _misses_at_once(cache, 5, render, started) == [b"%PDF"] * 5
    assert renders == [1] and cache.misses == 1
    assert cache.get_or_make("sheet", render) == b"%PDF" and renders == [1]


def test_a_failed_render_is_its_callers_and_a_waiter_renders_again() -> None:
    """A refusal (a client past its share, a busy server) may be its requester's alone:
    the others waiting for that render do not get it, one of them renders instead."""
    started = threading.Event()
    cache = pdf.PdfCache(size=4)
    renders: list[int] = []

    def render() -> bytes:
        renders.append(1)
        if len(renders) == 1:
            assert started.wait(GUARD_SECONDS)
            raise RuntimeError("this client is past its share")
        return b"%PDF"

    got = _misses_at_once(cache, 3, render, started)
    assert [type(g) for g in got].count(RuntimeError) == 1
    assert got.count(b"%PDF") == 2 and renders == [1, 1]
    assert cache.get("sheet") == b"%PDF"
