"""Audit events of the ledger: one function per event type, called in the posting transaction."""

from __future__ import annotations

from audit.services import audit_event_record
from casino.actors import Actor
from ledger.models import Account, Correction, Operator, OperatorEvent, Player, Transaction


def player_created(*, actor: Actor, player: Player) -> None:
    audit_event_record(
        name="ledger.player_created",
        actor=actor,
        operator_id=player.operator_id,
        payload={"player_id": player.pk, "external_ref": player.external_ref},
    )


def operator_webhook_set(*, actor: Actor, operator: Operator, rotated: bool) -> None:
    """The URL or the subscribed event types were set, and the signing secret rotated if
    ``rotated`` (the secrets themselves are never logged)."""
    audit_event_record(
        name="ledger.operator_webhook_set",
        actor=actor,
        operator_id=operator.pk,
        payload={
            "url": operator.webhook_url,
            "event_types": list(operator.webhook_event_types),
            "secret_rotated": rotated,
            "previous_secret_until": (
                operator.webhook_secret_previous_until.isoformat()
                if rotated and operator.webhook_secret_previous_until
                else None
            ),
        },
    )


def operator_event_redelivered(*, actor: Actor, event: OperatorEvent, previous: str) -> None:
    """A past event was queued for delivery again (by the operator or by staff)."""
    audit_event_record(
        name="ledger.operator_event_redelivered",
        actor=actor,
        operator_id=event.operator_id,
        payload={"event_id": event.public_id, "kind": event.kind, "previous_delivery": previous},
    )


def webhook_circuit_changed(*, operator_id: int, payload: dict) -> None:
    """The circuit breaker of the operator's webhook endpoint opened, half-opened or closed."""
    audit_event_record(
        name="ledger.webhook_circuit_changed",
        actor=Actor.system("ledger.webhooks"),
        operator_id=operator_id,
        payload=payload,
    )


def wallet_opened(*, actor: Actor, wallet: Account) -> None:
    audit_event_record(
        name="ledger.wallet_opened",
        actor=actor,
        operator_id=wallet.operator_id,
        wallet_id=wallet.pk,
        payload={"player_id": wallet.player_id, "currency": wallet.currency},
    )


def funds_moved(*, actor: Actor, wallet: Account, txn: Transaction, amount: int) -> None:
    """A deposit or a withdrawal (``txn.kind`` says which)."""
    audit_event_record(
        name=f"ledger.{txn.kind}",
        actor=actor,
        operator_id=wallet.operator_id,
        wallet_id=wallet.pk,
        payload={
            "transaction_id": txn.pk,
            "reference": txn.reference,
            "amount": amount,
            "currency": wallet.currency,
        },
    )


def stake_debited(*, actor: Actor, wallet_id: int, txn: Transaction, amount: int, bet_ref: str):
    audit_event_record(
        name="ledger.stake_debited",
        actor=actor,
        operator_id=txn.operator_id,
        table_id=txn.table_id,
        round_id=txn.round_id,
        wallet_id=wallet_id,
        payload={"transaction_id": txn.pk, "bet_ref": bet_ref, "amount": amount},
    )


def stake_refunded(
    *, actor: Actor, wallet_id: int, txn: Transaction, amount: int, bet_ref: str, reason: str
) -> None:
    audit_event_record(
        name="ledger.stake_refunded",
        actor=actor,
        operator_id=txn.operator_id,
        table_id=txn.table_id,
        round_id=txn.round_id,
        wallet_id=wallet_id,
        payload={"transaction_id": txn.pk, "bet_ref": bet_ref, "amount": amount, "reason": reason},
    )


def round_settled(*, actor: Actor, txn: Transaction, currency: str, totals: dict) -> None:
    audit_event_record(
        name="ledger.round_settled",
        actor=actor,
        table_id=txn.table_id,
        round_id=txn.round_id,
        payload={"transaction_id": txn.pk, "currency": currency, **totals},
    )


def correction_requested(*, actor: Actor, correction: Correction) -> None:
    original = correction.original
    audit_event_record(
        name="ledger.correction_requested",
        actor=actor,
        operator_id=original.operator_id,
        table_id=original.table_id,
        round_id=original.round_id,
        payload={
            "correction_id": correction.pk,
            "original_transaction_id": original.pk,
            "reason": correction.reason,
            "replacement_legs": correction.replacement_legs,
        },
    )


def correction_decided(*, actor: Actor, correction: Correction) -> None:
    original = correction.original
    audit_event_record(
        name=f"ledger.correction_{correction.status}",
        actor=actor,
        operator_id=original.operator_id,
        table_id=original.table_id,
        round_id=original.round_id,
        payload={
            "correction_id": correction.pk,
            "original_transaction_id": original.pk,
            "reversal_transaction_id": correction.reversal_id,
            "replacement_transaction_id": correction.replacement_id,
            "note": correction.decision_note,
        },
    )
