"""Hook to the engine's game maths: the theoretical RTP of a rule set with a payout schedule.

``tables/engine/gamemath.py`` (a colleague's) computes ``game_maths(rules, payouts)`` with
``player_ev`` per unit stake, so RTP = 1 + player_ev. It takes seconds (up to ~30 s a preset),
so it runs in a Celery task (``tables.rtp_compute``), never in a request; the pit sees
"pending" until the figure is stored.
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
    maths = gamemath.game_maths(rules, payouts)
    rtp = Decimal(1 + float(maths.player_ev)).quantize(Decimal("0.000001"))
    return rtp, f"tables.engine.gamemath.game_maths: {maths.method}"[:200]
