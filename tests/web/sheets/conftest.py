"""Fixtures for the printed sheets: whole games played through the services, PDF text.

``play_game(...)`` plays a valid game through :func:`services.create_game`
and :func:`services.record_deal`: each kingdom's king plays the five
contracts with simple captures that vary from kingdom to kingdom.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from flask import Flask
from pypdf import PdfReader

from scorekeeper.rules.captures import Capture, Captures, Seats4
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import DealEntry, RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.store import games as services
from scorekeeper.web.paper import pdf
from tests.common import NAMES, C, D, K, Q, T

ARABIC_NAMES = ["رنا", "Sami", "عمر الحداد", "Lina"]
ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "pdf"


TRIX_ORDERS = ((2, 0, 3, 1), (0, 1, 2, 3), (1, 3, 0, 2), (2, 3, 1, 0))
"""Trix finishing orders per kingdom: Omar (seat 2) wins the default game with 175."""
TIED_TRIX_ORDERS = ((0, 1, 2, 3), (0, 1, 3, 2), (1, 2, 3, 0), (2, 1, 3, 0))
"""Rana and Omar tie on 125; Rana has two Trix first places to one (R12 tie-break)."""
EVEN_TRIX_ORDERS = ((2, 0, 3, 1), (1, 3, 0, 2), (0, 2, 1, 3), (3, 1, 2, 0))
"""Rana and Omar tie on 125 with one Trix first place each: an extra deal decides."""


def _rotate(values: list[int], by: int) -> tuple[int, int, int, int]:
    by %= 4
    out = values[-by:] + values[:-by] if by else values
    return (out[0], out[1], out[2], out[3])


def deal_for(
    contract: Contract, king: int, k: int, trix_orders: Sequence[Seats4] = TRIX_ORDERS
) -> DealEntry:
    """A valid deal of ``contract`` by ``king`` in kingdom ``k`` (0-based)."""
    if contract is K:
        doubled = (king + 2) % 4 if k % 2 == 0 else None
        return DealEntry((K,), Captures(king_of_hearts=Capture((king + 1 + k) % 4, doubled)))
    if contract is Q:
        takers = [(king + i + k) % 4 for i in range(4)]
        queens = tuple(Capture(t, (king + 1) % 4 if i == 1 else None) for i, t in enumerate(takers))
        return DealEntry((Q,), Captures(queens=queens))  # type: ignore[arg-type]
    if contract is D:
        return DealEntry((D,), Captures(diamonds=_rotate([3, 4, 6, 0], king + k)))
    if contract is C:
        return DealEntry((C,), Captures(tricks=_rotate([2, 5, 6, 0], king + 2 * k)))
    return DealEntry((T,), Captures(trix_order=trix_orders[k]))


def play_game(
    names: list[str] | None = None,
    rules: RuleSet | None = None,
    deals: int = 20,
    *,
    redeals: bool = True,
    trix_orders: Sequence[Seats4] = TRIX_ORDERS,
) -> services.LoadedGame:
    """Create a game and record its first ``deals`` deals (20: the whole game)."""
    rules = rules or RuleSet()
    loaded, _token = services.create_game(names or NAMES, 0, rules)
    played = 0
    for k in range(rules.kingdoms):
        king = loaded.game.current_king
        assert king is not None
        for contract in (K, Q, D, C, T):
            if played == deals:
                return loaded
            if redeals and k == 1 and contract is K:
                services.record_redeal(loaded.id, RedealEntry("redeal", (king + 1) % 4, K))
            if redeals and k == 2 and contract is T:
                services.record_redeal(loaded.id, RedealEntry("misdeal", note="a card showed"))
            loaded, _n = services.record_deal(loaded.id, deal_for(contract, king, k, trix_orders))
            played += 1
    return loaded


@pytest.fixture
def play(app: Flask) -> Callable[..., services.LoadedGame]:
    """``play(names=None, rules=None, deals=20, ...)``: a game played through the services."""
    return play_game


@pytest.fixture
def tied_trix_orders() -> Sequence[Seats4]:
    return TIED_TRIX_ORDERS


@pytest.fixture
def even_trix_orders() -> Sequence[Seats4]:
    return EVEN_TRIX_ORDERS


def pdf_text(data: bytes) -> str:
    """All pages' text, NFKC-normalised (Arabic presentation forms become letters)."""
    reader = PdfReader(io.BytesIO(data))
    return nfkc("\n".join(p.extract_text() for p in reader.pages))


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def save_artifact(name: str, data: bytes, pages: bool = True) -> Path:
    """Keep a rendered PDF under artifacts/pdf/ (gitignored), and its pages as PNG at 60 dpi."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    path.write_bytes(data)
    if pages and shutil.which("pdftoppm"):
        stem = str(path.with_suffix(""))
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(path), stem], check=True)
    return path


class PdfTools:
    """The PDF helpers, as one fixture (test modules cannot import this conftest)."""

    text = staticmethod(pdf_text)
    nfkc = staticmethod(nfkc)
    save = staticmethod(save_artifact)

    @staticmethod
    def reader(data: bytes) -> PdfReader:
        return PdfReader(io.BytesIO(data))


@pytest.fixture
def pdfs() -> type[PdfTools]:
    return PdfTools


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts renders (calls of pdf.html_to_pdf), by paper."""
    calls: list[str] = []
    real = pdf.html_to_pdf

    def counting(html: str, paper: str) -> bytes:
        calls.append(paper)
        return real(html, paper)

    monkeypatch.setattr(pdf, "html_to_pdf", counting)
    return calls
