"""Staff sessions end after 15 idle minutes and 12 hours after the login (README
"Configuration"), in the console and the API alike; the session's timestamps are moved back
instead of waiting."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.api import roles
from casino.staff.sessions import SEEN_KEY, STARTED_KEY
from tests.factories import UserFactory
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db


def _staff():
    client = Client()
    user = UserFactory(roles=[roles.PIT_BOSS])
    login_verified(client, user)
    return client, user


def _age(client, *, started_s: float = 0, seen_s: float = 0) -> None:
    session = client.session
    now = time.time()
    session[STARTED_KEY] = now - started_s
    session[SEEN_KEY] = now - seen_s
    session.save()


def _api(client) -> APIClient:
    api = APIClient()
    api.cookies = client.cookies
    return api


def test_fifteen_idle_minutes_end_the_session():
    client, user = _staff()
    _age(client, started_s=14 * 60, seen_s=14 * 60)
    assert client.get("/admin/").status_code == 200
    assert time.time() - client.session[SEEN_KEY] < 5  # activity recorded
    _age(client, started_s=16 * 60, seen_s=15 * 60 + 5)
    assert client.get("/admin/").status_code == 302
    assert client.get("/admin/").status_code == 302  # logged out, not just refused once
    (expired,) = AuditEvent.objects.filter(name="auth.session_expired")
    assert expired.actor_id == str(user.pk) and expired.payload["reason"] == "idle timeout"
    assert AuditEvent.objects.filter(name="auth.logout", actor_id=str(user.pk)).exists()


def test_the_idle_timeout_applies_to_api_sessions():
    client, _ = _staff()
    assert _api(client).get("/api/v1/me/").status_code == 200
    _age(client, started_s=20 * 60, seen_s=16 * 60)
    assert _api(client).get("/api/v1/me/").status_code == 401


def test_the_dashboards_own_refreshes_do_not_count_as_activity():
    client, _ = _staff()
    _age(client, started_s=10 * 60, seen_s=10 * 60)
    seen = client.session[SEEN_KEY]
    refresh = client.get("/admin/tables/table/floor/fragment/", HTTP_X_REQUESTED_WITH="fetch")
    assert refresh.status_code == 200
    assert client.session[SEEN_KEY] == seen
    _age(client, started_s=16 * 60, seen_s=16 * 60)
    gone = client.get("/admin/tables/table/floor/fragment/", HTTP_X_REQUESTED_WITH="fetch")
    assert gone.status_code == 302


def test_twelve_hours_after_the_login_the_session_ends_however_active():
    client, _ = _staff()
    _age(client, started_s=12 * 3600 - 60, seen_s=30)
    assert client.get("/admin/").status_code == 200
    _age(client, started_s=12 * 3600 + 1, seen_s=30)
    assert client.get("/admin/").status_code == 302
    (expired,) = AuditEvent.objects.filter(name="auth.session_expired")
    assert expired.payload["reason"] == "absolute lifetime"


def test_the_limits_are_configurable(settings):
    settings.STAFF_IDLE_TIMEOUT_MINUTES = 5
    settings.STAFF_SESSION_MAX_HOURS = 1
    client, _ = _staff()
    _age(client, started_s=60, seen_s=6 * 60)
    assert client.get("/admin/").status_code == 302
    client, _ = _staff()
    _age(client, started_s=3601, seen_s=0)
    assert client.get("/admin/").status_code == 302


def test_the_session_cookie_lives_no_longer_than_the_absolute_lifetime(settings):
    assert settings.SESSION_COOKIE_AGE == settings.STAFF_SESSION_MAX_HOURS * 3600
