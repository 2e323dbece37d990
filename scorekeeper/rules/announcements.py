"""What a king may announce before a deal (R2, R7, R8, R9.6), and the refusals.

Each king plays each contract once in his kingdom (R2), in the table's agreed
order under a fixed contract order; under "all four at once" the four trick
contracts are one announcement (R9.6); a redeal is claimed in King of Hearts
or Trix (R8), or a Trix deal is dealt again for a closed suit (R7).
:class:`~scorekeeper.rules.game.Game` calls these with its state.

>>> from scorekeeper.rules.contracts import ALL_CONTRACTS
>>> rules = RuleSet(contract_order=(Contract.TRIX, *ALL_CONTRACTS[:4]))
>>> next_in_order(rules, (Contract.TRIX,))
<Contract.KING: 'king'>
>>> choices(RuleSet(combination=Combination.ALL_FOUR), ALL_CONTRACTS)[0]
(<Contract.KING: 'king'>, <Contract.QUEENS: 'queens'>, <Contract.DIAMONDS: 'diamonds'>, \
<Contract.COLLECTIONS: 'collections'>)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.errors import IllegalError, StateError, joined, part
from scorekeeper.rules.game_log import RedealEntry
from scorekeeper.rules.ruleset import ClosedSuit, Combination, RuleSet

Contracts = tuple[Contract, ...]


def next_in_order(rules: RuleSet, played: Iterable[Contract]) -> Contract | None:
    """Under a fixed contract order (R2), the next contract not yet played; else None."""
    if rules.contract_order is None:
        return None
    done = set(played)
    return next((c for c in rules.contract_order if c not in done), None)


def choices(rules: RuleSet, left: Contracts) -> tuple[Contracts, ...]:
    """The announcements ``left`` allows, one deal's contracts each (R9.6 groups all four)."""
    if rules.combination is not Combination.ALL_FOUR:
        return tuple((c,) for c in left)
    tricks = tuple(c for c in left if c.is_trick_contract)
    trix = tuple(c for c in left if not c.is_trick_contract)
    return tuple(group for group in (tricks, trix) if group)


def check_available(
    names: Sequence[str], king: int | None, remaining: Contracts, contracts: Contracts, field: str
) -> None:
    """Each contract once per kingdom (R2)."""
    played = [c for c in contracts if c not in remaining]
    if not played or king is None:
        return
    name = names[king]
    raise StateError.one(
        "contract_already_played",
        rule="R2",
        field=field,
        king=king,
        contracts=[c.value for c in played],
        remaining=[c.value for c in remaining],
        player=name,
        played=labels(played),
        left=labels(remaining),
        count=len(remaining),
    )


def check_order(
    rules: RuleSet,
    names: Sequence[str],
    king: int | None,
    following: Contract | None,
    contracts: Contracts,
    field: str,
) -> None:
    """Under a fixed contract order only the next contract may be announced (R2)."""
    if following is None or contracts == (following,):
        return
    order = rules.contract_order or ()
    king_name = _king_param(names, king)
    raise StateError.one(
        "contract_out_of_order",
        rule="R2",
        field=field,
        contract=following.value,
        contracts=[c.value for c in contracts],
        order=joined("comma", (part(f"contract.{c.value}") for c in order)),
        king_name=king_name,
        label=part(f"contract.{following.value}"),
        given=labels(contracts),
    )


def check_complex(
    rules: RuleSet, names: Sequence[str], king: int | None, contracts: Contracts, field: str
) -> None:
    """Under "all four at once" a trick contract is never played alone (R9.6)."""
    alone = len(contracts) == 1 and contracts[0].is_trick_contract
    if not alone or rules.combination is not Combination.ALL_FOUR:
        return
    king_name = _king_param(names, king)
    raise StateError.one(
        "contract_not_all_four",
        rule="R9.6",
        field=field,
        contract=contracts[0].value,
        king_name=king_name,
        label=part(f"contract.{contracts[0].value}"),
    )


def check_redeal_contract(names: Sequence[str], king: int | None, contract: Contract) -> None:
    """A claimed redeal (not a misdeal) exists only for King of Hearts and Trix (R8)."""
    if contract in (Contract.KING, Contract.TRIX):
        return
    king_name = _king_param(names, king)
    raise IllegalError.one(
        "redeal_contract",
        rule="R8",
        field="contract",
        contract=contract.value,
        king_name=king_name,
        label=part(f"contract.{contract.value}"),
    )


def check_closed_suit(rules: RuleSet, entry: RedealEntry) -> None:
    """A Trix deal dealt again for a closed suit, under R7's house rule only."""
    if rules.trix_closed_suit is not ClosedSuit.REPLAY:
        raise IllegalError.one("closed_suit_redeal", rule="R7", field="reason")
    if entry.kind != "redeal" or entry.contract not in (None, Contract.TRIX):
        raise IllegalError.one(
            "closed_suit_redeal",
            rule="R7",
            field="reason",
            variant="trix",
        )


def labels(contracts: Iterable[Contract]) -> dict[str, Any]:
    """Contract names joined with "and", as a message param (see :mod:`.errors`)."""
    return joined("and", (part(f"contract.{c.value}") for c in contracts))


def _king_param(names: Sequence[str], king: int | None) -> str | dict[str, Any]:
    """The king as a message param: the name, or "the king" when no king is named."""
    return part("word.the_king") if king is None else names[king]
