"""The sheet's own modules: docstring examples, the chart, the captures in words, the figures."""

from __future__ import annotations

import re
import unicodedata

import pytest
from flask import Flask

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.web.sheets import chart, pdf
from scorekeeper.web.sheets.content import describe_captures, describe_redeal, plain

NAMES = ["Rana", "Sami", "Omar", "Lina"]


def words(captures: Captures) -> list[str]:
    return [plain(p, NAMES) for p in describe_captures(captures)]


def test_r3_king_of_hearts_doubled_by_another_and_by_the_taker() -> None:
    assert words(Captures(king_of_hearts=Capture(1, 0))) == ["K♥ Sami, doubled by Rana"]
    assert words(Captures(king_of_hearts=Capture(2))) == ["K♥ Omar"]
    assert words(Captures(king_of_hearts=Capture(3, 3))) == ["K♥ Lina, own double"]


def test_r4_queens_with_doubles() -> None:
    queens = (Capture(2), Capture(1, 3), Capture(0), Capture(3, 3))
    assert words(Captures(queens=queens)) == [
        "Q♠ Omar; Q♥ Sami (doubled by Lina); Q♦ Rana; Q♣ Lina (own double)"
    ]


def test_r9_6_combination_lists_every_part() -> None:
    caps = Captures(king_of_hearts=Capture(0), diamonds=(3, 4, 6, 0), tricks=(2, 5, 6, 0))
    assert words(caps) == ["K♥ Rana", "♦ 3·4·6·0", "Tricks 2·5·6·0"]


def test_r8_redeals_and_misdeals_in_words() -> None:
    claim = RedealEntry("redeal", 1, Contract.TRIX)
    assert plain(describe_redeal(claim), NAMES) == "Redeal claimed by Sami (Trix announced, R8)"
    misdeal = RedealEntry("misdeal", note="a card showed")
    assert plain(describe_redeal(misdeal), NAMES) == "Misdeal: dealt again (R8): a card showed"


def test_chart_has_one_line_per_player_with_distinct_colours_and_dashes() -> None:
    series = [(0, 0, 0, 0), (-75, 0, 0, 0), (-75, 200, 150, 100), (-175, 200, 150, 100)]
    svg = chart.progression_svg(series)
    paths = re.findall(
        r'<path d="([^"]+)" fill="none" stroke="([^"]+)"[^>]*dasharray="([^"]+)"', svg
    )
    assert len(paths) == 4
    assert len({p[1] for p in paths}) == 4 and len({p[2] for p in paths}) == 4
    assert all(p[0].count("L") == len(series) - 1 for p in paths)
    assert '<path stroke="#000" stroke-width="1.2" fill="none" d="M46.0 ' in svg  # zero line
    for label in ("−100", "0", "200", "deals"):
        assert f">{label}</text>" in svg


def test_chart_of_a_game_without_deals() -> None:
    svg = chart.progression_svg([(0, 0, 0, 0)])
    assert svg.count("<path") == 3 + 4  # grid, zero line, axis; one line per player


def test_legend_samples_match_the_lines() -> None:
    for seat, style in enumerate(chart.STYLES):
        sample = chart.legend_sample(seat)
        assert style.colour in sample and style.dash in sample


@pytest.mark.parametrize(
    "query", ["?lang=en&digits=latn", "?lang=ar&digits=latn", "?lang=ar&digits=arab"]
)
def test_figures_give_every_score_a_column_of_the_same_width(app: Flask, query: str) -> None:
    """Whatever the digits and direction, each score after the first fills FIGURE_COLUMN places.

    The bidi marks around a signed number (right to left) and the Arabic letter
    mark of an Arabic-Indic minus take no room; everything else is one place of
    the monospaced font.
    """
    with app.test_request_context("/" + query):
        text = pdf.figures([0, -150, 75, -1250])
    places = [ch for ch in text if unicodedata.category(ch) != "Cf"]
    first = 1 if "lang=en" in query else 5  # right to left, the last seat's score comes first
    assert len(places) == first + 3 * pdf.FIGURE_COLUMN
    assert "-" in text or "−" in text
