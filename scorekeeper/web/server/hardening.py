"""Hardening shared by every response: security headers, cookie flags, proxies.

- Every response (pages, API answers, static files, error pages) carries a
  Content-Security-Policy without inline script or style, and the usual
  headers against sniffing, framing and leaking the address (an edit link
  must never travel in a ``Referer``).
- The session cookie is HttpOnly and SameSite=Lax, and Secure when the app is
  served over HTTPS (``PREFERRED_URL_SCHEME=https`` or ``SESSION_COOKIE_SECURE=1``).
- Behind a reverse proxy, ``TRUSTED_PROXIES=N`` trusts the ``X-Forwarded-*``
  headers set by the N proxies in front of the app (Werkzeug's ProxyFix).
- A response that holds a CSRF token (a form page) is ``Cache-Control: private,
  no-cache`` unless its view chose otherwise: the token belongs to one browser's
  session, so a shared cache in front of the app (a proxy, a CDN) must never hand
  it to another browser, which would get that token without its session cookie.
- Outside tests and debugging, an exception is never propagated: it becomes
  the plain 500 page or JSON error, with no stack trace.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from flask import current_app, g

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Same-origin requests keep their Referer: Flask-WTF's CSRF check needs it over HTTPS.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
}
TRUE = {"1", "true", "yes", "on"}
TOKEN_PAGE_CACHE = "private, no-cache"
"""A page with a CSRF token: this browser only, and asked for again each time."""


def env_flag(name: str, default: bool) -> bool:
    """The environment variable ``name`` as a boolean (``1``/``true``/``yes``/``on``)."""
    raw = os.environ.get(name)
    return default if raw is None or not raw.strip() else raw.strip().lower() in TRUE


def config_defaults(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Security settings from the environment; keys that ``overrides`` sets are left out."""
    testing = bool(overrides.get("TESTING")) or bool(overrides.get("DEBUG"))
    scheme = overrides.get("PREFERRED_URL_SCHEME") or os.environ.get("PREFERRED_URL_SCHEME", "http")
    settings: dict[str, Any] = {
        "PREFERRED_URL_SCHEME": scheme,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": env_flag("SESSION_COOKIE_SECURE", scheme == "https"),
        # Renewed once a day (scorekeeper/web/access.py), not re-sent with every response.
        "SESSION_REFRESH_EACH_REQUEST": False,
        # A phone's games, club nights and the director's role last a year past the last
        # visit: a director must not lose a night because the browser was closed.
        "PERMANENT_SESSION_LIFETIME": timedelta(days=365),
        "TRUSTED_PROXIES": int(os.environ.get("TRUSTED_PROXIES", "0") or 0),
        "PUBLIC_URL": public_url_from_env(),
        "RATELIMIT_ENABLED": env_flag("RATELIMIT_ENABLED", not testing),
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI") or "database://",
        "RATELIMIT_WRITES": os.environ.get("RATELIMIT_WRITES") or "60/minute",
        "RATELIMIT_TOKEN_CHECKS": os.environ.get("RATELIMIT_TOKEN_CHECKS") or "10/minute",
        # Off: they would put Retry-After on every answer of a limited route and overwrite
        # the app's own; a limit's 429 says it itself (scorekeeper.web.server.limits).
        "RATELIMIT_HEADERS_ENABLED": False,
        "RATELIMIT_SWALLOW_ERRORS": True,  # a broken limits store must not break the game
    }
    if not testing:
        settings["PROPAGATE_EXCEPTIONS"] = False
    return {key: value for key, value in settings.items() if key not in overrides}


def public_url_from_env() -> str:
    """``PUBLIC_URL`` (``https://trix.example.org``): where the app is reached, for the links
    and QR codes a PDF prints (never the request's ``Host``); "" prints paths alone.

    Anything but an http(s) address with a host is refused at start-up, naming it.
    """
    raw = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
    if raw and not re.fullmatch(r"https?://[^/\s?#]+(/[^\s?#]*)?", raw):
        example = "https://trix.example.org"
        raise ValueError(f"PUBLIC_URL must be an http(s) address such as {example}, not {raw!r}")
    return raw


def init_app(app: Flask) -> None:
    """Trust the configured proxies and add the security headers to every response."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies
        )
    app.after_request(add_security_headers)


def add_security_headers(response: Response) -> Response:
    """Set the security headers, keeping any a view chose itself."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if issued_csrf_token():
        response.headers.setdefault("Cache-Control", TOKEN_PAGE_CACHE)
    return response


def issued_csrf_token() -> bool:
    """Whether this request made a CSRF token (Flask-WTF keeps it on ``g`` under its field name)."""
    return current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token") in g
