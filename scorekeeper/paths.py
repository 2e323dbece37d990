"""Where the project's files are: templates, static files and catalogues sit beside the package."""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
