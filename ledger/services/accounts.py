"""Players, operators' webhooks and wallets: opening them and moving funds in and out."""

from __future__ import annotations

import base64
import secrets
import uuid
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import Conflict, ValidationFailed, unique_or
from ledger import egress, events, notifications, sealed, webhooks
from ledger.errors import (
    ReferenceReused,
)
from ledger.models import (
    Account,
    Operator,
    OperatorEvent,
    Player,
    Transaction,
    WebhookCircuit,
)
from ledger.postings import (
    Dimensions,
    LegSpec,
    house_account_id,
    legs_insert,
    transaction_insert,
    wallet_insert,
)
from ledger.services.common import (
    amount_check,
    currency_new_check,
    funds_check,
    lock_wallet,
    money_atomic,
    play_money_check,
    repeat_of,
)


def player_create(*, actor: Actor, operator, external_ref: str, display_name: str = "") -> Player:
    """A new player of ``operator``; Conflict when the operator already has this reference."""
    exists = Conflict(f"Player {external_ref!r} already exists for this operator.")
    with transaction.atomic():
        if Player.objects.filter(operator=operator, external_ref=external_ref).exists():
            raise exists
        with unique_or(exists):
            player = Player.objects.create(
                operator=operator, external_ref=external_ref, display_name=display_name
            )
        events.player_created(actor=actor, player=player)
    return player


def webhook_secret_new() -> str:
    """A Standard Webhooks secret: ``whsec_`` + base64 of 32 random bytes (the signing key)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def operator_webhook_set(
    *,
    actor: Actor,
    operator,
    url: str,
    event_types: Sequence[str] | None = None,
    rotate_secret: bool = True,
) -> tuple[Operator, str | None]:
    """Point the operator's webhooks at ``url`` ("" for the events feed only), subscribe them
    to ``event_types`` (empty: every type; None: unchanged) and, unless told not to (or there
    is no secret yet), rotate the signing secret: (operator, the new secret to show once, or
    None). The previous secret keeps signing alongside the new one for
    ``webhooks.SECRET_OVERLAP`` so the receiver can switch without losing a delivery. A target
    the egress allow-list refuses is a 400 naming ``webhook_url``; the circuit starts closed."""
    if url:
        egress.webhook_target_check(url)
    if event_types is not None:
        unknown = sorted(set(event_types) - set(notifications.EVENT_TYPES))
        if unknown:
            known = ", ".join(notifications.EVENT_TYPES)
            raise ValidationFailed(
                f"Unknown event types: {', '.join(unknown)}.",
                errors={"event_types": [f"each one of: {known}"]},
            )
    with transaction.atomic():
        operator = Operator.objects.select_for_update().get(pk=operator.pk)
        fields = ["webhook_url"]
        operator.webhook_url = url
        if event_types is not None:
            operator.webhook_event_types = sorted(set(event_types))
            fields.append("webhook_event_types")
        secret = None
        if rotate_secret or not operator.webhook_secret_sealed:
            secret = webhook_secret_new()
            if operator.webhook_secret_sealed:
                operator.webhook_secret_previous_sealed = operator.webhook_secret_sealed
                operator.webhook_secret_previous_until = timezone.now() + webhooks.SECRET_OVERLAP
            operator.webhook_secret_sealed = sealed.seal(secret)
            fields += [
                "webhook_secret_sealed",
                "webhook_secret_previous_sealed",
                "webhook_secret_previous_until",
            ]
        operator.save(update_fields=fields)
        WebhookCircuit.objects.filter(operator=operator).update(
            state=WebhookCircuit.State.CLOSED, consecutive_failures=0, open_until=None,
            probe_until=None,
        )  # fmt: skip
        events.operator_webhook_set(actor=actor, operator=operator, rotated=secret is not None)
    return operator, secret


def operator_event_redeliver(*, actor: Actor, event: OperatorEvent) -> OperatorEvent:
    """Send a past event to the operator's endpoint again, with the same ``webhook-id`` (the
    receiver de-duplicates on it), as a new series of attempts; audited. Whatever its state
    (delivered, failed, not subscribed); refused (409) while an attempt is in flight, for
    events about the webhook itself, and when the operator has no webhook URL."""
    with transaction.atomic():
        event = (
            OperatorEvent.objects.select_for_update().select_related("operator").get(pk=event.pk)
        )
        now = timezone.now()
        if event.delivery == OperatorEvent.Delivery.FEED_ONLY:
            raise Conflict("This event is about the webhook itself and is never sent to it.")
        if not event.operator.webhook_url:
            raise Conflict("The operator has no webhook URL: set one first.")
        if event.delivery == OperatorEvent.Delivery.PENDING and (
            event.claimed_until and event.claimed_until > now
        ):
            raise Conflict("An attempt to deliver this event is in flight; try again later.")
        previous = event.delivery
        event.delivery = OperatorEvent.Delivery.PENDING
        event.attempts = 0
        event.next_attempt_at = now
        event.claimed_until = None
        event.save(update_fields=["delivery", "attempts", "next_attempt_at", "claimed_until"])
        events.operator_event_redelivered(actor=actor, event=event, previous=previous)
        notifications.deliveries_enqueue_on_commit([event.pk])
    return event


def _play_money_check(player: Player, currency: str) -> None:
    sandbox = Operator.objects.filter(pk=player.operator_id, sandbox__isnull=False).exists()
    play_money_check(currency, sandbox=sandbox, holder="operator's wallets hold")


def wallet_open(*, actor: Actor, player: Player, currency: str) -> tuple[Account, bool]:
    """The player's wallet in ``currency``, opened on first use: (wallet, created)."""
    currency_new_check(currency)
    _play_money_check(player, currency)
    with money_atomic():
        created = wallet_insert(
            operator_id=player.operator_id, player_id=player.pk, currency=currency
        )
        wallet = Account.objects.get(kind=Account.Kind.WALLET, player=player, currency=currency)
        if created:
            events.wallet_opened(actor=actor, wallet=wallet)
    return wallet, created


