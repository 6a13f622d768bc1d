import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User

from audit.models import AuditEvent
from casino.api import roles
from casino.api.models import ApiKey
from casino.console.admin import ConsoleModelAdmin
from tests.factories import UserFactory
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db

# Django's own auth admin stays as it is; changes to users and groups are audited by signals.
DJANGO_OWN = {User, Group}


def test_every_registered_model_admin_is_audited():
    offenders = [
        f"{model._meta.label}: {type(model_admin).__name__}"
        for model, model_admin in admin.site._registry.items()
        if model not in DJANGO_OWN and not isinstance(model_admin, ConsoleModelAdmin)
    ]
    assert offenders == []


def test_issuing_an_api_key_in_the_console_shows_the_secret_once_and_is_audited(client, operator):
    login_verified(client, UserFactory(roles=[roles.FLOOR_SUPERVISOR]))
    response = client.post(
        "/admin/api/apikey/add/",
        {"operator": operator.pk, "label": "cashier", "scopes": ["read", "money"]},
        follow=True,
    )
    assert response.status_code == 200
    page = response.content.decode()
    secret = re.search(r"ck_[0-9a-f]{12}_[A-Za-z0-9_-]+", page).group(0)
    key = ApiKey.objects.get(label="cashier")
    assert secret.split("_")[1] == key.prefix
    assert AuditEvent.objects.filter(name="api_key.issued", payload__api_key_id=key.pk).exists()
    assert AuditEvent.objects.filter(name="admin.added", payload__object_id=str(key.pk)).exists()
    detail = client.get(f"/admin/api/apikey/{key.pk}/change/").content.decode()
    assert secret not in detail


def test_revoking_in_the_console_asks_for_a_reason_then_calls_the_service(client, api_key):
    key, _ = api_key
    login_verified(client, UserFactory(roles=[roles.FLOOR_SUPERVISOR]))
    url = "/admin/api/apikey/"
    ask = client.post(url, {"action": "revoke", "_selected_action": [key.pk]})
    assert ask.status_code == 200 and b"reason" in ask.content
    key.refresh_from_db()
    assert key.revoked_at is None
    no_reason = client.post(
        url, {"action": "revoke", "_selected_action": [key.pk], "_reason_page": "1"}
    )
    assert b"This field is required" in no_reason.content
    done = client.post(
        url,
        {
            "action": "revoke",
            "_selected_action": [key.pk],
            "_reason_page": "1",
            "reason": "leaked in a log file",
            "confirm": "on",
        },
        follow=True,
    )
    assert done.status_code == 200
    key.refresh_from_db()
    assert key.revoked_at is not None
    event = AuditEvent.objects.get(name="api_key.revoked", payload__api_key_id=key.pk)
    assert event.payload["reason"] == "leaked in a log file"


def test_pit_boss_cannot_issue_api_keys_in_the_console(client, operator):
    login_verified(client, UserFactory(roles=[roles.PIT_BOSS]))
    response = client.post("/admin/api/apikey/add/", {"operator": operator.pk, "label": "x"})
    assert response.status_code == 403
    assert not ApiKey.objects.filter(label="x").exists()


@pytest.mark.parametrize(
    "query",
    [
        "/admin/audit/auditevent/?occurred_at__year=9999",
        "/admin/audit/auditevent/?occurred_at__year=9999&occurred_at__month=12",
        "/admin/ledger/transaction/?posted_at__year=9999&posted_at__month=12",
        "/admin/tables/round/?opened_at__year=9999&opened_at__month=12&opened_at__day=31",
        "/admin/tables/rosterentry/?gaming_day__year=9999",
        "/admin/tables/round/?opened_at__year=99999999999999999999",
    ],
)
def test_a_date_a_list_cannot_filter_by_is_the_incorrect_lookup_page_not_a_500(client, query):
    """Django checks a date hierarchy's start but builds its end (the next year, month or
    day) outside that check: these were 500s."""
    login_verified(client, UserFactory(roles=[roles.AUDITOR, roles.PIT_BOSS]))
    response = client.get(query)
    assert response.status_code == 302 and response["Location"].endswith("?e=1")
