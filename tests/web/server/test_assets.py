"""The pages' scripts and style sheets are sent minified, valid, and revalidated by ETag."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = sorted(p.relative_to(ROOT / "static").as_posix() for p in ROOT.glob("static/**/*.js"))


def test_a_script_is_sent_without_its_comments_and_smaller(client: FlaskClient) -> None:
    written = (ROOT / "static" / "app.js").read_text()
    response = client.get("/static/app.js")
    sent = response.get_data(as_text=True)
    assert response.status_code == 200 and response.mimetype.endswith("javascript")
    assert "//" in written and len(sent) < 0.8 * len(written)
    assert "\n  " not in sent  # no indentation left


def test_a_style_sheet_is_sent_minified_with_its_type(client: FlaskClient) -> None:
    written = (ROOT / "static" / "app.css").read_text()
    response = client.get("/static/app.css")
    assert response.mimetype == "text/css"
    assert "/*" in written and "/*" not in response.get_data(as_text=True)


def test_a_phone_revalidates_a_script_with_a_304(client: FlaskClient) -> None:
    first = client.get("/static/live.js")
    again = client.get("/static/live.js", headers={"If-None-Match": first.headers["ETag"]})
    assert (first.status_code, again.status_code, again.data) == (200, 304, b"")


def test_other_static_files_and_missing_ones_are_as_before(client: FlaskClient) -> None:
    icon = client.get("/static/offline/icon.svg")
    assert icon.status_code == 200 and icon.data == (ROOT / "static/offline/icon.svg").read_bytes()
    icon.close()
    assert client.get("/static/no-such.js").status_code == 404
    assert client.get("/static/../pyproject.toml").status_code == 404


def test_an_edited_file_is_minified_again(make_app: Callable[..., Flask], tmp_path: Path) -> None:
    app = make_app()
    app.static_folder = str(tmp_path)
    from scorekeeper.web.server import assets

    assets.init_app(app)  # again, for the new folder
    script = tmp_path / "x.js"
    script.write_text("var a = 1; // one\n")
    first = app.test_client().get("/static/x.js").data
    script.write_text("var a = 22; // two, and a longer file\n")
    assert (first, app.test_client().get("/static/x.js").data) == (b"var a=1;", b"var a=22;")


def test_under_debug_the_files_go_out_as_written(make_app: Callable[..., Flask]) -> None:
    app = make_app(DEBUG=True)
    response = app.test_client().get("/static/app.js")
    assert response.data == (ROOT / "static" / "app.js").read_bytes()
    response.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (scripts/test.sh installs it)")
@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_sent_is_valid_javascript(
    client: FlaskClient, tmp_path: Path, name: str
) -> None:
    sent = client.get(f"/static/{name}").data
    module = b"export " in sent or b"import " in sent
    path = tmp_path / ("sent.mjs" if module else "sent.js")
    path.write_bytes(sent)
    checked = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
