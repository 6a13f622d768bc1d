"""Delivery attempts in process, against real local endpoints: exactly once, the per-operator
in-flight bound, the circuit breaker (opens, deliveries wait, half-open probe, closes)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from audit.models import AuditEvent
from conftest import wait_until
from ledger import services
from ledger.models import OperatorEvent, WebhookAttempt, WebhookCircuit
from ledger.webhooks import operator_event_deliver
from tests.ledger.conftest import ACTOR
from tests.ledger.receivers import Blackhole, Receiver

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _loopback_allowed(settings):
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]


def _events(operator, n: int) -> list[OperatorEvent]:
    return [
        OperatorEvent.objects.create(operator=operator, kind="wallet.deposit", payload={"n": i})
        for i in range(n)
    ]


def _point(operator, url: str):
    return services.operator_webhook_set(actor=ACTOR, operator=operator, url=url)[0]


def test_a_delivered_event_is_never_sent_again(operator):
    with Receiver() as receiver:
        operator = _point(operator, receiver.url)
        (event,) = _events(operator, 1)
        assert operator_event_deliver(event_id=event.pk).status == "delivered"
        assert operator_event_deliver(event_id=event.pk).status == "skipped"  # a redelivery
    assert len(receiver.requests) == 1
    assert WebhookAttempt.objects.filter(event=event).count() == 1


def test_the_in_flight_bound_makes_the_operators_other_deliveries_wait(settings, operator):
    settings.LEDGER_WEBHOOK_MAX_IN_FLIGHT = 1
    settings.LEDGER_WEBHOOK_READ_TIMEOUT = 600
    outcomes = {}
    with Blackhole() as blackhole:
        operator = _point(operator, blackhole.url)
        hanging, waiting = _events(operator, 2)

        def deliver():
            outcomes["hanging"] = operator_event_deliver(event_id=hanging.pk)
            connection.close()

        thread = threading.Thread(target=deliver)
        thread.start()
        wait_until(lambda: len(blackhole.accepted) == 1)
        # The first attempt hangs with no transaction open; the second waits its turn.
        assert operator_event_deliver(event_id=waiting.pk).status == "waiting"
        assert len(blackhole.accepted) == 1
        assert not WebhookAttempt.objects.exists()
    thread.join(30)  # the blackhole closed the connection: the attempt failed
    assert outcomes["hanging"].status == "retry"
    assert outcomes["hanging"].wake == (waiting.pk,)  # the waiting one may go now
    assert WebhookAttempt.objects.get().event_id == hanging.pk


def _circuit(operator) -> WebhookCircuit:
    return WebhookCircuit.objects.get(operator=operator)


def _cooloff_over(operator):
    WebhookCircuit.objects.filter(operator=operator).update(
        open_until=timezone.now() - timedelta(seconds=1)
    )
    OperatorEvent.objects.filter(operator=operator, delivery="pending").update(
        next_attempt_at=timezone.now()
    )


def test_the_circuit_opens_deliveries_wait_and_a_half_open_probe_closes_it(settings, operator):
    settings.LEDGER_WEBHOOK_CIRCUIT_FAILURES = 2
    with Receiver(failures=3) as receiver:
        operator = _point(operator, receiver.url)
        first, second, third, fourth = _events(operator, 4)
        assert operator_event_deliver(event_id=first.pk).status == "retry"
        assert _circuit(operator).state == "closed"
        outcome = operator_event_deliver(event_id=second.pk)
        assert outcome.status == "retry"
        circuit = _circuit(operator)
        assert circuit.state == "open" and circuit.consecutive_failures == 2
        cooloff = settings.LEDGER_WEBHOOK_CIRCUIT_COOLOFF_SECONDS
        assert outcome.wake_operator == (operator.pk, cooloff)

        # Open: the deliveries wait for the cool-off; no request, no attempt counted.
        assert operator_event_deliver(event_id=third.pk).status == "waiting"
        assert len(receiver.requests) == 2
        third.refresh_from_db()
        assert third.attempts == 0 and third.next_attempt_at == circuit.open_until

        # Cool-off over: one probe (the endpoint still fails) opens it again.
        _cooloff_over(operator)
        assert operator_event_deliver(event_id=third.pk).status == "retry"
        assert _circuit(operator).state == "open"

        # Next cool-off: the probe succeeds and closes the circuit; the others may go.
        _cooloff_over(operator)
        outcome = operator_event_deliver(event_id=fourth.pk)
        assert outcome.status == "delivered"
        assert _circuit(operator).state == "closed"
        assert set(outcome.wake) == {first.pk, second.pk, third.pk}
        for event_id in outcome.wake:
            assert operator_event_deliver(event_id=event_id).status == "delivered"
    assert len(receiver.requests) == 7
    # Every change is in the operator's feed (never sent to the endpoint) and audited.
    feed = list(
        OperatorEvent.objects.filter(kind__startswith="webhook.circuit").values_list(
            "kind", "delivery"
        )
    )
    kinds = ["opened", "half_open", "opened", "half_open", "closed"]
    assert feed == [(f"webhook.circuit_{k}", "feed_only") for k in kinds]
    audited = AuditEvent.objects.filter(name="ledger.webhook_circuit_changed").order_by("id")
    assert [(a.payload["from"], a.payload["to"]) for a in audited] == [
        ("closed", "open"), ("open", "half_open"), ("half_open", "open"),
        ("open", "half_open"), ("half_open", "closed"),
    ]  # fmt: skip
    assert all(a.operator_id == operator.pk for a in audited)


def test_setting_the_url_again_closes_the_circuit(settings, operator):
    settings.LEDGER_WEBHOOK_CIRCUIT_FAILURES = 1
    with Receiver(failures=1) as receiver:
        operator = _point(operator, receiver.url)
        (event,) = _events(operator, 1)
        operator_event_deliver(event_id=event.pk)
        assert _circuit(operator).state == "open"
        _point(operator, receiver.url)
        assert _circuit(operator).state == "closed"
