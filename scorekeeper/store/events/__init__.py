"""Club nights: an evening's players, its drawn rounds of tables, and their standings.

- :mod:`.models`: the tables; :mod:`.services`: what the web layer calls (create,
  draw, lock, close, correct, read with standings);
- :mod:`.changes`: a round re-drawn, a player replaced, leaving or coming back;
- :mod:`.input`: a new night's and a leaver's request bodies, checked;
- :mod:`.results`: a table's game writes its result to its night as its deals are
  written.
"""
