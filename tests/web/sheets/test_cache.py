"""The sheet is rendered once per (game, version, paper): a cache, ETags and 304s."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.captures import Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry
from scorekeeper.store import games as services
from scorekeeper.web.sheets import pdf

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
