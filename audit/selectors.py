from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from audit import events
from audit.models import AuditEvent, AuditSeal


def audit_event_list() -> QuerySet[AuditEvent]:
    return AuditEvent.objects.all()


def audit_event_seal(event: AuditEvent) -> AuditSeal | None:
    """The seal whose range holds ``event``'s place in the chain, if it is sealed yet."""
    return (
        AuditSeal.objects.defer("event_ids", "event_digests")
        .filter(Q(last_txid__gt=event.txid) | Q(last_txid=event.txid, last_event_id__gte=event.pk))
        .order_by("seq")
        .first()
    )


def audit_verification_latest() -> dict[str, Any] | None:
    """The outcome of the last recorded verification (task or ``audit_verify --record``)."""
    event = (
        AuditEvent.objects.filter(name__in=[events.VERIFIED, events.VERIFICATION_FAILED])
        .order_by("-id")
        .first()
    )
    if event is None:
        return None
    return {"event_id": event.pk, "recorded_at": event.occurred_at, **event.payload}


def audit_events_pending(after: list[int] | None) -> int:
    """Events not sealed yet: after the head's last (txid, id)."""
    queryset = AuditEvent.objects.all()
    if after:
        txid, event_id = after
        queryset = queryset.filter(Q(txid__gt=txid) | Q(txid=txid, id__gt=event_id))
    return queryset.count()
