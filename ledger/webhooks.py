"""Signed webhook delivery of operator events: isolated, bounded, with a delivery log.

Each POST carries the event as JSON, signed by the Standard Webhooks convention
(https://www.standardwebhooks.com; any of its libraries verifies it, e.g. Python's
``standardwebhooks.Webhook(secret).verify(body, headers)``):

- ``webhook-id``: the event's opaque public id (``evt_...``); receivers de-duplicate on it
  (delivery is at least once, and a redelivery keeps the id);
- ``webhook-timestamp``: Unix seconds when the request was signed (refuse old ones: replays);
- ``webhook-signature``: ``v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>``, where
  the key is the base64 part of the operator's ``whsec_...`` secret. During a secret rotation's
  overlap (``SECRET_OVERLAP``) a second, space-separated signature is made with the previous
  secret, so a receiver still holding it keeps verifying.

An endpoint subscribes to a list of event types (``Operator.webhook_event_types``, empty: all);
events of other types are ``not_subscribed``: never sent, still in the feed.

A 2xx answer delivers the event. Anything else (an error status, a redirect - never followed -,
a refused connection, a timeout, a target the egress allow-list refuses) is logged as a
``WebhookAttempt`` and retried after ``base * 2**(attempt-1)`` seconds (capped), until
``LEDGER_WEBHOOK_MAX_ATTEMPTS``; then the event is marked failed and stays in the polling feed.

Isolation (one operator's dead endpoint must not slow anyone else down):

- Delivery tasks run on their own queue (``LEDGER_WEBHOOK_QUEUE``), never on settlement's.
- No transaction is open during the HTTP call. An attempt is claimed in one short transaction
  (the event row locked SKIP LOCKED, ``claimed_until`` set: a duplicate message skips it, and a
  crashed worker's claim expires), the POST runs, and its outcome is recorded in another. An
  event once delivered is never sent again.
- Per operator, at most ``LEDGER_WEBHOOK_MAX_IN_FLIGHT`` attempts are in flight; the others
  wait (no attempt counted) and are woken as attempts end. Connect and read timeouts are short.
- A circuit breaker per operator endpoint (``WebhookCircuit``) stops sending to an endpoint
  that keeps failing; its deliveries wait for the cool-off and a half-open probe.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

import urllib3
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from audit.canonical import canonical_json
from casino import metrics
from ledger import egress, events, lock_objects, sealed
from ledger.models import OperatorEvent, WebhookAttempt, WebhookCircuit

BACKOFF_CAP_SECONDS = 3600
# A claim outlives the longest attempt (connect + read timeouts) by this margin.
CLAIM_MARGIN_SECONDS = 30
# After a rotation the previous secret signs alongside the new one for this long.
SECRET_OVERLAP = timedelta(hours=24)
ID_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
SIGNATURE_HEADER = "webhook-signature"
CIRCUIT_OPENED = "webhook.circuit_opened"
CIRCUIT_HALF_OPEN = "webhook.circuit_half_open"
CIRCUIT_CLOSED = "webhook.circuit_closed"


def webhook_body(event: OperatorEvent) -> bytes:
    return canonical_json(
        {
            "id": event.public_id,
            "kind": event.kind,
            "operator_id": event.operator_id,
            "created_at": event.created_at.isoformat(),
            "payload": event.payload,
        }
    ).encode("utf-8")


def _signing_key(secret: str) -> bytes:
    # As the Standard Webhooks libraries read a secret: the base64 after "whsec_" (secrets set
    # before this convention, 64 hex characters, are read the same way and still verify).
    return base64.b64decode(secret.removeprefix("whsec_") + "==")


def webhook_signature(secrets: list[str], msg_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value: one ``v1,<base64>`` per secret, space-separated."""
    signed = f"{msg_id}.{timestamp}.".encode() + body
    return " ".join(
        "v1," + base64.b64encode(hmac.digest(_signing_key(s), signed, hashlib.sha256)).decode()
        for s in secrets
    )


