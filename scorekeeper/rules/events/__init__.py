"""Club nights: several tables at once, seat draws per round and one standings table.

Pure and standard-library only, like the rest of :mod:`scorekeeper.rules`:
:mod:`~scorekeeper.rules.events.draw` seats the players of a round,
:mod:`~scorekeeper.rules.events.standings` ranks them from the tables' results,
:mod:`~scorekeeper.rules.events.tables` says when a table's first deal names its first king.
"""
