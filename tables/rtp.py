"""Hook to the engine's game maths: the theoretical RTP of a rule set with a payout schedule.

``tables/engine/gamemath.py`` is being written by a colleague. The contract this hook expects
is ``gamemath.exact_rtp(rules: RuleSet, payouts: PayoutSchedule) -> float | Fraction`` (return
to player as a fraction of the stake, e.g. 0.9962). Until it exists the figure is stored empty
with the reason, and the pit sees "not computed".
"""

from __future__ import annotations

from decimal import Decimal

from tables.engine import PayoutSchedule, RuleSet


def rtp_compute(*, rules: RuleSet, payouts: PayoutSchedule) -> tuple[Decimal | None, str]:
    """(rtp, method): the exact figure from the game maths, or (None, why not)."""
    try:
        from tables.engine import gamemath
    except ImportError:
        return None, "not computed: tables.engine.gamemath is not available"
    exact_rtp = getattr(gamemath, "exact_rtp", None)
    if exact_rtp is None:
        return None, "not computed: tables.engine.gamemath has no exact_rtp()"
    value = exact_rtp(rules, payouts)
    return Decimal(float(value)).quantize(Decimal("0.000001")), "tables.engine.gamemath.exact_rtp"
