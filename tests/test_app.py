"""The app factory, its configuration, and the API's error format."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from werkzeug.test import TestResponse

from scorekeeper import create_app, load_or_create_secret, normalize_database_url
from scorekeeper.extensions import db
from scorekeeper.web.server.api_io import json_body

MakeApp = Callable[..., Flask]


def test_config_overrides_defaults(make_app: MakeApp) -> None:
    app = make_app(MAX_CONTENT_LENGTH=1234, CUSTOM="x")
    assert app.testing
    assert app.config["MAX_CONTENT_LENGTH"] == 1234
    assert app.config["CUSTOM"] == "x"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"


def test_defaults_without_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db.example/sk")
    app = create_app()
    assert not app.testing
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u:p@db.example/sk"
    assert app.config["MAX_CONTENT_LENGTH"] == 256 * 1024


def test_default_database_is_sqlite_in_instance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"SECRET_KEY": "x"})
    expected = Path(app.instance_path) / "scorekeeper.sqlite"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{expected}"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://u:p@h:5432/db", "postgresql+psycopg://u:p@h:5432/db"),
        ("postgresql://u@h/db?sslmode=require", "postgresql+psycopg://u@h/db?sslmode=require"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///instance/x.sqlite", "sqlite:///instance/x.sqlite"),
        ("sqlite://", "sqlite://"),
    ],
)
def test_database_url_normalisation(url: str, expected: str) -> None:
    assert normalize_database_url(url) == expected


def test_config_database_url_is_normalised_too(make_app: MakeApp) -> None:
    app = make_app(SQLALCHEMY_DATABASE_URI="postgres://u@h/db")
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u@h/db"


def test_secret_key_is_generated_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "instance" / "secret_key"
    first = load_or_create_secret(path)
    assert len(first) == 64
    assert load_or_create_secret(path) == first
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["secret_key"]


def test_sqlite_pragmas(app: Flask) -> None:
    assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
    assert db.session.execute(text("PRAGMA busy_timeout")).scalar() == 5000
    assert db.session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


def test_sqlite_file_uses_wal(make_app: MakeApp, tmp_path: Path) -> None:
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'wal.sqlite'}")
    with app.app_context():
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        db.session.remove()
        db.engine.dispose()


def test_index_page_loads(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "scorekeeper" in html
    assert 'name="viewport"' in html
    assert "http://" not in html and "https://" not in html  # no external resources


def test_static_css_is_served(client: FlaskClient) -> None:
    response = client.get("/static/app.css")
    assert response.status_code == 200
    response.close()


def test_html_404_stays_html(client: FlaskClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def _assert_api_error(response: TestResponse, status: int) -> str:
    assert response.status_code == status
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["ok"] is False
    [error] = body["errors"]
    assert set(error) == {"rule", "field", "message"}
    assert error["rule"] is None and error["field"] is None
    message = error["message"]
    assert isinstance(message, str) and message
    assert "<" not in message and "Traceback" not in message
    return message


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/v1/", "/api/v2/games", "/api/"])
def test_api_404_is_json(client: FlaskClient, path: str) -> None:
    _assert_api_error(client.get(path), 404)


@pytest.fixture
def echo_app(make_app: MakeApp) -> Flask:
    """An app with test-only JSON endpoints: one echoes ``json_body()``, one crashes."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    @app.post("/api/v1/_echo")
    def echo() -> dict[str, object]:
        return {"ok": True, "got": json_body()}

    @app.get("/api/v1/_boom")
    def boom() -> str:
        raise RuntimeError("secret internals /srv/app.py line 42")

    return app


def test_api_json_body_roundtrip(echo_app: Flask) -> None:
    response = echo_app.test_client().post("/api/v1/_echo", json={"a": 1})
    assert response.status_code == 200
    assert response.get_json() == {"ok": True, "got": {"a": 1}}


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("{not json", "application/json"),
        ("[1, 2]", "application/json"),
        ('"text"', "application/json"),
        ("", "application/json"),
        ("a=1", "application/x-www-form-urlencoded"),
    ],
)
def test_api_400_when_body_is_not_a_json_object(
    echo_app: Flask, data: str, content_type: str
) -> None:
    response = echo_app.test_client().post("/api/v1/_echo", data=data, content_type=content_type)
    assert _assert_api_error(response, 400) == "The request body must be a JSON object."


def test_api_405_is_json_and_says_allow(echo_app: Flask) -> None:
    response = echo_app.test_client().get("/api/v1/_echo")
    message = _assert_api_error(response, 405)
    assert "GET" in message
    assert "POST" in response.headers["Allow"]


def test_api_413_is_json(echo_app: Flask) -> None:
    big = '{"x": "' + "a" * (300 * 1024) + '"}'
    response = echo_app.test_client().post(
        "/api/v1/_echo", data=big, content_type="application/json"
    )
    _assert_api_error(response, 413)


def test_api_500_is_json_without_traceback(echo_app: Flask) -> None:
    response = echo_app.test_client().get("/api/v1/_boom")
    message = _assert_api_error(response, 500)
    assert "secret" not in response.get_data(as_text=True)
    assert "nothing was saved" in message
