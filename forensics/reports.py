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

from collections.abc import Callable

from audit import events
from casino import replica
from casino.actors import Actor
from casino.errors import NotFound, ValidationFailed
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
    "REPORT_PARAMETERS",
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


# Each report's builder and the query parameters it applies, by their API names; a parameter
# a report does not apply is refused rather than ignored, so that a report never looks like
# the answer to a question it was not asked (and its audit.viewed event never claims it was).
_BUILDERS: dict[str, tuple[Callable[..., Report], tuple[str, ...]]] = {
    "table-shift": (table_shift_report, ("table", "shift", "grouping")),
    "dealer": (dealer_report, ("table", "shift")),
    "player-statement": (player_statement, ("player",)),
    "game-performance": (game_performance_report, ("table", "player")),
    "exceptions": (exceptions_report, ("table",)),
    "shoe-log": (shoe_log_report, ("table",)),
}
REPORT_PARAMETERS = {kind: takes for kind, (_, takes) in _BUILDERS.items()}
_ARGUMENTS = {"table": "table_id", "player": "player_id", "shift": "shift", "grouping": "grouping"}


def report_build(
    kind: str,
    *,
    period: Period,
    table_id: int | None = None,
    player_id: int | None = None,
    shift: str | None = None,
    grouping: str | None = None,
) -> Report:
    """Build report ``kind``; a parameter given (not None) that it does not apply is a 400
    naming it. The report's ``parameters`` are the ones it applied."""
    if kind not in _BUILDERS:
        raise NotFound(f"No report {kind!r}; reports: {', '.join(REPORTS)}.")
    builder, takes = _BUILDERS[kind]
    given = {"table": table_id, "player": player_id, "shift": shift, "grouping": grouping}
    given = {name: value for name, value in given.items() if value is not None}
    refused = [name for name in given if name not in takes]
    if refused:
        raise ValidationFailed(
            f"The {kind} report does not take {', '.join(refused)}; besides the period it "
            f"takes {', '.join(takes)}.",
            errors={name: [f"not a parameter of the {kind} report"] for name in refused},
        )
    return builder(period=period, **{_ARGUMENTS[name]: value for name, value in given.items()})


def report_generate(
    *,
    actor: Actor,
    kind: str,
    period: Period,
    table_id: int | None = None,
    player_id: int | None = None,
    shift: str | None = None,
    grouping: str | None = None,
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
            **report.parameters,
            "rows": len(report.rows),
            "generated_at": report.generated_at.isoformat(),
            "digest": report.digest,
        },
    )
    return report
