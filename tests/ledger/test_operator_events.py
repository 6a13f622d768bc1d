"""Operator notifications: signed webhooks through a real worker, retries, the polling feed."""

import hashlib
import hmac
import json
import time
from datetime import timedelta
from itertools import pairwise

import pytest
from django.utils import timezone

from casino.api import roles
from conftest import wait_until
from ledger import services
from ledger.models import OperatorEvent, WebhookAttempt
from ledger.tasks import operator_events_sweep_task
from tests.factories import PlayerFactory, WalletFactory
from tests.ledger.conftest import ACTOR, fund
from tests.ledger.receivers import Receiver

# The receivers listen on loopback, which the egress allow-list refuses unless configured.
LOOPBACK_ALLOWED = ["127.0.0.1"]


def _verify(request: dict, secret: str) -> dict:
    headers = {k.lower(): v for k, v in request["headers"].items()}
    timestamp = headers["x-casino-timestamp"]
    expected = hmac.new(
        secret.encode(), f"{timestamp}.".encode() + request["body"], hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(headers["x-casino-signature"], f"v1={expected}")
    assert abs(int(timestamp) - time.time()) < 60
    return json.loads(request["body"])


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_deposit_reaches_the_operator_as_a_signed_webhook_after_retries(
    celery_worker, webhook_worker, operator, settings
):
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = LOOPBACK_ALLOWED
    with Receiver(failures=2) as receiver:
        operator, secret = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=receiver.url
        )
        wallet = WalletFactory(player=PlayerFactory(operator=operator))
        fund(wallet, 1_234)
        event = OperatorEvent.objects.get(kind="wallet.deposit")
        wait_until(
            lambda: OperatorEvent.objects.get(pk=event.pk).delivery == "delivered",
            timeout=45,
            message="not delivered:\n" + "".join(webhook_worker.output[-30:]),
        )
    attempts = list(WebhookAttempt.objects.filter(event=event).order_by("attempt"))
    assert [a.status_code for a in attempts] == [500, 500, 204]
    assert [a.attempt for a in attempts] == [1, 2, 3]
    assert len(receiver.requests) == 3
    # Exponential backoff: 1 s, then 2 s (LEDGER_WEBHOOK_BACKOFF_SECONDS = 1).
    gaps = [b["at"] - a["at"] for a, b in pairwise(receiver.requests)]
    assert gaps[0] >= 0.9 and gaps[1] >= 1.9 and gaps[1] > gaps[0]
    body = _verify(receiver.requests[-1], secret)
    assert body["id"] == event.pk and body["kind"] == "wallet.deposit"
    assert body["payload"]["amount"] == 1_234 and body["payload"]["wallet_id"] == wallet.pk


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_event_whose_message_was_lost_is_delivered_by_the_sweep(
    celery_worker, webhook_worker, operator, settings
):
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = LOOPBACK_ALLOWED
    with Receiver() as receiver:
        operator, secret = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=receiver.url
        )
        # An outbox row as if its commit succeeded and the broker message was lost.
        event = OperatorEvent.objects.create(
            operator=operator,
            kind="round.settled",
            payload={"round_id": 1},
            next_attempt_at=timezone.now() - timedelta(minutes=5),
        )
        operator_events_sweep_task.delay()
        wait_until(
            lambda: OperatorEvent.objects.get(pk=event.pk).delivery == "delivered",
            timeout=30,
            message="sweep did not deliver:\n" + "".join(webhook_worker.output[-30:]),
        )
    assert _verify(receiver.requests[0], secret)["payload"] == {"round_id": 1}


@pytest.mark.django_db
def test_the_events_feed_is_scoped_and_pollable_with_a_cursor(client_for, operator):
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    for _ in range(3):
        fund(wallet, 10)
    fund(WalletFactory(), 10)  # another operator's event
    client = client_for(roles.OPERATOR_INTEGRATION)
    first = client.get("/api/v1/operator-events/", {"limit": 2}).data
    assert [e["operator_id"] for e in first["results"]] == [operator.pk, operator.pk]
    second = client.get("/api/v1/operator-events/", {"after": first["next_after"]}).data
    assert len(second["results"]) == 1
    idle = client.get("/api/v1/operator-events/", {"after": second["next_after"]}).data
    assert idle == {"results": [], "next_after": second["next_after"]}
    fund(wallet, 10)
    later = client.get("/api/v1/operator-events/", {"after": idle["next_after"]}).data
    assert [e["kind"] for e in later["results"]] == ["wallet.deposit"]
    # Without a webhook URL the events are feed-only, not pending delivery.
    assert set(OperatorEvent.objects.values_list("delivery", flat=True)) == {"not_configured"}
