"""scorekeeper: a score keeper for the card game Trex (Trix).

The game itself lives in :mod:`scorekeeper.rules` (standard library only);
this module only builds the web app around it. Flask is imported inside the
factory so that ``import scorekeeper.rules`` does not pull in the web stack.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

from scorekeeper.paths import PROJECT_ROOT  # noqa: E402  (kept importable from here)

MAX_CONTENT_LENGTH = 256 * 1024


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``config`` overrides, then extensions.

    ``create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})``
    is what the tests use.
    """
    from flask import Flask

    from scorekeeper.extensions import csrf, db, migrate
    from scorekeeper.store import checkpoints  # noqa: F401  (SQLite's checkpoints, aside)
    from scorekeeper.web import errors, language
    from scorekeeper.web.api import backup as api_backup  # noqa: F401  (on the games blueprint)
    from scorekeeper.web.api import games as api_games
    from scorekeeper.web.backup import routes as backup  # noqa: F401
    from scorekeeper.web.backup import size
    from scorekeeper.web.blueprint import bp as pages  # each `routes` here adds its pages to it
    from scorekeeper.web.circles import api as circles_api
    from scorekeeper.web.circles import routes as circles  # noqa: F401
    from scorekeeper.web.deals import routes as deals  # noqa: F401
    from scorekeeper.web.disputes import api as checks_api
    from scorekeeper.web.disputes import claims  # noqa: F401  (the dispute desk)
    from scorekeeper.web.disputes import errors as claim_errors
    from scorekeeper.web.disputes import routes as disputes  # noqa: F401
    from scorekeeper.web.events import api as events_api
    from scorekeeper.web.events import clock as event_clock  # noqa: F401  (the round clock)
    from scorekeeper.web.events import controls as event_controls  # noqa: F401
    from scorekeeper.web.events import paper as event_paper  # noqa: F401  (its paper)
    from scorekeeper.web.events import routes as events  # noqa: F401  (club nights)
    from scorekeeper.web.games import routes as games  # noqa: F401
    from scorekeeper.web.home import routes as home  # noqa: F401
    from scorekeeper.web.live import errors as live_errors
    from scorekeeper.web.live import routes as live  # noqa: F401
    from scorekeeper.web.offline import page_writes, sync
    from scorekeeper.web.offline import routes as offline  # noqa: F401
    from scorekeeper.web.paper import errors as pdf_errors
    from scorekeeper.web.paper import pdf as paper  # the blueprint of every PDF route
    from scorekeeper.web.sharing import routes as sharing  # noqa: F401
    from scorekeeper.web.sheets import routes as export  # noqa: F401

    app = Flask(
        __name__,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    overrides = dict(config or {})
    app.config.update(_defaults(Path(app.instance_path), overrides))
    app.config.update(overrides)
    app.config["SQLALCHEMY_DATABASE_URI"] = normalize_database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )

    db.init_app(app)
    migrate.init_app(app, db, render_as_batch=True)
    errors.init_app(app)  # the one error path: every refusal, as a page or as JSON
    for feature in (claim_errors, live_errors, page_writes, pdf_errors):
        feature.register_errors(app)  # each feature's own refusals, through the same path
    csrf.init_app(app)
    # Each feature's part of the JSON API (API.md), all mounted at /api/v1.
    api_blueprints = (checks_api.bp, api_games.bp, circles_api.bp, events_api.bp)
    for blueprint in api_blueprints:
        csrf.exempt(blueprint)  # the API authenticates with bearer tokens, not cookies
    language.init_app(app)  # Flask-Babel, the locale selector, /lang/<code>, /digits/<…>

    app.register_blueprint(pages)  # every feature's page routes, imported above
    for blueprint in api_blueprints:
        app.register_blueprint(blueprint, url_prefix="/api/v1")
    # The pages' own sync: session edit rights, so CSRF-protected (not exempt).
    app.register_blueprint(sync.bp, url_prefix="/api/v1")
    app.register_blueprint(paper.bp)
    _harden(app)
    size.init_app(app)  # last, so that its limit is set before anything reads a body
    return app


def _harden(app: Flask) -> None:
    """Security headers, proxies and rate limits (after every blueprint is registered)."""
    from scorekeeper.web.live import streams, unchanged
    from scorekeeper.web.server import assets, bodies, hardening, limits

    assets.init_app(app)
    hardening.init_app(app)
    limits.init_app(app)
    unchanged.init_app(app)  # unchanged polls answered 304 before the app runs
    streams.init_app(app)
    bodies.init_app(app)  # outermost: the body first, then a work slot


def _defaults(instance: Path, overrides: dict[str, Any]) -> dict[str, Any]:
    """Settings from the environment, or generated/stored in the instance folder.

    Nothing is computed (or written to disk) for a key that ``overrides`` sets.
    """
    from scorekeeper.web.disputes import pool
    from scorekeeper.web.live import streams
    from scorekeeper.web.paper import renderer
    from scorekeeper.web.server import bodies, hardening

    defaults: dict[str, Any] = {"MAX_CONTENT_LENGTH": MAX_CONTENT_LENGTH}
    defaults.update(hardening.config_defaults(overrides))
    defaults.update(renderer.config_from_env(overrides))
    defaults.update(pool.config_from_env(overrides))
    defaults.update(streams.config_from_env(overrides))
    defaults.update(bodies.config_from_env(overrides))
    if "SECRET_KEY" not in overrides:
        defaults["SECRET_KEY"] = os.environ.get("SECRET_KEY") or load_or_create_secret(
            instance / "secret_key"
        )
    if "SQLALCHEMY_DATABASE_URI" not in overrides:
        url = os.environ.get("DATABASE_URL")
        if not url:
            instance.mkdir(parents=True, exist_ok=True)
            url = f"sqlite:///{instance / 'scorekeeper.sqlite'}"
        defaults["SQLALCHEMY_DATABASE_URI"] = url
    return defaults


def normalize_database_url(url: str) -> str:
    """Point PostgreSQL URLs at the psycopg 3 driver; leave others alone.

    >>> normalize_database_url("postgres://u:p@db/x")
    'postgresql+psycopg://u:p@db/x'
    >>> normalize_database_url("sqlite:///x.sqlite")
    'sqlite:///x.sqlite'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def load_or_create_secret(path: Path) -> str:
    """Read the secret key stored at ``path``, creating it on first use.

    Safe when several processes (gunicorn workers) start at once: the key is
    written to a private temporary file and linked into place atomically, so
    every process ends up reading the same complete key.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process won the race; use its key
        finally:
            tmp.unlink()
    return path.read_text().strip()
