"""``scorekeeper check FILE.json`` prints what the API would answer."""

from __future__ import annotations

import io
import json
from pathlib import Path

from scorekeeper.cli import main, run_check


def run(tmp_path: Path, body: object, *args: str) -> tuple[int, dict[str, object]]:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    out = io.StringIO()
    status = main(["check", str(path), *args], out=out)
    return status, json.loads(out.getvalue())


def test_cli_scores_a_deal(tmp_path: Path) -> None:
    status, answer = run(
        tmp_path, {"contracts": ["collections"], "king": 1, "captures": {"tricks": [2, 5, 6, 0]}}
    )
    assert status == 0
    assert answer == {
        "ok": True,
        "scores": [-30, -75, -90, 0],
        "total": -195,
        "expected_total": -195,
    }


def test_cli_guesses_a_redeal_check(tmp_path: Path) -> None:
    hand = ["2S", "2H", "2D", "2C", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"]
    status, answer = run(tmp_path, {"contract": "trix", "hand": hand})
    assert status == 0
    assert answer["eligible"] is True


def test_cli_refusal_prints_the_api_error_and_exits_1(tmp_path: Path) -> None:
    status, answer = run(
        tmp_path, {"contracts": ["diamonds"], "captures": {"diamonds": [1, 1, 1, 1]}}
    )
    assert status == 1
    assert answer["ok"] is False
    errors = answer["errors"]
    assert isinstance(errors, list) and errors[0]["rule"] == "R11"


def test_cli_kind_option_overrides_the_guess(tmp_path: Path) -> None:
    status, answer = run(tmp_path, {"contract": "trix", "hand": []}, "--kind", "deal")
    assert status == 1
    assert answer["ok"] is False


def test_cli_body_must_be_an_object() -> None:
    answer, status = run_check([1, 2])
    assert status == 1
    assert answer["ok"] is False


def test_cli_unreadable_file_is_status_2(tmp_path: Path) -> None:
    assert main(["check", str(tmp_path / "missing.json")], out=io.StringIO()) == 2
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert main(["check", str(tmp_path / "bad.json")], out=io.StringIO()) == 2
