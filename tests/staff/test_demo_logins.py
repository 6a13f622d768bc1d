"""A newcomer logs in to the demo's console with only what `make demo` prints."""

import base64

import pytest
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice

from casino.demo.credentials import as_text
from casino.demo.seed import demo_seed

pytestmark = pytest.mark.django_db


def _login(username: str, password: str, code: str) -> Client:
    client = Client()
    step = client.post("/admin/login/", {"username": username, "password": password})
    assert step["Location"] == "/admin/mfa/", username
    assert client.post("/admin/mfa/", {"token": code})["Location"] == "/admin/"
    return client


def test_every_demo_login_works_with_its_printed_secret_or_backup_code():
    credentials = demo_seed()
    printed = as_text(credentials.document("http://127.0.0.1:8000"))
    for login in credentials.logins:
        secret, codes = login["totp_secret"], login["backup_codes"]
        assert f"secret={secret}" in login["otpauth_uri"]
        assert len(codes) == 3
        assert f"{login['username']:<8} secret {secret}  backup codes {' '.join(codes)}" in printed
        client = _login(login["username"], login["password"], codes[0])
        assert client.get("/admin/").status_code == 200
        code = f"{totp(base64.b32decode(secret)):06d}"
        assert _login(login["username"], login["password"], code).get("/admin/").status_code == 200


def _pitboss(credentials) -> dict:
    return next(login for login in credentials.logins if login["username"] == "pitboss")


def test_a_new_demo_run_keeps_the_secret_and_replaces_the_backup_codes():
    first, second = _pitboss(demo_seed()), _pitboss(demo_seed())
    assert first["totp_secret"] == second["totp_secret"]
    client = Client()
    client.post("/admin/login/", {"username": "pitboss", "password": first["password"]})
    assert client.post("/admin/mfa/", {"token": first["backup_codes"][1]}).status_code == 200
    # after django-otp's throttle delay that refusal imposes on the user's backup codes
    StaticDevice.objects.filter(user__username="pitboss").update(throttling_failure_timestamp=None)
    _login("pitboss", second["password"], second["backup_codes"][1])
