"""Hook to the engine's game maths: the theoretical RTP of a rule set with a payout schedule.

``tables/engine/gamemath.py`` (a colleague's) computes ``game_maths(rules, payouts)`` with
``player_ev`` per unit stake, so RTP = 1 + player_ev. It takes seconds (up to ~30 s a preset),
so it runs in a Celery task (``tables.rtp_compute``), never in a request; the pit sees
"pending" until the figure is stored.

The game maths needs numba and numpy, an optional extra (``requirements-maths.txt``) that
``make demo`` does not install. The presets' figures are shipped precomputed in
``tables/rtp_presets.json``, keyed by a digest of the two documents, so the demo's tables show
theirs without it; ``tests/tables/test_rtp_presets.py`` recomputes them and compares, and
``python -m tables.rtp write`` rewrites the file.
"""

from __future__ import annotations

import hashlib
import json
import sys
from decimal import Decimal
from functools import cache
from pathlib import Path

from tables.engine import PRESETS, PayoutSchedule, RuleSet, get_preset

PRECOMPUTED = Path(__file__).with_name("rtp_presets.json")


def documents_digest(rules: RuleSet, payouts: PayoutSchedule) -> str:
    canonical = json.dumps([rules.to_json(), payouts.to_json()], sort_keys=True, separators=",:")
    return hashlib.sha256(canonical.encode()).hexdigest()


@cache
def _precomputed() -> dict[str, dict]:
    return json.loads(PRECOMPUTED.read_text())


def rtp_precomputed(*, rules: RuleSet, payouts: PayoutSchedule) -> tuple[Decimal, str] | None:
    """The shipped figure of a preset's documents (instant), or None."""
    known = _precomputed().get(documents_digest(rules, payouts))
    if known is None:
        return None
    return Decimal(known["rtp"]), f"precomputed ({PRECOMPUTED.name}): {known['method']}"[:200]


def rtp_compute(*, rules: RuleSet, payouts: PayoutSchedule) -> tuple[Decimal | None, str]:
    """(rtp, method): the shipped figure of a preset's documents, else the exact figure from
    the game maths, or (None, why not)."""
    known = rtp_precomputed(rules=rules, payouts=payouts)
    if known is not None:
        return known
    return rtp_game_maths(rules=rules, payouts=payouts)


def rtp_game_maths(*, rules: RuleSet, payouts: PayoutSchedule) -> tuple[Decimal | None, str]:
    try:
        from tables.engine import gamemath
    except ImportError:
        return None, "not computed: the game maths extra is not installed (requirements-maths.txt)"
    maths = gamemath.game_maths(rules, payouts)
    rtp = Decimal(1 + float(maths.player_ev)).quantize(Decimal("0.000001"))
    return rtp, f"tables.engine.gamemath.game_maths: {maths.method}"[:200]


def presets_compute() -> dict[str, dict]:
    """Every preset's figure from the game maths, as ``tables/rtp_presets.json`` holds them."""
    out = {}
    for name in PRESETS:
        rules, payouts = get_preset(name)
        rtp, method = rtp_game_maths(rules=rules, payouts=payouts)
        out[documents_digest(rules, payouts)] = {"preset": name, "rtp": str(rtp), "method": method}
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["write"]:
        sys.exit("usage: python -m tables.rtp write  (recompute tables/rtp_presets.json)")
    PRECOMPUTED.write_text(json.dumps(presets_compute(), indent=2) + "\n")
