"""Pit console alerts for bursts of failed staff logins and refused API credentials, and for
lockouts, shown on the floor dashboard while they are recent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from audit.services import audit_event_record
from casino.actors import Actor
from casino.api import roles
from casino.console.selectors import security_alerts
from tests.factories import UserFactory
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db

FLOOR = "/admin/tables/table/floor/fragment/"


def _fail_logins(username: str, times: int) -> None:
    client = Client()
    for _ in range(times):
        client.post("/admin/login/", {"username": username, "password": "wrong"})


def _supervisor() -> Client:
    client = Client()
    login_verified(client, UserFactory(roles=[roles.FLOOR_SUPERVISOR]))
    return client


def _texts(**kwargs) -> list[str]:
    return [alert.text for alert in security_alerts(**kwargs)]


def test_a_burst_of_failed_logins_shows_on_the_floor_while_recent():
    _fail_logins("ghost", 2)
    _fail_logins("boss", 2)
    assert _texts() == []
    _fail_logins("boss", 1)
    page = _supervisor().get(FLOOR).content.decode()
    assert "5 failed staff logins (2 usernames) in the last 5 minutes" in page
    assert "name__exact=auth.login_failed" in page
    assert _texts(now=timezone.now() + timedelta(minutes=6)) == []


def test_a_lockout_shows_as_an_error_until_its_cool_off_ends():
    user = UserFactory(roles=[roles.DEALER])
    _fail_logins(user.username, 10)
    page = _supervisor().get(FLOOR).content.decode()
    assert f"Login of {user.username} locked out after repeated failures" in page
    assert "console-alert-error" in page
    later = _texts(now=timezone.now() + timedelta(minutes=31))
    assert not any("locked out" in text for text in later)


def _refused() -> None:
    audit_event_record(
        name="auth.credential_refused",
        actor=Actor(kind="anonymous", id=None, label="ck:?"),
        payload={"kind": "ck", "prefix": "", "reason": "invalid"},
    )


def test_a_burst_of_refused_credentials_shows_on_the_floor():
    for _ in range(19):
        _refused()
    assert _texts() == []
    _refused()
    page = _supervisor().get(FLOOR).content.decode()
    assert "20 refused API keys or device tokens in the last 5 minutes" in page
    assert _texts(now=timezone.now() + timedelta(minutes=6)) == []


def test_summarized_refusals_count_with_their_throttled_attempts():
    _refused()  # the first of its address's window; the summary counts it again in "refused"
    audit_event_record(
        name="auth.credential_refusals",
        actor=Actor(kind="anonymous", id=None, label="203.0.113.5"),
        payload={"window": {}, "refused": 10, "throttled": 25},
    )
    assert _texts() == ["35 refused API keys or device tokens in the last 5 minutes"]
