"""The rules engine for the phone: one zip of the engine's modules, and Pyodide's files.

The archive holds :mod:`scorekeeper.rules`, the message templates
(:mod:`scorekeeper.text.messages`), :mod:`scorekeeper.web.offline.phone`, the
code the worker calls, and :mod:`scorekeeper.web.offline.projection`, the game
state every offline screen is drawn from, each at its package path; the packages around them are
empty ``__init__`` files, so nothing else of the app comes along. It is built
from the source once per process, byte for byte the same each time (fixed
timestamps), so its hash names it: a new engine is a new address, and the
phone's cache of the old one is dropped with the old service worker's caches.

Pyodide itself (npm package ``pyodide``, the version pinned in scripts/lib.sh)
is fetched by the install scripts into ``vendor/pyodide/<version>/`` and served
from the app's own origin; it is never committed.
"""

from __future__ import annotations

import hashlib
import io
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
PACKAGE = PROJECT_ROOT / "scorekeeper"
EMPTY_PACKAGES = ("scorekeeper", "scorekeeper/text", "scorekeeper/web", "scorekeeper/web/offline")
MODULES = ("text/messages.py", "web/offline/phone.py", "web/offline/projection.py")
FIXED_TIME = (2020, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Archive:
    """The engine's zip and the first hex digits of its SHA-256 (its version)."""

    data: bytes
    version: str


def engine_sources() -> list[tuple[str, bytes]]:
    """(path in the archive, content) of every module the phone needs, in a fixed order."""
    files = [(f"{name}/__init__.py", b"") for name in EMPTY_PACKAGES]
    for path in sorted((PACKAGE / "rules").rglob("*.py")):
        files.append((f"scorekeeper/{path.relative_to(PACKAGE).as_posix()}", path.read_bytes()))
    files += [(f"scorekeeper/{name}", (PACKAGE / name).read_bytes()) for name in MODULES]
    return files


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
