"""Backups on the pages: download a game's JSON, and restore one as a new game."""
