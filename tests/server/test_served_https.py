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
from playwright.sync_api import expect, sync_playwright

from tests.browser.closing import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import skip_or_fail
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
    tmp_path: Path,
) -> None:
    certfile, keyfile = self_signed(tmp_path)
    server = serve(
        database_url,
        workers=1,
        env={"GUNICORN_CERTFILE": str(certfile), "GUNICORN_KEYFILE": str(keyfile)},
    )
    assert server.url.startswith("https://")
    if not CHROMIUM.exists():
        skip_or_fail(f"{CHROMIUM} is not installed")
    # The test's certificate is its own: Chromium is told to accept it (for the service
    # worker's script too), as a phone would once its owner trusts the server's certificate.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[*CHROMIUM_ARGS, "--ignore-certificate-errors"],
        )
        try:
            context = browser.new_context(ignore_https_errors=True, **PHONE)  # type: ignore[arg-type]
            context.set_default_timeout(30_000)
            page = context.new_page()
            page.goto(f"{server.url}/games/new")
            assert page.evaluate("window.isSecureContext") is True
            for seat, name in enumerate(["Rana", "Sami", "Omar", "Lina"]):
                page.get_by_test_id(f"player-{seat}").fill(name)
            page.check("#first_king-0")
            page.get_by_test_id("start-game").click()
            expect(page.get_by_test_id("game-status")).to_contain_text("Deal 1 of 20")
            scope = page.evaluate(REGISTERED)
            assert scope == f"{server.url}/"
            expect(page.get_by_test_id("cannot-keep")).to_be_hidden()
            expect(page.get_by_test_id("offline")).to_have_attribute(
                "data-kept", "", timeout=60_000
            )
            context.close()
        finally:
            browser.close()


REGISTERED = """() => Promise.race([
  navigator.serviceWorker.ready.then((r) => r.active && r.scope),
  new Promise((resolve) => setTimeout(() => resolve("not registered after 30 s"), 30000)),
])"""
