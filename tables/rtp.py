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
import math
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


def _rtp(maths) -> Decimal:
    return Decimal(1 + float(maths.player_ev)).quantize(Decimal("0.000001"))


def rtp_game_maths(*, rules: RuleSet, payouts: PayoutSchedule) -> tuple[Decimal | None, str]:
    try:
        from tables.engine import gamemath
    except ImportError:
        return None, "not computed: the game maths extra is not installed (requirements-maths.txt)"
    maths = gamemath.game_maths(rules, payouts)
    return _rtp(maths), f"tables.engine.gamemath.game_maths: {maths.method}"[:200]


def rtp_by_stake_game_maths(*, rules: RuleSet, payouts: PayoutSchedule) -> dict:
    """The figure at every stake point of a schedule with fixed Super Bonus prizes (their
    value per unit stake, and so the strategy and the RTP, depend on the stake): rows of
    ``{"stake": minor units or None (below every tier), "rtp", "envy_per_other_box"}`` (the
    envy bonus, minor units, a player expects per round from each *other* box staked there),
    and from which stake in each tier the prize no longer changes play (and the method)."""
    from tables.engine import gamemath

    rows = []
    hit_up_to = {}
    points = gamemath.stake_points(payouts)
    for stake, maths in gamemath.game_maths_by_stake(rules, payouts, points).items():
        sb = maths.extras["super_bonus"]
        hit_up_to = sb["hit_7_7_up_to_stake"]
        rows.append(
            {
                "stake": stake,
                "rtp": str(_rtp(maths)),
                "envy_per_other_box": round(sb["envy_expected_per_other_box"], 4),
            }
        )
    return {
        "method": f"tables.engine.gamemath.game_maths: {maths.method}"[:200],
        "rows": rows,
        "prize_changes_play_up_to_stake": {k: math.floor(v) for k, v in hit_up_to.items()},
    }


def rtp_by_stake_precomputed(*, rules: RuleSet, payouts: PayoutSchedule) -> dict | None:
    """The shipped RTP-by-stake table of a preset's documents (None: not a preset, or no
    fixed prizes)."""
    known = _precomputed().get(documents_digest(rules, payouts))
    return None if known is None else known.get("by_stake")


def _money(minor: int | float) -> str:
    return f"{minor / 100:,.2f}"


def rtp_by_stake_text(by_stake: dict, payouts: PayoutSchedule) -> str:
    """One line for the console: the RTP at each stake point, where the prize stops mattering,
    and what the envy bonus gives the other players."""
    rows = by_stake["rows"]
    lowest = payouts.super_bonus_tiers[0][0]
    parts = [
        f"{'below ' + _money(lowest) if r['stake'] is None else _money(r['stake'])}: "
        f"{Decimal(r['rtp']) * 100:.4f} %"
        for r in rows
    ]
    up_to = ", ".join(
        f"{_money(stake)} in the {_money(int(lo))} tier"
        for lo, stake in by_stake["prize_changes_play_up_to_stake"].items()
    )
    envy = max(r["envy_per_other_box"] for r in rows)
    return (
        " · ".join(parts) + f". The prize changes play (7-7 against a "
        f"{payouts.super_bonus_dealer_rank} is hit) up to {up_to}, the RTP falling with the "
        f"stake to the no-prize figure there; at other stakes 7-7 is split, the prize cannot "
        f"occur and the RTP is the no-prize figure. Envy bonus: {_money(payouts.envy_bonus)} "
        f"to every other player per prize paid, about {envy / 100:.6f} per round from each "
        f"other box where the prize changes play, nothing from the others."
    )


def presets_compute() -> dict[str, dict]:
    """Every preset's figure from the game maths, as ``tables/rtp_presets.json`` holds them
    (with the table by stake where the schedule has fixed prizes)."""
    out = {}
    for name in PRESETS:
        rules, payouts = get_preset(name)
        if payouts.super_bonus_tiers:  # the no-prize row is the figure: computed once
            by_stake = rtp_by_stake_game_maths(rules=rules, payouts=payouts)
            rtp, method = Decimal(by_stake["rows"][0]["rtp"]), by_stake.pop("method")
            entry = {"preset": name, "rtp": str(rtp), "method": method, "by_stake": by_stake}
        else:
            rtp, method = rtp_game_maths(rules=rules, payouts=payouts)
            entry = {"preset": name, "rtp": str(rtp), "method": method}
        out[documents_digest(rules, payouts)] = entry
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["write"]:
        sys.exit("usage: python -m tables.rtp write  (recompute tables/rtp_presets.json)")
    PRECOMPUTED.write_text(json.dumps(presets_compute(), indent=2) + "\n")
