"""The rules of Trex / Trix as a pure library (standard library only).

Everything in ``docs/RULES.md``: cards and hands, rule sets, scoring and the
zero-sum check, trick play and revokes, the Trix layout, redeals, kingdoms.
Nothing here imports Flask or SQLAlchemy; a test enforces it.

One import gives what a game needs, as ``import chess`` does:

>>> from scorekeeper import rules
>>> game = rules.Game.start(rules.RuleSet(), 0, ["Rana", "Sami", "Omar", "Lina"])
>>> diamonds = rules.DealEntry((rules.Contract.DIAMONDS,), rules.Captures(diamonds=(3, 4, 6, 0)))
>>> game.record(diamonds).totals
(-30, -40, -60, 0)

The searches and tools of their own (claims, the club nights' draws, the
checks of the API) stay in their modules: :mod:`scorekeeper.rules.claims`,
:mod:`scorekeeper.rules.events`, :mod:`scorekeeper.rules.checks`.
"""

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.cards import Card, Rank, Suit
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import (
    IllegalError,
    MalformedError,
    Problem,
    ProblemList,
    RulesError,
    StateError,
)
from scorekeeper.rules.game import Game
from scorekeeper.rules.game_log import DealEntry, DealRecord, Entry, Kingdom, RedealEntry
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import score_deal

__all__ = [
    "Capture",
    "Captures",
    "Card",
    "Contract",
    "DealEntry",
    "DealRecord",
    "Entry",
    "Game",
    "IllegalError",
    "Kingdom",
    "MalformedError",
    "Problem",
    "ProblemList",
    "Rank",
    "RedealEntry",
    "RuleSet",
    "RulesError",
    "StateError",
    "Suit",
    "score_deal",
]
