"""A newcomer logs in to the demo's console with only what `make demo` prints."""

import base64

import pytest
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice

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
    assert set(credentials.mfa) == set(credentials.staff)
    for username, password in credentials.staff.items():
        mfa = credentials.mfa[username]
        assert f"secret={mfa.secret}" in mfa.otpauth_uri
        assert len(mfa.backup_codes) == 3
        client = _login(username, password, mfa.backup_codes[0])
        assert client.get("/admin/").status_code == 200
        code = f"{totp(base64.b32decode(mfa.secret)):06d}"
        assert _login(username, password, code).get("/admin/").status_code == 200


def test_a_new_demo_run_keeps_the_secret_and_replaces_the_backup_codes():
    first = demo_seed()
    second = demo_seed()
    assert first.mfa["pitboss"].secret == second.mfa["pitboss"].secret
    client = Client()
    client.post("/admin/login/", {"username": "pitboss", "password": first.staff["pitboss"]})
    assert (
        client.post("/admin/mfa/", {"token": first.mfa["pitboss"].backup_codes[1]}).status_code
        == 200
    )
    # after django-otp's throttle delay that refusal imposes on the user's devices
    StaticDevice.objects.filter(user__username="pitboss").update(throttling_failure_timestamp=None)
    _login("pitboss", second.staff["pitboss"], second.mfa["pitboss"].backup_codes[1])
