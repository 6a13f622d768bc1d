"""Celery adapters over ledger services (acks_late and reject-on-lost are the project default).

Webhook deliveries go to their own queue (``settings.LEDGER_WEBHOOK_QUEUE``) so that a slow
operator endpoint holds up webhook workers only, never settlement on the main queue.
"""

from celery import shared_task
from django.conf import settings

from ledger.webhooks import (
    operator_event_deliver,
    operator_events_overdue,
    webhook_deliveries_waiting,
)


def delivery_enqueue(event_id: int, *, countdown: float | None = None) -> None:
    operator_event_deliver_task.apply_async(
        (event_id,), countdown=countdown, queue=settings.LEDGER_WEBHOOK_QUEUE
    )


@shared_task(name="ledger.operator_event_deliver")
def operator_event_deliver_task(event_id: int) -> str:
    outcome = operator_event_deliver(event_id=event_id)
    if outcome.retry_in is not None:
        delivery_enqueue(event_id, countdown=outcome.retry_in)
    for waiting in outcome.wake:
        delivery_enqueue(waiting)
    if outcome.wake_operator is not None:
        operator_id, cooloff = outcome.wake_operator
        webhook_circuit_wake_task.apply_async(
            (operator_id,), countdown=cooloff, queue=settings.LEDGER_WEBHOOK_QUEUE
        )
    return outcome.status


@shared_task(name="ledger.webhook_circuit_wake")
def webhook_circuit_wake_task(operator_id: int) -> int:
    """The cool-off of an operator's circuit is over: send what waited (the first is the
    half-open probe, the others wait for it)."""
    waiting = webhook_deliveries_waiting(operator_id=operator_id)
    for event_id in waiting:
        delivery_enqueue(event_id)
    return len(waiting)


@shared_task(name="ledger.operator_events_sweep")
def operator_events_sweep_task() -> int:
    """Re-enqueue deliveries whose message was lost between commit and broker."""
    overdue = operator_events_overdue()
    for event_id in overdue:
        delivery_enqueue(event_id)
    return len(overdue)
