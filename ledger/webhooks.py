"""Signed webhook delivery of operator events, with exponential backoff and a delivery log.

Each POST carries the event as JSON and three headers:

- ``X-Casino-Event-Id``: the event id (receivers de-duplicate on it: delivery is at least once);
- ``X-Casino-Timestamp``: Unix seconds when the request was signed;
- ``X-Casino-Signature``: ``v1=<hex HMAC-SHA256(operator secret, "<timestamp>.<body>")>``.
  Signing the timestamp with the body lets a receiver refuse replays of old requests.

A 2xx answer delivers the event. Anything else (an error status, a refused connection, a
timeout) is logged as a ``WebhookAttempt`` and retried after ``base * 2**(attempt-1)`` seconds
(capped), until ``LEDGER_WEBHOOK_MAX_ATTEMPTS``; then the event is marked failed and stays in the
polling feed. The event row is locked (SKIP LOCKED) while one attempt runs, so two workers
never send the same attempt.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit.canonical import canonical_json
from ledger import lock_objects
from ledger.models import OperatorEvent, WebhookAttempt

TIMEOUT_SECONDS = 5
BACKOFF_CAP_SECONDS = 3600
SIGNATURE_HEADER = "X-Casino-Signature"
TIMESTAMP_HEADER = "X-Casino-Timestamp"
EVENT_ID_HEADER = "X-Casino-Event-Id"


def webhook_body(event: OperatorEvent) -> bytes:
    return canonical_json(
        {
            "id": event.pk,
            "kind": event.kind,
            "operator_id": event.operator_id,
            "created_at": event.created_at.isoformat(),
            "payload": event.payload,
        }
    ).encode("utf-8")


def webhook_signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"v1={mac.hexdigest()}"


def backoff_seconds(attempt: int) -> float:
    base = settings.LEDGER_WEBHOOK_BACKOFF_SECONDS
    return min(base * 2 ** (attempt - 1), BACKOFF_CAP_SECONDS)


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310
            return response.status, ""
    except urllib.error.HTTPError as exc:
        return exc.code, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return None, f"{type(exc).__name__}: {exc}"[:500]


@dataclass(frozen=True)
class DeliveryOutcome:
    status: str  # delivered | retry | failed | skipped
    retry_in: float | None = None


def operator_event_deliver(*, event_id: int) -> DeliveryOutcome:
    """Make one delivery attempt of an event if it is due; say when to try again."""
    with transaction.atomic():
        event = lock_objects.operator_event_for_delivery(event_id).first()
        now = timezone.now()
        if event is None or event.delivery != OperatorEvent.Delivery.PENDING:
            return DeliveryOutcome("skipped")
        if event.next_attempt_at and event.next_attempt_at > now + timedelta(seconds=0.5):
            # An early duplicate (the sweep and a scheduled retry); the retry will come.
            return DeliveryOutcome("skipped")
        url = event.operator.webhook_url
        if not url:
            event.delivery = OperatorEvent.Delivery.NOT_CONFIGURED
            event.save(update_fields=["delivery"])
            return DeliveryOutcome("skipped")
        body = webhook_body(event)
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "casino-webhooks/1",
            EVENT_ID_HEADER: str(event.pk),
            TIMESTAMP_HEADER: str(timestamp),
            SIGNATURE_HEADER: webhook_signature(event.operator.webhook_secret, timestamp, body),
        }
        started = time.perf_counter()
        status_code, error = _post(url, body, headers)
        event.attempts += 1
        WebhookAttempt.objects.create(
            event=event,
            attempt=event.attempts,
            url=url,
            status_code=status_code,
            error=error,
            duration_ms=int((time.perf_counter() - started) * 1000),
        )
        if status_code is not None and 200 <= status_code < 300:
            event.delivery = OperatorEvent.Delivery.DELIVERED
            event.delivered_at = timezone.now()
            event.next_attempt_at = None
            outcome = DeliveryOutcome("delivered")
        elif event.attempts >= settings.LEDGER_WEBHOOK_MAX_ATTEMPTS:
            event.delivery = OperatorEvent.Delivery.FAILED
            event.next_attempt_at = None
            outcome = DeliveryOutcome("failed")
        else:
            delay = backoff_seconds(event.attempts)
            event.next_attempt_at = timezone.now() + timedelta(seconds=delay)
            outcome = DeliveryOutcome("retry", retry_in=delay)
        event.save(update_fields=["attempts", "delivery", "delivered_at", "next_attempt_at"])
    return outcome


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
