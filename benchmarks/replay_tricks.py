"""Throughput of the trick replay (R10): deals replayed per second on one core.

Run: ``python benchmarks/replay_tricks.py [deals] [runs]``. Generates random
legal deals with a fixed seed (every trick contract, all heart-lead and
penalty-discard options), then times, best of several runs:

* the int fast path ``replay_indices`` on pre-parsed card indices and hand bit sets;
* the same with the hands derived from the record (hands omitted);
* the public ``replay_tricks`` from Card lists (hands given, and hands omitted).

The target is at least 25,000 deals per second for the fast path.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from benchmarks.timing import best_seconds  # noqa: E402
from scorekeeper.rules.cards import ALL_CARDS, Card, cards_of
from scorekeeper.rules.contracts import TRICK_CONTRACTS, Contract
from scorekeeper.rules.deals import random_deal
from scorekeeper.rules.ruleset import HeartLead, RuleSet
from scorekeeper.rules.tricks import replay_indices, replay_tricks

Setup = tuple[RuleSet, tuple[Contract, ...], int]
IntDeal = tuple[Setup, list[int], list[list[int]]]
CardDeal = tuple[Setup, list[list[Card]], list[list[Card]]]


def make_deals(count: int, seed: int = 2024) -> list[IntDeal]:
    """``count`` random legal deals cycling through contracts and house rules."""
    rng = random.Random(seed)
    deals: list[IntDeal] = []
    for n in range(count):
        contract = TRICK_CONTRACTS[n % 4]
        rules = RuleSet(heart_lead=list(HeartLead)[n % 3], penalty_discard=n % 2 == 0)
        king = n % 4
        hands, tricks = random_deal(rng, rules, [contract], king)
        deals.append(((rules, (contract,), king), hands, tricks))
    return deals


def as_cards(deals: list[IntDeal]) -> list[CardDeal]:
    out: list[CardDeal] = []
    for setup, hands, tricks in deals:
        card_hands = [cards_of(h) for h in hands]
        card_tricks = [[ALL_CARDS[i] for i in trick] for trick in tricks]
        out.append((setup, card_hands, card_tricks))
    return out


def best_rate(run: Callable[[], None], count: int, runs: int) -> float:
    """Deals per second of the fastest of ``runs`` timings."""
    return count / best_seconds(run, runs)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    deals = make_deals(count)
    card_deals = as_cards(deals)

    def fast() -> None:
        for (rules, contracts, king), hands, tricks in deals:
            replay_indices(rules, contracts, king, tricks, hands)

    def fast_derived() -> None:
        for (rules, contracts, king), _, tricks in deals:
            replay_indices(rules, contracts, king, tricks, None)

    def public() -> None:
        for (rules, contracts, king), hands, tricks in card_deals:
            replay_tricks(rules, contracts, king, tricks, hands)

    def public_derived() -> None:
        for (rules, contracts, king), _, tricks in card_deals:
            replay_tricks(rules, contracts, king, tricks)

    print(f"{count} random legal deals (seed 2024), best of {runs} runs, one core")
    for label, run in [
        ("replay_indices, hands given (fast path)", fast),
        ("replay_indices, hands derived", fast_derived),
        ("replay_tricks from Card lists, hands given", public),
        ("replay_tricks from Card lists, hands omitted", public_derived),
    ]:
        print(f"  {label:<46} {best_rate(run, count, runs):>10,.0f} deals/s")


if __name__ == "__main__":
    main()
