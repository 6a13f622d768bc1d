"""Login lockout (django-axes): at most ten failures per username, password or second factor,
then a cool-off that doubles with each further lockout that day; lockouts are audited once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.api import roles
from tests.factories import UserFactory
from tests.helpers.staff import enrolled_device, totp_code

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # tests/factories.py


def _attempt(client, username, password):
    return client.post("/admin/login/", {"username": username, "password": password})


def _names(*names) -> list[str]:
    return list(AuditEvent.objects.filter(name__in=names).values_list("name", flat=True))


def test_ten_wrong_passwords_lock_the_username_out_and_the_lockout_is_audited_once():
    user = UserFactory(roles=[roles.PIT_BOSS])
    enrolled_device(user)
    client = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(9):
        assert _attempt(client, user.username, "wrong").status_code == 200
    tenth = _attempt(client, user.username, "wrong")
    assert tenth.status_code == 429 and b"Too many failed logins" in tenth.content
    (locked,) = AuditEvent.objects.filter(name="auth.locked_out")
    assert locked.payload["username"] == user.username
    assert locked.payload["failures"] == 10
    assert locked.payload["cool_off_seconds"] == 30 * 60
    assert locked.payload["client"]["ip"] == "203.0.113.9"
    assert len(_names("auth.login_failed")) == 10

    # the right password is refused too, without counting, auditing or reaching the code step
    right = _attempt(client, user.username, PASSWORD)
    assert right.status_code == 429
    assert len(_names("auth.login_failed", "auth.locked_out")) == 11
    assert "staff_mfa_pending" not in client.session
    assert client.get("/admin/").status_code == 302
    api = APIClient()
    api.cookies = client.cookies
    assert api.get("/api/v1/me/").status_code == 401
    # another username is not affected
    other = UserFactory(roles=[roles.PIT_BOSS])
    assert _attempt(Client(), other.username, PASSWORD)["Location"] == "/admin/mfa/enrol/"


def test_wrong_codes_count_towards_the_lockout():
    user = UserFactory(roles=[roles.FLOOR_SUPERVISOR])
    device = enrolled_device(user)
    client = Client()
    for _ in range(5):
        _attempt(client, user.username, "wrong")
    _attempt(client, user.username, PASSWORD)
    statuses = []
    for _ in range(5):
        type(device).objects.filter(pk=device.pk).update(throttling_failure_timestamp=None)
        statuses.append(client.post("/admin/mfa/", {"token": "123456x"}).status_code)
    assert statuses == [200, 200, 200, 200, 429]
    stages = list(
        AuditEvent.objects.filter(name="auth.login_failed").values_list("payload__stage", flat=True)
    )
    assert stages == ["login"] * 5 + ["mfa"] * 5
    assert AuditEvent.objects.filter(name="auth.locked_out").count() == 1
    # the pending login is gone: even the right code cannot finish it
    response = client.post("/admin/mfa/", {"token": totp_code(device)})
    assert response.status_code == 302 and response["Location"] == "/admin/login/"


def test_a_full_login_resets_the_count():
    user = UserFactory(roles=[roles.DEALER])
    device = enrolled_device(user)
    client = Client()
    for _ in range(9):
        _attempt(client, user.username, "wrong")
    _attempt(client, user.username, PASSWORD)
    assert client.post("/admin/mfa/", {"token": totp_code(device)})["Location"] == "/admin/"
    assert not AccessAttempt.objects.filter(username=user.username).exists()
    client.post("/admin/logout/")
    for _ in range(9):
        assert _attempt(client, user.username, "wrong").status_code == 200


def _cool_off_passes(username: str, minutes: int) -> None:
    AccessAttempt.objects.filter(username=username).update(
        attempt_time=timezone.now() - timedelta(minutes=minutes)
    )


def test_the_cool_off_ends_and_doubles_with_each_lockout_that_day():
    user = UserFactory(roles=[roles.AUDITOR])
    enrolled_device(user)
    client = Client()
    for _ in range(10):
        _attempt(client, user.username, "wrong")
    _cool_off_passes(user.username, 29)
    assert _attempt(client, user.username, PASSWORD).status_code == 429
    _cool_off_passes(user.username, 31)
    assert _attempt(client, user.username, PASSWORD)["Location"] == "/admin/mfa/"

    for _ in range(10):
        _attempt(client, user.username, "wrong")
    second = AuditEvent.objects.filter(name="auth.locked_out").order_by("id").last()
    assert second.payload["cool_off_seconds"] == 60 * 60
    _cool_off_passes(user.username, 31)
    assert _attempt(client, user.username, PASSWORD).status_code == 429
    _cool_off_passes(user.username, 61)
    assert _attempt(client, user.username, PASSWORD)["Location"] == "/admin/mfa/"