def signing_secrets(operator, now: datetime) -> list[str]:
    """The current secret, then the previous one while the rotation's overlap lasts."""
    found = [sealed.unseal(operator.webhook_secret_sealed)]
    until = operator.webhook_secret_previous_until
    if operator.webhook_secret_previous_sealed and until and until > now:
        found.append(sealed.unseal(operator.webhook_secret_previous_sealed))
    return found


def backoff_seconds(attempt: int) -> float:
    base = settings.LEDGER_WEBHOOK_BACKOFF_SECONDS
    return min(base * 2 ** (attempt - 1), BACKOFF_CAP_SECONDS)


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    """POST once to the address the allow-list checked; no redirect followed, no retry."""
    try:
        target = egress.webhook_target_check(url)
    except egress.EgressRefused as exc:
        return None, f"refused: {exc.reason}"[:500]
    host = f"[{target.host}]" if ":" in target.host else target.host
    default_port = egress.SCHEMES[target.scheme] == target.port
    headers = {**headers, "Host": host if default_port else f"{host}:{target.port}"}
    timeout = urllib3.Timeout(
        connect=settings.LEDGER_WEBHOOK_CONNECT_TIMEOUT, read=settings.LEDGER_WEBHOOK_READ_TIMEOUT
    )
    if target.scheme == "https":
        # Connect to the checked address; verify the certificate for the name in the URL.
        pool = urllib3.HTTPSConnectionPool(
            target.address, target.port, timeout=timeout, retries=False,
            server_hostname=target.host, assert_hostname=target.host,
        )  # fmt: skip
    else:
        pool = urllib3.HTTPConnectionPool(
            target.address, target.port, timeout=timeout, retries=False
        )
    try:
        response = pool.urlopen(
            "POST", target.path, body=body, headers=headers, redirect=False,
            assert_same_host=False, preload_content=False,
        )  # fmt: skip
        status = response.status
        if 300 <= status < 400:
            return status, f"HTTP {status}: redirects are not followed"
        return status, "" if 200 <= status < 300 else f"HTTP {status}"
    except (urllib3.exceptions.HTTPError, OSError, ValueError) as exc:
        return None, f"{type(exc).__name__}: {exc}"[:500]
    finally:
        pool.close()


@dataclass(frozen=True)
class DeliveryOutcome:
    status: str  # delivered | retry | failed | skipped | waiting
    retry_in: float | None = None
    wake: tuple[int, ...] = ()  # the operator's waiting events that may go now
    wake_operator: tuple[int, float] | None = None  # the circuit opened: (operator, cool-off)


@dataclass(frozen=True)
class _Claim:
    event_id: int
    operator_id: int
    url: str
    body: bytes
    headers: dict[str, str]
    probe: bool


def operator_event_deliver(*, event_id: int) -> DeliveryOutcome:
    """Make one delivery attempt of an event if it is due and its endpoint may take it."""
    claim = _delivery_claim(event_id)
    if isinstance(claim, DeliveryOutcome):
        return claim
    if connection.in_atomic_block:
        raise RuntimeError("webhook delivery must not run inside a database transaction")
    started = time.perf_counter()
    status_code, error = _post(claim.url, claim.body, claim.headers)
    duration_ms = int((time.perf_counter() - started) * 1000)
    return _delivery_record(claim, status_code, error, duration_ms)


def _claim_seconds() -> int:
    timeouts = settings.LEDGER_WEBHOOK_CONNECT_TIMEOUT + settings.LEDGER_WEBHOOK_READ_TIMEOUT
    return timeouts + CLAIM_MARGIN_SECONDS


def _in_flight(operator_id: int, now: datetime) -> int:
    return OperatorEvent.objects.filter(
        operator_id=operator_id, delivery=OperatorEvent.Delivery.PENDING, claimed_until__gt=now
    ).count()


