"""The floor as a control room in a real browser: 20 tables in two pits, alerts raised and
cleared (dealer-less table, idle table, pending void ageing, stuck settlement), and a dealer
refused a second table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from casino.api import roles
from tables import services
from tables.models import Pit, Round
from tests.browser.conftest import admin_login
from tests.console.helpers import ACTOR, DEVICE, play_to_settlement
from tests.factories import CasinoFactory, UserFactory, funded_player, live_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _dealer(name: str):
    return UserFactory(username=name, roles=[roles.DEALER])


def _floor(page, live_server) -> None:
    page.goto(f"{live_server.url}/admin/tables/table/floor/")
    page.wait_for_selector("#floor-table")


def _alerts(page, code: str) -> str:
    return page.locator(f'#floor-table tr[data-table="{code}"] td').last.inner_text()


def test_a_twenty_table_floor_raises_and_clears_alerts(page, live_server, screenshot, monkeypatch):
    UserFactory(username="boss", roles=[roles.PIT_BOSS])
    requester = UserFactory(roles=[roles.PIT_BOSS])
    casino = CasinoFactory()  # the tables' (get or create)
    pits = [
        Pit.objects.create(casino=casino, code=code, name=name)
        for code, name in (("east", "East pit"), ("west", "West pit"))
    ]
    tables = [
        live_table("crown", card_source="server_shoe", pit=pits[i % 2], code=f"f{i:02d}")
        for i in range(20)
    ]
    for i, table in enumerate(tables[1:], start=1):  # f00 has no dealer
        services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=_dealer(f"d{i:02d}"))
    for table in tables[:1] + tables[2:3] + tables[4:]:  # f01 stays idle; f03 below
        services.round_open(actor=DEVICE, table_id=table.pk)
    held = Round.objects.get(table=tables[2])
    services.bet_place(actor=ACTOR, round_id=held.pk, player=funded_player(), box=1, stake=1000)
    services.void_request(actor=ACTOR, user=requester, round_id=held.pk, reason="misdeal")
    # f03: a round whose settlement did not run (no worker), left ten minutes.
    stuck_table = tables[3]
    with monkeypatch.context() as patch:
        patch.setattr(services, "round_settle", lambda **kwargs: None)
        stuck = play_to_settlement(stuck_table, funded_player())
    assert stuck.phase == Round.Phase.SETTLING
    Round.objects.filter(pk=stuck.pk).update(settling_since=timezone.now() - timedelta(minutes=10))

    admin_login(page, live_server, "boss", "correct-horse-battery")
    _floor(page, live_server)
    assert page.locator("#floor-table tr[data-table]").count() == 20
    # The pit with the most urgent table first: the West pit's stuck settlement is an error.
    heads = [h.inner_text().split(" ·")[0] for h in page.locator(".console-pit-head").all()]
    assert heads == ["West pit", "East pit"]
    assert "Open without a dealer" in _alerts(page, "f00")
    assert "Open and idle" in _alerts(page, "f01")
    assert "void requested by" in _alerts(page, "f02")
    assert "stuck in settling" in _alerts(page, "f03")
    # ... and leads it.
    west = page.locator('tbody[data-pit="West pit"] tr[data-table]').first
    assert west.get_attribute("data-table") == "f03"
    screenshot("floor-20-tables-alerts-raised")

    # The void request ages on the floor while it waits.
    held.void_requests.update(requested_at=timezone.now() - timedelta(minutes=3))
    aged = "() => document.querySelector('tr[data-table=\"f02\"]').innerText.match(/3.minutes/)"
    page.wait_for_function(aged)

    # Cleared: a dealer, a round, the request cancelled, the settlement run.
    services.table_dealer_assign(actor=ACTOR, table_id=tables[0].pk, dealer=_dealer("d00"))
    services.round_open(actor=DEVICE, table_id=tables[1].pk)
    services.void_cancel(actor=ACTOR, user=requester, round_id=held.pk, reason="no misdeal")
    services.round_settle(round_id=stuck.pk)
    page.wait_for_function(
        "() => !document.querySelector('#floor-table').innerText.match("
        "/without a dealer|idle|void requested|stuck in settling/)"
    )
    for code in ("f00", "f01", "f02", "f03"):
        assert _alerts(page, code) == "✓"
    screenshot("floor-20-tables-alerts-cleared")


def test_a_dealer_is_refused_a_second_table_in_the_console(page, live_server, screenshot):
    UserFactory(username="boss", roles=[roles.PIT_BOSS])
    first, second = live_table("crown", code="one"), live_table("crown", code="two")
    dealer = _dealer("alice")
    services.table_dealer_assign(actor=ACTOR, table_id=first.pk, dealer=dealer)
    admin_login(page, live_server, "boss", "correct-horse-battery")
    page.goto(f"{live_server.url}/admin/tables/table/{second.pk}/change/")
    page.click("[data-action=dealer]")
    page.select_option("#id_dealer", label="alice")
    page.click("input[name=_go]")
    page.wait_for_selector(".messagelist .error")
    text = page.inner_text(".messagelist")
    assert "dealing at table one" in text and "one table per dealer" in text
    screenshot("dealer-refused-second-table")
    second.refresh_from_db()
    assert second.dealer is None
