"""The installable app and the engine on the phone: manifest, service worker, engine files.

- ``/manifest.webmanifest``: the web app manifest, in the request's language and
  direction;
- ``/sw.js``: the service worker (static/offline/sw.js with this release's
  version), its scope the app's own root;
- ``/offline/engine-worker.js``: the web worker running the rules engine in
  Pyodide; the only response whose policy allows compiling WebAssembly;
- ``/offline/engine-<version>.zip``, ``/offline/pyodide/<version>/<file>``,
  ``/offline/messages/<language>.json``: what that worker loads, from this
  origin only;
- ``/games/<id>/offline.json``: what the phone needs to replay a game: its
  rules, players and stored log (and, at a club night's table, that its first
  deal names the first king), the phone's edit rights and a CSRF token.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    send_from_directory,
    url_for,
)
from flask_wtf.csrf import generate_csrf

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.store import games as services
from scorekeeper.text.locale import SUPPORTED_LOCALES, current_locale, text_direction
from scorekeeper.text.locale import gettext as _
from scorekeeper.web.access import can_edit
from scorekeeper.web.blueprint import bp
from scorekeeper.web.offline import engine
from scorekeeper.web.offline.catalogue import catalogue
from scorekeeper.web.offline.kept import with_version
from scorekeeper.web.offline.texts import panel_texts

STATIC = PROJECT_ROOT / "static"
WORKER_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
    ]
)
"""Pyodide compiles WebAssembly: allowed in the engine's worker, and nowhere else."""
IMMUTABLE = "public, max-age=31536000, immutable"
LIGHT = {"theme_color": "#7a1712", "background_color": "#faf7f2"}
DARK = {"theme_color": "#16161a", "background_color": "#16161a"}
CONTRACTS = ("king", "queens", "diamonds", "collections", "trix")


@cache
def release() -> str:
    """This release's version: a hash of the files the service worker keeps and of the engine.

    A change to any of them is a new service worker, so phones are told of it.
    """
    digest = hashlib.sha256(engine.PYODIDE_VERSION.encode())
    digest.update(engine.engine_archive().version.encode())
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: name, icons (one maskable), colours, standalone, language."""
    icons = [
        {"src": _static("offline/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": _static("offline/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": _static("offline/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": _static("offline/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    body: dict[str, Any] = {
        "id": url_for("web.index"),
        "name": _("scorekeeper: Trix score keeper"),
        "short_name": "scorekeeper",
        "description": _("Scores, checks and rulings for the card game Trix, at the table."),
        "start_url": url_for("web.index"),
        "scope": url_for("web.index"),
        "display": "standalone",
        "lang": current_locale(),
        "dir": text_direction(),
        "icons": icons,
        **LIGHT,
        # Chromium's proposal for a dark theme; the pages' <meta name="theme-color"> say both.
        "user_preferences": {"color_scheme_dark": DARK},
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Cookie")
    return response


def _static(filename: str) -> str:
    return url_for("static", filename=filename)


def _pyodide_url() -> str:
    """The folder of Pyodide's files (ends with ``/``)."""
    return url_for("web.pyodide_file", version=engine.PYODIDE_VERSION, name="x")[:-1]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, its version and its addresses written in; never cached by HTTP."""
    addresses = {
        "version": current_app.config.get("OFFLINE_RELEASE") or release(),
        "root": url_for("web.index"),
        "precache": [
            url_for("web.index"),
            url_for("web.help_page"),
            url_for("web.offline_unavailable"),
            url_for("web.manifest"),
            *(
                _static(name)
                for name in (
                    "app.css",
                    "app.js",
                    "deal_form.css",
                    "deal_form.js",
                    "share.js",
                    "live.js",
                    "wake.js",
                    "offline/boot.js",
                    "offline/offline.js",
                    "offline/game.js",
                    "offline/form.js",
                    "offline/same.js",
                    "offline/outbox.js",
                    "offline/offline.css",
                    "offline/icon.svg",
                    "offline/icon-192.png",
                )
            ),
        ],
        "pyodide": _pyodide_url(),
        "engine": url_for("web.engine_zip", version=engine.engine_archive().version),
        "worker": url_for("web.engine_worker"),
        "messages": url_for("web.messages", language="x")[: -len("x.json")],
        "outbox": _static("offline/outbox.js"),
        "unavailable": url_for("web.offline_unavailable"),
        "manifest": url_for("web.manifest"),
        "fresh": fresh_pages(),
    }
    script = f"const RELEASE = {json.dumps(addresses)};\n" + (
        STATIC / "offline" / "sw.js"
    ).read_text(encoding="utf-8")
    response = Response(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


def fresh_pages() -> list[str]:
    """The pages at ``/games/<word>`` (new game, restore…): not games, and forms whose CSRF
    token and choices must come from the server, so the service worker never keeps them."""
    return sorted(
        url_for(rule.endpoint)
        for rule in current_app.url_map.iter_rules()
        if rule.rule.startswith("/games/") and not rule.arguments and "GET" in (rule.methods or ())
    )


def engine_config() -> dict[str, Any]:
    """Where the engine's worker finds its files, and whether this server has them.

    ``files``: every file the worker loads, which a phone fetches once in the background
    (the service worker keeps them), so that the engine starts without a network."""
    config: dict[str, Any] = {
        "ready": engine.pyodide_ready(current_app.config.get("PYODIDE_ROOT")),
        "worker": url_for("web.engine_worker"),
        "pyodide": _pyodide_url(),
        "archive": url_for("web.engine_zip", version=engine.engine_archive().version),
        "messages": url_for("web.messages", language=current_locale()),
    }
    pyodide = [f"{config['pyodide']}{name}" for name in sorted(engine.PYODIDE_FILES)]
    return {**config, "files": [config["worker"], config["archive"], config["messages"], *pyodide]}


@bp.get("/offline/engine.json")
def engine_files() -> Response:
    """:func:`engine_config`, for an app just installed: it fetches the engine at once."""
    response = jsonify(engine_config())
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline/unavailable")
def offline_unavailable() -> str:
    """What the phone shows for a page it never opened while online."""
    return render_template("offline/unavailable.html")


@bp.get("/offline/engine-worker.js")
def engine_worker() -> Response:
    """The engine's web worker (a module), with the one policy that allows WebAssembly."""
    response = send_from_directory(STATIC / "offline", "engine-worker.js", max_age=0)
    response.mimetype = "text/javascript"
    response.headers["Content-Security-Policy"] = WORKER_POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline/engine-<version>.zip")