def _wait(event: OperatorEvent, until: datetime) -> DeliveryOutcome:
    """Park the event, due at ``until``: no message is scheduled; the attempt that ends, the
    circuit's wake-up or (if both are lost) the sweep sends it again."""
    event.next_attempt_at = until
    event.save(update_fields=["next_attempt_at"])
    return DeliveryOutcome("waiting")


def _delivery_claim(event_id: int) -> _Claim | DeliveryOutcome:
    with transaction.atomic():
        event = lock_objects.operator_event_for_delivery(event_id).first()
        now = timezone.now()
        if event is None or event.delivery != OperatorEvent.Delivery.PENDING:
            return DeliveryOutcome("skipped")
        if event.claimed_until and event.claimed_until > now:
            return DeliveryOutcome("skipped")  # in flight in another worker
        if event.next_attempt_at and event.next_attempt_at > now + timedelta(seconds=0.5):
            # An early duplicate (the sweep and a scheduled retry); the retry will come.
            return DeliveryOutcome("skipped")
        operator = event.operator
        if not operator.webhook_url:
            event.delivery = OperatorEvent.Delivery.NOT_CONFIGURED
            event.save(update_fields=["delivery"])
            return DeliveryOutcome("skipped")
        circuit = lock_objects.webhook_circuit_for_delivery(operator.pk)
        if circuit.state == WebhookCircuit.State.OPEN:
            if now < circuit.open_until:
                return _wait(event, circuit.open_until)
            _circuit_change(circuit, WebhookCircuit.State.HALF_OPEN)
        probe = circuit.state == WebhookCircuit.State.HALF_OPEN
        if probe and circuit.probe_until and circuit.probe_until > now:
            return _wait(event, now)  # woken when the probe ends
        if not probe and _in_flight(operator.pk, now) >= settings.LEDGER_WEBHOOK_MAX_IN_FLIGHT:
            return _wait(event, now)  # woken when one of the operator's attempts ends
        claimed_until = now + timedelta(seconds=_claim_seconds())
        event.claimed_until = event.next_attempt_at = claimed_until
        event.save(update_fields=["claimed_until", "next_attempt_at"])
        if probe:
            circuit.probe_until = claimed_until
            circuit.save(update_fields=["probe_until", "changed_at"])
        body = webhook_body(event)
        timestamp = int(time.time())
        signature = webhook_signature(
            signing_secrets(operator, now), event.public_id, timestamp, body
        )
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "casino-webhooks/2",
            ID_HEADER: event.public_id,
            TIMESTAMP_HEADER: str(timestamp),
            SIGNATURE_HEADER: signature,
        }
        return _Claim(event.pk, operator.pk, operator.webhook_url, body, headers, probe)


def _delivery_record(
    claim: _Claim, status_code: int | None, error: str, duration_ms: int
) -> DeliveryOutcome:
    ok = status_code is not None and 200 <= status_code < 300
    metrics.webhook_attempt_counted(operator_id=claim.operator_id, ok=ok)
    with transaction.atomic():
        # Same lock order as the claim: the event row, then the circuit.
        event = OperatorEvent.objects.select_for_update().get(pk=claim.event_id)
        circuit = lock_objects.webhook_circuit_for_delivery(claim.operator_id)
        now = timezone.now()
        event.attempts += 1
        event.claimed_until = None
        WebhookAttempt.objects.create(
            event=event,
            attempt=event.attempts,
            url=claim.url,
            status_code=status_code,
            error=error,
            duration_ms=duration_ms,
        )
        retry_in = None
        if ok:
            event.delivery = OperatorEvent.Delivery.DELIVERED
            event.delivered_at = now
            event.next_attempt_at = None
            status = "delivered"
        elif event.attempts >= settings.LEDGER_WEBHOOK_MAX_ATTEMPTS:
            event.delivery = OperatorEvent.Delivery.FAILED
            event.next_attempt_at = None
            status = "failed"
        else:
            retry_in = backoff_seconds(event.attempts)
            event.next_attempt_at = now + timedelta(seconds=retry_in)
            status = "retry"
        event.save(
            update_fields=["attempts", "delivery", "delivered_at", "next_attempt_at",
                           "claimed_until"]
        )  # fmt: skip
        cooloff = _circuit_count(circuit, ok=ok, probe=claim.probe)
        wake = ()
        if circuit.state == WebhookCircuit.State.CLOSED:
            wake = tuple(webhook_deliveries_waiting(operator_id=claim.operator_id))
    wake_operator = None if cooloff is None else (claim.operator_id, cooloff)
    return DeliveryOutcome(status, retry_in, wake, wake_operator)


