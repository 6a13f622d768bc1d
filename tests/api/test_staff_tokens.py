"""Staff API tokens (issue 16): personal, role-bound, expiring, revocable; minted only from a
session that passed the second factor; four-eyes still compares people."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.api import roles
from casino.api.models import StaffToken
from tables.models import Round, VoidRequest
from tests.conftest import bearer_client
from tests.factories import UserFactory, funded_player, live_table
from tests.helpers.staff import login_unverified, login_verified
from tests.tables.conftest import DEVICE, bet

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/staff-tokens/"


def _session(user) -> APIClient:
    client = APIClient()
    login_verified(client, user)
    return client


def _mint(client, role: str, **extra):
    return client.post(TOKENS, {"label": "script", "role": role, **extra}, format="json")


def _token(client, role: str) -> tuple[dict, APIClient]:
    minted = _mint(client, role)
    assert minted.status_code == 201, minted.json()
    body = minted.json()
    assert body["secret"].startswith("st_")
    return body["staff_token"], bearer_client(body["secret"])


@pytest.fixture
def held_round(db):
    table = live_table("british_casino")
    rnd = Round.objects.get(pk=_open(table).pk)
    return table, rnd


def _open(table):
    from tables import services

    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    bet(rnd, funded_player(), 1, 1000)
    return rnd


def test_pit_actions_with_tokens_four_eyes_across_two_people(held_round):
    _, rnd = held_round
    boss = UserFactory(roles=[roles.PIT_BOSS])
    supervisor = UserFactory(roles=[roles.FLOOR_SUPERVISOR])
    _, boss_token = _token(_session(boss), roles.PIT_BOSS)
    _, supervisor_token = _token(_session(supervisor), roles.FLOOR_SUPERVISOR)
    base = f"/api/v1/rounds/{rnd.pk}"
    requested = boss_token.post(f"{base}/void-request/", {"reason": "misdeal"}, format="json")
    assert requested.status_code == 201, requested.json()
    assert VoidRequest.objects.get(round=rnd).requested_by_id == boss.pk  # the owner acts
    assert boss_token.post(f"{base}/void-approve/").status_code == 403  # not its role
    approved = supervisor_token.post(f"{base}/void-approve/")
    assert approved.status_code == 200 and approved.json()["phase"] == "voided"
    # reads work with the token too, and the listing never shows a secret
    listed = _session(boss).get(TOKENS).json()["results"]
    assert [t["role"] for t in listed] == [roles.PIT_BOSS] and "secret" not in listed[0]
    assert boss_token.get(f"{base}/").status_code == 200


def test_a_token_cannot_approve_its_owners_own_void_request(held_round):
    _, rnd = held_round
    both = UserFactory(roles=[roles.PIT_BOSS, roles.FLOOR_SUPERVISOR])
    session = _session(both)
    _, as_boss = _token(session, roles.PIT_BOSS)
    _, as_supervisor = _token(session, roles.FLOOR_SUPERVISOR)
    base = f"/api/v1/rounds/{rnd.pk}"
    assert as_boss.post(f"{base}/void-request/", {"reason": "x"}, format="json").status_code == 201
    refused = as_supervisor.post(f"{base}/void-approve/")
    assert refused.status_code == 403, refused.json()
    assert refused.json()["type"].endswith("/four-eyes-required")
    assert Round.objects.get(pk=rnd.pk).phase != "voided"


def test_minted_only_from_a_verified_session_and_for_a_role_held():
    boss = UserFactory(roles=[roles.PIT_BOSS])
    unverified = APIClient()
    login_unverified(unverified, boss)
    assert _mint(unverified, roles.PIT_BOSS).status_code == 403
    session = _session(boss)
    assert _mint(session, roles.FLOOR_SUPERVISOR).status_code == 403  # not the owner's role
    assert _mint(session, roles.OPERATOR_INTEGRATION).status_code == 403
    _, token = _token(session, roles.PIT_BOSS)
    assert _mint(token, roles.PIT_BOSS).status_code == 403  # a token mints no token
    too_long = (timezone.now() + timedelta(hours=13)).isoformat()
    refused = _mint(session, roles.PIT_BOSS, expires_at=too_long)
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "expires_at"
    assert StaffToken.objects.filter(user=boss).count() == 1
    issued = AuditEvent.objects.filter(name="staff_token.issued")
    assert [e.payload["role"] for e in issued] == [roles.PIT_BOSS]


def test_expiry_revocation_and_a_withdrawn_role(held_round):
    table, _ = held_round
    boss = UserFactory(roles=[roles.PIT_BOSS])
    session = _session(boss)
    url = f"/api/v1/tables/{table.pk}/"
    meta, token = _token(session, roles.PIT_BOSS)
    assert token.get(url).status_code == 200
    # another staff member cannot revoke it; its owner can, with a reason, audited
    other = _session(UserFactory(roles=[roles.PIT_BOSS]))
    revoke = f"{TOKENS}{meta['id']}/revoke/"
    assert other.post(revoke, {"reason": "x"}, format="json").status_code == 403
    assert session.post(revoke, {"reason": "done"}, format="json").status_code == 200
    assert token.get(url).status_code == 401
    assert session.post(revoke, {"reason": "again"}, format="json").status_code == 409
    revoked = AuditEvent.objects.get(name="staff_token.revoked")
    assert revoked.payload["reason"] == "done" and revoked.actor_id == str(boss.pk)

    meta, token = _token(session, roles.PIT_BOSS)
    StaffToken.objects.filter(pk=meta["id"]).update(expires_at=timezone.now())
    expired = token.get(url)
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]

    meta, token = _token(session, roles.PIT_BOSS)
    assert token.get(url).status_code == 200
    boss.groups.clear()
    assert token.get(url).status_code == 401  # the owner no longer holds the role
    reasons = AuditEvent.objects.filter(name="auth.credential_refused").values_list(
        "payload__reason", flat=True
    )
    assert "revoked" in set(reasons)


def test_a_token_acts_with_its_role_only(held_round):
    table, rnd = held_round
    both = UserFactory(roles=[roles.DEALER, roles.PIT_BOSS])
    _, as_dealer = _token(_session(both), roles.DEALER)
    assert as_dealer.get(f"/api/v1/rounds/{rnd.pk}/").status_code == 200
    # the owner may request a void, the dealer role may not
    void = f"/api/v1/rounds/{rnd.pk}/void-request/"
    assert as_dealer.post(void, {"reason": "x"}, format="json").status_code == 403
    assert as_dealer.post(f"/api/v1/tables/{table.pk}/pause/").status_code == 403
    # a read-only token refuses writes its role would allow
    narrowed = _mint(_session(both), roles.PIT_BOSS, scopes=["read"])
    read_only = bearer_client(narrowed.json()["secret"])
    assert read_only.get(f"/api/v1/rounds/{rnd.pk}/").status_code == 200
    assert read_only.post(void, {"reason": "x"}, format="json").status_code == 403
