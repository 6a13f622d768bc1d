"""Every staff role needs a second factor (TOTP or a backup code, or a remembered device) to
reach the console or the API; a user without a device enrols right after the password."""

from __future__ import annotations

import base64
import re
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.api import roles
from casino.staff.mfa import REMEMBER_COOKIE
from tests.factories import UserFactory
from tests.helpers.staff import enrolled_device, login_unverified, totp_code

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # tests/factories.py
STAFF_ROLES = [
    roles.PIT_BOSS,
    roles.FLOOR_SUPERVISOR,
    roles.DEALER,
    roles.AUDITOR,
    roles.OPERATOR_STAFF,
    "superuser",
]


def _user(role: str):
    if role == "superuser":
        return UserFactory(is_superuser=True)
    return UserFactory(roles=[role])


def _password(client, user, **extra):
    return client.post(
        "/admin/login/?next=/admin/", {"username": user.username, "password": PASSWORD, **extra}
    )


def _reaches_console_and_api(client) -> tuple[int, int, int]:
    api = APIClient()
    api.cookies = client.cookies
    return (
        client.get("/admin/").status_code,
        client.get("/admin/audit/reports/").status_code,
        api.get("/api/v1/me/").status_code,
    )


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_a_password_alone_reaches_neither_the_console_nor_the_api(role):
    user = _user(role)
    device = enrolled_device(user)
    client = Client()
    response = _password(client, user)
    assert response.status_code == 302 and response["Location"] == "/admin/mfa/"
    assert _reaches_console_and_api(client) == (302, 302, 401)  # not logged in at all
    assert not AuditEvent.objects.filter(name="auth.login").exists()

    done = client.post("/admin/mfa/", {"token": totp_code(device)})
    assert done.status_code == 302 and done["Location"] == "/admin/"
    index, reports, me = _reaches_console_and_api(client)
    assert index == 200 and me == 200
    assert reports != 302  # past the login (the role decides 200 or 403)
    (verified,) = AuditEvent.objects.filter(name="auth.mfa_verified")
    assert verified.actor_id == str(user.pk) and verified.payload["method"] == "totp"
    assert AuditEvent.objects.filter(name="auth.login", actor_id=str(user.pk)).count() == 1


@pytest.mark.parametrize("role", STAFF_ROLES)
def test_a_session_that_skipped_the_second_factor_is_refused(role):
    client = Client()
    login_unverified(client, _user(role))
    api = APIClient()
    api.cookies = client.cookies
    response = api.get("/api/v1/me/")
    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    assert "second factor" in response.json()["detail"]
    assert client.get("/admin/").status_code == 302
    assert client.get("/admin/tables/table/").status_code == 302


def test_a_wrong_code_is_refused_and_audited():
    user = UserFactory(roles=[roles.PIT_BOSS])
    device = enrolled_device(user)
    client = Client()
    _password(client, user)
    wrong = f"{(int(totp_code(device)) + 1) % 1_000_000:06d}"
    response = client.post("/admin/mfa/", {"token": wrong})
    assert response.status_code == 200 and b"not valid" in response.content
    assert client.get("/admin/").status_code == 302
    (failed,) = AuditEvent.objects.filter(name="auth.login_failed")
    assert failed.payload["username"] == user.username and failed.payload["stage"] == "mfa"


def test_the_code_step_needs_a_recent_password_step():
    user = UserFactory(roles=[roles.PIT_BOSS])
    device = enrolled_device(user)
    client = Client()
    assert client.post("/admin/mfa/", {"token": totp_code(device)})["Location"] == "/admin/login/"
    _password(client, user)
    session = client.session
    session["staff_mfa_pending"]["at"] = time.time() - 301
    session.save()
    assert client.post("/admin/mfa/", {"token": totp_code(device)})["Location"] == "/admin/login/"
    assert client.get("/admin/").status_code == 302


