"""Game performance: actual RTP per game (rule-set and payout-schedule versions) against the
theoretical one, with the 95 % band from the per-bet outcome variance."""

from __future__ import annotations

import math

from forensics.report_base import Period, Report, fetch_rows
from tables import engine as eng
from tables.models import PayoutScheduleVersion, RuleSetVersion
from tables.services import rtp_figures_ensure

Z95 = 1.959963984540054

# --- game performance ------------------------------------------------------------------------

_PER_GAME_SQL = """
    WITH per_bet AS (
        SELECT b.id, r.id AS round_id, r.rule_set_id, r.payout_schedule_id, r.currency, b.stake,
               -coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('stake', 'stake_refund')), 0)
                   AS staked,
               coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('payout', 'bonus')), 0)
                   AS returned
        FROM tables_bet b
        JOIN tables_round r ON r.id = b.round_id
        JOIN ledger_leg l ON l.bet_ref = b.ref AND l.bet_ref <> ''
        JOIN ledger_account a ON a.id = l.account_id AND a.kind = 'wallet'
        WHERE r.phase = 'settled' AND r.finished_at >= %(start)s AND r.finished_at < %(end)s
          AND (%(table)s::bigint IS NULL OR r.table_id = %(table)s)
          AND (%(player)s::bigint IS NULL OR b.player_id = %(player)s)
        GROUP BY b.id, r.id
    ), unit AS (
        -- x: the initial stake (the unit the game maths' RTP is per; a traditional bet's
        -- stake comes after the first card); y: x plus the bet's net result.
        SELECT rule_set_id, payout_schedule_id, currency, round_id, staked, returned,
               (CASE WHEN stake > 0 THEN stake ELSE staked END)::numeric AS x,
               ((CASE WHEN stake > 0 THEN stake ELSE staked END) + returned - staked)::numeric
                   AS y
        FROM per_bet WHERE staked > 0
    )
    SELECT rule_set_id, payout_schedule_id, currency, count(*), count(DISTINCT round_id),
           sum(staked), sum(returned), sum(x), sum(y), sum(x * x), sum(y * y), sum(x * y)
    FROM unit
    GROUP BY rule_set_id, payout_schedule_id, currency
    ORDER BY rule_set_id, payout_schedule_id, currency
"""


def rtp_band(n: int, sx, sy, sxx, syy, sxy) -> tuple[float, float | None]:
    """The ratio estimate R = Σy / Σx and the half-width of its 95 % confidence band.

    Per-bet outcomes y_i against stakes x_i: the residuals e_i = y_i - R x_i have the sample
    variance s² = (Σy² - 2RΣxy + R²Σx²) / (n - 1), and the standard error of R is
    sqrt(n s²) / Σx (the delta method for a ratio of sums). None below two bets.
    """
    sx, sy, sxx, syy, sxy = (float(v) for v in (sx, sy, sxx, syy, sxy))
    ratio = sy / sx if sx else 0.0
    if n < 2 or not sx:
        return ratio, None
    s2 = max(syy - 2 * ratio * sxy + ratio * ratio * sxx, 0.0) / (n - 1)
    return ratio, Z95 * math.sqrt(n * s2) / sx


def game_performance_report(
    *, period: Period, table_id: int | None = None, player_id: int | None = None
) -> Report:
    """Actual against theoretical RTP per game (rule set + payout schedule), with a 95 % band
    from the per-bet outcome variance; games whose theoretical RTP lies outside it flagged.
    Only one table's rounds, or one player's bets, when given."""
    rows = []
    games = fetch_rows(
        _PER_GAME_SQL,
        {"start": period.start, "end": period.end, "table": table_id, "player": player_id},
    )
    # Every pair in use gets its figure: stored now for the presets, queued for the others.
    figures = rtp_figures_ensure(pairs={(g[0], g[1]) for g in games})
    rule_sets = {r.pk: r for r in RuleSetVersion.objects.all()}
    schedules = {p.pk: p for p in PayoutScheduleVersion.objects.all()}
    for rs, ps, cur, n, rounds, staked, returned, sx, sy, sxx, syy, sxy in games:
        actual, half = rtp_band(n, sx, sy, sxx, syy, sxy)
        figure = figures.get((rs, ps))
        theo = figure.rtp if figure is not None else None
        low = high = None
        if half is not None:
            low, high = actual - half, actual + half
        if theo is None:
            flag = f"theoretical RTP not available: {figure.method if figure else 'no figure'}"
        elif half is None:
            flag = "too few bets"
        else:
            flag = "OUTSIDE 95% BAND" if not low <= float(theo) <= high else ""
        rows.append(
            {
                "game": f"{rule_sets[rs]} / {schedules[ps]}",
                "variant": eng.RuleSet.from_json(rule_sets[rs].document).name,
                "currency": cur,
                "rounds": rounds,
                "bets": n,
                "handle": int(staked),
                "returned": int(returned),
                "actual_rtp_pct": round(actual * 100, 3),
                "theoretical_rtp_pct": None if theo is None else round(float(theo) * 100, 3),
                "band_low_pct": None if low is None else round(low * 100, 3),
                "band_high_pct": None if high is None else round(high * 100, 3),
                "flag": flag,
            }
        )
    return Report(
        kind="game-performance",
        title="Game performance: actual vs theoretical RTP",
        period=period,
        parameters={"table": table_id, "player": player_id},
        columns=[
            ("game", "Game"),
            ("variant", "Rules"),
            ("currency", "Currency"),
            ("rounds", "Rounds"),
            ("bets", "Bets"),
            ("handle", "Handle"),
            ("returned", "Returned"),
            ("actual_rtp_pct", "Actual RTP %"),
            ("theoretical_rtp_pct", "Theoretical RTP %"),
            ("band_low_pct", "95% low"),
            ("band_high_pct", "95% high"),
            ("flag", "Flag"),
        ],
        rows=rows,
        totals=[
            {
                "currency": cur,
                "handle": sum(r["handle"] for r in rows if r["currency"] == cur),
                "returned": sum(r["returned"] for r in rows if r["currency"] == cur),
            }
            for cur in sorted({r["currency"] for r in rows})
        ],
        chart=[
            {
                k: r[k]
                for k in (
                    "game",
                    "currency",
                    "actual_rtp_pct",
                    "theoretical_rtp_pct",
                    "band_low_pct",
                    "band_high_pct",
                    "flag",
                )
            }
            for r in rows
        ],
        notes=[
            "Settled rounds finished in the period; voided rounds are left out. Handle and "
            "returned (payouts + bonuses) are the bets' wallet legs, corrections included.",
            "Actual RTP = (initial stakes + net result) / initial stakes, the unit of the game "
            "maths' theoretical RTP (1 + player EV per initial stake, tables.RtpFigure).",
            "95% band: actual ± 1.96 standard errors of the ratio, from the per-bet outcome "
            "variance; a game whose theoretical RTP lies outside its band is flagged for "
            "investigation.",
        ],
    )
