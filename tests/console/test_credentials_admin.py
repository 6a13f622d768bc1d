"""Credentials in the pit console: scopes, allow-list and expiry are edited through the
service (audited); rotation shows the new secrets once, on the page, never in a message."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino.api import roles
from casino.api.models import ApiKey, DeviceToken
from tests.conftest import bearer_client
from tests.factories import UserFactory
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def supervisor(client):
    login_verified(client, UserFactory(roles=[roles.FLOOR_SUPERVISOR]))
    return client


def _terms(when, scopes=("read",), networks="10.0.0.0/8\n192.0.2.1"):
    local = timezone.localtime(when)
    return {
        "scopes": list(scopes),
        "allowed_networks": networks,
        "expires_at_0": local.strftime("%Y-%m-%d"),
        "expires_at_1": local.strftime("%H:%M:%S"),
    }


def test_scopes_allow_list_and_expiry_are_changed_through_the_service(supervisor, api_key):
    key, raw = api_key
    url = f"/admin/api/apikey/{key.pk}/change/"
    form = supervisor.get(url).content.decode()
    assert 'name="scopes"' in form and 'name="allowed_networks"' in form
    soon = (timezone.now() + timedelta(days=30)).replace(microsecond=0)
    response = supervisor.post(url, _terms(soon))
    assert response.status_code == 302, response.content.decode()[:2000]
    key.refresh_from_db()
    assert key.scopes == ["read"]
    assert key.allowed_networks == ["10.0.0.0/8", "192.0.2.1/32"]
    assert key.expires_at == soon
    event = AuditEvent.objects.get(name="api_key.changed", payload__api_key_id=key.pk)
    assert event.payload["changes"]["scopes"] == [["read", "money"], ["read"]]
    assert event.payload["changes"]["expires_at"][1] == soon.isoformat()
    # the test client's 127.0.0.1 is now outside the allow-list
    assert bearer_client(raw).get("/api/v1/me/").status_code == 403


def test_an_expiry_beyond_the_lifetime_or_a_bad_network_is_a_form_error(supervisor, api_key):
    key, _ = api_key
    url = f"/admin/api/apikey/{key.pk}/change/"
    late = supervisor.post(url, _terms(timezone.now() + timedelta(days=400)))
    assert late.status_code == 200 and "At most 365 days" in late.content.decode()
    bad = supervisor.post(url, _terms(key.expires_at, networks="10.0.0.300/8"))
    assert bad.status_code == 200 and "is not an IP network" in bad.content.decode()
    key.refresh_from_db()
    assert key.scopes == ["read", "money"] and key.allowed_networks == []
    assert not AuditEvent.objects.filter(name="api_key.changed").exists()


def test_rotating_in_the_console_shows_the_new_secret_once_on_the_page(supervisor, api_key):
    key, old = api_key
    url = "/admin/api/apikey/"
    ask = supervisor.post(url, {"action": "rotate", "_selected_action": [key.pk]})
    assert ask.status_code == 200 and b"reason" in ask.content
    assert ApiKey.objects.get(pk=key.pk).rotated_at is None
    done = supervisor.post(
        url,
        {
            "action": "rotate",
            "_selected_action": [key.pk],
            "_reason_page": "1",
            "reason": "yearly rotation",
            "confirm": "on",
        },
    )
    assert done.status_code == 200 and "no-store" in done["Cache-Control"]
    new = re.search(r"ck_[0-9a-f]{12}_[A-Za-z0-9_-]+", done.content.decode()).group(0)
    assert new != old and new.split("_")[1] == key.prefix
    assert new not in str(done.cookies)  # no message (cookie) carries it
    assert new not in supervisor.get(url).content.decode()
    assert bearer_client(old).get("/api/v1/me/").status_code == 200  # the overlap
    assert bearer_client(new).get("/api/v1/me/").status_code == 200
    event = AuditEvent.objects.get(name="api_key.rotated", payload__api_key_id=key.pk)
    assert event.payload["reason"] == "yearly rotation"


def test_a_device_token_is_issued_with_its_scopes_and_a_revoked_one_is_read_only(supervisor, table):
    response = supervisor.post(
        "/admin/api/devicetoken/add/",
        {"table": table.pk, "device_id": "reader-9", "label": "reader", "scopes": ["read", "pit"]},
    )
    assert response.status_code == 200 and "dt_" in response.content.decode()  # shown once
    token = DeviceToken.objects.get(device_id="reader-9")
    assert token.scopes == ["read", "pit"]
    assert token.expires_at - timezone.now() > timedelta(days=89)
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    url = f"/admin/api/devicetoken/{token.pk}/change/"
    assert supervisor.post(url, _terms(timezone.now() + timedelta(days=1))).status_code == 403
    token.refresh_from_db()
    assert token.scopes == ["read", "pit"]
