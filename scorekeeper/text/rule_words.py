"""The rule set in the reader's language: its house rules (R9), and why it is not zero-sum (R11).

The engine's :func:`~scorekeeper.rules.scoring.zero_sum_report` says the
latter in English; the game page and the printed sheet say both in the
request's language, with the same numbers from the same scoring functions.
Outside a request, everything is English.

>>> describe_rules(RuleSet(values=Values(diamond=15, trick=10)))
['Diamond 15, trick 10 (R9.7).']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import Dealer, RuleSet, SelfCapture, Values
from scorekeeper.rules.scoring import expected_total, kingdom_total
from scorekeeper.text.locale import format_number, isolate_name
from scorekeeper.text.locale import gettext as _
from scorekeeper.text.messages import N_, contract_label

SENTENCES: dict[tuple[str, object], str] = {
    ("doubling", False): N_("No doubling of the K♥ and queens (R3, R4)."),
    ("heart_lead", "only_hearts"): N_("No heart lead unless the leader holds only hearts (R3)."),
    ("heart_lead", "broken"): N_(
        "No heart lead until a heart has been discarded on another suit, "
        "unless the leader holds only hearts (R3)."
    ),
    ("first_lead", "right_of_king"): N_(
        "The player on the king's right leads the first trick (R10)."
    ),
    ("trix_first", "right_of_king"): N_("The player on the king's right plays first in Trix (R7)."),
    ("penalty_discard", True): N_(
        "Penalty discard: a player who cannot follow suit must discard the K♥, "
        "a diamond or a queen if that hand holds one (R9.4)."
    ),
    ("partnership", True): N_("Partnership: seats 1+3 against 2+4 (R9.5)."),
    ("combination", "all_four"): N_("Trex Complex: all four trick contracts in one deal (R9.6)."),
    ("combination", "any"): N_("Trex Complex: two or more trick contracts in one deal (R9.6)."),
    ("inverted", True): N_(
        "Inverted signs: every score is negated and the lowest total wins (R9.8)."
    ),
    ("kingdom_order", "seven_of_hearts"): N_(
        "Whoever is dealt the 7♥ on a kingdom's first deal is its king, or the nearest player "
        "to the right who has not been king (R2)."
    ),
    ("kingdoms", 1): N_("Short game: one kingdom of five deals (R2, R9.9)."),
    ("revoke", "whole"): N_(
        "Revoke: the deal is scored as if the offender had taken all 13 tricks; a doubling "
        "bonus still goes to the card's holder (R10)."
    ),
    ("trix_revoke", "last"): N_(
        "A Trix player who passes holding a legal play finishes last (R10)."
    ),
    ("tiebreak", "extra_deal"): N_("A tie for first is decided at once by an extra deal (R12)."),
    ("redeal_long_hearts", True): N_(
        "In King of Hearts, a hand of five or more hearts with the K♥ may also ask "
        "for a redeal (R8)."
    ),
    ("trix_closed_suit", "replay"): N_(
        "Closed suit replays: a Trix deal in which a suit is closed before every Jack is laid "
        "is void and dealt again, and Trix is not used up (R7)."
    ),
    ("team_kingdoms", True): N_(
        "Team kingdoms: partners share a kingdom, and the kingdoms alternate between the "
        "teams; two kingdoms of five deals, or four when played twice round (R9.5)."
    ),
    ("rounds", 2): N_("Twice round: four team kingdoms, 20 deals (R9.5)."),
}
"""One sentence per house rule value that differs from the default (API.md field values)."""

VALUE_WORDS = {
    # Translators: a changed point value in a list such as "K♥ 100, queen 30 (R9.7)."
    "king": N_("K♥ %(value)s"),
    "queen": N_("queen %(value)s"),
    "diamond": N_("diamond %(value)s"),
    "trick": N_("trick %(value)s"),
}
"""A changed point value, within the list of changed values (R9.7)."""


def _self_capture_sentence(rules: RuleSet) -> list[str]:
    capture = rules.doubled_self_capture
    if not rules.doubling or capture is SelfCapture.SINGLE:
        return []  # without doubling, the self-capture rule never applies
    times = -capture.multiplier * rules.sign
    king, queen = (format_number(times * v) for v in (rules.values.king, rules.values.queen))
    if capture is SelfCapture.QUADRUPLE:
        sentence = _(
            "A doubled K♥ or queen taken by its own holder costs four times its value "
            "(%(king)s / %(queen)s) (R3, R4).",
            king=king,
            queen=queen,
        )
    else:
        sentence = _(
            "A doubled K♥ or queen taken by its own holder costs double (%(king)s / %(queen)s) "
            "(R3, R4).",
            king=king,
            queen=queen,
        )
    return [sentence]


def contract_list(contracts: Iterable[Contract]) -> str:
    """Contracts listed in their order: ``Trix, Queens, King of Hearts, …``."""
    return _(", ").join(contract_label(c) for c in contracts)


def _contract_order_sentence(rules: RuleSet) -> str:
    return _(
        "Fixed contract order: every king plays %(contracts)s, in that order (R2).",
        contracts=contract_list(rules.contract_order or ()),
    )


def _dealer_sentence(rules: RuleSet, names: Sequence[str] | None) -> str:
    """Who deals (R2); the first lead and first Trix turn then count from the dealer."""
    seat = rules.first_dealer or 0
    name = (
        isolate_name(names[seat])
        if names
        else _("Player %(number)s", number=format_number(seat + 1))
    )
    if rules.dealer is Dealer.ROTATES:
        return _(
            "%(name)s deals first, then the deal passes to the right every deal; the first lead "
            "and the first turn in Trix count from the dealer (R2).",
            name=name,
        )
    return _(
        "%(name)s deals the first deal, then the king deals; the first lead and the first turn "
        "in Trix count from the dealer (R2).",
        name=name,
    )


def _values_sentences(values: Values) -> list[str]:
    """Changed point values (R9.7); the inverted Trix tail gets its own sentence (R7)."""
    default, out = Values(), []
    parts = [
        _(word, value=format_number(getattr(values, k)))
        for k, word in VALUE_WORDS.items()
        if getattr(values, k) != getattr(default, k)
    ]
    if values.trix[:3] == default.trix[:3] and values.trix[3] == -default.trix[3]:
        tail = format_number(values.trix[3])
        out.append(_("Inverted Trix tail: the last player out scores %(score)s (R7).", score=tail))
    elif values.trix != default.trix:
        trix = "/".join(format_number(v) for v in values.trix)
        parts.append(_("Trix %(values)s", values=trix))
    if parts:
        # Translators: the list of changed point values: "Diamond 15, trick 10 (R9.7)."
        sentence = _("%(values)s (R9.7).", values=_(", ").join(parts))
        out.insert(0, sentence[:1].upper() + sentence[1:])
    return out


def describe_rules(rules: RuleSet, names: Sequence[str] | None = None) -> list[str]:
    """Every house rule that differs from the default, one plain sentence each.

    ``names`` are the players', for the rules that name a seat (the first dealer).

    >>> describe_rules(RuleSet())
    ['Standard rules.']
    """
    out: list[str] = []
    for key, value in rules.differences().items():
        if key == "doubled_self_capture":
            out += _self_capture_sentence(rules)
        elif key == "values":
            out += _values_sentences(rules.values)
        elif key == "king_order":
            seats = _(", ").join(format_number(s + 1) for s in value or ())  # seats 1–4 for people
            out.append(_("Kings in an agreed order: seats %(seats)s (R2).", seats=seats))
        elif key == "contract_order":
            out.append(_contract_order_sentence(rules))
        elif key == "dealer":
            out.append(_dealer_sentence(rules, names))
        elif (key, value) in (("kingdom_order", "custom"), ("first_dealer", value)):
            continue  # said with king_order, and with dealer
        elif (key, value) in SENTENCES:
            out.append(_(SENTENCES[key, value]))
        else:
            out.append(_("House rule “%(name)s”: %(value)s (R9).", name=key, value=value))
    return out or [_("Standard rules.")]


def zero_sum_reasons(rules: RuleSet) -> list[str]:
    """Why a kingdom under ``rules`` does not add up to 0, one sentence each (R11)."""
    reasons: list[str] = []
    values = rules.values
    times = rules.doubled_self_capture.multiplier
    if rules.doubling and times > 1 and (values.king or values.queen):
        reasons.append(
            _(
                "A doubled K♥ or queen taken by its own holder costs %(king)s / %(queen)s "
                "with no bonus to anyone, so such a deal does not add up to its usual total.",
                king=format_number(-times * rules.sign * values.king),
                queen=format_number(-times * rules.sign * values.queen),
            )
        )
    total = kingdom_total(rules)
    if total != 0:
        trix = expected_total(rules, [Contract.TRIX])
        reasons.append(
            _(
                "The Trix awards total %(trix)s while the penalties total %(penalties)s, "
                "so a kingdom adds up to %(total)s, not 0.",
                trix=format_number(trix),
                penalties=format_number(total - trix),
                total=format_number(total),
            )
        )
    return reasons
