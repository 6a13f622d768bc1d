"""Controls on API keys and device tokens: expiry, rotation with an overlap, scopes, address
allow-lists and last use (issue 14, "Credentials")."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles, services
from casino.api.authentication import ApiKeyAuthentication
from casino.api.models import ApiKey, DeviceToken, Scope
from ledger.models import Transaction
from tables.models import Bet
from tests.conftest import bearer_client, staff_client
from tests.factories import PlayerFactory, WalletFactory, funded_player, live_table

pytestmark = pytest.mark.django_db

ACTOR = Actor.system("tests")
PROBLEM = "application/problem+json"


def _refusals() -> list[tuple[str, str]]:
    events = AuditEvent.objects.filter(name="auth.credential_refused").order_by("id")
    return [(e.payload["prefix"], e.payload["reason"]) for e in events]


def _key(operator, **terms) -> tuple[ApiKey, str]:
    return services.api_key_issue(actor=ACTOR, operator=operator, label="t", **terms)


# --- expiry ----------------------------------------------------------------------------------


def test_credentials_expire_after_their_kinds_lifetime_by_default(operator, table, settings):
    settings.API_KEY_LIFETIME_DAYS, settings.API_DEVICE_TOKEN_LIFETIME_DAYS = 365, 90
    before = timezone.now()
    key, _ = _key(operator)
    token, _ = services.device_token_issue(actor=ACTOR, table=table, device_id="r")
    after = timezone.now()
    assert before + timedelta(days=365) <= key.expires_at <= after + timedelta(days=365)
    assert before + timedelta(days=90) <= token.expires_at <= after + timedelta(days=90)
    event = AuditEvent.objects.get(name="api_key.issued", payload__api_key_id=key.pk)
    assert event.payload["expires_at"] == key.expires_at.isoformat()


def test_an_expired_credential_is_refused_with_a_problem_and_audited(api_key, device_token):
    for credential, raw in (api_key, device_token):
        cache.clear()  # a new refusal window: its first refusal is audited with its reason
        assert bearer_client(raw).get("/api/v1/me/").status_code == 200
        type(credential).objects.filter(pk=credential.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
        response = bearer_client(raw).get("/api/v1/me/")
        assert response.status_code == 401 and response["Content-Type"] == PROBLEM
        assert response.json()["type"].endswith("/authentication-failed")
        assert "expired" in response.json()["detail"]
    assert _refusals() == [(api_key[0].prefix, "expired"), (device_token[0].prefix, "expired")]


def test_an_issuer_chooses_an_earlier_expiry_but_never_a_later_one(client_for, operator):
    supervisor = client_for(roles.FLOOR_SUPERVISOR)
    soon = timezone.now() + timedelta(days=7)
    ok = supervisor.post(
        "/api/v1/api-keys/",
        {"operator_id": operator.pk, "label": "week", "expires_at": soon.isoformat()},
        format="json",
    )
    assert ok.status_code == 201
    assert ApiKey.objects.get(pk=ok.json()["api_key"]["id"]).expires_at == soon
    for when in (timezone.now() + timedelta(days=400), timezone.now() - timedelta(minutes=1)):
        refused = supervisor.post(
            "/api/v1/api-keys/",
            {"operator_id": operator.pk, "label": "bad", "expires_at": when.isoformat()},
            format="json",
        )
        assert refused.status_code == 400 and refused["Content-Type"] == PROBLEM
        assert [e["field"] for e in refused.json()["errors"]] == ["expires_at"]
    assert not ApiKey.objects.filter(label="bad").exists()


# --- rotation --------------------------------------------------------------------------------


def test_rotation_keeps_the_old_secret_for_the_overlap_then_refuses_it(client_for, api_key):
    key, old = api_key
    supervisor = client_for(roles.FLOOR_SUPERVISOR)
    response = supervisor.post(
        f"/api/v1/api-keys/{key.pk}/rotate/", {"reason": "yearly"}, format="json"
    )
    assert response.status_code == 200
    new = response.json()["secret"]
    assert new != old and new.split("_")[1] == key.prefix  # same key, new secret
    rotated = ApiKey.objects.get(pk=key.pk)
    overlap_end = rotated.previous_valid_until
    assert timedelta(hours=23) < overlap_end - timezone.now() <= timedelta(hours=24)
    assert rotated.expires_at > key.expires_at  # a fresh lifetime
    assert new not in str(ApiKey.objects.filter(pk=key.pk).values().get())
    event = AuditEvent.objects.get(name="api_key.rotated", payload__api_key_id=key.pk)
    assert event.payload["previous_valid_until"] == overlap_end.isoformat()
    assert event.payload["reason"] == "yearly" and new not in str(event.payload)
    # during the overlap both secrets work, for the same key
    for raw in (old, new):
        me = bearer_client(raw).get("/api/v1/me/")
        assert me.status_code == 200 and me.json()["name"] == f"api_key:{key.prefix}"
    # the overlap ends: the old one is refused (and audited), the new one carries on
    ApiKey.objects.filter(pk=key.pk).update(
        previous_valid_until=timezone.now() - timedelta(seconds=1)
    )
    refused = bearer_client(old).get("/api/v1/me/")
    assert refused.status_code == 401 and "rotation" in refused.json()["detail"]
    assert bearer_client(new).get("/api/v1/me/").status_code == 200
    assert _refusals() == [(key.prefix, "rotated")]


def test_rotation_overlap_is_configurable_and_bounded(client_for, api_key, settings):
    settings.API_ROTATION_OVERLAP_HOURS = 2
    key, old = api_key
    supervisor = client_for(roles.FLOOR_SUPERVISOR)
    url = f"/api/v1/api-keys/{key.pk}/rotate/"
    too_long = supervisor.post(url, {"overlap_hours": 3}, format="json")
    assert too_long.status_code == 400 and too_long.json()["errors"][0]["field"] == "overlap_hours"
    assert ApiKey.objects.get(pk=key.pk).rotated_at is None
    default = supervisor.post(url, {}, format="json").json()
    end = ApiKey.objects.get(pk=key.pk).previous_valid_until
    assert timedelta(hours=1, minutes=59) < end - timezone.now() <= timedelta(hours=2)
    at_once = supervisor.post(url, {"overlap_hours": 0}, format="json").json()
    # a second rotation drops the first one's secret: only the newest works
    assert [bearer_client(r).get("/api/v1/me/").status_code for r in (old, default["secret"])] == [
        401,
        401,
    ]
    assert bearer_client(at_once["secret"]).get("/api/v1/me/").status_code == 200


def test_rotation_renews_an_expired_key_without_reviving_its_old_secret(api_key):
    key, old = api_key
    ApiKey.objects.filter(pk=key.pk).update(expires_at=timezone.now() - timedelta(days=1))
    key, new = services.api_key_rotate(actor=ACTOR, api_key=key)
    assert key.previous_valid_until < timezone.now()
    assert bearer_client(old).get("/api/v1/me/").status_code == 401
    assert bearer_client(new).get("/api/v1/me/").status_code == 200


def test_a_revoked_key_cannot_be_rotated_and_revocation_ends_the_overlap(client_for, api_key):
    key, old = api_key
    supervisor = client_for(roles.FLOOR_SUPERVISOR)
    new = supervisor.post(f"/api/v1/api-keys/{key.pk}/rotate/", {}, format="json").json()
    supervisor.post(f"/api/v1/api-keys/{key.pk}/revoke/", {"reason": "leak"}, format="json")
    assert bearer_client(old).get("/api/v1/me/").status_code == 401
    assert bearer_client(new["secret"]).get("/api/v1/me/").status_code == 401
    again = supervisor.post(f"/api/v1/api-keys/{key.pk}/rotate/", {}, format="json")
    assert again.status_code == 409


def test_a_device_token_rotates_the_same_way(client_for, device_token):
    token, old = device_token
    response = client_for(roles.PIT_BOSS).post(
        f"/api/v1/device-tokens/{token.pk}/rotate/", {"overlap_hours": 1}, format="json"
    )
    assert response.status_code == 200
    new = response.json()["secret"]
    assert response.json()["device_token"]["previous_valid_until"]
    assert bearer_client(old).get("/api/v1/me/").status_code == 200
    assert bearer_client(new).get("/api/v1/me/").json()["table_id"] == token.table_id
    assert AuditEvent.objects.filter(name="device_token.rotated", table_id=token.table_id)


# --- scopes ----------------------------------------------------------------------------------


def test_a_read_only_key_reads_but_cannot_move_money_or_bet(client_for, operator):
    _, read_only = _key(operator, scopes=[Scope.READ])
    wallet = WalletFactory(player=PlayerFactory(operator=operator))
    client = bearer_client(read_only)
    assert client.get("/api/v1/players/").status_code == 200
    assert client.get(f"/api/v1/wallets/{wallet.pk}/balance/").status_code == 200
    transactions = Transaction.objects.count()
    deposit = client.post(
        f"/api/v1/wallets/{wallet.pk}/deposits/",
        {"amount": 100},
        format="json",
        HTTP_IDEMPOTENCY_KEY="d1",
    )
    assert deposit.status_code == 403 and deposit["Content-Type"] == PROBLEM
    assert "'money' scope" in deposit.json()["detail"]
    assert client.post("/api/v1/players/", {"external_ref": "x"}, format="json").status_code == 403
    assert Transaction.objects.count() == transactions

    table = live_table("crown")
    _, device = services.device_token_issue(actor=ACTOR, table=table, device_id="r")
    rid = bearer_client(device).post(f"/api/v1/tables/{table.pk}/rounds/").json()["id"]
    player = funded_player(1000, operator=operator)
    bet = {"player_id": player.pk, "box": 1, "stake": 100}
    refused = client.post(
        f"/api/v1/rounds/{rid}/bets/", bet, format="json", HTTP_IDEMPOTENCY_KEY="b1"
    )
    assert refused.status_code == 403 and "'money' scope" in refused.json()["detail"]
    assert not Bet.objects.filter(round_id=rid).exists()
    allowed = client_for(roles.OPERATOR_INTEGRATION).post(  # read + money: the same bet passes
        f"/api/v1/rounds/{rid}/bets/", bet, format="json", HTTP_IDEMPOTENCY_KEY="b1"
    )
    assert allowed.status_code == 201


def test_a_key_without_read_cannot_read_and_a_device_without_pit_cannot_deal(operator, table):
    _, money_only = _key(operator, scopes=[Scope.MONEY])
    response = bearer_client(money_only).get("/api/v1/players/")
    assert response.status_code == 403 and "'read' scope" in response.json()["detail"]
    _, watcher = services.device_token_issue(
        actor=ACTOR, table=table, device_id="cam", scopes=[Scope.READ]
    )
    client = bearer_client(watcher)
    assert client.get(f"/api/v1/tables/{table.pk}/").status_code == 200
    deal = client.post(f"/api/v1/tables/{table.pk}/rounds/")
    assert deal.status_code == 403 and "'pit' scope" in deal.json()["detail"]


def test_a_scope_never_widens_a_role(operator, table):
    _, everything = _key(operator, scopes=Scope.values)
    refused = bearer_client(everything).post(f"/api/v1/tables/{table.pk}/pause/")
    assert refused.status_code == 403  # the integration role may not operate tables


def test_default_scopes_per_kind_and_unknown_scopes_refused(client_for, operator, table):
    supervisor = client_for(roles.FLOOR_SUPERVISOR)
    key = supervisor.post(
        "/api/v1/api-keys/", {"operator_id": operator.pk, "label": "k"}, format="json"
    ).json()["api_key"]
    assert key["scopes"] == ["read", "money"]
    device = supervisor.post(
        "/api/v1/device-tokens/", {"table_id": table.pk, "device_id": "d"}, format="json"
    ).json()["device_token"]
    assert device["scopes"] == ["read", "pit"]
    for scopes in ([], ["admin"]):
        bad = supervisor.post(
            "/api/v1/api-keys/",
            {"operator_id": operator.pk, "label": "bad", "scopes": scopes},
            format="json",
        )
        assert bad.status_code == 400 and bad.json()["errors"][0]["field"].startswith("scopes")


# --- address allow-lists ---------------------------------------------------------------------


def test_a_request_from_outside_the_allow_list_is_refused_and_audited(operator):
    key, raw = _key(operator, allowed_networks=["10.0.0.0/8", "2001:db8::/32"])
    response = bearer_client(raw).get("/api/v1/me/", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 403 and response["Content-Type"] == PROBLEM
    assert "127.0.0.1" in response.json()["detail"]
    event = AuditEvent.objects.get(name="auth.credential_refused")
    assert event.payload["reason"] == "address_not_allowed"
    assert event.payload["client"]["ip"] == "127.0.0.1"
    assert bearer_client(raw).get("/api/v1/me/", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert bearer_client(raw).get("/api/v1/me/", REMOTE_ADDR="2001:db8::7").status_code == 200
    key.refresh_from_db()
    assert key.last_used_ip == "10.1.2.3"  # the refused request did not count as a use


def test_allow_lists_are_normalised_and_match_ipv4_mapped_addresses(operator, table):
    _, raw = _key(operator, allowed_networks=["127.0.0.1", " 192.168.1.7/24 "])
    assert ApiKey.objects.get().allowed_networks == ["127.0.0.1/32", "192.168.1.0/24"]
    assert bearer_client(raw).get("/api/v1/me/").status_code == 200  # the test client's 127.0.0.1
    mapped = bearer_client(raw).get("/api/v1/me/", REMOTE_ADDR="::ffff:192.168.1.200")
    assert mapped.status_code == 200
    _, raw = services.device_token_issue(
        actor=ACTOR, table=table, device_id="r", allowed_networks=["192.0.2.0/24"]
    )
    assert bearer_client(raw).get("/api/v1/me/").status_code == 403


def test_a_malformed_allow_list_is_a_problem_naming_it(client_for, operator):
    response = client_for(roles.FLOOR_SUPERVISOR).post(
        "/api/v1/api-keys/",
        {"operator_id": operator.pk, "label": "x", "allowed_networks": ["10.0.0.0/33"]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "allowed_networks"
    assert "10.0.0.0/33" in response.json()["detail"]
    assert not ApiKey.objects.filter(label="x").exists()


# --- last use --------------------------------------------------------------------------------


def _credential_updates(ctx) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('UPDATE "api_')]


def test_last_use_is_recorded_at_most_once_a_minute_and_listed(client_for, api_key):
    key, raw = api_key
    assert key.last_used_at is None
    client = bearer_client(raw)
    with CaptureQueriesContext(connection) as first:
        client.get("/api/v1/me/", REMOTE_ADDR="198.51.100.4")
    assert len(_credential_updates(first)) == 1
    key.refresh_from_db()
    used = key.last_used_at
    assert used is not None and key.last_used_ip == "198.51.100.4"
    with CaptureQueriesContext(connection) as again:  # within the minute: no write at all
        client.get("/api/v1/me/", REMOTE_ADDR="198.51.100.5")
    assert _credential_updates(again) == []
    ApiKey.objects.filter(pk=key.pk).update(last_used_at=used - timedelta(seconds=61))
    client.get("/api/v1/me/", REMOTE_ADDR="198.51.100.6")
    key.refresh_from_db()
    assert key.last_used_at > used and key.last_used_ip == "198.51.100.6"
    listed = client_for(roles.PIT_BOSS).get("/api/v1/api-keys/").json()["results"]
    assert [(k["last_used_at"] is not None, k["last_used_ip"]) for k in listed] == [
        (True, "198.51.100.6")
    ]
    page = staff_client(roles.PIT_BOSS).get("/admin/api/apikey/").content.decode()
    assert "198.51.100.6" in page


def test_a_stale_copy_does_not_write_when_another_worker_just_did(api_key):
    """Two workers that loaded the credential before either touched it write once between
    them: the UPDATE itself checks the minute."""
    key, _ = api_key
    now = timezone.now()
    ApiKey.objects.filter(pk=key.pk).update(last_used_at=now - timedelta(seconds=5))
    stale = ApiKey.objects.get(pk=key.pk)
    stale.last_used_at = now - timedelta(minutes=5)  # what a worker loaded a while ago
    with CaptureQueriesContext(connection) as ctx:
        ApiKeyAuthentication()._touch(stale, now, "192.0.2.9")
    assert len(_credential_updates(ctx)) == 1
    assert ApiKey.objects.get(pk=key.pk).last_used_ip is None  # the guarded UPDATE matched none


# --- existing credentials (migration) ---------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_migration_gives_existing_credentials_every_scope_and_one_lifetime(operator):
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()  # every app: migrating back unapplied dependents
    before = [("api", "0001_initial")]
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        apps.get_model("api", "ApiKey").objects.create(
            operator_id=operator.pk, prefix="0123456789ab", secret_hash="x" * 64, label="old"
        )
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert MigrationExecutor(connection).migration_plan(latest) == []  # the schema is whole again
    key = ApiKey.objects.get(prefix="0123456789ab")
    assert key.scopes == ["read", "money", "pit"] and key.allowed_networks == []
    assert timedelta(days=364) < key.expires_at - timezone.now() <= timedelta(days=365)
    assert DeviceToken.objects.count() == 0
