"""The rules engine for the phone: one zip of the engine's modules, and Pyodide's files.

The archive holds the whole :mod:`scorekeeper.rules` package (with its sentences,
the message templates) and :mod:`scorekeeper.web.offline.phone`, the code the
worker calls, with every module of the app that it imports, found by reading
their imports (:func:`phone_modules`), each at its package path; the packages
around them are empty ``__init__`` files, so nothing else of the app comes along.
A module there may import only the standard library (Pyodide's) and the modules
that come along: building the archive fails otherwise. It is built
from the source once per process, byte for byte the same each time (fixed
timestamps), so its hash names it: a new engine is a new address, and the
phone's cache of the old one is dropped with the old service worker's caches.

Pyodide itself (npm package ``pyodide``, the version pinned in scripts/lib.sh)
is fetched by the install scripts into ``vendor/pyodide/<version>/`` and served
from the app's own origin; it is never committed.
"""

from __future__ import annotations

import ast
import hashlib
import io
import sys
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from scorekeeper.paths import PROJECT_ROOT

PYODIDE_VERSION = "314.0.7"
"""Keep in step with ``PYODIDE_VERSION`` in scripts/lib.sh."""
PYODIDE_FILES = frozenset(
    {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}
)
ROOTS = ("scorekeeper.rules", "scorekeeper.web.offline.phone")
"""What the worker runs; the archive is these and what they import."""
FIXED_TIME = (2020, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Archive:
    """The engine's zip and the first hex digits of its SHA-256 (its version)."""

    data: bytes
    version: str


def module_path(module: str) -> Path | None:
    """The source of one of the app's modules (a package's ``__init__.py``), or None."""
    base = PROJECT_ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_modules(path: Path) -> set[str]:
    """The modules a source file imports, anywhere in it (absolute imports only: the
    project bans relative ones), and for ``from x import y`` also ``x.y``, which may be
    a module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            # ``from scorekeeper.rules import trix`` imports a module, not a name.
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    found.discard("__future__")
    return found


def phone_modules() -> dict[str, Path]:
    """Every module of the app the worker needs, by name: the :data:`ROOTS` (a package
    with all its modules) and, transitively, the app's modules they import.

    Raise ``ImportError`` for an import of anything else than the standard library or
    the app's own modules (Flask, Babel: the phone has none of them).
    """
    wanted: list[str] = []
    for root in ROOTS:
        path = module_path(root)
        assert path is not None, root
        if path.name == "__init__.py":
            wanted += [
                ".".join(p.relative_to(PROJECT_ROOT).with_suffix("").parts).removesuffix(
                    ".__init__"
                )
                for p in sorted(path.parent.rglob("*.py"))
            ]
        else:
            wanted.append(root)
    found: dict[str, Path] = {}
    while wanted:
        module = wanted.pop()
        if module in found:
            continue
        path = module_path(module)
        if path is None:
            continue  # ``from package import name``: a name, not a module
        found[module] = path
        for name in imported_modules(path):
            top = name.partition(".")[0]
            if top == "scorekeeper":
                wanted.append(name)
            elif top not in sys.stdlib_module_names:
                raise ImportError(f"{module} imports {name}, which the phone does not have")
    return found


def engine_sources() -> list[tuple[str, bytes]]:
    """(path in the archive, content) of every module the phone needs, in a fixed order."""
    modules = phone_modules()
    files = {
        path.relative_to(PROJECT_ROOT).as_posix(): path.read_bytes() for path in modules.values()
    }
    for name in list(files):
        parts = name.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            files.setdefault("/".join([*parts[:depth], "__init__.py"]), b"")
    return sorted(files.items())


@cache
def engine_archive() -> Archive:
    """The archive, built on first use and kept for the life of the process."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, content in engine_sources():
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
    data = buffer.getvalue()
    return Archive(data, hashlib.sha256(data).hexdigest()[:16])


def pyodide_dir(root: Path | None = None) -> Path:
    """Where the install scripts put this version of Pyodide."""
    return (root or PROJECT_ROOT / "vendor" / "pyodide") / PYODIDE_VERSION


def pyodide_ready(root: Path | None = None) -> bool:
    """Whether every file the worker loads is there."""
    folder = pyodide_dir(root)
    return all((folder / name).is_file() for name in PYODIDE_FILES)


def pyodide_size(root: Path | None = None) -> int:
    """Bytes the phone downloads for Pyodide (0 when it is not installed)."""
    folder = pyodide_dir(root)
    return sum((folder / n).stat().st_size for n in PYODIDE_FILES if (folder / n).is_file())
