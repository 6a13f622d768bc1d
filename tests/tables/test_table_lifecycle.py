"""Tables created, cloned and retired through the same services from the API and the console,
every change audited."""

import pytest

from audit.models import AuditEvent
from casino.api import roles
from casino.console.selectors import floor_overview
from casino.sandbox.services import sandbox_table_create
from tables import services
from tables.models import Pit, Table, TableChange
from tests.console.helpers import ACTOR, act, messages_of, staff
from tests.factories import CasinoFactory, live_table

pytestmark = pytest.mark.django_db


def _versions():
    return services.preset_versions_ensure(actor=ACTOR, preset="crown")


def test_the_api_creates_a_closed_table_and_shows_its_rtp(client_for):
    rule_set, payouts = _versions()
    casino = CasinoFactory()
    pit = Pit.objects.create(casino=casino, code="east", name="East")
    api = client_for(roles.PIT_BOSS)
    body = {
        "casino_id": casino.pk,
        "pit_id": pit.pk,
        "code": "new-1",
        "name": "New one",
        "rule_set_id": rule_set.pk,
        "payout_schedule_id": payouts.pk,
        "min_bet": 500,
        "max_bet": 50_000,
        "card_source": "card_reader",
    }
    created = api.post("/api/v1/tables/", body, format="json")
    assert created.status_code == 201, created.json()
    assert set(created.json()) == {"table", "theoretical_rtp", "rtp_method"}
    table = Table.objects.get(code="new-1")
    assert (table.status, table.pit, table.min_bet, table.card_source) == (
        "closed",
        pit,
        500,
        "card_reader",
    )
    change = TableChange.objects.get(table=table, kind="created")
    assert change.after["pit_id"] == pit.pk and change.after["min_bet"] == 500
    assert AuditEvent.objects.filter(name="tables.table_changed", table_id=table.pk).exists()
    again = api.post("/api/v1/tables/", body, format="json")
    assert again.status_code == 409
    bad = api.post("/api/v1/tables/", {**body, "code": "x", "max_bet": 1}, format="json")
    assert bad.status_code == 400 and not Table.objects.filter(code="x").exists()
    # Only the pit may create tables.
    denied = client_for(roles.AUDITOR).post("/api/v1/tables/", {**body, "code": "y"}, format="json")
    assert denied.status_code == 403


def test_a_live_table_plays_in_a_real_currency_and_a_sandbox_table_is_not_cloned_live(client_for):
    """XTS is the sandbox's play money: no live wallet holds it, so a live table in it could
    take no bet."""
    rule_set, payouts = _versions()
    casino = CasinoFactory()
    api = client_for(roles.PIT_BOSS)
    body = {
        "casino_id": casino.pk,
        "code": "play",
        "name": "Play money",
        "rule_set_id": rule_set.pk,
        "payout_schedule_id": payouts.pk,
        "currency": "XTS",
    }
    refused = api.post("/api/v1/tables/", body, format="json")
    assert refused.status_code == 422 and refused.json()["code"] == "wrong-currency"
    assert [e["field"] for e in refused.json()["errors"]] == ["currency"]
    assert not Table.objects.filter(code="play").exists()
    assert (
        api.post("/api/v1/tables/", {**body, "currency": "GBP"}, format="json").status_code == 201
    )

    sandbox = sandbox_table_create(actor=ACTOR, preset="crown", code="sbx-1")
    assert sandbox.currency == "XTS"
    cloned = api.post(
        f"/api/v1/tables/{sandbox.pk}/clone/", {"code": "sbx-copy", "name": "Copy"}, format="json"
    )
    assert cloned.status_code == 422 and cloned.json()["code"] == "wrong-currency"
    assert not Table.objects.filter(code="sbx-copy").exists()


