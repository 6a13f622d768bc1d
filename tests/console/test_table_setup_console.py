"""Tables from the console: created, configured (name, pit, card source, limits with their
RTP) through the same services as the API, every change audited; and the console's pages read
through selectors, the floor computed once per render."""

import ast
from pathlib import Path

import pytest

from audit.models import AuditEvent
from casino.api import roles
from casino.console import selectors as floor_selectors
from tables import services
from tables.models import Pit, Table, TableChange
from tests.console.helpers import ACTOR, act, messages_of, staff
from tests.factories import CasinoFactory, live_table

pytestmark = pytest.mark.django_db

ADD = "/admin/tables/table/add/"


def _create_form(casino, pit, rule_set, payouts, **overrides) -> dict:
    return {
        "code": "new-crown",
        "name": "New Crown",
        "casino": casino.pk,
        "pit": pit.pk,
        "rule_set": rule_set.pk,
        "payout_schedule": payouts.pk,
        "currency": "EUR",
        "card_source": "server_shoe",
        "min_bet": 500,
        "max_bet": 200_000,
        "min_unit": 100,
        "decision_seconds": 25,
        "betting_seconds": 20,
        "reason": "new table for the east pit",
        **overrides,
    }


def test_a_pit_boss_creates_a_table_after_seeing_its_rtp_and_the_creation_is_audited():
    casino = CasinoFactory()
    pit = Pit.objects.create(casino=casino, code="east", name="East pit")
    rule_set, payouts = services.preset_versions_ensure(actor=ACTOR, preset="crown")
    client, _ = staff(roles.PIT_BOSS)
    page = client.get(ADD).content.decode()
    assert 'name="code"' in page and 'name="card_source"' in page and "Show theoretical RTP" in page
    form = _create_form(casino, pit, rule_set, payouts)
    preview = client.post(ADD, {**form, "_preview": "1"}).content.decode()
    assert "Theoretical RTP" in preview and "RTP by stake" in preview
    assert "5.00\xa0EUR - 2,000.00\xa0EUR" in preview
    assert not Table.objects.filter(code="new-crown").exists(), "a preview creates nothing"

    response = client.post(ADD, {**form, "_go": "1"}, follow=True)
    table = Table.objects.get(code="new-crown")
    assert response.redirect_chain[-1][0] == f"/admin/tables/table/{table.pk}/change/"
    assert any("created (closed)" in m for m in messages_of(response))
    assert (table.status, table.pit, table.card_source) == ("closed", pit, "server_shoe")
    assert (table.min_bet, table.max_bet, table.decision_seconds) == (500, 200_000, 25)
    [change] = TableChange.objects.filter(table=table)
    assert change.kind == "created" and change.after["pit_id"] == pit.pk
    names = set(AuditEvent.objects.filter(table_id=table.pk).values_list("name", flat=True))
    assert {"tables.table_changed", "admin.action"} <= names, names


def test_a_refused_creation_is_a_message_and_a_bad_form_an_error_not_a_500():
    casino = CasinoFactory()
    pit = Pit.objects.create(casino=casino, code="east", name="East pit")
    other_pit = Pit.objects.create(casino=CasinoFactory(code="other"), code="x", name="X")
    rule_set, payouts = services.preset_versions_ensure(actor=ACTOR, preset="crown")
    existing = live_table("crown")
    client, _ = staff(roles.PIT_BOSS)
    form = _create_form(casino, pit, rule_set, payouts, code=existing.code)
    response = client.post(ADD, {**form, "_go": "1"}, follow=True)
    assert response.status_code == 200
    assert any("exists already" in m for m in messages_of(response))
    bad = client.post(ADD, {**form, "code": "fresh", "pit": other_pit.pk, "_go": "1"})
    assert bad.status_code == 200 and "is not a pit of" in bad.content.decode()
    assert not Table.objects.filter(code="fresh").exists()


def test_only_staff_who_operate_tables_may_create_one():
    for role in (roles.AUDITOR, roles.DEALER):
        client, _ = staff(role)
        assert client.get(ADD).status_code == 403, role
    boss, _ = staff(roles.PIT_BOSS)
    assert 'href="/admin/tables/table/add/"' in boss.get("/admin/tables/table/").content.decode()


