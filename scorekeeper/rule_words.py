"""The rule set in the reader's language: why a rule set is not zero-sum (R11).

The engine's :func:`~scorekeeper.rules.scoring.zero_sum_report` says it in
English; the game page and the printed sheet say it in the request's
language with the same numbers, from the same scoring functions.
"""

from __future__ import annotations

from scorekeeper.i18n import format_number
from scorekeeper.i18n import gettext as _
from scorekeeper.rules.contracts import Contract
from scorekeeper.rules.ruleset import RuleSet, SelfCapture
from scorekeeper.rules.scoring import expected_total, kingdom_total


def zero_sum_reasons(rules: RuleSet) -> list[str]:
    """Why a kingdom under ``rules`` does not add up to 0, one sentence each (R11)."""
    reasons: list[str] = []
    values = rules.values
    double = rules.doubled_self_capture is SelfCapture.DOUBLE
    if rules.doubling and double and (values.king or values.queen):
        reasons.append(
            _(
                "A doubled K♥ or queen taken by its own holder costs %(king)s / %(queen)s "
                "with no bonus to anyone, so such a deal does not add up to its usual total.",
                king=format_number(-2 * rules.sign * values.king),
                queen=format_number(-2 * rules.sign * values.queen),
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
