"""Refused bearer credentials: throttled per client address before anything is recorded, and
audited as one event per address and window plus one summary, not a row per attempt."""

import secrets
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.api.services import credential_refusals_summarize
from casino.api.throttling import RefusalWindow

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.23"


@pytest.fixture
def hourly_windows(settings):
    """20 refusals an hour, and a test that starts well inside its window."""
    settings.API_REFUSAL_THROTTLE_RATE = "20/h"
    window = RefusalWindow.at(ADDRESS, timezone.now())
    left = (window.end - timezone.now()).total_seconds()
    if left < 60:
        time.sleep(left + 1)
    return RefusalWindow.at(ADDRESS, timezone.now())


def _random_token_client(address: str = ADDRESS) -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(
        HTTP_AUTHORIZATION=f"Bearer ck_{secrets.token_hex(6)}_{secrets.token_hex(16)}"
    )
    return client


def _rows(name: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(name=name).order_by("id"))


def test_300_random_tokens_write_two_rows_and_are_throttled_after_the_limit(hourly_windows):
    before = AuditEvent.objects.count()
    statuses = [_random_token_client().get("/api/v1/me/") for _ in range(300)]
    assert [r.status_code for r in statuses] == [401] * 20 + [429] * 280
    assert statuses[0]["Content-Type"] == "application/problem+json"
    throttled = statuses[-1]
    assert throttled["Content-Type"] == "application/problem+json"
    assert 0 < int(throttled["Retry-After"]) <= 3600
    (first,) = _rows("auth.credential_refused")
    assert first.payload["reason"] == "invalid" and first.payload["client"]["ip"] == ADDRESS
    assert first.payload["window"]["start"] == hourly_windows.start.isoformat()
    assert AuditEvent.objects.count() == before + 1

    # Nothing is summarized while the window is open; once it has closed, exactly once.
    assert credential_refusals_summarize() == 0
    after_close = hourly_windows.end + timedelta(seconds=1)
    assert credential_refusals_summarize(now=after_close) == 1
    assert credential_refusals_summarize(now=after_close + timedelta(minutes=5)) == 0
    (summary,) = _rows("auth.credential_refusals")
    assert summary.payload == {
        "window": hourly_windows.as_payload(),
        "refused": 20,
        "throttled": 280,
    }
    assert AuditEvent.objects.count() == before + 2


def test_throttling_is_per_address(hourly_windows):
    for _ in range(21):
        _random_token_client().get("/api/v1/me/")
    assert _random_token_client().get("/api/v1/me/").status_code == 429
    assert _random_token_client("203.0.113.9").get("/api/v1/me/").status_code == 401
    assert [e.payload["client"]["ip"] for e in _rows("auth.credential_refused")] == [
        ADDRESS,
        "203.0.113.9",
    ]


def test_a_lone_refusal_gets_no_summary(hourly_windows):
    assert _random_token_client().get("/api/v1/me/").status_code == 401
    assert credential_refusals_summarize(now=hourly_windows.end + timedelta(seconds=1)) == 0
    assert len(_rows("auth.credential_refused")) == 1


@pytest.mark.parametrize(
    "token",
    [
        lambda: f"dt_{secrets.token_hex(6)}_{secrets.token_hex(16)}",  # device tokens
        lambda: f"st_{secrets.token_hex(6)}_{secrets.token_hex(16)}",  # staff tokens
        lambda: f"ck_{secrets.token_hex(3)}",  # malformed: no lookup, still a refusal
        lambda: f"ck_{secrets.token_hex(6)}_\u00e9\u00ff",  # latin-1 junk
    ],
    ids=["device", "staff", "malformed", "junk"],
)
def test_every_kind_of_refused_bearer_credential_is_throttled_and_audited_once(
    hourly_windows, token
):
    before = AuditEvent.objects.count()
    statuses = []
    for _ in range(25):
        client = APIClient(REMOTE_ADDR=ADDRESS)
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token()}")
        statuses.append(client.get("/api/v1/tables/").status_code)
    assert statuses == [401] * 20 + [429] * 5
    assert AuditEvent.objects.count() == before + 1
    assert _rows("auth.credential_refused")[0].payload["client"]["ip"] == ADDRESS
