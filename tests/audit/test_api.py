"""The auditor API: read-only, filterable, and every read is itself audited."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.services import audit_event_record
from audit.verification import audit_chain_verify
from casino.actors import Actor
from casino.api import roles
from tests.factories import UserFactory
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db

ENDPOINTS = ["/api/v1/audit/events/", "/api/v1/audit/verification/", "/api/v1/audit/head/"]


@pytest.fixture
def logged():
    system = Actor.system("tests")
    return [
        audit_event_record(name="bet.placed", actor=system, table_id=1, round_id=10),
        audit_event_record(name="bet.placed", actor=system, table_id=2, round_id=20),
        audit_event_record(name="round.settled", actor=system, table_id=1, round_id=10),
    ]


@pytest.mark.parametrize(
    ("role", "may_view"),
    [
        (roles.AUDITOR, True),
        (roles.PIT_BOSS, True),
        (roles.FLOOR_SUPERVISOR, True),
        (roles.DEALER, False),
        (roles.OPERATOR_INTEGRATION, False),
        (roles.DEALER_DEVICE, False),
        ("anonymous", False),
    ],
)
def test_who_may_read_the_audit_log(client_for, logged, role, may_view):
    client = client_for(role)
    for url in [*ENDPOINTS, f"/api/v1/audit/events/{logged[0].pk}/"]:
        status = client.get(url).status_code
        assert status == 200 if may_view else status in (401, 403), url


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_nobody_may_change_the_audit_log_through_the_api(client_for, logged, method):
    client = client_for(roles.FLOOR_SUPERVISOR)
    for url in ["/api/v1/audit/events/", f"/api/v1/audit/events/{logged[0].pk}/"]:
        assert getattr(client, method)(url, {}, format="json").status_code in (403, 405)
    assert AuditEvent.objects.filter(pk=logged[0].pk, name="bet.placed").exists()


def test_events_filter_by_name_table_round_actor_and_time(client_for, logged):
    client = client_for(roles.AUDITOR)

    def ids(**params):
        body = client.get("/api/v1/audit/events/", params).json()
        return [row["id"] for row in body["results"]]

    first, second, third = (event.pk for event in logged)
    assert ids(name="bet.placed") == [second, first]
    assert ids(table=1) == [third, first]
    assert ids(round=20) == [second]
    assert ids(name="bet.placed", table=1) == [first]
    assert set(ids(actor_kind="system", actor_id="")) >= {first, second, third}
    future = (timezone.now() + timedelta(hours=1)).isoformat()
    assert ids(occurred_after=future, table=1) == []
    assert ids(occurred_before=future, round=10) == [third, first]


def test_events_are_cursor_paginated(client_for, logged):
    client = client_for(roles.AUDITOR)
    page = client.get("/api/v1/audit/events/", {"page_size": 1, "name_prefix": "bet."}).json()
    assert [row["id"] for row in page["results"]] == [logged[1].pk] and page["next"]
    rest = client.get(page["next"]).json()
    assert [row["id"] for row in rest["results"]] == [logged[0].pk] and not rest["next"]


def test_reading_the_log_is_itself_audited(logged):
    auditor = UserFactory(roles=[roles.AUDITOR])
    client = APIClient()
    login_verified(client, auditor)
    client.get("/api/v1/audit/events/", {"round": 10})
    client.get(f"/api/v1/audit/events/{logged[1].pk}/")
    client.get("/api/v1/audit/head/")
    views = list(AuditEvent.objects.filter(name="audit.viewed").order_by("id"))
    assert [v.payload["what"] for v in views] == ["events", "event", "head"]
    assert {(v.actor_kind, v.actor_id) for v in views} == {("user", str(auditor.pk))}
    assert views[0].payload["filters"] == {"round": "10"}
    assert views[0].payload["event_ids"] == [logged[2].pk, logged[0].pk]
    assert views[1].payload["event_id"] == logged[1].pk


def test_event_detail_shows_its_seal_once_sealed(client_for, logged):
    client = client_for(roles.AUDITOR)
    body = client.get(f"/api/v1/audit/events/{logged[0].pk}/").json()
    assert body["seal"] is None  # not sealed yet: its transaction (the test's) is still open
    assert body["payload"] == {} and body["round_id"] == 10


def test_verification_status_and_signed_head(client_for, logged):
    client = client_for(roles.AUDITOR)
    status = client.get("/api/v1/audit/verification/").json()
    assert status["head"]["seq"] == 0 and status["events_pending"] >= 3
    assert status["last_verification"] is None
    head = client.get("/api/v1/audit/head/").json()
    assert head["algorithm"] == "Ed25519" and len(head["signature"]) == 128
    assert head["canonicalization"] == "RFC 8785"
    assert [key["key_id"] for key in head["keys"]] == [head["head"]["key_id"]]
    assert audit_chain_verify(anchor=head).ok


def test_public_keys_are_served_to_anyone_and_verify_what_is_signed(client):
    import base64

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from audit import signing

    response = client.get("/api/v1/audit/keys/")  # no credential at all
    assert response.status_code == 200
    [key] = response.json()["keys"]
    assert key == {
        "key_id": signing.key_id(),
        "algorithm": "Ed25519",
        "public_key": key["public_key"],
        "active": True,
    }
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(key["public_key"]))
    public.verify(bytes.fromhex(signing.sign(b"message")), b"message")  # raises if not


@pytest.mark.parametrize("name", ["table", "round", "bet", "wallet", "operator"])
@pytest.mark.parametrize("value", ["1.5", "1e5", "-1", "0", "99999999999999999999", "x"])
def test_an_event_id_filter_takes_whole_numbers_in_range_only(client_for, logged, name, value):
    refused = client_for(roles.AUDITOR).get("/api/v1/audit/events/", {name: value})
    assert refused.status_code == 400, (name, value, refused.content)
    problem = refused.json()
    assert problem["param"] == name and [e["field"] for e in problem["errors"]] == [name]
    assert not AuditEvent.objects.filter(name="audit.viewed").exists()


def test_the_read_records_the_filters_applied_not_every_parameter_sent(client_for, logged):
    typo = client_for(roles.AUDITOR).get("/api/v1/audit/events/", {"round": 10, "tabel": 1})
    assert typo.status_code == 400  # a parameter the list does not take is named, not ignored
    assert [e["field"] for e in typo.json()["errors"]] == ["tabel"]
    assert not AuditEvent.objects.filter(name="audit.viewed").exists()
    client_for(roles.AUDITOR).get("/api/v1/audit/events/", {"round": 10})
    viewed = AuditEvent.objects.get(name="audit.viewed")
    assert viewed.payload["filters"] == {"round": "10"}
