"""A game in the database: models, transactions, the replayed log, backups and caches.

No request objects here: the web layer calls :mod:`.games` (load, record, edit,
undo, redeal) with plain values and gets back a :class:`.snapshot.LoadedGame`.
"""
