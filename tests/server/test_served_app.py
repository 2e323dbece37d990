"""The app as the README serves it: gunicorn with gunicorn.conf.py (preload_app, forked
workers), on SQLite and on PostgreSQL.

What only a fork can break is tested here: the score sheets (rendered by a process of
each worker's own, never by anything inherited from the master), their time limit and
their server-wide bound, and one smoke test that puts every page kind through the
served path, so that a fork-only failure cannot pass CI.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

import pytest
from pypdf import PdfReader

from scorekeeper import create_app
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from tests.common import NAMES, C, D, K, Q, T
from tests.server.serving import Client, Server
from tests.server.test_served_circles import call
from tests.web.sheets.conftest import deal_for

pytestmark = pytest.mark.served

Serve = Callable[..., Server]


@dataclass(frozen=True)
class Played:
    game_id: str
    token: str


def play_finished_game(database_url: str) -> Played:
    """A whole game (20 deals and two redeals) written to the server's database."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "served"})
    with app.app_context():
        rules = RuleSet()
        loaded, token = services.create_game(NAMES, 0, rules)
        for k in range(rules.kingdoms):
            king = loaded.game.current_king
            assert king is not None
            for contract in (K, Q, D, C, T):
                if k == 1 and contract is K:
                    services.record_redeal(loaded.id, RedealEntry("redeal", (king + 1) % 4, K))
                loaded, _n = services.record_deal(loaded.id, deal_for(contract, king, k))
        assert loaded.game.finished
        from scorekeeper.extensions import db

        db.engine.dispose()
        return Played(loaded.id, token)