def test_clone_copies_the_configuration_and_retire_takes_the_table_off_the_floor(client_for):
    source = live_table("crown", min_bet=300, max_bet=30_000, betting_seconds=12)
    api = client_for(roles.PIT_BOSS)
    cloned = api.post(
        f"/api/v1/tables/{source.pk}/clone/", {"code": "copy", "name": "Copy"}, format="json"
    )
    assert cloned.status_code == 201
    copy = Table.objects.get(code="copy")
    same = ("rule_set_id", "payout_schedule_id", "min_bet", "max_bet", "betting_seconds")
    assert [getattr(copy, f) for f in same] == [getattr(source, f) for f in same]
    assert copy.status == "closed" and copy.dealer is None
    # Retiring needs a closed table; a retired one never opens again.
    assert api.post(f"/api/v1/tables/{source.pk}/retire/").status_code == 409
    services.table_close(actor=ACTOR, table_id=source.pk)
    assert api.post(f"/api/v1/tables/{source.pk}/retire/").status_code == 200
    assert source.pk not in [r.table.pk for r in floor_overview().rows]
    assert api.post(f"/api/v1/tables/{source.pk}/open/").status_code == 409
    assert TableChange.objects.filter(table=source, kind="retired").exists()


def test_the_console_clones_and_retires_through_the_same_services():
    source = live_table("crown")
    services.table_close(actor=ACTOR, table_id=source.pk)
    client, _ = staff(roles.PIT_BOSS)
    page = act(client, f"/admin/tables/table/{source.pk}/do/clone/", code="twin", name="Twin")
    twin = Table.objects.get(code="twin")
    assert page.redirect_chain[-1][0] == f"/admin/tables/table/{twin.pk}/change/"
    refused = act(client, f"/admin/tables/table/{source.pk}/do/clone/", code="twin", name="T")
    assert any("exists already" in m for m in messages_of(refused))
    act(client, f"/admin/tables/table/{source.pk}/do/retire/")
    source.refresh_from_db()
    assert source.retired_at is not None
    assert AuditEvent.objects.filter(
        name="admin.action", payload__action="retire", payload__object_id=str(source.pk)
    ).exists()


def test_the_api_sets_name_pit_and_card_source_through_the_console_s_service(client_for):
    table = live_table("crown", card_source="server_shoe")
    pit = Pit.objects.create(casino=table.casino, code="south", name="South")
    foreign = Pit.objects.create(casino=CasinoFactory(code="elsewhere"), code="x", name="X")
    api = client_for(roles.PIT_BOSS)
    url = f"/api/v1/tables/{table.pk}/setup/"
    done = api.post(url, {"name": "Crown South", "pit_id": pit.pk}, format="json")
    assert done.status_code == 200, done.json()
    table.refresh_from_db()
    assert (table.name, table.pit, table.card_source) == ("Crown South", pit, "server_shoe")
    change = TableChange.objects.get(table=table, kind="setup")
    assert change.after == {"name": "Crown South", "pit_id": pit.pk, "card_source": "server_shoe"}
    assert AuditEvent.objects.filter(name="tables.table_changed", table_id=table.pk).exists()
    # another casino's pit, an unknown pit, and a card source while open are refused
    assert api.post(url, {"pit_id": foreign.pk}, format="json").status_code == 400
    assert api.post(url, {"pit_id": 10**9}, format="json").status_code == 400
    busy = api.post(url, {"card_source": "card_reader"}, format="json")
    assert busy.status_code == 409 and "close it" in busy.json()["detail"]
    services.table_close(actor=ACTOR, table_id=table.pk)
    moved = api.post(url, {"card_source": "card_reader", "pit_id": None}, format="json")
    assert moved.status_code == 200
    table.refresh_from_db()
    assert (table.card_source, table.pit_id, table.name) == ("card_reader", None, "Crown South")
    # an unchanged setup logs nothing more
    before = TableChange.objects.filter(table=table, kind="setup").count()
    assert api.post(url, {}, format="json").status_code == 200
    assert TableChange.objects.filter(table=table, kind="setup").count() == before
    assert client_for(roles.DEALER).post(url, {}, format="json").status_code == 403
