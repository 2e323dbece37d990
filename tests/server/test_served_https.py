"""Served over HTTPS by gunicorn itself (GUNICORN_CERTFILE/GUNICORN_KEYFILE), on SQLite and
PostgreSQL: the page is a secure context, so Chromium registers the service worker and the
game is kept on the phone. The certificate is a self-signed one made for the test."""

from __future__ import annotations

import datetime
import ipaddress
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from playwright.sync_api import Browser, expect

from tests.browser.conftest import browser as browser  # the fixture, for this server test
from tests.server.serving import Server

pytestmark = [pytest.mark.served, pytest.mark.browser]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return certfile, keyfile


def test_over_https_the_service_worker_registers_and_the_game_is_kept(
    serve: Callable[..., Server],
    database_url: str,
    browser: Browser,
    tmp_path: Path,  # noqa: F811
) -> None:
    certfile, keyfile = self_signed(tmp_path)
    server = serve(
        database_url,
        workers=1,
        env={"GUNICORN_CERTFILE": str(certfile), "GUNICORN_KEYFILE": str(keyfile)},
    )
    assert server.url.startswith("https://")
    # The test's certificate is its own: Chromium is told to accept it, as a phone would
    # once its owner trusts the server's certificate (or a public one is used).
    context = browser.new_context(ignore_https_errors=True, **PHONE)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        page.goto(f"{server.url}/games/new")
        assert page.evaluate("window.isSecureContext") is True
        for seat, name in enumerate(["Rana", "Sami", "Omar", "Lina"]):
            page.get_by_test_id(f"player-{seat}").fill(name)
        page.check("#first_king-0")
        page.get_by_test_id("start-game").click()
        expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 20")
        scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active && r.scope)")
        assert scope == f"{server.url}/"
        expect(page.get_by_test_id("cannot-keep")).to_be_hidden()
        expect(page.get_by_test_id("offline")).to_have_attribute("data-kept", "", timeout=60_000)
    finally:
        context.close()
