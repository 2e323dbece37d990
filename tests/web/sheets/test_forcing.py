"""PDFs that cannot be forced: only what changes a PDF makes a new one, each part checked;
the host is no part of it; a client has its share of renders; renders run below the pages;
a club night's or a circle's PDF is rendered once per version of its data, and requests
that ask for it at once share that one render."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store.circles import services as circles
from scorekeeper.web.paper import pdf
from scorekeeper.web.paper import renderer as pdf_renderer
from scorekeeper.web.paper.renderer import Limits, SheetUnavailable, server_slot
from scorekeeper.web.server import workers
from tests.web.events.test_pages import create as create_night
from tests.web.sheets.conftest import play_game

Play = Callable[..., object]


def test_unknown_language_digits_or_other_parameters_never_make_a_new_render(
    client: FlaskClient, play: Play, renders: list[str]
) -> None:
    game_id = play(deals=2).id  # type: ignore[attr-defined]
    url = f"/games/{game_id}/sheet.pdf"
    first = client.get(url)
    for query in ("?lang=zz", "?digits=roman", "?lang=en&digits=latn", "?x=1", "?paper=A4"):
        again = client.get(url + query)
        assert again.status_code == 200 and again.headers["ETag"] == first.headers["ETag"]
    assert renders == ["a4"]
    bad = client.get(url + "?paper=a0")
    assert bad.status_code == 400 and "a0" in bad.get_data(as_text=True)
    assert renders == ["a4"]


def test_the_host_is_no_part_of_a_sheet(
    app: Flask, client: FlaskClient, play: Play, renders: list[str], pdfs: type
) -> None:
    """A forged Host neither makes a new render nor leaves its address in the kept PDF:
    the link and QR code start with PUBLIC_URL."""
    app.config["PUBLIC_URL"] = "https://trix.example.org"
    game_id = play(deals=2).id  # type: ignore[attr-defined]
    url = f"/games/{game_id}/sheet.pdf"
    forged = client.get(url, headers={"Host": "evil.example"})
    plain = client.get(url)
    assert forged.data == plain.data and renders == ["a4"]
    text = pdfs.text(plain.data)  # type: ignore[attr-defined]
    assert f"https://trix.example.org/games/{game_id}" in text and "evil" not in text


def test_a_public_url_must_be_an_http_address(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.web.server.hardening import public_url_from_env

    monkeypatch.setenv("PUBLIC_URL", "https://trix.example.org/")
    assert public_url_from_env() == "https://trix.example.org"
    monkeypatch.setenv("PUBLIC_URL", "javascript:alert(1)")
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        public_url_from_env()


def test_a_nights_pdfs_are_rendered_once_per_version_of_its_data(
    client: FlaskClient, renders: list[str]
) -> None:
    night = create_night(client)
    client.post(f"/events/{night}/draw", data={"confirm": "yes"})
    for _ in range(2):
        assert client.get(f"/events/{night}/results.pdf").status_code == 200
        assert client.get(f"/events/{night}/cards.pdf?lang=zz").status_code == 200
    assert renders == ["a4", "a4"]
    assert client.get(f"/events/{night}/results.pdf?paper=letter").status_code == 200
    assert client.get(f"/events/{night}/results.pdf?paper=tabloid").status_code == 400
    assert renders == ["a4", "a4", "letter"]
    client.post(f"/events/{night}/rounds/1/lock", data={"locked": "yes"})  # a new version
    assert client.get(f"/events/{night}/results.pdf").status_code == 200
    assert renders == ["a4", "a4", "letter", "a4"]


# --- one render for requests at once --------------------------------------------------------

GUARD_SECONDS = 60.0
"""The longest a test waits for what must happen (never a speed assertion)."""


@pytest.fixture
def file_app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    """An app on a SQLite file: requests on several threads each get their own connection."""
    from tests.conftest import tables_of

    with tables_of(make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'app.sqlite'}")) as app:
        yield app


def at_once(app: Flask, url: str, count: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``count`` requests for ``url`` at once, its PDF not kept yet: the renders they caused.

    The first render is held until every other request waits (for it, or for a render of
    its own), so that each request misses the cache; then they all finish, answered 200."""
    renders: list[str] = []
    release, waits = threading.Event(), threading.Semaphore(0)
    real_render, real_wait = pdf.html_to_pdf, pdf.waiting_for_render

    def held_render(html: str, paper: str) -> bytes:
        renders.append(paper)
        waits.release()  # a second render of the same PDF would be counted here too
        assert release.wait(GUARD_SECONDS)
        return real_render(html, paper)

    @contextmanager
    def counted_wait() -> Iterator[None]:
        waits.release()
        with real_wait():
            yield

    monkeypatch.setattr(pdf, "html_to_pdf", held_render)
    monkeypatch.setattr(pdf, "waiting_for_render", counted_wait)
    statuses: list[int] = []
    threads = [
        threading.Thread(target=lambda: statuses.append(app.test_client().get(url).status_code))
        for _ in range(count)
    ]
    for thread in threads:
        thread.start()
    try:
        for _ in range(count):
            assert waits.acquire(timeout=GUARD_SECONDS), "a request neither renders nor waits"
    finally:
        release.set()
        for thread in threads:
            thread.join(GUARD_SECONDS)
    assert statuses == [200] * count
    return renders


