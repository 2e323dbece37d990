"""The installable app's files and the engine's, as the phone fetches them."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.offline import engine
from scorekeeper.web.offline.kept import VERSION_HEADER
from scorekeeper.web.offline.routes import WORKER_POLICY
from scorekeeper.web.server.hardening import CONTENT_SECURITY_POLICY
from tests.web.pages import new_game


def test_the_manifest_names_the_app_in_the_readers_language(client: FlaskClient) -> None:
    body = client.get("/manifest.webmanifest").get_json(force=True)
    assert body["display"] == "standalone" and body["start_url"] == body["scope"] == "/"
    assert body["lang"] == "en" and body["dir"] == "ltr" and body["theme_color"]
    assert body["user_preferences"]["color_scheme_dark"]["theme_color"]
    assert any(icon.get("purpose") == "maskable" for icon in body["icons"])
    assert {icon["sizes"] for icon in body["icons"]} >= {"192x192", "512x512"}
    arabic = client.get("/manifest.webmanifest?lang=ar").get_json(force=True)
    assert arabic["lang"] == "ar" and arabic["dir"] == "rtl" and arabic["name"] != body["name"]


def test_every_icon_of_the_manifest_is_served(client: FlaskClient) -> None:
    for icon in client.get("/manifest.webmanifest").get_json(force=True)["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200 and response.mimetype == icon["type"]
        if icon["type"] == "image/png":
            width = int.from_bytes(response.data[16:20], "big")
            assert f"{width}x{width}" == icon["sizes"]


def test_the_service_worker_knows_its_version_and_is_never_http_cached(
    client: FlaskClient,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    first_line = response.get_data(as_text=True).split("\n", 1)[0]
    release = json.loads(first_line.removeprefix("const RELEASE = ").rstrip(";"))
    assert release["root"] == "/" and len(release["version"]) == 12
    assert "/" in release["precache"] and "/help" in release["precache"]
    for url in release["precache"]:
        assert client.get(url).status_code == 200, url


def test_the_service_worker_never_keeps_the_new_game_or_restore_forms(
    client: FlaskClient,
) -> None:
    """Their CSRF token and choices go stale in a copy: they must come from the server."""
    first_line = client.get("/sw.js").get_data(as_text=True).split("\n", 1)[0]
    release = json.loads(first_line.removeprefix("const RELEASE = ").rstrip(";"))
    assert {"/games/new", "/games/import"} <= set(release["fresh"])
    game_id = new_game(client)
    assert f"/games/{game_id}" not in release["fresh"]
    for url in release["fresh"]:
        assert 'method="post"' in client.get(url).get_data(as_text=True), url  # a form to post


def test_a_new_release_is_a_new_service_worker(make_app: object) -> None:
    from scorekeeper import create_app

    one = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"})
    two = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "x",
            "OFFLINE_RELEASE": "next-release",
        }
    )
    assert one.test_client().get("/sw.js").data != two.test_client().get("/sw.js").data


def test_only_the_engine_worker_may_compile_webassembly(client: FlaskClient) -> None:
    worker = client.get("/offline/engine-worker.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Content-Security-Policy"] == WORKER_POLICY
    assert "'wasm-unsafe-eval'" in WORKER_POLICY and "'unsafe-eval'" not in WORKER_POLICY
    assert "'unsafe-inline'" not in WORKER_POLICY
    page = client.get("/")
    assert page.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "wasm" not in CONTENT_SECURITY_POLICY and "worker-src 'self'" in CONTENT_SECURITY_POLICY


def test_the_engine_archive_holds_the_rules_and_nothing_of_the_app(client: FlaskClient) -> None:
    archive = engine.engine_archive()
    response = client.get(f"/offline/engine-{archive.version}.zip")
    assert response.status_code == 200 and response.data == archive.data
    assert "immutable" in response.headers["Cache-Control"]
    names = zipfile.ZipFile(io.BytesIO(response.data)).namelist()
    assert "scorekeeper/rules/game.py" in names and "scorekeeper/rules/claims/search.py" in names
    assert "scorekeeper/web/offline/phone.py" in names
    assert "scorekeeper/rules/sentences.py" in names  # the message templates
    assert "scorekeeper/web/offline/projection.py" in names  # phone.py imports it
    assert not [n for n in names if "store/" in n or "text/" in n or n.endswith("routes.py")]
    assert zipfile.ZipFile(io.BytesIO(response.data)).read("scorekeeper/__init__.py") == b""
    assert client.get("/offline/engine-0000.zip").status_code == 404


def test_the_archive_is_the_same_bytes_each_time_it_is_built() -> None:
    engine.engine_archive.cache_clear()
    first = engine.engine_archive()
    engine.engine_archive.cache_clear()
    assert engine.engine_archive() == first


def test_pyodide_is_served_from_this_origin_only_its_own_files(
    make_app: object, tmp_path: Path
) -> None:
    from scorekeeper import create_app

    folder = tmp_path / engine.PYODIDE_VERSION
    folder.mkdir()
    for name in engine.PYODIDE_FILES:
        (folder / name).write_bytes(b"x")
    app: Flask = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "x",
            "PYODIDE_ROOT": tmp_path,
        }
    )
    client = app.test_client()
    base = f"/offline/pyodide/{engine.PYODIDE_VERSION}"
    wasm = client.get(f"{base}/pyodide.asm.wasm")
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    assert client.get(f"{base}/pyodide.mjs").mimetype == "text/javascript"
    assert client.get(f"{base}/console.html").status_code == 404
    assert client.get(f"{base}/..%2Fsecret").status_code == 404
    assert client.get("/offline/pyodide/0.1.0/pyodide.mjs").status_code == 404


@pytest.mark.parametrize("language", ["ar", "ru", "es"])
def test_the_message_catalogue_has_the_templates_and_plural_rule(
    client: FlaskClient, language: str
) -> None:
    body = client.get(f"/offline/messages/{language}.json").get_json()
    assert body["language"] == language and "n" in body["plural"]
    assert body["messages"]["Diamonds must add up to 13; these add up to %(total)d (%(listed)s)."]
    assert client.get("/offline/messages/xx.json").status_code == 404


def test_the_phones_copy_of_a_game_and_its_edit_rights(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    body = client.get(f"/games/{game_id}/offline.json").get_json()
    assert body["id"] == game_id and body["version"] == 1 and body["log"] == []
    assert body["players"] == ["Rana", "Sami", "Omar", "Lina"] and body["editable"] is True
    assert body["csrf_token"] and body["urls"]["sync"] == f"/api/v1/games/{game_id}/sync"
    assert body["state"]["current_king"] == 0
    stranger = app.test_client().get(f"/games/{game_id}/offline.json").get_json()
    assert stranger["editable"] is False and stranger["csrf_token"] is None
    assert "token" not in json.dumps({k: v for k, v in body.items() if k != "csrf_token"})
    assert client.get("/games/nope/offline.json").status_code == 404


def test_the_game_page_and_the_phones_copy_name_their_version(client: FlaskClient) -> None:
    """The service worker keeps the two as one pair of one version (static/offline/sw.js)."""
    game_id = new_game(client)
    copy = client.get(f"/games/{game_id}/offline.json")
    page = client.get(f"/games/{game_id}")
    assert copy.headers[VERSION_HEADER] == page.headers[VERSION_HEADER] == "1"
    assert 'data-testid="live" data-version="1"' in page.get_data(as_text=True)


def test_the_game_page_and_deal_form_carry_the_offline_hooks(client: FlaskClient) -> None:
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'rel="manifest"' in page and "offline/boot.js" in page
    assert 'data-testid="cannot-keep"' in page and 'data-testid="sync-count"' in page
    assert 'data-offline-script="game.js"' in page
    assert "offline/offline.js" not in page  # loaded only when there is offline work
    form = client.get(f"/games/{game_id}/deals/new?contracts=king").get_data(as_text=True)
    assert 'data-offline-form="' in form and 'data-contracts="king"' in form
    assert 'data-offline-script="form.js"' in form


def test_the_panels_words_come_with_the_phones_copy(client: FlaskClient) -> None:
    game_id = new_game(client)
    texts = client.get(f"/games/{game_id}/offline.json?lang=es").get_json()["texts"]
    assert texts["contracts"]["king"] != "King of Hearts"  # in the reader's language
    assert "%(n)s" in texts["deal-of"] and "%(total)s" in texts["deal-of"]
    assert {"conflict", "mine", "theirs", "keep", "change", "discard"} <= set(texts)


def test_the_same_deal_and_the_forms_own_checks_are_in_the_servers_words(
    client: FlaskClient,
) -> None:
    """The offline "the same deal?" says what the server's page says (its msgids, so its
    translations); the four Trix places are the server form's sentences (R7)."""
    game_id = new_game(client)
    texts = client.get(f"/games/{game_id}/offline.json?lang=es").get_json()["texts"]
    with client.application.test_request_context("/?lang=es"):
        from flask_babel import force_locale

        from scorekeeper.text.locale import gettext

        with force_locale("es"):
            assert texts["same-question"] == gettext("The same deal?") != "The same deal?"
            assert texts["discard-mine"] == gettext("Discard mine")
    assert "%(n)s" in texts["next"] and "%(king)s" in texts["next-king"]
    assert {"by-page", "by-offline", "by-api", "by-director", "by-check", "by-own"} <= set(texts)
    assert len(texts["trix-places"]) == 4 and all(texts["trix-places"])
    assert "%(twice)s" in texts["trix-twice"] and "%(left_out)s" in texts["trix-twice"]
    english = client.get(f"/games/{game_id}/offline.json?lang=en").get_json()["texts"]
    assert english["trix-places"][3] == "Choose who was left with cards."
    assert english["by-own"] == "Recorded from this phone earlier"


def test_every_file_the_deal_form_loads_is_kept_by_the_service_worker(
    client: FlaskClient,
) -> None:
    game_id = new_game(client)
    first_line = client.get("/sw.js").get_data(as_text=True).split("\n", 1)[0]
    precache = json.loads(first_line.removeprefix("const RELEASE = ").rstrip(";"))["precache"]
    form = client.get(f"/games/{game_id}/deals/new?contracts=king").get_data(as_text=True)
    loaded = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', form)
    assert "/static/deal_form.css" in loaded and "/static/deal_form.js" in loaded
    assert set(loaded) <= set(precache), set(loaded) - set(precache)