def get(server: Server, path: str, cookie: str = "") -> tuple[int, dict[str, str], bytes]:
    """A GET through a new connection: (status, headers, body)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=60)
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()


def assert_pdf(body: bytes, min_pages: int = 1) -> PdfReader:
    assert body.startswith(b"%PDF-"), body[:200]
    reader = PdfReader(io.BytesIO(body))
    assert len(reader.pages) >= min_pages
    return reader


def test_sheets_download_under_gunicorn(database_url: str, serve: Serve) -> None:
    """The finished game's sheet and the blank sheet are valid PDFs when served by forked
    workers (they never answered before: a lock inherited held from the master)."""
    played = play_finished_game(database_url)
    server = serve(database_url)
    status, headers, body = get(server, f"/games/{played.game_id}/sheet.pdf")
    assert status == 200, body[:300]
    assert headers["content-type"] == "application/pdf"
    text = "".join(page.extract_text() for page in assert_pdf(body, min_pages=2).pages)
    assert all(name in text for name in NAMES)
    status, _headers, body = get(server, "/sheets/blank.pdf?players=Rana,Sami,Omar,Lina")
    assert status == 200
    assert "Rana" in assert_pdf(body).pages[0].extract_text()


def test_six_sheets_at_once_and_the_home_page_answers_meanwhile(
    database_url: str, serve: Serve
) -> None:
    played = play_finished_game(database_url)
    # Six renders of one client, each waiting its turn: past the defaults (2 renders a
    # client, 2 s of wait for a slot), which tests/server/test_served_fair_share.py covers.
    server = serve(database_url, env={"PDF_PER_CLIENT": "6", "PDF_QUEUE_WAIT": "60"})
    # Six different sheets (no cache can answer them): languages, papers, names.
    paths = [
        f"/games/{played.game_id}/sheet.pdf?lang=en",
        f"/games/{played.game_id}/sheet.pdf?lang=ar",
        f"/games/{played.game_id}/sheet.pdf?paper=letter&lang=es",
        "/sheets/blank.pdf?players=A1",
        "/sheets/blank.pdf?players=B2&lang=ru",
        "/sheets/blank.pdf?players=C3&paper=letter",
    ]
    answers: dict[str, tuple[int, bytes]] = {}

    def fetch(path: str) -> None:
        status, _headers, body = get(server, path)
        answers[path] = (status, body)

    threads = [threading.Thread(target=fetch, args=(path,)) for path in paths]
    for thread in threads:
        thread.start()
    # The home page is answered while the sheets render (a render holds no worker's GIL
    # and no request thread waits on a slot for long): at least once before the last
    # sheet is done. How fast the pages answer under PDF load: benchmarks/abuse.py.
    home_while_rendering = 0
    while any(thread.is_alive() for thread in threads):
        status, _headers, _body = get(server, "/")
        assert status == 200
        home_while_rendering += any(thread.is_alive() for thread in threads)
        time.sleep(0.05)
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(answers) == sorted(paths)
    for path, (status, body) in answers.items():
        assert status == 200, (path, body[:300])
        assert_pdf(body)
    assert home_while_rendering >= 1


def test_a_render_past_its_time_limit_is_a_clear_503_and_the_server_goes_on(
    sqlite_url: str, serve: Serve
) -> None:
    """A render cut off at its limit answers a 503 page; the worker stays free."""
    server = serve(sqlite_url, env={"PDF_RENDER_TIMEOUT": "0.001"})
    status, headers, body = get(server, "/sheets/blank.pdf?players=Slow")
    assert status == 503
    assert headers["retry-after"].isdigit()
    assert b"took too long" in body
    for _ in range(3):
        assert get(server, "/help")[0] == 200
    assert "PDF render stopped (timeout)" in server.log_text()


def test_beyond_the_servers_render_slots_sheets_get_503_with_retry_after(
    sqlite_url: str, serve: Serve
) -> None:
    """One render slot for the whole server (three workers): the sheets asked for at once
    beyond it are refused with Retry-After, never queued without end."""
    slots = {"PDF_RENDER_SLOTS": "1", "PDF_QUEUE_WAIT": "0.01", "PDF_PER_CLIENT": "8"}
    server = serve(sqlite_url, env=slots)
    assert get(server, "/sheets/blank.pdf?players=Warm")[0] == 200  # warm up one process
    statuses: list[tuple[int, dict[str, str]]] = []

    def fetch(i: int) -> None:
        status, headers, _body = get(server, f"/sheets/blank.pdf?players=Player{i}&lang=ar")
        statuses.append((status, headers))

    threads = [threading.Thread(target=fetch, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    codes = sorted(status for status, _ in statuses)
    assert codes.count(200) >= 1 and codes.count(503) >= 1, codes
    assert set(codes) <= {200, 503}
    assert all(h["retry-after"].isdigit() for status, h in statuses if status == 503)


# --- every page kind through the served path -------------------------------------------------

SMOKE_PATHS: dict[str, tuple[str, int, str]] = {
    # endpoint: (path, expected status, what the answer holds)
    "web.index": ("/", 200, "text/html"),
    "web.help_page": ("/help", 200, "text/html"),
    "web.new_game": ("/games/new", 200, "text/html"),
    "web.import_page": ("/games/import", 200, "text/html"),
    "web.game": ("/games/{id}", 200, "text/html"),
    "web.game_version": ("/games/{id}/version", 200, "application/json"),
    "web.game_stream": ("/games/{id}/stream", 200, "text/event-stream"),
    "web.deal": ("/games/{id}/deals/1", 200, "text/html"),
    "web.edit_deal": ("/games/{id}/deals/3/edit", 200, "text/html"),
    "web.undo": ("/games/{id}/undo", 200, "text/html"),
    "web.new_deal": ("/games/{id}/deals/new?contracts=king", 200, "text/html"),
    "web.export_json": ("/games/{id}/export.json", 200, "application/json"),
    "web.qr_code": ("/games/{id}/qr/view.svg", 200, "image/svg+xml"),
    "web.join": ("/games/{id}/join/{token}", 302, ""),  # already joined: to the game
    "web.disputes": ("/disputes", 200, "text/html"),
    "web.game_disputes": ("/games/{id}/disputes", 200, "text/html"),
    "web.check_play": ("/disputes/play", 200, "text/html"),
    "web.play_state": ("/disputes/play/state?contract=king&king=0", 200, "application/json"),
    "web.check_redeal": ("/disputes/redeal", 200, "text/html"),
    "web.claim": ("/disputes/claim", 200, "text/html"),
    "web.check_next_deal": ("/games/{id}/check", 200, "text/html"),
    "web.next_deal_state": ("/games/{id}/check/state", 422, "application/json"),
    "web.check_deal": ("/games/{id}/deals/2/check", 200, "text/html"),
    "web.deal_state": ("/games/{id}/deals/2/check/state", 200, "application/json"),
    "web.game_claim": ("/games/{id}/claim", 200, "text/html"),
    # A claim's page and state, for a claim no longer kept: a 404 that says so.
    "web.claim_job": ("/disputes/claims/AAAAAAAAAAAAAAAAAAAAAA", 404, "text/html"),
    "web.claim_job_status": ("/disputes/claims/AAAAAAAAAAAAAAAAAAAAAA/status", 404, "text/html"),
    "web.game_redeal_check": ("/games/{id}/redeal-check", 200, "text/html"),
    "export.sheet": ("/games/{id}/sheet.pdf", 200, "application/pdf"),
    "export.blank": ("/sheets/blank.pdf", 200, "application/pdf"),
    "api_games.get_game": ("/api/v1/games/{id}", 200, "application/json"),
    "api_games.get_deal": ("/api/v1/games/{id}/deals/4", 200, "application/json"),
    "api_games.export_game": ("/api/v1/games/{id}/export", 200, "application/json"),
    "i18n.set_language": ("/lang/ar", 302, ""),
    "i18n.set_digits": ("/digits/arab", 302, ""),
    "i18n.set_theme": ("/theme/dark", 302, ""),
    "static": ("/static/app.css", 200, "text/css"),
    # Club nights (tests/server/test_served_events.py plays one): no event has this id.
    "web.new_event": ("/events/new", 200, "text/html"),
    "web.event": ("/events/{id}", 404, "text/html"),
    "web.direct": ("/events/{id}/direct/{token}", 404, "text/html"),
    "web.event_board": ("/events/{id}/board", 404, "text/html"),
    "web.event_board_live": ("/events/{id}/board/live", 404, "text/html"),
    "web.event_live": ("/events/{id}/live", 404, "text/html"),
    "web.event_table_qr": ("/events/{id}/tables/{id}/qr.svg", 403, "text/html"),
    "web.event_cards": ("/events/{id}/cards.pdf", 403, "text/html"),
    "web.event_link_qr": ("/events/{id}/qr/direct.svg", 403, "text/html"),
    "web.events_list": ("/events", 200, "text/html"),
    "web.event_results": ("/events/{id}/results.pdf", 404, "text/html"),
    "web.event_round_sheet": ("/events/{id}/round-sheet.pdf", 404, "text/html"),
    "web.event_results_csv": ("/events/{id}/results.csv", 404, "text/html"),
    "web.event_results_page": ("/events/{id}/results.html", 404, "text/html"),
    "api_events.get_event": ("/api/v1/events/{id}", 404, "application/json"),
    # Circles: a real circle (made through the served API); this browser has no rights over
    # it, so its entry pages are refused and its edit link asks to be confirmed.
    "web.circles": ("/circles", 200, "text/html"),
    "web.circle": ("/circles/{circle}", 200, "text/html"),
    "web.circle_qr": ("/circles/{circle}/qr/view.svg", 200, "image/svg+xml"),
    "web.circle_join": ("/circles/{circle}/join/{circle_token}", 200, "text/html"),
    "web.circle_new_game": ("/circles/{circle}/games/new", 403, "text/html"),
    "web.circle_attach": ("/circles/{circle}/attach", 403, "text/html"),
    "web.circle_member": ("/circles/{circle}/members/{member}", 200, "text/html"),
    "web.circle_export_csv": ("/circles/{circle}/export.csv", 200, "text/csv"),
    "web.circle_export_backup": ("/circles/{circle}/backup.json", 200, "application/json"),
    "web.circle_restore": ("/circles/restore", 200, "text/html"),
    "api_circles.get_circle": ("/api/v1/circles/{circle}", 200, "application/json"),
    "api_circles.member": ("/api/v1/circles/{circle}/members/{member}", 200, "application/json"),
    "export.circle_pdf": ("/circles/{circle}/table.pdf", 200, "application/pdf"),
    "web.circle_ladder": ("/circles/{circle}/ladder", 200, "text/html"),
    "export.circle_ladder_pdf": ("/circles/{circle}/ladder.pdf", 200, "application/pdf"),
    # Offline play (tests/server/test_served_offline.py syncs through it).
    "web.manifest": ("/manifest.webmanifest", 200, "application/manifest+json"),
    "web.service_worker": ("/sw.js", 200, "text/javascript"),
    "web.engine_files": ("/offline/engine.json", 200, "application/json"),
    "web.offline_unavailable": ("/offline/unavailable", 200, "text/html"),
    "web.engine_worker": ("/offline/engine-worker.js", 200, "text/javascript"),
    "web.engine_zip": ("/offline/engine-0.zip", 404, ""),
    "web.pyodide_file": ("/offline/pyodide/0/pyodide.js", 404, ""),
    "web.messages": ("/offline/messages/ar.json", 200, "application/json"),
    "web.game_for_phone": ("/games/{id}/offline.json", 200, "application/json"),
}
"""One GET for each GET endpoint of the app (the game is finished: the next deal's check
has no deal to check, a clear 422)."""


def test_the_smoke_list_names_every_page_kind() -> None:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"})
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    assert endpoints == set(SMOKE_PATHS)


def _session_cookie(headers: dict[str, str]) -> str:
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(headers.get("set-cookie", ""))
    return "; ".join(f"{key}={morsel.value}" for key, morsel in cookie.items())


def join_with_csrf(server: Server, path: str) -> str:
    """Open an edit link (a question, a session with its CSRF token), then confirm: the
    editor's session cookie."""
    import http.client
    import re

    status, headers, body = get(server, path)
    assert status == 200 and b"Join this game to keep its score?" in body
    assert headers["cache-control"] == "no-store"
    cookie = _session_cookie(headers)
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', body)
    assert cookie and csrf
    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=60)
    try:
        form = b"csrf_token=" + csrf.group(1)
        head = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        conn.request("POST", path, body=form, headers=head)
        response = conn.getresponse()
        response.read()
        assert response.status == 303, response.status
        return _session_cookie({k.lower(): v for k, v in response.getheaders()})
    finally:
        conn.close()


