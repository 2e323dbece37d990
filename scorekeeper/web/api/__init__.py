"""The JSON API's games (docs/API.md), mounted at ``/api/v1``: games, deals, redeals, undo,
export and import. The other features answer their own part of the API beside their pages:
:mod:`scorekeeper.web.disputes.api` (the checks), :mod:`scorekeeper.web.circles.api` and
:mod:`scorekeeper.web.events.api`."""
