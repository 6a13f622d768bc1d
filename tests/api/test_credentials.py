import pytest

from audit.models import AuditEvent
from casino.api import roles
from casino.api.credentials import credential_hash
from casino.api.models import ApiKey, DeviceToken
from tests.conftest import bearer_client

pytestmark = pytest.mark.django_db


def test_api_key_is_shown_once_stored_hashed_and_audited(client_for, operator):
    response = client_for(roles.FLOOR_SUPERVISOR).post(
        "/api/v1/api-keys/", {"operator_id": operator.pk, "label": "lobby"}, format="json"
    )
    assert response.status_code == 201
    secret = response.json()["secret"]
    assert secret.startswith("ck_")
    stored = ApiKey.objects.get(pk=response.json()["api_key"]["id"])
    assert stored.secret_hash == credential_hash(secret)
    assert secret not in str(ApiKey.objects.filter(pk=stored.pk).values().get())
    listing = client_for(roles.FLOOR_SUPERVISOR).get("/api/v1/api-keys/").json()
    assert secret not in str(listing)
    event = AuditEvent.objects.get(name="api_key.issued", payload__api_key_id=stored.pk)
    assert event.payload["prefix"] == stored.prefix
    assert secret not in str(event.payload)


def test_api_key_authenticates_as_its_operator_until_revoked(client_for, api_key, operator):
    key, raw = api_key
    me = bearer_client(raw).get("/api/v1/me/").json()
    assert me == {
        "kind": "api_key",
        "name": f"api_key:{key.prefix}",
        "roles": [roles.OPERATOR_INTEGRATION],
        "operator_id": operator.pk,
        "table_id": None,
    }
    revoked = client_for(roles.FLOOR_SUPERVISOR).post(
        f"/api/v1/api-keys/{key.pk}/revoke/", {"reason": "rotated"}, format="json"
    )
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    response = bearer_client(raw).get("/api/v1/me/")
    assert response.status_code == 401
    assert "revoked" in response.json()["detail"]
    again = client_for(roles.FLOOR_SUPERVISOR).post(
        f"/api/v1/api-keys/{key.pk}/revoke/", {"reason": "twice"}, format="json"
    )
    assert again.status_code == 409
    assert AuditEvent.objects.filter(name="api_key.revoked").count() == 1


def test_tampered_secret_with_valid_prefix_is_refused(api_key):
    _, raw = api_key
    response = bearer_client(raw[:-2] + "zz").get("/api/v1/me/")
    assert response.status_code == 401


def test_device_token_is_bound_to_one_table(client_for, table):
    response = client_for(roles.PIT_BOSS).post(
        "/api/v1/device-tokens/", {"table_id": table.pk, "device_id": "shoe-7"}, format="json"
    )
    assert response.status_code == 201
    raw = response.json()["secret"]
    token = DeviceToken.objects.get(pk=response.json()["device_token"]["id"])
    assert token.secret_hash == credential_hash(raw)
    me = bearer_client(raw).get("/api/v1/me/").json()
    assert me["kind"] == "device" and me["table_id"] == table.pk and me["operator_id"] is None
    assert AuditEvent.objects.filter(name="device_token.issued", table_id=table.pk).exists()


def test_refused_credentials_are_audited_with_their_prefix(api_key, client_for):
    """The first refusal from an address is audited at once; the window's next ones are
    counted in its summary (tests/api/test_refusals.py)."""
    from audit.models import AuditEvent

    key, raw = api_key
    assert bearer_client(raw[:-2] + "zz").get("/api/v1/me/").status_code == 401
    client_for(roles.FLOOR_SUPERVISOR).post(
        f"/api/v1/api-keys/{key.pk}/revoke/", {"reason": "rotated"}, format="json"
    )
    response = bearer_client(raw).get("/api/v1/me/")
    assert response.status_code == 401 and "revoked" in response.json()["detail"]
    refusals = AuditEvent.objects.filter(name="auth.credential_refused").order_by("id")
    assert [(e.payload["prefix"], e.payload["reason"]) for e in refusals] in (
        [(key.prefix, "invalid")],
        [(key.prefix, "invalid"), (key.prefix, "revoked")],  # a new window began in between
    )