def test_enrolment_shows_the_secret_until_its_first_code_then_backup_codes_once():
    user = UserFactory(roles=[roles.FLOOR_SUPERVISOR])
    client = Client()
    assert _password(client, user)["Location"] == "/admin/mfa/enrol/"
    page = client.get("/admin/mfa/enrol/").content.decode()
    secret = re.search(r'id="totp-secret">([A-Z2-7]+)<', page).group(1)
    uri = re.search(r'id="otpauth-uri">([^<]+)<', page).group(1)
    assert uri.startswith("otpauth://totp/") and f"secret={secret}" in uri
    assert "<svg" in page
    assert client.get("/admin/").status_code == 302  # not logged in while enrolling

    device = TOTPDevice.objects.get(user=user)
    assert not device.confirmed
    key = base64.b32decode(secret)
    assert key == device.bin_key
    bad = client.post("/admin/mfa/enrol/", {"token": "000000"})
    assert bad.status_code == 200 and b"not valid" in bad.content
    # django-otp throttles a device after a wrong code (1 s, doubling): the user waited
    too_soon = client.post("/admin/mfa/enrol/", {"token": f"{totp(key):06d}"})
    assert b"Too many wrong codes" in too_soon.content
    _waited(device)

    done = client.post("/admin/mfa/enrol/", {"token": f"{totp(key):06d}"})
    assert done.status_code == 200
    codes = re.findall(r"<li><code>([a-z0-9]+)</code></li>", done.content.decode())
    assert len(codes) == 10
    device.refresh_from_db()
    assert device.confirmed
    assert client.get("/admin/").status_code == 200
    enrolled = AuditEvent.objects.get(name="auth.mfa_enrolled")
    assert enrolled.actor_id == str(user.pk) and enrolled.payload["backup_codes"] == 10
    assert secret not in str(enrolled.payload)
    # the secret is not shown again: the enrolment page now sends the user to the code step
    other = Client()
    _password(other, user)
    assert other.get("/admin/mfa/enrol/")["Location"] == "/admin/mfa/"

    # a backup code works once in place of a code
    assert other.post("/admin/mfa/", {"token": codes[0]})["Location"] == "/admin/"
    assert AuditEvent.objects.filter(name="auth.mfa_verified", payload__method="backup").exists()
    third = Client()
    _password(third, user)
    assert third.post("/admin/mfa/", {"token": codes[0]}).status_code == 200
    assert StaticToken.objects.filter(device__user=user).count() == 9


def test_an_abandoned_enrolment_secret_is_replaced():
    user = UserFactory(roles=[roles.DEALER])
    first, second = Client(), Client()
    _password(first, user)
    first.get("/admin/mfa/enrol/")
    old = TOTPDevice.objects.get(user=user)
    _password(second, user)
    second.get("/admin/mfa/enrol/")
    assert not TOTPDevice.objects.filter(pk=old.pk).exists()
    response = first.post("/admin/mfa/enrol/", {"token": f"{totp(old.bin_key):06d}"})
    assert client_is_out(first) and response.status_code in (200, 302)


def _waited(device) -> None:
    type(device).objects.filter(pk=device.pk).update(
        throttling_failure_timestamp=timezone.now() - timedelta(minutes=5)
    )


def client_is_out(client) -> bool:
    return client.get("/admin/").status_code == 302


def _login_remembering(client, user, device):
    _password(client, user)
    return client.post("/admin/mfa/", {"token": totp_code(device), "remember": "on"})


def test_a_remembered_device_skips_the_code_for_its_window(settings):
    user = UserFactory(roles=[roles.PIT_BOSS])
    device = enrolled_device(user)
    client = Client()
    response = _login_remembering(client, user, device)
    cookie = response.cookies[REMEMBER_COOKIE]
    assert cookie["httponly"] and cookie["max-age"] == 7 * 86400
    client.post("/admin/logout/")
    assert client_is_out(client)

    again = _password(client, user)
    assert again["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    assert AuditEvent.objects.filter(
        name="auth.mfa_verified", payload__method="remembered"
    ).exists()

    # the cookie is this user's only: another user still needs a code
    other = UserFactory(roles=[roles.PIT_BOSS])
    enrolled_device(other)
    client.post("/admin/logout/")
    assert _password(client, other)["Location"] == "/admin/mfa/"

    # a new secret (re-enrolment) forgets every remembered browser
    client = Client()
    _login_remembering(client, user, device)
    client.post("/admin/logout/")
    device.key = TOTPDevice._meta.get_field("key").default()
    device.save()
    assert _password(client, user)["Location"] == "/admin/mfa/"


def test_a_remembered_device_expires(monkeypatch):
    user = UserFactory(roles=[roles.PIT_BOSS])
    device = enrolled_device(user)
    client = Client()
    eight_days_ago = time.time() - 8 * 86400
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: eight_days_ago))
    _login_remembering(client, user, device)
    monkeypatch.undo()
    client.post("/admin/logout/")
    assert _password(client, user)["Location"] == "/admin/mfa/"
