"""WSGI entry point: ``gunicorn wsgi:app``."""

from scorekeeper import create_app

app = create_app()
