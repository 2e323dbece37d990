"""Kingdoms, contract rotation and the end of the game, replayed from the deal log.

A :class:`Game` is an immutable value built from its log (docs/STYLE.md §5, §6):
``verify(entry)`` raises, ``can(entry)`` asks, ``record(entry)`` returns the
next game. Each king plays each of the five contracts once in his kingdom
(R2), in the table's order under a fixed contract order; combinations use
several at once (R9.6); a redeal uses none (R8, R7's closed suit). The dealer
is the king unless R2's dealer house rules say otherwise; under team kingdoms
a kingdom belongs to a team (R9.5). After the last kingdom the highest total
wins, or the tie-break decides (R12).

>>> from .captures import Captures
>>> game = Game.start(RuleSet(kingdoms=1), 0, ["Rana", "Sami", "Omar", "Lina"])
>>> game = game.record(DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1))))
>>> game.totals, [c.value for c in game.available_contracts]
((150, 50, 200, 100), ['king', 'queens', 'diamonds', 'collections'])
>>> game.can(DealEntry((Contract.TRIX,), Captures(trix_order=(2, 0, 3, 1))))
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from scorekeeper.rules.announcements import (
    check_available,
    check_closed_suit,
    check_complex,
    check_order,
    check_redeal_contract,
    choices,
    next_in_order,
)
from scorekeeper.rules.captures import Seats4, is_seat
from scorekeeper.rules.contracts import ALL_CONTRACTS, Contract
from scorekeeper.rules.errors import (
    MalformedError,
    RulesError,
    StateError,
    joined,
)
from scorekeeper.rules.game_end import Outcome, Standing, decide
from scorekeeper.rules.game_log import (
    DealEntry,
    DealRecord,
    Entry,
    Kingdom,
    RedealEntry,
    check_first_king,
    check_players,
    check_redeal_shape,
    sum_scores,
    team_of,
)
from scorekeeper.rules.redeal import check_redeals_in_a_row
from scorekeeper.rules.ruleset import Combination, Dealer, KingdomOrder, RuleSet, Starter
from scorekeeper.rules.scoring import check_contracts, score_deal, team_totals, zero_sum_report

__all__ = ["DealEntry", "DealRecord", "Entry", "Game", "Kingdom", "RedealEntry", "Standing"]


@dataclass(frozen=True)
class Game:
    """A game replayed from its log. Build it with :meth:`start` or :meth:`replay`."""

    rules: RuleSet
    names: tuple[str, str, str, str]
    first_king: int
    zero_sum: bool
    """Whether the rule set makes every kingdom add up to 0 (R11)."""
    log: tuple[Entry, ...] = ()
    kingdoms: tuple[Kingdom, ...] = ()
    extra_deals: tuple[DealRecord, ...] = ()
    """Tie-break deals played after the last kingdom (R12)."""
    extra_redeals: tuple[RedealEntry, ...] = field(default=(), repr=False)

    @classmethod
    def start(cls, rules: RuleSet, first_king: int, names: Sequence[str]) -> Game:
        """A new game; raise if the players or the first king are not valid (R1, R2)."""
        players = check_players(names)
        check_first_king(rules, first_king, players)
        return cls(
            rules,
            players,
            first_king,
            zero_sum_report(rules)[0],
            kingdoms=(Kingdom(first_king, team=team_of(rules, first_king)),),
        )

    @classmethod
    def replay(
        cls, rules: RuleSet, first_king: int, names: Sequence[str], log: Iterable[Entry]
    ) -> Game:
        """The game after every entry of ``log``; an error names its entry (``log.7``)."""
        game = cls.start(rules, first_king, names)
        for index, entry in enumerate(log):
            try:
                game = game.record(entry)
            except RulesError as err:
                raise err.at(f"log.{index}") from None
        return game

    # verify / can / record (docs/STYLE.md §5)

    def verify(self, entry: Entry) -> None:
        """Raise the :class:`RulesError` that recording ``entry`` would meet."""
        self._apply(entry)

    def can(self, entry: Entry) -> bool:
        try:
            self._apply(entry)
        except RulesError:
            return False
        return True

    def record(self, entry: Entry) -> Game:
        """The game with ``entry`` appended to its log; this game is unchanged."""
        return self._apply(entry)

    # derived state

    @property
    def in_kingdoms(self) -> bool:
        """Whether the kingdoms are still being played (no tie-break yet)."""
        return not self.kingdoms[-1].finished

    @property
    def current_kingdom(self) -> Kingdom | None:
        return self.kingdoms[-1] if self.in_kingdoms else None

    @property
    def kingdom_index(self) -> int:
        """0-based index of the kingdom being played (the last one once play is over)."""
        return len(self.kingdoms) - 1

    @property
    def current_king(self) -> int | None:
        """Who deals next: the king, the first king for an extra deal, None when over or unknown."""
        if self.in_kingdoms:
            return self.kingdoms[-1].king
        return self.first_king if self.needs_extra_deal else None

    @property
    def current_dealer(self) -> int | None:
        """Who deals the next deal (R2): the king by default; None when the game is over.

        The first lead (R10) and the first Trix turn (R7) count from the dealer.
        """
        rules, first = self.rules, self.rules.first_dealer
        if first is None or (not self.in_kingdoms and not self.needs_extra_deal):
            return self.current_king
        if rules.dealer is Dealer.ROTATES:  # known even before a 7♥ kingdom's king is
            return (first + self.deals_dealt) % 4
        if rules.dealer is Dealer.FIRST_ANY and self.deals_played == 0:
            return first
        return self.current_king

    def first_to_play(self, contracts: Sequence[Contract]) -> int | None:
        """Who leads the first trick (R10) or plays first in Trix (R7) of the next deal.

        Counted from the dealer (R2): he, or under "right_of_king" his right-hand player.
        """
        dealer = self.current_dealer
        if dealer is None:
            return None
        trix = tuple(contracts) == (Contract.TRIX,)
        starter = self.rules.trix_first if trix else self.rules.first_lead
        return (dealer + (1 if starter is Starter.RIGHT_OF_KING else 0)) % 4

    @property
    def deals_dealt(self) -> int:
        """Deals dealt so far: those played and those dealt again after a redeal claim (R8).

        After a misdeal the same dealer deals again, so a misdeal does not count.
        """
        redeals = [r for k in self.kingdoms for r in k.redeals] + list(self.extra_redeals)
        return self.deals_played + sum(1 for r in redeals if r.kind != "misdeal")

    @property
    def needs_king(self) -> bool:
        """A 7♥ kingdom is starting: the next deal must say who was dealt the 7♥ (R2)."""
        return self.in_kingdoms and self.kingdoms[-1].king is None

    @property
    def available_contracts(self) -> tuple[Contract, ...]:
        """The contracts the king may still announce; under a fixed order only the next (R2)."""
        if self.in_kingdoms:
            following = self.next_in_order
            return self.kingdoms[-1].remaining if following is None else (following,)
        return ALL_CONTRACTS if self.needs_extra_deal else ()

    @property
    def next_in_order(self) -> Contract | None:
        """Under a fixed contract order (R2), the king's next contract; else None."""
        if not self.in_kingdoms:
            return None
        return next_in_order(self.rules, self.kingdoms[-1].played)

    @property
    def available_choices(self) -> tuple[tuple[Contract, ...], ...]:
        """What the king may announce next, one deal's contract(s) each: what a page offers.

        Under "all four at once" the four trick contracts are one choice (R9.6).
        Under "any" only the single contracts are listed; any two or more of the
        remaining trick contracts may be combined as well.
        """
        if not self.in_kingdoms:
            return tuple((c,) for c in self.available_contracts)
        return choices(self.rules, self.available_contracts)

    @property
    def deals(self) -> tuple[DealRecord, ...]:
        """Every deal played, kingdoms first, then any extra deals."""
        return tuple(d for k in self.kingdoms for d in k.deals) + self.extra_deals

    @property
    def deals_played(self) -> int:
        return sum(len(k.deals) for k in self.kingdoms) + len(self.extra_deals)

    @property
    def deals_total(self) -> int:
        """Deals the game takes if every remaining contract is played alone (exact unless
        "any" combinations are played, R9.6)."""
        per_kingdom = 2 if self.rules.combination is Combination.ALL_FOUR else 5
        later = per_kingdom * (self.rules.kingdom_count - len(self.kingdoms))
        left = len(self.available_choices) if self.in_kingdoms else 0
        return self.deals_played + left + later + (1 if self.needs_extra_deal else 0)

    @cached_property
    def totals(self) -> Seats4:
        return sum_scores(d.scores for d in self.deals)

    @property
    def team_totals(self) -> tuple[int, int] | None:
        return team_totals(self.totals) if self.rules.partnership else None

    @cached_property
    def trix_first_places(self) -> Seats4:
        """Per seat, the Trix deals he went out first in (the R12 tie-break)."""
        counts = [0, 0, 0, 0]
        for deal in self.deals:
            if Contract.TRIX in deal.contracts and deal.captures.trix_order is not None:
                counts[deal.captures.trix_order[0]] += 1
        return (counts[0], counts[1], counts[2], counts[3])

    @cached_property
    def outcome(self) -> Outcome:
        over = not self.in_kingdoms
        return decide(
            self.rules,
            self.totals,
            self.trix_first_places,
            over=over,
            extra_deals=len(self.extra_deals),
        )

    @property
    def standings(self) -> tuple[Standing, ...]:
        return self.outcome.standings

    @property
    def winner(self) -> int | None:
        return self.outcome.winner

    @property
    def winning_team(self) -> tuple[int, int] | None:
        return self.outcome.winning_team

    @property
    def tied(self) -> tuple[int, ...]:
        return self.outcome.tied

    @property
    def needs_extra_deal(self) -> bool:
        return not self.in_kingdoms and self.outcome.needs_extra_deal

    @property
    def finished(self) -> bool:
        return not self.in_kingdoms and self.outcome.winner is not None

    def to_dict(self) -> dict[str, Any]:
        """The API's "Game state" fields the engine knows (the web layer adds id and version)."""
        team = self.winning_team
        return {
            "players": list(self.names),
            "rules": self.rules.to_dict(),
            "zero_sum": self.zero_sum,
            "kingdoms": [k.to_dict() for k in self.kingdoms],
            "totals": list(self.totals),
            "current_king": self.current_king,
            "current_dealer": self.current_dealer,
            "available_contracts": [c.value for c in self.available_contracts],
            "available_choices": [[c.value for c in group] for group in self.available_choices],
            "finished": self.finished,
            "standings": [s.to_dict() for s in self.standings],
            "winner": self.winner,
            "tied": list(self.tied),
            "needs_extra_deal": self.needs_extra_deal,
            "needs_king": self.needs_king,
            "extra_deals": [d.to_dict() for d in self.extra_deals],
            "extra_redeals": [r.to_dict() for r in self.extra_redeals],
            "team_totals": None if self.team_totals is None else list(self.team_totals),
            "winning_team": None if team is None else list(team),
            "decided_by": self.outcome.decided_by,
            "trix_first_places": list(self.trix_first_places),
            "deals_played": self.deals_played,
            "deals_total": self.deals_total,
        }

    # applying an entry

    def _apply(self, entry: Entry) -> Game:
        if not self.in_kingdoms and not self.needs_extra_deal:
            raise self._game_over()
        if isinstance(entry, RedealEntry):
            return self._apply_redeal(entry)
        if self.in_kingdoms:
            return self._apply_kingdom_deal(entry)
        return self._apply_extra_deal(entry)

    @property
    def redeals_in_a_row(self) -> int:
        """Redeals and misdeals at the end of the log: how often the next deal was dealt again."""
        count = 0
        for entry in reversed(self.log):
            if not isinstance(entry, RedealEntry):
                break
            count += 1
        return count

    def _apply_kingdom_deal(self, entry: DealEntry) -> Game:
        kingdom = self.kingdoms[-1]
        king = self._king_for(entry)
        contracts = check_contracts(self.rules, entry.contracts)
        self._check_announced(king, kingdom.remaining, contracts, "contracts")
        check_complex(self.rules, self.names, king, contracts, "contracts")
        deal = self._score(king, contracts, entry)
        kingdom = replace(kingdom, king=king, deals=(*kingdom.deals, deal))
        if kingdom.finished and self.zero_sum and sum(kingdom.totals) != 0:
            kingdom = replace(kingdom, zero_sum_ok=False)  # R11: a safety net, never expected
        kingdoms = (*self.kingdoms[:-1], kingdom)
        if kingdom.finished and len(kingdoms) < self.rules.kingdom_count:
            following = self._next_king(kingdoms)
            kingdoms = (*kingdoms, Kingdom(following, team=team_of(self.rules, following)))
        return replace(self, log=(*self.log, entry), kingdoms=kingdoms)

    def _apply_extra_deal(self, entry: DealEntry) -> Game:
        if entry.king is not None and entry.king != self.first_king:
            raise self._wrong_king(self.first_king, entry.king)
        contracts = check_contracts(self.rules, entry.contracts)
        deal = self._score(self.first_king, contracts, entry)
        return replace(self, log=(*self.log, entry), extra_deals=(*self.extra_deals, deal))

    def _apply_redeal(self, entry: RedealEntry) -> Game:
        check_redeal_shape(entry)
        check_redeals_in_a_row(self.redeals_in_a_row, self.deals_played + 1)
        king = self.current_king
        remaining = self.kingdoms[-1].remaining if self.in_kingdoms else ALL_CONTRACTS
        if entry.reason == "closed_suit":
            check_closed_suit(self.rules, entry)
            self._check_announced(king, remaining, (Contract.TRIX,), "contract")
        if entry.contract is not None:
            if entry.kind == "redeal":  # a misdeal can follow any announcement
                check_redeal_contract(self.names, king, entry.contract)
            self._check_announced(king, remaining, (entry.contract,), "contract")
            if entry.kind == "redeal" and self.in_kingdoms:  # no K♥ alone, so no K♥ claim
                check_complex(self.rules, self.names, king, (entry.contract,), "contract")
        log = (*self.log, entry)
        if not self.in_kingdoms:
            return replace(self, log=log, extra_redeals=(*self.extra_redeals, entry))
        kingdom = self.kingdoms[-1]
        kingdom = replace(kingdom, redeals=(*kingdom.redeals, entry))
        return replace(self, log=log, kingdoms=(*self.kingdoms[:-1], kingdom))

    def _score(self, king: int, contracts: tuple[Contract, ...], entry: DealEntry) -> DealRecord:
        scores = score_deal(self.rules, contracts, entry.captures, self.names)
        dealer = None if self.rules.dealer is Dealer.KING else self.current_dealer
        n = self.deals_played + 1
        return DealRecord(n, king, contracts, entry.captures, scores, dealer)

    # kings (R2)

    def _king_for(self, entry: DealEntry) -> int:
        """The king of this deal, resolving the 7♥ holder when a 7♥ kingdom starts."""
        king = self.kingdoms[-1].king
        starting = not self.kingdoms[-1].deals and len(self.kingdoms) > 1
        if entry.king is not None and not is_seat(entry.king):
            raise MalformedError.one(
                "bad_seat",
                rule="R1",
                field="king",
                value=repr(entry.king),
                variant="king",
            )
        if starting and self.rules.kingdom_order is KingdomOrder.SEVEN_OF_HEARTS:
            if entry.king is not None:
                return self._seven_of_hearts_king(entry.king)
            if king is None:
                raise self._king_needed()
        assert king is not None  # only a starting 7♥ kingdom has no king yet
        if entry.king is not None and entry.king != king:
            raise self._wrong_king(king, entry.king)
        return king

    def _former_kings(self) -> set[int]:
        return {k.king for k in self.kingdoms[:-1] if k.king is not None}

    def _seven_of_hearts_king(self, holder: int) -> int:
        """The 7♥ holder, or the next player on his right who has not been king (R2)."""
        former = self._former_kings()
        return next(s % 4 for s in range(holder, holder + 4) if s % 4 not in former)

    def _next_king(self, kingdoms: tuple[Kingdom, ...]) -> int | None:
        index = len(kingdoms)
        if self.rules.kingdom_order is KingdomOrder.CUSTOM and self.rules.king_order:
            return self.rules.king_order[index]
        if self.rules.kingdom_order is KingdomOrder.SEVEN_OF_HEARTS:
            eligible = {0, 1, 2, 3} - {k.king for k in kingdoms}
            return eligible.pop() if len(eligible) == 1 else None  # the last king is forced
        return (self.first_king + index) % 4

    # errors

    def _name(self, seat: int) -> str:
        return self.names[seat]

    def _check_announced(
        self,
        king: int | None,
        remaining: tuple[Contract, ...],
        contracts: tuple[Contract, ...],
        field: str,
    ) -> None:
        """Each contract once per kingdom, and the next one under a fixed order (R2)."""
        check_available(self.names, king, remaining, contracts, field)
        check_order(self.rules, self.names, king, self.next_in_order, contracts, field)

    def _king_needed(self) -> RulesError:
        return StateError.one(
            "seven_of_hearts_needed",
            rule="R2",
            field="king",
            kingdom=len(self.kingdoms),
        )

    def _wrong_king(self, king: int, given: int) -> RulesError:
        name, other = self._name(king), self._name(given)
        params = {"king": king, "given": given, "king_name": name, "given_name": other}
        if not self.in_kingdoms:
            params["variant"] = "extra"
        return StateError.one("not_the_king", rule="R2", field="king", **params)

    def _game_over(self) -> RulesError:
        winner = self.winner
        assert winner is not None  # only a decided game refuses entries
        winners = [self._name(s) for s in (self.winning_team or (winner,))]
        total = next(s.total for s in self.standings if s.seat == winner)
        return StateError.one(
            "game_over",
            rule="R12",
            field=None,
            winner=self.winner,
            total=total,
            winners=joined("and", winners),
            **({"variant": "team"} if len(winners) > 1 else {}),
        )
