"""The warm-up before gunicorn forks (scorekeeper/web/server/warm.py): a worker's first pages
compile no template, in any language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask_babel import get_domain

from scorekeeper.extensions import db
from scorekeeper.text.locale import SUPPORTED_LOCALES
from scorekeeper.web.server.warm import warm_up


def test_after_the_warm_up_no_page_compiles_a_template(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    with app.app_context():
        db.create_all()
    compiled = warm_up(app)
    assert compiled == len(app.jinja_env.list_templates(extensions=["html"]))
    with app.app_context():
        loaded = {locale for locale, _domain in get_domain().cache}
    assert loaded >= set(SUPPORTED_LOCALES) - {"en"}  # every catalogue read once

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a template was compiled after the warm-up")

    monkeypatch.setattr(app.jinja_env, "compile", refuse)
    client = app.test_client()
    game = client.post("/api/v1/games", json={"players": ["Rana", "Sami", "Omar", "Lina"]})
    game_id = game.get_json()["id"]
    for code in SUPPORTED_LOCALES:
        for path in (f"/games/{game_id}", "/", "/help", "/games/nosuchgame1234"):
            response = client.get(f"{path}?lang={code}")
            assert response.status_code in (200, 404), (path, code)
            assert f'lang="{code}"' in response.get_data(as_text=True)
