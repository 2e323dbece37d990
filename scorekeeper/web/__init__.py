"""The web layer: pages, the JSON API and printed sheets, one package per feature.

Each feature package (``games``, ``deals``, ``disputes``, ``sheets``,
``backup``, ``sharing``, ``home``, ``circles``, ``events``, ``offline``,
``api``) holds its routes, forms and presentation; its templates are in
``templates/<feature>/``. Views are thin (docs/STYLE.md §11): a form checks
the shape of what was typed, :mod:`scorekeeper.store` loads the game, asks the
rules engine and writes, and the view redirects (post/redirect/get) or shows the
form again with the engine's problems next to the right fields. Nothing is
imported here, so that a render process (:mod:`scorekeeper.web.paper.engine`)
does not load the whole app.
"""
