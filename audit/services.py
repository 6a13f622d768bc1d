from __future__ import annotations

import json
from typing import Any

from django.utils import timezone

from audit.canonical import canonical_json, sha256_hex
from audit.models import AuditEvent
from casino.actors import Actor

REFERENCE_FIELDS = ("operator_id", "casino_id", "table_id", "round_id", "bet_id", "wallet_id")


def audit_event_content(event: AuditEvent) -> dict[str, Any]:
    """The hashed content of an event: everything but its id and the hash itself."""
    content = {
        "occurred_at": event.occurred_at.isoformat(),
        "name": event.name,
        "actor": [event.actor_kind, event.actor_id, event.actor_label],
        "request_id": event.request_id,
        "payload": event.payload,
    }
    content.update({field: getattr(event, field) for field in REFERENCE_FIELDS})
    return content


def audit_event_record(
    *, name: str, actor: Actor, payload: dict[str, Any] | None = None, **references: int | None
) -> AuditEvent:
    """Append one event. Call inside the transaction that makes the change it records."""
    unknown = set(references) - set(REFERENCE_FIELDS)
    if unknown:
        raise TypeError(f"unknown audit references: {sorted(unknown)}")
    event = AuditEvent(
        occurred_at=timezone.now(),
        name=name,
        actor_kind=actor.kind,
        actor_id=actor.id or "",
        actor_label=actor.label,
        request_id=actor.request_id,
        # Round-trip through canonical JSON so the stored payload is exactly what was hashed.
        payload=_json_roundtrip(payload or {}),
        **references,
    )
    event.content_hash = sha256_hex(canonical_json(audit_event_content(event)))
    event.save(force_insert=True)
    return event


def _json_roundtrip(value: dict[str, Any]) -> dict[str, Any]:
    return json.loads(canonical_json(value))
