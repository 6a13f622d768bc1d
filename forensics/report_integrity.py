"""The integrity reports, from the audit log and the shoes: exceptions (voids, corrections,
suspensions, disputes, with the deciders' notes) and the shoe and shuffle log (each commitment
verified again)."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model
from django.db.models import Q

from audit.models import AuditEvent
from forensics.report_base import Period, Report
from tables import engine as eng
from tables.models import Shoe

# --- exceptions -------------------------------------------------------------------------------

EXCEPTION_EVENTS = {
    "tables.void_requested": "void requested",
    "tables.void_rejected": "void rejected",
    "tables.void_cancelled": "void cancelled",
    "tables.void_expired": "void expired",
    "tables.round_voided": "void",
    "ledger.correction_requested": "correction requested",
    "ledger.correction_approved": "correction approved",
    "ledger.correction_rejected": "correction rejected",
    "tables.round_suspended": "suspension",
    "tables.round_resumed": "resumed",
    "tables.late_bet_refused": "late bet refused",
    "audit.verification_failed": "audit verification failed",
    "dispute.opened": "dispute opened",
    "dispute.resolved_upheld": "dispute upheld",
    "dispute.resolved_rejected": "dispute rejected",
}


def _exception_category(event: AuditEvent) -> str:
    category = EXCEPTION_EVENTS[event.name]
    if event.name == "tables.round_suspended":
        reason = str(event.payload.get("reason", ""))
        if reason.startswith("impossible card"):
            return "impossible card"
        if reason.startswith("count mismatch"):
            return "card count mismatch"
    return category


def _exception_detail(event: AuditEvent) -> str:
    payload = event.payload
    for key in ("reason", "claim", "resolution"):
        if payload.get(key):
            return str(payload[key])[:300]
    if "problem" in payload:
        return str((payload.get("problem") or {}).get("detail", ""))[:300]
    return ""


_DECIDED = {
    "tables.round_voided": "approved",
    "tables.void_rejected": "rejected",
    "tables.void_cancelled": "cancelled",
}


def _exception_note(event: AuditEvent, deciders: dict[int, str]) -> str:
    """The decider's own words (a correction's or a void request's decision note, a
    resumption's note) and, for a void request, who decided it (the second pair of eyes)."""
    note = str(event.payload.get("note") or "")[:500]
    decider = event.payload.get("approved_by") or event.payload.get("decided_by")
    if decider is not None and event.name in _DECIDED:
        who = f"{_DECIDED[event.name]} by {deciders.get(decider, f'user {decider}')}"
        note = f"{who}: {note}" if note else who
    return note


def exceptions_report(*, period: Period, table_id: int | None = None) -> Report:
    """Voids, corrections, suspensions, impossible cards, late bets refused, failed
    verifications and disputes, from the audit log."""
    qs = AuditEvent.objects.filter(
        name__in=list(EXCEPTION_EVENTS), occurred_at__gte=period.start, occurred_at__lt=period.end
    )
    if table_id is not None:
        qs = qs.filter(table_id=table_id)
    events_ = list(qs.order_by("occurred_at", "id"))
    deciders = dict(
        get_user_model()
        .objects.filter(
            pk__in={e.payload.get("approved_by") or e.payload.get("decided_by") for e in events_}
            - {None}
        )
        .values_list("pk", "username")
    )
    rows = [
        {
            "occurred_at": e.occurred_at,
            "category": _exception_category(e),
            "event_id": e.pk,
            "name": e.name,
            "table_id": e.table_id,
            "round_id": e.round_id,
            "actor": e.actor_label,
            "detail": _exception_detail(e),
            "note": _exception_note(e, deciders),
        }
        for e in events_
    ]
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row["category"]] += 1
    return Report(
        kind="exceptions",
        title="Exceptions report",
        period=period,
        parameters={"table": table_id},
        columns=[
            ("occurred_at", "When (UTC)"),
            ("category", "Category"),
            ("event_id", "Event"),
            ("table_id", "Table"),
            ("round_id", "Round"),
            ("actor", "Who"),
            ("detail", "Detail"),
            ("note", "Decision note (approver's, rejecter's, resumer's)"),
        ],
        rows=rows,
        totals=[{"category": c, "count": counts[c]} for c in sorted(counts)],
        notes=["Every row is an audit event; its id opens it in the audit log."],
    )


# --- shoes and shuffles ----------------------------------------------------------------------


def _shuffle_status(shoe: Shoe, shuffle) -> tuple[str, bool]:
    """(status, flagged) of one shuffle's commitment."""
    if shoe.source == Shoe.Source.READER:
        if shuffle.commitment:
            return "device commitment recorded (order kept by the shuffler)", False
        return "reader shoe: no commitment", False
    if shuffle.revealed_at is None:
        return "sealed: revealed at retirement", False
    if eng.verify_commitment(shuffle.sealed_order, shuffle.salt, shuffle.commitment):
        return "verified", False
    return "COMMITMENT MISMATCH", True


def shoe_log_report(*, period: Period, table_id: int | None = None) -> Report:
    """Every shoe in use in the period and its shuffles, each commitment re-verified."""
    shoes = (
        Shoe.objects.filter(created_at__lt=period.end)
        .filter(Q(retired_at__isnull=True) | Q(retired_at__gte=period.start))
        .select_related("table")
        .prefetch_related("shuffles")
        .order_by("table__code", "id")
    )
    if table_id is not None:
        shoes = shoes.filter(table_id=table_id)
    rows = []
    for shoe in shoes:
        for shuffle in shoe.shuffles.all():
            status, flagged = _shuffle_status(shoe, shuffle)
            if shoe.verified is False and not flagged:
                status, flagged = f"{status}; recorded as NOT verified at retirement", True
            rows.append(
                {
                    "table": shoe.table.code,
                    "shoe_id": shoe.pk,
                    "source": shoe.source,
                    "decks": f"{shoe.decks} x {shoe.deck_kind}",
                    "shuffle": shuffle.number,
                    "method": shuffle.method,
                    "device_id": shuffle.device_id or shoe.device_id,
                    "commitment": shuffle.commitment,
                    "cards": shuffle.cards,
                    "created_at": shuffle.created_at,
                    "cards_dealt": shoe.cards_dealt,
                    "retired_at": shoe.retired_at,
                    "revealed_at": shuffle.revealed_at,
                    "verification": status,
                    "flagged": flagged,
                }
            )
    return Report(
        kind="shoe-log",
        title="Shoe and shuffle log",
        period=period,
        parameters={"table": table_id},
        columns=[
            ("table", "Table"),
            ("shoe_id", "Shoe"),
            ("source", "Source"),
            ("decks", "Decks"),
            ("shuffle", "Shuffle"),
            ("method", "Method"),
            ("device_id", "Device"),
            ("commitment", "Commitment (SHA-256)"),
            ("cards", "Cards"),
            ("created_at", "Shuffled (UTC)"),
            ("cards_dealt", "Dealt"),
            ("retired_at", "Retired"),
            ("verification", "Verification"),
        ],
        rows=rows,
        totals=[{"shuffles": len(rows), "flagged": sum(r["flagged"] for r in rows)}],
        notes=[
            "Server shoes: the order and salt revealed at retirement are hashed again "
            "here and compared with the commitment recorded before the first card."
        ],
    )
