"""Circles on the web: the pages (:mod:`.routes`), the JSON API (:mod:`.api`), who may
change a circle from this browser (:mod:`.access`), and the numbers as shown
(:mod:`.present`, :mod:`.charts`, :mod:`.exports`)."""