def _circuit_count(circuit: WebhookCircuit, *, ok: bool, probe: bool) -> float | None:
    """Count an attempt's outcome; the cool-off when the circuit (re)opens."""
    fields = ["consecutive_failures", "changed_at"]
    if probe:
        circuit.probe_until = None
        fields.append("probe_until")
    if ok:
        circuit.consecutive_failures = 0
        circuit.save(update_fields=fields)
        if circuit.state != WebhookCircuit.State.CLOSED:
            _circuit_change(circuit, WebhookCircuit.State.CLOSED)
        return None
    circuit.consecutive_failures += 1
    circuit.save(update_fields=fields)
    state = circuit.state
    if state == WebhookCircuit.State.HALF_OPEN or (
        state == WebhookCircuit.State.CLOSED
        and circuit.consecutive_failures >= settings.LEDGER_WEBHOOK_CIRCUIT_FAILURES
    ):
        _circuit_change(circuit, WebhookCircuit.State.OPEN)
        return settings.LEDGER_WEBHOOK_CIRCUIT_COOLOFF_SECONDS
    return None


def _circuit_change(circuit: WebhookCircuit, state: str) -> None:
    """Move the circuit to ``state``: audited, and told in the operator's events feed (never
    sent to the endpoint it is about)."""
    before = circuit.state
    circuit.state = state
    circuit.probe_until = None
    if state == WebhookCircuit.State.OPEN:
        cooloff = settings.LEDGER_WEBHOOK_CIRCUIT_COOLOFF_SECONDS
        circuit.open_until = timezone.now() + timedelta(seconds=cooloff)
    else:
        circuit.open_until = None
    circuit.save(update_fields=["state", "probe_until", "open_until", "changed_at"])
    kind = {
        WebhookCircuit.State.OPEN: CIRCUIT_OPENED,
        WebhookCircuit.State.HALF_OPEN: CIRCUIT_HALF_OPEN,
        WebhookCircuit.State.CLOSED: CIRCUIT_CLOSED,
    }[state]
    payload = {
        "from": before,
        "to": state,
        "consecutive_failures": circuit.consecutive_failures,
        "open_until": circuit.open_until.isoformat() if circuit.open_until else None,
    }
    OperatorEvent.objects.create(
        operator_id=circuit.operator_id,
        kind=kind,
        payload=payload,
        delivery=OperatorEvent.Delivery.FEED_ONLY,
    )
    events.webhook_circuit_changed(operator_id=circuit.operator_id, payload=payload)


def webhook_deliveries_waiting(*, operator_id: int) -> list[int]:
    """The operator's due events that no attempt holds, oldest first, as many as may be in
    flight at once (the ones beyond wait for the next wake-up)."""
    now = timezone.now()
    return list(
        OperatorEvent.objects.filter(
            operator_id=operator_id,
            delivery=OperatorEvent.Delivery.PENDING,
            next_attempt_at__lte=now + timedelta(seconds=0.5),
        )
        .exclude(claimed_until__gt=now)
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)[: settings.LEDGER_WEBHOOK_MAX_IN_FLIGHT]
    )


SWEEP_GRACE = timedelta(seconds=60)


def operator_events_overdue(*, limit: int = 500) -> list[int]:
    """Pending events whose attempt is overdue: their message was lost (broker, worker crash)."""
    cutoff = timezone.now() - SWEEP_GRACE
    return list(
        OperatorEvent.objects.filter(
            delivery=OperatorEvent.Delivery.PENDING, next_attempt_at__lt=cutoff
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