def test_name_pit_and_card_source_change_through_the_service_and_are_logged():
    table = live_table("crown", card_source="server_shoe")
    pit = Pit.objects.create(casino=table.casino, code="west", name="West pit")
    client, _ = staff(roles.PIT_BOSS)
    url = f"/admin/tables/table/{table.pk}/do/setup/"
    response = act(client, url, name="Crown West", pit=pit.pk, card_source="server_shoe")
    assert any("West pit" in m for m in messages_of(response))
    table.refresh_from_db()
    assert (table.name, table.pit_id) == ("Crown West", pit.pk)
    change = TableChange.objects.filter(table=table, kind="setup").get()
    assert change.before["pit_id"] is None and change.after["pit_id"] == pit.pk
    # the card source waits for the table to close
    response = act(client, url, name="Crown West", pit=pit.pk, card_source="card_reader")
    assert any("close it before changing its card source" in m for m in messages_of(response))
    services.table_close(actor=ACTOR, table_id=table.pk)
    act(client, url, name="Crown West", pit="", card_source="card_reader")
    table.refresh_from_db()
    assert (table.card_source, table.pit_id) == ("card_reader", None)


def test_the_limits_form_shows_the_limits_in_money_and_the_rules_rtp_first():
    table = live_table("crown", min_bet=100, max_bet=50_000)
    client, _ = staff(roles.PIT_BOSS)
    url = f"/admin/tables/table/{table.pk}/do/limits/"
    page = client.get(url).content.decode()
    assert "1.00\xa0EUR - 500.00\xa0EUR" in page and "Theoretical RTP" in page
    preview = client.post(
        url,
        {
            "_preview": "1",
            "min_bet": 2_500,
            "max_bet": 100_000,
            "min_unit": 100,
            "decision_seconds": 20,
            "betting_seconds": 30,
        },
    ).content.decode()
    assert "25.00\xa0EUR - 1,000.00\xa0EUR" in preview and "RTP by stake" in preview
    table.refresh_from_db()
    assert table.min_bet == 100, "a preview changes nothing"


def test_the_floor_page_computes_the_floor_and_its_verification_once(monkeypatch):
    live_table("crown")
    calls = {"floor": 0, "verification": 0}
    floor, latest = floor_selectors.floor_overview, floor_selectors.audit_verification_latest

    def counted_floor(**kwargs):
        calls["floor"] += 1
        return floor(**kwargs)

    def counted_verification():
        calls["verification"] += 1
        return latest()

    monkeypatch.setattr(floor_selectors, "floor_overview", counted_floor)
    monkeypatch.setattr(floor_selectors, "audit_verification_latest", counted_verification)
    monkeypatch.setattr("casino.console.templatetags.console.floor_overview", counted_floor)
    client, _ = staff(roles.PIT_BOSS)
    for url in ("/admin/tables/table/floor/", "/admin/"):
        calls.update(floor=0, verification=0)
        page = client.get(url).content.decode()
        assert 'id="verification-status"' in page
        assert calls == {"floor": 1, "verification": 1}, (url, calls)


ADMIN = Path(__file__).resolve().parents[2] / "tables" / "admin"
QUERY_METHODS = {"objects", "filter", "exclude", "annotate", "select_related", "prefetch_related"}


def test_the_tables_console_builds_no_query_of_its_own():
    """The admin classes read through selectors (``tables/console_selectors.py``)."""
    offenders = []
    for path in sorted(ADMIN.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in QUERY_METHODS:
                offenders.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert offenders == []
    assert max(len(p.read_text().splitlines()) for p in ADMIN.glob("*.py")) < 700


def test_a_version_page_lists_the_rtp_of_each_pair_it_plays_in():
    rule_set, payouts = services.preset_versions_ensure(actor=ACTOR, preset="british_casino")
    client, _ = staff(roles.PIT_BOSS)
    url = f"/admin/tables/rulesetversion/{rule_set.pk}/change/"
    assert "none computed yet" in client.get(url).content.decode()
    services.rtp_figures_ensure(pairs=[(rule_set.pk, payouts.pk)])  # the shipped figure
    page = client.get(url).content.decode()
    assert f"<li>{rule_set} / {payouts}: <strong>" in page and " %</strong></li>" in page
