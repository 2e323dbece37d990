"""Circles: groups of players across games, their statistics and ratings.

- :mod:`.models`: the tables; :mod:`.services`: what the web layer calls;
- :mod:`.facts`, :mod:`.stats`, :mod:`.ratings`: statistics from the games'
  replays and ratings (OpenSkill) from their final orders;
- :mod:`.hooks`: a write to a circle's game refreshes what the circle keeps of it;
- :mod:`.backup`: a circle and its games as one backup file.
"""
