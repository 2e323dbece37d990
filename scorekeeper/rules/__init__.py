"""The rules of Trex / Trix as a pure library (standard library only).

Everything in ``docs/RULES.md``: cards and hands, rule sets, scoring and the
zero-sum check, trick play and revokes, the Trix layout, redeals, kingdoms.
Nothing here imports Flask or SQLAlchemy; a test enforces it.
"""