def test_every_page_kind_answers_when_served(database_url: str, serve: Serve) -> None:
    """Every GET endpoint, with an editor's session, through gunicorn's forked workers."""
    played = play_finished_game(database_url)
    server = serve(database_url, env={"LIVE_STREAM_SECONDS": "0.5"})  # a stream ends soon
    cookie = join_with_csrf(server, f"/games/{played.game_id}/join/{played.token}")
    assert cookie
    status, made = call(server, "POST", "/api/v1/circles", {"name": "Club", "members": ["Rana"]})
    assert status == 201, made
    names = {
        "id": played.game_id,
        "token": played.token,
        "circle": made["id"],
        "circle_token": made["edit_token"],
        "member": made["circle"]["members"][0]["id"],
    }
    failures: list[Any] = []
    for endpoint, (template, expected, kind) in SMOKE_PATHS.items():
        path = template.format(**names)
        status, headers, body = get(server, path, cookie)
        if status != expected or not headers.get("content-type", "").startswith(kind):
            failures.append(
                f"{endpoint} {path}: {status} {headers.get('content-type')} {body[:80]!r}"
            )
    assert not failures, "\n".join(failures)
    assert "Traceback" not in server.log_text()
    assert "Warmed up:" in server.log_text()  # templates compiled once, before the fork
    assert "/join/…" in server.log_text()  # the access log names the edit link
    assert played.token not in server.log_text()  # but never its token


@pytest.mark.parametrize("path", ["/api/v1/games/nope", "/games/nope/sheet.pdf", "/no/such/page"])
def test_a_missing_page_is_a_404_when_served(sqlite_url: str, serve: Serve, path: str) -> None:
    server = serve(sqlite_url, workers=1)
    assert get(server, path)[0] == 404


def test_a_game_recorded_through_the_served_api_has_a_sheet(
    database_url: str, serve: Serve
) -> None:
    """Recording through one worker and printing through another: the sheet follows."""
    server = serve(database_url)
    client: Client = server.client()
    game_id, token, _game = client.new_game()
    auth = {"Authorization": f"Bearer {token}"}
    body = {"contracts": ["king"], "captures": {"king_of_hearts": {"taker": 1}}}
    status, _, answer = client.call("POST", f"/api/v1/games/{game_id}/deals", body, auth)
    assert status == 201, answer
    status, _headers, pdf = get(server, f"/games/{game_id}/sheet.pdf")
    assert status == 200
    assert "Sami" in assert_pdf(pdf).pages[0].extract_text()