def test_requests_at_once_for_a_new_sheet_share_one_render(
    file_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = play_game(deals=3).id
    assert at_once(file_app, f"/games/{game_id}/sheet.pdf", 4, monkeypatch) == ["a4"]


def test_requests_at_once_for_a_circles_table_share_one_render(
    file_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    circle_id = circle_with_a_game(play_game)
    assert at_once(file_app, f"/circles/{circle_id}/table.pdf", 3, monkeypatch) == ["a4"]


def circle_with_a_game(play: Play) -> str:
    """A circle of four members, with one game of five deals played in it."""
    circle, _token = circles.create_circle("Thursday table", ["Rana", "Sami", "Omar", "Lina"])
    game = play(names=["Rana", "Sami", "Omar", "Lina"], deals=5)
    circles.attach_game(circle.id, game.id, [None] * 4)  # type: ignore[attr-defined]
    return circle.id


def test_a_circles_table_is_rendered_once_per_version_of_its_data(
    client: FlaskClient, play: Play, renders: list[str]
) -> None:
    circle_id = circle_with_a_game(play)
    url = f"/circles/{circle_id}/table.pdf"
    for query in ("", "?lang=zz", "?period=forever", "?digits=roman", "?x=1"):
        assert client.get(url + query).status_code == 200
    assert renders == ["a4"]
    assert client.get(url + "?paper=letter").status_code == 200
    assert client.get(url + "?period=month").status_code == 200
    assert renders == ["a4", "letter", "a4"]
    game = play(names=["Rana", "Sami", "Omar", "Lina"], deals=2)
    circles.attach_game(circle_id, game.id, [None] * 4)  # type: ignore[attr-defined]
    assert client.get(url).status_code == 200  # a new version of the circle's data
    assert renders == ["a4", "letter", "a4", "a4"]


def test_a_rounds_sheet_is_rendered_once_per_version_and_round_each_part_checked(
    client: FlaskClient, renders: list[str]
) -> None:
    """Only a drawn round makes a render (any other is a 404), and an unknown language,
    digits or parameter is the default's, never a new render."""
    night = create_night(client)
    assert client.get(f"/events/{night}/round-sheet.pdf").status_code == 404
    client.post(f"/events/{night}/draw", data={"confirm": "yes"})
    url = f"/events/{night}/round-sheet.pdf"
    for query in ("", "?round=1", "?round=٠١", "?lang=zz", "?digits=roman", "?x=1"):
        assert client.get(url + query).status_code == 200
    assert renders == ["a4"]
    for query in ("?round=2", "?round=0", "?round=-1", "?round=x", "?paper=a0"):
        assert client.get(url + query).status_code in (400, 404)
    assert renders == ["a4"]
    assert client.get(url + "?paper=letter").status_code == 200
    assert renders == ["a4", "letter"]


# --- a client's share ------------------------------------------------------------------------


def limits(tmp_path: Path, **changes: object) -> Limits:
    return Limits(slot_dir=tmp_path / "slots", **changes)  # type: ignore[arg-type]


def test_one_client_has_at_most_its_share_of_renders(tmp_path: Path) -> None:
    mine = limits(tmp_path, slots=4, per_client=2, client="203.0.113.7", queue_wait=0.0)
    with server_slot(mine), server_slot(mine):
        with pytest.raises(SheetUnavailable) as refused, server_slot(mine):
            pass
        assert refused.value.reason == "client"
        with server_slot(limits(tmp_path, slots=4, per_client=2, client="198.51.100.1")):
            pass  # another client has its own share
    with server_slot(mine):
        pass  # given back


def test_a_client_waits_for_a_render_slot_only_briefly(tmp_path: Path) -> None:
    first, second = (limits(tmp_path, slots=1, queue_wait=0.05, client=c) for c in "ab")
    with server_slot(first), pytest.raises(SheetUnavailable) as refused, server_slot(second):
        pass
    assert refused.value.reason == "busy"
    assert pdf_renderer.QUEUE_WAIT <= 2.0  # a waiting request holds a connection and a thread


@pytest.fixture
def held_share(app: Flask) -> Iterator[Callable[[str], object]]:
    """``hold(address)``: take every render place of that address's client, as renders would."""
    from contextlib import ExitStack

    folder = Path(app.config["PDF_SLOT_DIR"])
    with ExitStack() as stack:

        def hold(address: str) -> object:
            name = workers.client_slot_name("client", workers.client_of(address))
            for _ in range(int(app.config.get("PDF_PER_CLIENT") or pdf_renderer.PER_CLIENT)):
                stack.enter_context(workers.hold_slot(folder, name, 99, 0))
            return None

        yield hold


def test_past_its_share_a_client_gets_429_with_retry_after_and_an_ipv6_64_is_one_client(
    client: FlaskClient, held_share: Callable[[str], object]
) -> None:
    held_share("2001:db8:5:6::1")
    neighbour = {"REMOTE_ADDR": "2001:db8:5:6:ffff::9"}  # the same /64: the same client
    refused = client.get("/sheets/blank.pdf?players=Rana", environ_base=neighbour)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "5"
    assert "being prepared" in refused.get_data(as_text=True)
    other = {"REMOTE_ADDR": "2001:db8:5:7::1"}  # another /64
    assert client.get("/sheets/blank.pdf?players=Rana", environ_base=other).status_code == 200


def test_a_sheet_from_the_cache_needs_no_share(
    client: FlaskClient, held_share: Callable[[str], object]
) -> None:
    assert client.get("/sheets/blank.pdf").status_code == 200
    held_share("127.0.0.1")
    assert client.get("/sheets/blank.pdf").status_code == 200


def test_renders_run_below_the_pages(tmp_path: Path) -> None:
    renderer = pdf_renderer.Renderer()
    try:
        job = pdf_renderer.Job(html="<p>x</p>", paper="a4", page_label="%(page)s")
        assert renderer.render(job, limits(tmp_path)).startswith(b"%PDF")
        (child,) = renderer._idle
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == workers.NICENESS
    finally:
        renderer.close()


def test_a_nights_table_cards_carry_a_link_the_players_can_open(
    app: Flask, client: FlaskClient, renders: list[str], pdfs: type
) -> None:
    """Only the director may ask for them: without PUBLIC_URL they take the host the
    director reached the server by (and are kept per host); with it, PUBLIC_URL."""
    night = create_night(client)
    client.post(f"/events/{night}/draw", data={"confirm": "yes"})
    text = pdfs.text(client.get(f"/events/{night}/cards.pdf").data)  # type: ignore[attr-defined]
    assert "http://localhost/games/" in text
    app.config["PUBLIC_URL"] = "https://trix.example.org"
    text = pdfs.text(client.get(f"/events/{night}/cards.pdf").data)  # type: ignore[attr-defined]
    assert "https://trix.example.org/games/" in text and len(renders) == 2


def test_a_request_waiting_for_its_render_holds_no_work_slot(
    app: Flask, client: FlaskClient, play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the render process works, the worker's work slots are all free for the
    other tables (and the request holds no database connection); it takes one back after."""
    from scorekeeper.extensions import db
    from scorekeeper.web.server.bodies import BodyFirst

    slots = app.wsgi_app
    assert isinstance(slots, BodyFirst)
    seen: list[tuple[int, bool]] = []
    real = pdf_renderer.RENDERER.render

    def watching(job: object, limits: Limits) -> bytes:
        in_transaction = db.session().in_transaction()
        seen.append((slots._slots._value, in_transaction))  # type: ignore[attr-defined]
        return real(job, limits)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf_renderer.RENDERER, "render", watching)
    game_id = play(deals=2).id  # type: ignore[attr-defined]
    assert client.get(f"/games/{game_id}/sheet.pdf").status_code == 200
    size = slots._slots._initial_value  # type: ignore[attr-defined]
    assert seen == [(size, False)]
    assert slots._slots._value == size  # taken back, then given back at the end


def test_a_circles_ladder_pdf_is_rendered_once_per_version_of_its_nights(
    client: FlaskClient, renders: list[str]
) -> None:
    """Keyed by the circle's version and every night's: the same data, the same PDF, whatever
    else the request says (the host included); a new night, a new render."""
    from tests.web.circles.test_ladder import circle, played_night

    circle_id, token = circle(client)
    played_night(client, circle_id, token, 1)
    url = f"/circles/{circle_id}/ladder.pdf"
    for query in ("", "?lang=zz", "?digits=roman", "?x=1", "?period=month"):
        assert client.get(url + query, headers={"Host": "evil.example"}).status_code == 200
    assert client.get(url + "?paper=a0").status_code == 400
    assert renders == ["a4"]
    played_night(client, circle_id, token, 2)  # a new night: a new version of the data
    assert client.get(url).status_code == 200 and renders == ["a4", "a4"]
