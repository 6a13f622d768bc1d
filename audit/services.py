from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import connection
from django.db.models import Model
from django.utils import timezone
from psycopg.pq import TransactionStatus

from audit.canonical import canonical_json, content_hash
from audit.models import AuditEvent
from casino.actors import Actor
from casino.rows import model_insert, model_insert_sql

REFERENCE_FIELDS = ("operator_id", "casino_id", "table_id", "round_id", "bet_id", "wallet_id")


class _Batch(list):
    """The events recorded in an ``audit_events_batched`` block, and the rows of other models
    to write by the same statement (``audit_batch_write``)."""

    def __init__(self) -> None:
        super().__init__()
        self.others: list[Model] = []


_batch: ContextVar[_Batch | None] = ContextVar("audit_batch", default=None)


def audit_event_content(event: AuditEvent) -> dict[str, Any]:
    """The hashed content of an event: everything but its id and the hash itself (see
    ``audit.canonical.content_hash`` for how, ``content_hash_matches`` to check one)."""
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
    attribution = actor.attribution()
    if attribution:  # on whose behalf, set off by what: hashed and sealed with the rest
        payload = {**(payload or {}), "attribution": attribution}
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
    event.content_hash = content_hash(audit_event_content(event))
    batch = _batch.get()
    if batch is None:
        event.save(force_insert=True)
    else:
        batch.append(event)
    return event


@contextmanager
def audit_events_batched() -> Iterator[None]:
    """Insert the events recorded inside the block with one statement as the block ends, in
    the caller's transaction (a bet's events cost one round trip, not one each). Until then
    they have no pk. A block that raises still writes what it recorded unless the transaction
    is already failed: a caller may catch the error and commit what was done before it."""
    if _batch.get() is not None:  # an outer block writes them
        yield
        return
    events = _Batch()
    token = _batch.set(events)
    try:
        yield
    finally:
        _batch.reset(token)
        written = (events or events.others) and not connection.needs_rollback
        if written and not _transaction_failed():
            if events:
                model_insert(*events, also=[model_insert_sql(o) for o in events.others])
            else:
                for other in events.others:
                    model_insert(other)


def audit_batch_write(obj: Model) -> None:
    """Insert ``obj`` (a new row of another model, of one of the few shapes a hot path writes)
    by the statement that writes the open ``audit_events_batched`` block's events, as the
    block ends: one round trip less. Its primary key is not read back."""
    batch = _batch.get()
    if batch is None:
        raise RuntimeError("audit_batch_write outside an audit_events_batched block")
    batch.others.append(obj)


def _transaction_failed() -> bool:
    raw = connection.connection
    return raw is not None and raw.info.transaction_status == TransactionStatus.INERROR


def _json_roundtrip(value: dict[str, Any]) -> dict[str, Any]:
    return json.loads(canonical_json(value))
