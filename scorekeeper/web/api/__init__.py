"""The JSON API (docs/API.md), mounted at ``/api/v1``: checks, games and backups."""
