"""The operator-event outbox: events are rows written in the money movement's transaction.

Delivery starts when that transaction commits (``on_commit`` enqueues the webhook task); an
event whose message was lost between commit and broker is found by the periodic sweep
(``ledger.tasks.operator_events_sweep_task``). The feed (``/api/v1/operator-events/``) reads
the same rows, so polling and webhooks always agree.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ledger.models import Operator, OperatorEvent

ROUND_SETTLED = "round.settled"
STAKE_REFUNDED = "stake.refunded"
TRANSACTION_CORRECTED = "transaction.corrected"
WALLET_DEPOSIT = "wallet.deposit"
WALLET_WITHDRAWAL = "wallet.withdrawal"
# The types an endpoint may subscribe to (the webhook.circuit_* events are feed-only).
EVENT_TYPES = (ROUND_SETTLED, STAKE_REFUNDED, TRANSACTION_CORRECTED, WALLET_DEPOSIT,
               WALLET_WITHDRAWAL)  # fmt: skip


def _initial_delivery(operator: Operator, kind: str) -> str:
    if not operator.webhook_url:
        return OperatorEvent.Delivery.NOT_CONFIGURED
    if operator.webhook_event_types and kind not in operator.webhook_event_types:
        return OperatorEvent.Delivery.NOT_SUBSCRIBED
    return OperatorEvent.Delivery.PENDING


def deliveries_enqueue_on_commit(event_ids: list[int]) -> None:
    if not event_ids:
        return
    from ledger.tasks import delivery_enqueue

    def enqueue():
        for event_id in event_ids:
            delivery_enqueue(event_id)

    transaction.on_commit(enqueue)


def operator_event_emit(
    *, operator_id: int, kind: str, payload: dict, transaction_id: int | None = None
) -> OperatorEvent:
    """Add one event to the outbox, inside the caller's transaction."""
    operator = Operator.objects.only("webhook_url", "webhook_event_types").get(pk=operator_id)
    event = OperatorEvent.objects.create(
        operator_id=operator_id,
        kind=kind,
        payload=payload,
        transaction_id=transaction_id,
        delivery=_initial_delivery(operator, kind),
        next_attempt_at=timezone.now(),
    )
    if event.delivery == OperatorEvent.Delivery.PENDING:
        deliveries_enqueue_on_commit([event.pk])
    return event
