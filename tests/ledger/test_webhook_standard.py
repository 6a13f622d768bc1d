"""Webhooks on the Standard Webhooks convention, verified with its reference library against a
real local receiver: opaque ids, per-endpoint event-type filters, redelivery of a past event,
secret rotation with overlap."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from standardwebhooks import Webhook, WebhookVerificationError

from audit.models import AuditEvent
from casino.api import roles
from ledger import notifications, services
from ledger.models import Operator, OperatorEvent, WebhookAttempt
from ledger.webhooks import operator_event_deliver
from tests.conftest import staff_client
from tests.factories import OperatorFactory, PlayerFactory, WalletFactory
from tests.ledger.conftest import ACTOR, fund
from tests.ledger.receivers import Receiver

pytestmark = pytest.mark.django_db(transaction=True)

EVENT_ID = re.compile(r"evt_[0-9a-f]{32}")


@pytest.fixture(autouse=True)
def _loopback_allowed(settings):
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]


def _deposit_event(operator, amount: int = 10) -> OperatorEvent:
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    fund(wallet, amount)
    return OperatorEvent.objects.filter(operator=operator).latest("pk")


def test_a_delivery_verifies_with_the_standard_webhooks_library(operator):
    with Receiver() as receiver:
        operator, secret = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=receiver.url
        )
        event = _deposit_event(operator, 1_234)
        assert operator_event_deliver(event_id=event.pk).status == "delivered"
    (request,) = receiver.requests
    body = Webhook(secret).verify(request["body"], request["headers"])
    assert body["id"] == event.public_id and body["kind"] == "wallet.deposit"
    assert body["payload"]["amount"] == 1_234
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert headers["webhook-id"] == event.public_id
    assert re.fullmatch(r"v1,[A-Za-z0-9+/]+=*", headers["webhook-signature"])
    # The old custom headers are gone; another secret does not verify; nor a changed body.
    assert not any(name.startswith("x-casino") for name in headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(services.webhook_secret_new()).verify(request["body"], request["headers"])
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(request["body"].replace(b"1234", b"9999"), request["headers"])


def test_event_ids_are_opaque_and_unique(operator):
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    for _ in range(3):
        fund(wallet, 10)
    events = list(OperatorEvent.objects.filter(operator=operator))
    ids = [e.public_id for e in events]
    assert all(EVENT_ID.fullmatch(i) for i in ids) and len(set(ids)) == 3


def test_a_settlement_event_written_in_sql_gets_an_opaque_id_and_the_filter(operator, table):
    # round.settled rows are INSERTed by one SQL statement (ledger/services/settlement.py).
    operator, _ = services.operator_webhook_set(
        actor=ACTOR,
        operator=operator,
        url="https://93.184.215.14/h",
        event_types=[notifications.WALLET_DEPOSIT],
    )
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    fund(wallet, 100)
    services.stake_debit(
        actor=ACTOR, wallet=wallet, amount=10, currency=wallet.currency,
        table_id=table.pk, round_id=1, bet_ref="r1b1",
    )  # fmt: skip
    services.round_settlement_post(
        actor=ACTOR, round_id=1, table_id=table.pk, currency=wallet.currency,
        lines=[services.SettlementLine(bet_ref="r1b1", wallet_id=wallet.pk, stake=10,
                                       payout=20, bonus=0, result="win", bonus_kind="")],
    )  # fmt: skip
    settled = OperatorEvent.objects.get(kind=notifications.ROUND_SETTLED)
    assert EVENT_ID.fullmatch(settled.public_id)
    assert settled.delivery == "not_subscribed"
    assert OperatorEvent.objects.get(kind=notifications.WALLET_DEPOSIT).delivery == "pending"


def test_an_endpoint_gets_only_the_types_it_subscribes_to_the_feed_keeps_all(client_for, operator):
    client = client_for(roles.OPERATOR_INTEGRATION)
    url = "https://93.184.215.14/hooks"
    response = client.put(
        "/api/v1/operator/webhook/",
        {"webhook_url": url, "event_types": ["wallet.withdrawal"]},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["event_types"] == ["wallet.withdrawal"]
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    fund(wallet, 100)
    services.wallet_withdraw(actor=ACTOR, wallet=wallet, amount=40, reference="w1")
    deliveries = dict(OperatorEvent.objects.values_list("kind", "delivery"))
    assert deliveries == {"wallet.deposit": "not_subscribed", "wallet.withdrawal": "pending"}
    feed = client.get("/api/v1/operator-events/").json()["results"]
    assert {e["kind"] for e in feed} == {"wallet.deposit", "wallet.withdrawal"}
    # Changing the filter alone keeps the secret; an unknown type is a 400 naming the field.
    kept = client.put(
        "/api/v1/operator/webhook/",
        {"webhook_url": url, "event_types": [], "rotate_secret": False},
        format="json",
    ).json()
    assert kept["secret"] is None and kept["event_types"] == []
    bad = client.put(
        "/api/v1/operator/webhook/",
        {"webhook_url": url, "event_types": ["wallet.nonsense"]},
        format="json",
    )
    assert bad.status_code == 400 and "event_types" in bad.content.decode()
    assert Operator.objects.get(pk=operator.pk).webhook_event_types == []


def test_a_rotation_signs_with_both_secrets_during_the_overlap_only(operator):
    with Receiver() as receiver:
        operator, old = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=receiver.url
        )
        operator, new = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=receiver.url
        )
        assert new != old
        during = _deposit_event(operator)
        assert operator_event_deliver(event_id=during.pk).status == "delivered"
        Operator.objects.filter(pk=operator.pk).update(
            webhook_secret_previous_until=timezone.now() - timedelta(seconds=1)
        )
        after = _deposit_event(operator)
        assert operator_event_deliver(event_id=after.pk).status == "delivered"
    first, second = receiver.requests
    assert len(first["headers"]["webhook-signature"].split(" ")) == 2
    # During the overlap a receiver holding either secret verifies the delivery ...
    for secret in (old, new):
        assert Webhook(secret).verify(first["body"], first["headers"])["id"] == during.public_id
    # ... after it, only the new secret does.
    assert len(second["headers"]["webhook-signature"].split(" ")) == 1
    assert Webhook(new).verify(second["body"], second["headers"])["id"] == after.public_id
    with pytest.raises(WebhookVerificationError):
        Webhook(old).verify(second["body"], second["headers"])
    audited = AuditEvent.objects.filter(name="ledger.operator_webhook_set").order_by("id")
    assert [a.payload["secret_rotated"] for a in audited] == [True, True]
    assert all(old not in str(a.payload) and new not in str(a.payload) for a in audited)


def test_the_operator_redelivers_its_past_event_with_the_same_id_audited(client_for, operator):
    with Receiver() as receiver:
        operator, secret = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=receiver.url
        )
        event = _deposit_event(operator)
        assert operator_event_deliver(event_id=event.pk).status == "delivered"
        client = client_for(roles.OPERATOR_INTEGRATION)
        response = client.post(f"/api/v1/operator-events/{event.public_id}/redeliver/")
        assert response.status_code == 202, response.content
        assert response.json()["id"] == event.public_id
        assert response.json()["delivery"] == "pending"
        assert operator_event_deliver(event_id=event.pk).status == "delivered"
    first, again = receiver.requests
    assert first["body"] == again["body"]
    assert first["headers"]["webhook-id"] == again["headers"]["webhook-id"] == event.public_id
    Webhook(secret).verify(again["body"], again["headers"])
    assert WebhookAttempt.objects.filter(event=event, status_code=204).count() == 2
    audit = AuditEvent.objects.get(name="ledger.operator_event_redelivered")
    assert audit.operator_id == operator.pk
    assert audit.payload == {
        "event_id": event.public_id, "kind": "wallet.deposit", "previous_delivery": "delivered",
    }  # fmt: skip


def test_redelivery_is_scoped_refused_when_it_cannot_go_and_open_to_staff(client_for, operator):
    theirs = _deposit_event(OperatorFactory(webhook_url="https://93.184.215.14/x"))
    client = client_for(roles.OPERATOR_INTEGRATION)
    # Another operator's event does not exist for this key.
    assert client.post(f"/api/v1/operator-events/{theirs.public_id}/redeliver/").status_code == 404
    assert client.post("/api/v1/operator-events/42/redeliver/").status_code == 404
    # No webhook URL: nothing to send it to.
    mine = _deposit_event(operator)
    response = client.post(f"/api/v1/operator-events/{mine.public_id}/redeliver/")
    assert response.status_code == 409 and response["Content-Type"] == "application/problem+json"
    # Roles: a floor supervisor may (any operator's event), an auditor or a dealer may not.
    staff = staff_client(roles.FLOOR_SUPERVISOR)
    assert staff.post(f"/api/v1/operator-events/{theirs.public_id}/redeliver/").status_code == 202
    for role in (roles.AUDITOR, roles.PIT_BOSS, roles.DEALER_DEVICE):
        refused = client_for(role).post(f"/api/v1/operator-events/{theirs.public_id}/redeliver/")
        assert refused.status_code == 403, role
    assert AuditEvent.objects.filter(name="ledger.operator_event_redelivered").count() == 1
