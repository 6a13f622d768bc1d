"""Celery adapters over ledger services (acks_late and reject-on-lost are the project default)."""

from celery import shared_task

from ledger.webhooks import operator_event_deliver, operator_events_overdue


@shared_task(name="ledger.operator_event_deliver")
def operator_event_deliver_task(event_id: int) -> str:
    outcome = operator_event_deliver(event_id=event_id)
    if outcome.retry_in is not None:
        operator_event_deliver_task.apply_async((event_id,), countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="ledger.operator_events_sweep")
def operator_events_sweep_task() -> int:
    """Re-enqueue deliveries whose message was lost between commit and broker."""
    overdue = operator_events_overdue()
    for event_id in overdue:
        operator_event_deliver_task.delay(event_id)
    return len(overdue)