def engine_zip(version: str) -> Response:
    """The engine's modules in one archive (built at first use); an old version is 404."""
    archive = engine.engine_archive()
    if version != archive.version:
        abort(404)
    response = Response(archive.data, mimetype="application/zip")
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@bp.get("/offline/pyodide/<version>/<name>")
def pyodide_file(version: str, name: str) -> Response:
    """One of Pyodide's files, from the folder the install scripts fill."""
    if version != engine.PYODIDE_VERSION or name not in engine.PYODIDE_FILES:
        abort(404)
    root = current_app.config.get("PYODIDE_ROOT")
    folder = engine.pyodide_dir(root)
    if not (folder / name).is_file():
        abort(404)
    response = send_from_directory(folder, name, max_age=31536000)
    if name.endswith(".mjs"):
        response.mimetype = "text/javascript"
    elif name.endswith(".wasm"):
        response.mimetype = "application/wasm"
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@bp.get("/offline/messages/<language>.json")
def messages(language: str) -> Response:
    """The engine's message templates in ``language``, for the worker."""
    if language not in SUPPORTED_LOCALES:
        abort(404)
    response = jsonify(catalogue(language))
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.get("/games/<game_id>/offline.json")
def game_for_phone(game_id: str) -> Response:
    """The game as the phone replays it: rules, players, the stored log and its version."""
    loaded = services.load_game(game_id)
    editable = can_edit(game_id)
    body = {
        "id": loaded.id,
        "version": loaded.version,
        "rules": loaded.rules.to_dict(),
        "first_king": loaded.first_king,
        # A club night's table: its first deal names the first king, the 7♥'s holder (R2).
        "first_king_from_deal": services.names_first_king_by_deal(loaded),
        "players": loaded.players,
        "log": [row.entry.to_dict() for row in loaded.log],
        "state": loaded.game.to_dict(),
        "first_king_open": services.asks_first_king(loaded),
        "editable": editable,
        "csrf_token": generate_csrf() if editable else None,
        "language": current_locale(),
        "urls": {
            "game": url_for("web.game", game_id=game_id),
            "sync": url_for("offline_api.sync", game_id=game_id),
            "forms": [url_for("web.new_deal", game_id=game_id, contracts=c) for c in CONTRACTS],
            "new_deal": url_for("web.new_deal", game_id=game_id),
            # Deal 0 stands for any deal's number: the phone puts the number in.
            "deal": url_for("web.deal", game_id=game_id, n=0),
            "edit": url_for("web.edit_deal", game_id=game_id, n=0),
            "undo": url_for("web.undo", game_id=game_id),
        },
        "engine": engine_config(),
        "texts": panel_texts(),
    }
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return with_version(response, loaded.version)
