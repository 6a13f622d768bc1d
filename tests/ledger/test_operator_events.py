"""Operator notifications: signed webhooks through a real worker, retries, the polling feed."""

from datetime import timedelta
from itertools import pairwise

import pytest
from django.utils import timezone
from standardwebhooks import Webhook

from audit.models import AuditEvent
from casino.api import roles
from conftest import wait_until
from ledger import services
from ledger.models import OperatorEvent, WebhookAttempt
from ledger.services import SettlementLine
from ledger.tasks import operator_events_sweep_task
from tests.factories import PlayerFactory, TableFactory, WalletFactory
from tests.ledger.conftest import ACTOR, fund, stake
from tests.ledger.receivers import Receiver

# The receivers listen on loopback, which the egress allow-list refuses unless configured.
LOOPBACK_ALLOWED = ["127.0.0.1"]


def _verify(request: dict, secret: str) -> dict:
    """Verify as an operator would, with the Standard Webhooks reference library."""
    body = Webhook(secret).verify(request["body"], request["headers"])
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert body["id"] == headers["webhook-id"]
    return body


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
    assert body["id"] == event.public_id and body["kind"] == "wallet.deposit"
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
    first = client.get("/api/v1/operator-events/", {"page_size": 2}).data
    assert [e["operator_id"] for e in first["results"]] == [operator.pk, operator.pk]
    assert all(e["id"].startswith("evt_") for e in first["results"])  # opaque, not the pk
    second = client.get(first["next"]).data
    assert len(second["results"]) == 1
    # The feed never ends: at its end `next` is still a link, which returns nothing new ...
    idle = client.get(second["next"]).data
    assert idle["results"] == [] and idle["next"]
    fund(wallet, 10)
    # ... until there is something new.
    later = client.get(idle["next"]).data
    assert [e["kind"] for e in later["results"]] == ["wallet.deposit"]
    seen = [e["id"] for page in (first, second, later) for e in page["results"]]
    assert len(set(seen)) == 4
    # Without a webhook URL the events are feed-only, not pending delivery.
    assert set(OperatorEvent.objects.values_list("delivery", flat=True)) == {"not_configured"}


@pytest.mark.django_db
def test_the_feed_pages_like_every_list_and_a_bad_cursor_is_a_400(client_for, operator):
    client = client_for(roles.OPERATOR_INTEGRATION)
    body = client.get("/api/v1/operator-events/").json()
    assert set(body) == {"next", "previous", "results"}
    assert "next_after" not in body
    response = client.get("/api/v1/operator-events/", {"cursor": "not-a-cursor"})
    assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{"x": 1}, {"event_id": "evt_0"}, {"reason": ""}])
def test_redelivery_refuses_a_field_it_does_not_take(body, client_for, operator):
    operator.webhook_url = "https://93.184.215.14/hooks"
    operator.save(update_fields=["webhook_url"])
    event = OperatorEvent.objects.create(operator=operator, kind="wallet.deposit", payload={})
    client = client_for(roles.OPERATOR_INTEGRATION)
    url = f"/api/v1/operator-events/{event.public_id}/redeliver/"
    response = client.post(url, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["param"] == next(iter(body))
    assert not AuditEvent.objects.filter(name="ledger.operator_event_redelivered").exists()
    # No body, or an empty object, is the request.
    assert client.post(url).status_code == 202
    assert client.post(url, {}, format="json").status_code == 202


@pytest.mark.django_db
def test_a_split_bets_lines_are_numbered_in_the_round_settled_event(client_for, operator):
    """A split bet settles as two lines that may be identical (two winning hands of 2,500):
    without their number an integrator de-duplicating by bet_ref paid one hand."""
    table = TableFactory()
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    fund(wallet, 10_000)
    stake(wallet, 5_000, table_id=table.pk, round_id=7, bet_ref="r7-split")
    stake(wallet, 1_000, table_id=table.pk, round_id=7, bet_ref="r7-plain")
    hand = SettlementLine("r7-split", wallet.pk, stake=2_500, payout=5_000, result="win")
    plain = SettlementLine("r7-plain", wallet.pk, stake=1_000, payout=0, result="lose")
    services.round_settlement_post(
        actor=ACTOR, round_id=7, table_id=table.pk, currency="EUR", lines=[hand, plain, hand]
    )
    event = client_for(roles.OPERATOR_INTEGRATION).get("/api/v1/operator-events/").data
    [settled] = [e for e in event["results"] if e["kind"] == "round.settled"]
    lines = [(b["bet_ref"], b["line"], b["payout"]) for b in settled["payload"]["bets"]]
    assert lines == [("r7-split", 1, 5_000), ("r7-plain", 1, 0), ("r7-split", 2, 5_000)]
