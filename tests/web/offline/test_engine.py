"""The phone's engine archive is derived from the package tree: the rules package, the
phone's module, and what they import, found by reading their imports; nothing of it
needs more than the standard library (no Babel, no Flask)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from scorekeeper.paths import PROJECT_ROOT
from scorekeeper.web.offline import engine


def test_the_archive_is_the_rules_package_and_the_modules_the_phone_imports() -> None:
    names = {name for name, _ in engine.engine_sources()}
    rules = {
        path.relative_to(PROJECT_ROOT).as_posix()
        for path in (PROJECT_ROOT / "scorekeeper" / "rules").rglob("*.py")
    }
    assert rules <= names
    others = names - rules
    assert others == {
        "scorekeeper/__init__.py",
        "scorekeeper/web/__init__.py",
        "scorekeeper/web/offline/__init__.py",
        "scorekeeper/web/offline/phone.py",
        "scorekeeper/web/offline/projection.py",  # imported by phone.py
    }
    sources = dict(engine.engine_sources())
    assert sources["scorekeeper/__init__.py"] == b""  # not the app's factory


def test_a_module_that_imports_what_the_phone_lacks_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The catalogue's JSON is built with Babel: an engine that imported it could not run."""
    monkeypatch.setattr(engine, "ROOTS", ("scorekeeper.web.offline.catalogue",))
    with pytest.raises(ImportError, match="babel"):
        engine.phone_modules()


def test_the_archive_runs_on_the_standard_library_alone(tmp_path: Path) -> None:
    """Run as on the phone: a bare interpreter (no site-packages, so no Babel to fake) with
    only the archive on its path; a refusal is worded from the engine's own templates."""
    archive = tmp_path / "engine.zip"
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as out:
        for name, content in engine.engine_sources():
            out.writestr(name, content)
    archive.write_bytes(data.getvalue())
    game = {"rules": {}, "first_king": 0, "players": ["Rana", "Sami", "Omar", "Lina"], "log": []}
    deal = {"contracts": ["diamonds"], "captures": {"diamonds": [3, 4, 5, 0]}}
    request = {"game": game, "pending": [], "entry": {"action": "record", "entry": deal}}
    script = (
        "import sys, json\n"
        f"sys.path[:0] = [{str(archive)!r}]\n"
        "from scorekeeper.web.offline import phone\n"
        "assert 'babel' not in sys.modules and 'flask' not in sys.modules\n"
        f"print(phone.check({json.dumps(request)!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["ok"] is False and answer["errors"][0]["code"] == "diamonds_sum"
    assert answer["errors"][0]["message"].startswith(
        "Diamonds must add up to 13; these add up to 12"
    )
