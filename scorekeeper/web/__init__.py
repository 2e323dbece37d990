"""The HTML pages. Only the home page so far."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("web", __name__)


@bp.get("/")
def index() -> str:
    """Home page."""
    return render_template("index.html")