def _funds_move(
    *, actor: Actor, wallet: Account, amount: int, reference: str | None, kind: str
) -> tuple[Transaction, bool]:
    amount_check(amount)
    deposit = kind == Transaction.Kind.DEPOSIT
    with money_atomic():
        wallet = lock_wallet(wallet.pk)
        signed = amount if deposit else -amount
        full_reference = (
            f"op{wallet.operator_id}:{kind}:{reference}" if reference else f"{kind}:{uuid.uuid4()}"
        )
        existing = repeat_of(full_reference, kind=kind, wallet_id=wallet.pk, amount=signed)
        if existing is not None:
            return existing, False
        if not deposit:
            funds_check(wallet, amount)
        cash = house_account_id(
            Account.Kind.OPERATOR_CASH, wallet.currency, operator_id=wallet.operator_id
        )
        txn = transaction_insert(
            kind=kind,
            reference=full_reference,
            actor=actor,
            dimensions=Dimensions(operator_id=wallet.operator_id),
        )
        if txn is None:  # lost a race for the reference to another wallet's movement
            raise ReferenceReused(f"Reference {reference!r} was used concurrently; retry.")
        legs_insert(
            txn,
            [
                LegSpec(wallet.pk, signed, wallet.currency, kind),
                LegSpec(cash, -signed, wallet.currency, kind),
            ],
        )
        wallet.balance += signed
        events.funds_moved(actor=actor, wallet=wallet, txn=txn, amount=amount)
        notifications.operator_event_emit(
            operator_id=wallet.operator_id,
            kind=notifications.WALLET_DEPOSIT if deposit else notifications.WALLET_WITHDRAWAL,
            transaction_id=txn.pk,
            payload={
                "transaction_id": txn.pk,
                "wallet_id": wallet.pk,
                "player_id": wallet.player_id,
                "amount": amount,
                "currency": wallet.currency,
                "balance": wallet.balance,
                "reference": reference or "",
            },
        )
    return txn, True


def wallet_deposit(
    *, actor: Actor, wallet: Account, amount: int, reference: str | None = None
) -> tuple[Transaction, bool]:
    """Credit the wallet from the operator's cash account: (transaction, created).

    ``reference`` is the operator's own id for the movement: repeating it returns the first
    transaction (ledger-level idempotency that outlives the API's 24-hour keys).
    """
    return _funds_move(
        actor=actor, wallet=wallet, amount=amount, reference=reference, kind="deposit"
    )


def wallet_withdraw(
    *, actor: Actor, wallet: Account, amount: int, reference: str | None = None
) -> tuple[Transaction, bool]:
    """Debit the wallet to the operator's cash account; refused with InsufficientFunds."""
    return _funds_move(
        actor=actor, wallet=wallet, amount=amount, reference=reference, kind="withdrawal"
    )
