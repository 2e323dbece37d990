"""scorekeeper.rules is a library: standard library only, no web stack.

Checked twice: statically (every import statement, via ``ast``) and
dynamically (importing every module of the package in a fresh interpreter
loads neither Flask nor SQLAlchemy).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parent.parent / "scorekeeper" / "rules"
PACKAGE = ("scorekeeper", "rules")
RULES_FILES = sorted(RULES_DIR.rglob("*.py"))
DYNAMIC_IMPORTERS = {"__import__", "import_module"}


def allowed(module: str) -> bool:
    parts = tuple(module.split("."))
    return parts[0] in sys.stdlib_module_names or parts[: len(PACKAGE)] == PACKAGE


def resolve(node: ast.ImportFrom, path: Path) -> str:
    """Absolute module name of a (possibly relative) ``from ... import``."""
    if node.level == 0:
        return node.module or ""
    package = PACKAGE + path.parent.relative_to(RULES_DIR).parts
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ((node.module,) if node.module else ()))


def _dynamic_target(node: ast.Call) -> str | None:
    """'flask' for ``importlib.import_module('flask')`` or ``__import__('flask')``."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name in DYNAMIC_IMPORTERS and node.args:
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def imports_in(source: str, path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in ``source``, dynamic ones included."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, resolve(node, path)))
        elif isinstance(node, ast.Call) and (target := _dynamic_target(node)):
            found.append((node.lineno, target))
    return found


def test_rules_package_exists() -> None:
    assert (RULES_DIR / "__init__.py").is_file()


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(RULES_DIR)))
def test_rules_module_imports_only_stdlib(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    bad = [f"line {line}: {module}" for line, module in imports_in(source, path)]
    bad = [entry for entry in bad if not allowed(entry.split(": ", 1)[1])]
    assert not bad, f"{path.name} imports outside the standard library: {bad}"


def test_importing_rules_loads_no_web_stack() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import scorekeeper.rules as rules\n"
        "for info in pkgutil.walk_packages(rules.__path__, 'scorekeeper.rules.'):\n"
        "    importlib.import_module(info.name)\n"
        "web = {'flask', 'sqlalchemy', 'flask_sqlalchemy', 'werkzeug', 'jinja2', 'wtforms'}\n"
        "leaked = sorted({m.split('.')[0] for m in sys.modules} & web)\n"
        "assert not leaked, leaked\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("source", "ok"),
    [
        ("import itertools", True),
        ("from dataclasses import dataclass", True),
        ("from __future__ import annotations", True),
        ("from . import cards", True),
        ("from .cards import Card", True),
        ("import scorekeeper.rules.cards", True),
        ("from scorekeeper.rules import errors", True),
        ("import flask", False),
        ("from sqlalchemy import orm", False),
        ("from .. import extensions", False),
        ("from ..models import Game", False),
        ("from scorekeeper import extensions", False),
        ("import importlib\nimportlib.import_module('flask')", False),
        ("__import__('sqlalchemy')", False),
    ],
)
def test_the_checker_itself(source: str, ok: bool) -> None:
    modules = [module for _, module in imports_in(source, RULES_DIR / "probe.py")]
    assert all(allowed(module) for module in modules) is ok, modules
