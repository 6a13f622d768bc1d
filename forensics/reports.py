"""The reports of the pit, the auditors and the regulator, as plain data.

Each builder returns a ``Report``: its period (UTC days, both inclusive), generation time and
software version, columns, rows, totals and notes; ``forensics/exports.py`` renders it as CSV or
PDF, the admin as HTML, the API as JSON. Money figures come from the ledger's legs (through
``ledger.selectors.table_accounting`` or read-only SQL over the ledger tables), so every
report reconciles with the ledger; counts of rounds, voids and exceptions come from the rounds
and the audit log. ``report_generate`` is the one entry point: it records who read which
report (``audit.viewed``), as GLI-19 asks for reads.

The report value and its digest are in ``report_base``; the builders by what they read:
``report_money`` (the ledger), ``report_games`` (RTP), ``report_integrity`` (the audit log and
the shoes).
"""

from __future__ import annotations

from audit import events
from casino import replica
from casino.actors import Actor
from casino.errors import NotFound
from forensics.report_base import (
    DEFAULT_DAYS,
    LABELS,
    MONEY_KEYS,
    Period,
    Report,
    report_data,
    report_seal,
)
from forensics.report_games import game_performance_report, rtp_band
from forensics.report_integrity import EXCEPTION_EVENTS, exceptions_report, shoe_log_report
from forensics.report_money import GROUPINGS, dealer_report, player_statement, table_shift_report

__all__ = [
    "DEFAULT_DAYS",
    "EXCEPTION_EVENTS",
    "GROUPINGS",
    "LABELS",
    "MONEY_KEYS",
    "REPORTS",
    "Period",
    "Report",
    "dealer_report",
    "exceptions_report",
    "game_performance_report",
    "player_statement",
    "report_build",
    "report_data",
    "report_generate",
    "report_seal",
    "rtp_band",
    "shoe_log_report",
    "table_shift_report",
]

# --- the entry point -----------------------------------------------------------------------

REPORTS = {
    "table-shift": "Table and shift report",
    "dealer": "Dealer report",
    "player-statement": "Player statement",
    "game-performance": "Game performance (RTP)",
    "exceptions": "Exceptions report",
    "shoe-log": "Shoe and shuffle log",
}


def report_build(
    kind: str,
    *,
    period: Period,
    table_id: int | None = None,
    player_id: int | None = None,
    shift: str | None = None,
    grouping: str = "shift",
) -> Report:
    if kind == "table-shift":
        return table_shift_report(period=period, table_id=table_id, shift=shift, grouping=grouping)
    if kind == "dealer":
        return dealer_report(period=period, table_id=table_id, shift=shift)
    if kind == "player-statement":
        return player_statement(period=period, player_id=player_id)
    if kind == "game-performance":
        return game_performance_report(period=period)
    if kind == "exceptions":
        return exceptions_report(period=period, table_id=table_id)
    if kind == "shoe-log":
        return shoe_log_report(period=period, table_id=table_id)
    raise NotFound(f"No report {kind!r}; reports: {', '.join(REPORTS)}.")


def report_generate(
    *,
    actor: Actor,
    kind: str,
    period: Period,
    table_id: int | None = None,
    player_id: int | None = None,
    shift: str | None = None,
    grouping: str = "shift",
    rendering: str = "json",
) -> Report:
    """Build a report and record who read it, in which form (``audit.viewed``)."""
    with replica.reads():
        report = report_build(
            kind,
            period=period,
            table_id=table_id,
            player_id=player_id,
            shift=shift,
            grouping=grouping,
        )
    report.generated_by = actor.label
    report_seal(report)
    events.viewed(
        actor=actor,
        what=f"report.{kind}",
        detail={
            "format": rendering,
            "date_from": period.date_from.isoformat(),
            "date_to": period.date_to.isoformat(),
            "table": table_id,
            "player": player_id,
            "shift": shift,
            "grouping": grouping,
            "rows": len(report.rows),
            "generated_at": report.generated_at.isoformat(),
            "digest": report.digest,
        },
    )
    return report
