"""What a circle's statistics need of one game, derived from its replay by the engine.

Each seat's share of every deal comes from the captures through the engine's
own scoring (:func:`~scorekeeper.rules.scoring.score_deal`): a combination's
deal (R9.6) is split into its contracts, each scored alone, so that "points
per King of Hearts deal" means the same with and without combinations.
Nothing here is typed twice: the facts are recomputed from the log whenever
the game changes (:mod:`.hooks`).

>>> from scorekeeper.rules.captures import Captures
>>> from scorekeeper.rules.game import DealEntry, Game
>>> from scorekeeper.rules.contracts import Contract
>>> from scorekeeper.rules.ruleset import RuleSet
>>> game = Game.start(RuleSet(kingdoms=1), 0, ["Rana", "Sami", "Omar", "Lina"])
>>> game = game.record(DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1))))
>>> facts = game_facts(game)
>>> facts["finished"], facts["totals"], facts["seats"][2]["trix"]
(False, [150, 50, 200, 100], {'deals': 1, 'taken': 0, 'points': 200, 'places': [1, 0, 0, 0]})
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.captures import Capture, Captures
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game import DealRecord, Game
from scorekeeper.rules.ruleset import Combination, RuleSet
from scorekeeper.rules.scoring import score_deal

FACTS_VERSION = 2
"""Bumped when the shape below changes: older facts are then restated (a migration).

2: a partnership game's ``totals`` are its teams' (R9.5: one result per team, the same
for both partners), each player's own in ``own_totals``."""


def game_facts(game: Game) -> dict[str, Any]:
    """The game's facts: per seat, what the statistics add up (a JSON-ready dict)."""
    seats = [_empty_seat() for _ in range(4)]
    for deal in game.deals:
        _add_deal(game.rules, deal, seats)
    for kingdom in game.kingdoms:
        if kingdom.king is not None and kingdom.deals:
            seats[kingdom.king]["kingdoms"].append(kingdom.totals[kingdom.king])
    return {
        "v": FACTS_VERSION,
        "finished": game.finished,
        "deals": game.deals_played,
        "partnership": game.rules.partnership,
        "rules": game.rules.to_dict(),
        "totals": result_totals(game),
        "own_totals": list(game.totals),
        "places": final_places(game),
        "seats": seats,
    }


def result_totals(game: Game) -> list[int]:
    """Each seat's result: his total, or under partnership (R9.5) his team's, so that both
    partners count the same result (and the same place) in the circle's statistics.

    >>> from scorekeeper.rules.ruleset import RuleSet
    >>> game = Game.start(RuleSet(partnership=True), 0, ["Rana", "Sami", "Omar", "Lina"])
    >>> result_totals(game)
    [0, 0, 0, 0]
    """
    teams = game.team_totals
    if teams is None:
        return list(game.totals)
    return [teams[0], teams[1], teams[0], teams[1]]


def final_places(game: Game) -> list[int]:
    """Each seat's place in the game's final order: 1 first; equal places tie.

    A tie-break (R12) puts the winner alone in first place; partners (R9.5)
    share their team's place.
    """
    rank_of = [0, 0, 0, 0]
    for standing in game.standings:
        side = standing.team or (standing.seat,)
        for seat in side:
            rank_of[seat] = standing.rank
    winner = game.winner
    if winner is not None:
        winners = set(game.winning_team or (winner,))
        for seat in range(4):
            if seat not in winners and rank_of[seat] == 1:
                rank_of[seat] = 2
    return rank_of


def _empty_seat() -> dict[str, Any]:
    seat: dict[str, Any] = {c.value: {"deals": 0, "taken": 0, "points": 0} for c in ALL_CONTRACTS}
    seat[Contract.TRIX.value]["places"] = [0, 0, 0, 0]
    seat["doubling"] = {"doubled": 0, "bonus": 0, "swallowed": 0}
    seat["kingdoms"] = []
    return seat


def _add_deal(rules: RuleSet, deal: DealRecord, seats: list[dict[str, Any]]) -> None:
    shares = contract_shares(rules, deal)
    for contract, scores in shares.items():
        for seat in range(4):
            row = seats[seat][contract.value]
            row["deals"] += 1
            row["points"] += scores[seat]
            row["taken"] += _taken(contract, deal.captures, seat)
    if Contract.TRIX in shares and deal.captures.trix_order is not None:
        for place, seat in enumerate(deal.captures.trix_order):
            seats[seat]["trix"]["places"][place] += 1
    if rules.doubling:
        _add_doubling(rules, deal, seats)


def contract_shares(rules: RuleSet, deal: DealRecord) -> dict[Contract, tuple[int, ...]]:
    """Each contract's scores in ``deal``: a combination's contracts scored one by one."""
    if len(deal.contracts) == 1:
        return {deal.contracts[0]: deal.scores}
    alone = rules.with_changes(combination=Combination.OFF, contract_order=None)
    shares: dict[Contract, tuple[int, ...]] = {}
    try:
        for contract in deal.contracts:
            shares[contract] = score_deal(alone, [contract], deal.captures)
    except RulesError:  # a split the engine refuses: the deal counts for its first contract
        return {deal.contracts[0]: deal.scores}
    return shares


def _taken(contract: Contract, captures: Captures, seat: int) -> int:
    """Cards (or tricks) of ``contract`` that ``seat`` took in the deal."""
    if contract is Contract.KING and captures.king_of_hearts is not None:
        return int(captures.king_of_hearts.taker == seat)
    if contract is Contract.QUEENS and captures.queens is not None:
        return sum(1 for q in captures.queens if q.taker == seat)
    if contract is Contract.DIAMONDS and captures.diamonds is not None:
        return captures.diamonds[seat]
    if contract is Contract.COLLECTIONS and captures.tricks is not None:
        return captures.tricks[seat]
    return 0


def _doubled_cards(deal: DealRecord) -> list[tuple[Capture, int]]:
    """The deal's doubled cards with their values' kind: (capture, 1 for K♥ / 0 for a queen)."""
    out: list[tuple[Capture, int]] = []
    captures = deal.captures
    if Contract.KING in deal.contracts and captures.king_of_hearts is not None:
        out.append((captures.king_of_hearts, 1))
    if Contract.QUEENS in deal.contracts and captures.queens is not None:
        out.extend((q, 0) for q in captures.queens)
    return [(c, k) for c, k in out if c.doubled_by is not None]


def _add_doubling(rules: RuleSet, deal: DealRecord, seats: list[dict[str, Any]]) -> None:
    """Cards each seat doubled (R3, R4), the bonus they brought, and those he took himself."""
    for capture, is_king in _doubled_cards(deal):
        holder = capture.doubled_by
        if holder is None:
            continue
        row = seats[holder]["doubling"]
        row["doubled"] += 1
        if capture.taker == holder:
            row["swallowed"] += 1
        else:
            value = rules.values.king if is_king else rules.values.queen
            row["bonus"] += rules.sign * value
