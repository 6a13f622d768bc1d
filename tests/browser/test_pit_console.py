"""The pit console in a real browser: a pit boss runs a table through a played round, a void
and its approval, and the table report; an auditor reads a replay and can change nothing."""

from __future__ import annotations

import threading

import pytest

from casino.actors import Actor
from casino.demo.players import players_start
from casino.demo.seed import demo_seed
from conftest import wait_until
from ledger.models import Player
from tables import services
from tables.models import Round, Table
from tests.browser.conftest import admin_login
from tests.console.helpers import play_to_settlement
from tests.factories import funded_player, live_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTOR = Actor.system("browser-test")
TABLE = "demo-british_casino"


def _logout(page, live_server):
    page.goto(f"{live_server.url}/admin/")
    page.click("#logout-form button")


def _confirm(page, reason: str) -> None:
    page.fill("#id_reason", reason)
    page.check("#id_confirm")
    page.click("input[name=_go]")


@pytest.mark.worker
def test_pit_boss_opens_a_table_watches_a_round_settle_and_voids_one_with_a_supervisor(
    page, live_server, celery_worker, screenshot
):
    credentials = demo_seed()
    table = Table.objects.get(code=TABLE)
    services.table_close(actor=ACTOR, table_id=table.pk)
    password = credentials.staff

    # 1. the pit boss logs in and sees the floor on the console's front page
    admin_login(page, live_server, "pitboss", password["pitboss"])
    row = page.locator(f'#floor-table tr[data-table="{TABLE}"]')
    row.wait_for()
    assert "closed" in row.inner_text()
    screenshot("01-floor-dashboard-pit-boss")

    # 2. opens the table from its page
    row.locator("a").first.click()
    page.wait_for_selector("button[data-action=open]")
    screenshot("02-table-closed")
    page.click("button[data-action=open]")
    page.wait_for_selector(".messagelist .success")
    assert "is open" in page.inner_text(".messagelist")
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    screenshot("03-table-opened")

    # 3. rounds play (simulated players and dealer device over the HTTP API); the floor page
    # refreshes itself until it shows a settled round at this table
    page.goto(f"{live_server.url}/admin/tables/table/floor/")
    stop = threading.Event()
    credentials.device_tokens = {table.pk: credentials.device_tokens[table.pk]}
    threads = players_start(base=live_server.url, credentials=credentials, stop=stop)
    try:
        settled_badge = page.locator(
            f'#floor-table tr[data-table="{TABLE}"] .console-round .console-settled'
        )
        settled_badge.wait_for(timeout=120_000)
        screenshot("04-floor-round-settled")
    finally:
        stop.set()
        for thread in threads:
            thread.join(15)
    settled = Round.objects.filter(table=table, phase="settled").order_by("-number").first()
    assert settled is not None and settled.ledger_transaction_id
    page.goto(f"{live_server.url}/admin/tables/round/{settled.pk}/change/")
    assert page.inner_text("#round-phase") == "settled"
    screenshot("05-round-settled")

    # 4. a round in play (long betting window so it waits for the pit): void requested...
    wait_until(
        lambda: not Round.objects.filter(table=table, phase__in=Round.UNFINISHED).exists(),
        timeout=60,
        message="the last demo round did not finish",
    )
    services.table_limits_set(
        actor=ACTOR,
        table_id=table.pk,
        min_bet=table.min_bet,
        max_bet=table.max_bet,
        betting_seconds=600,
    )
    rnd = services.round_open(actor=ACTOR, table_id=table.pk)
    player = Player.objects.get(pk=credentials.player_ids[0])
    services.bet_place(actor=ACTOR, round_id=rnd.pk, player=player, box=1, stake=500)
    page.goto(f"{live_server.url}/admin/tables/round/{rnd.pk}/change/")
    assert page.locator("[data-action=void-approve]").count() == 0
    page.click("a[data-action=void-request]")
    page.wait_for_selector("#id_reason")
    page.fill("#id_reason", "dealer exposed the hole card")
    screenshot("06-void-request-form")
    page.check("#id_confirm")
    page.click("input[name=_go]")
    page.wait_for_selector(".messagelist .success")
    assert "requested" in page.inner_text("#void-status")
    screenshot("07-void-requested")
    _logout(page, live_server)

    # ...and approved by a floor supervisor
    admin_login(page, live_server, "floor", password["floor"])
    page.wait_for_selector("#floor-table")
    assert "waits for approval" in page.inner_text("#floor-table")
    page.goto(f"{live_server.url}/admin/tables/round/{rnd.pk}/change/")
    page.click("a[data-action=void-approve]")
    preview = page.inner_text("#console-preview")  # the request and what the void returns
    assert "dealer exposed the hole card" in preview and "ago" in preview
    assert "Returned: box 1" in preview and "5.00\u00a0EUR" in preview
    screenshot("07b-void-approve-preview")
    _confirm(page, "checked the camera footage")
    page.wait_for_selector(".messagelist .success")
    assert page.inner_text("#round-phase") == "voided"
    assert "approved" in page.inner_text("#void-status")
    screenshot("08-void-approved")
    rnd.refresh_from_db()
    assert rnd.phase == Round.Phase.VOIDED
    _logout(page, live_server)

    # 5. the pit boss opens the table report from the table's page
    admin_login(page, live_server, "pitboss", password["pitboss"])
    page.goto(f"{live_server.url}/admin/tables/table/{table.pk}/change/")
    page.click("text=Table report")
    page.wait_for_load_state()
    body = page.inner_text("#content")
    assert "report" in body.lower() and "void" in body.lower()
    screenshot("09-table-report")


def test_auditor_reads_a_round_replay_and_can_change_nothing(page, live_server, screenshot):
    credentials = demo_seed()
    table = live_table("crown", card_source="server_shoe", name="Crown (audit)")
    rnd = play_to_settlement(table, funded_player(50_000))
    assert rnd.phase == "settled"
    admin_login(page, live_server, "auditor", credentials.staff["auditor"])
    page.wait_for_selector("#floor-table")
    screenshot("10-floor-dashboard-auditor")

    page.goto(f"{live_server.url}/admin/tables/round/{rnd.pk}/change/")
    assert page.locator(".object-tools .console-button").count() == 0
    assert page.locator("input[name=_save]").count() == 0
    screenshot("11-round-auditor")
    assert page.locator("text=Round replay").count() == 1
    page.click("text=Round replay")
    page.wait_for_load_state()
    assert str(rnd.pk) in page.inner_text("#content")
    screenshot("12-round-replay-auditor")

    page.goto(f"{live_server.url}/admin/tables/table/{table.pk}/change/")
    assert page.locator(".object-tools .console-button").count() == 0
    screenshot("13-table-auditor-read-only")
    # even a hand-made request is refused
    status = page.evaluate(
        """async (url) => {
            const cookie = document.cookie.split('; ').find(c => c.startsWith('csrftoken='));
            const token = cookie.split('=')[1];
            const body = new URLSearchParams({_action_page: '1', reason: 'x', confirm: 'on'});
            const r = await fetch(url, {method: 'POST', body, headers: {'X-CSRFToken': token}});
            return r.status;
        }""",
        f"/admin/tables/table/{table.pk}/do/pause/",
    )
    assert status == 403
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    page.goto(f"{live_server.url}/admin/tables/table/{table.pk}/do/pause/")
    assert "403" in page.title() or "Forbidden" in page.content()


@pytest.mark.worker
def test_supervisor_makes_a_rule_set_version_and_sees_its_rtp_before_activating_it(
    page, live_server, celery_worker, screenshot
):
    import json

    credentials = demo_seed()
    table = Table.objects.get(code="demo-crown")
    rule_set = table.rule_set
    admin_login(page, live_server, "floor", credentials.staff["floor"])
    page.wait_for_selector("#floor-table")
    page.goto(f"{live_server.url}/admin/tables/rulesetversion/{rule_set.pk}/change/")
    assert page.locator("input[name=_save]").count() == 0, "versions are read-only"
    page.click("a[data-action=new-version]")
    document = json.loads(page.input_value("#id_document"))
    document["decks"] = document["decks"] - 2  # crown: 4 to 8 decks (rule book 3.1)
    page.fill("#id_document", "{ not json")
    page.click("input[name=_go]")
    assert "Not valid JSON" in page.inner_text(".errorlist")
    page.fill("#id_document", json.dumps(document, indent=2))
    page.fill("#id_reason", "six decks for the weekend")
    screenshot("14-rule-set-new-version-form")
    page.click("input[name=_go]")
    page.wait_for_selector(".messagelist .success")
    new_version = type(rule_set).objects.get(name=rule_set.name, version=rule_set.version + 1)
    screenshot("15-rule-set-new-version")

    url = f"{live_server.url}/admin/tables/table/{table.pk}/do/rules/"
    page.goto(f"{url}?rule_set={new_version.pk}")

    def rtp_shown() -> bool:
        page.click("input[name=_preview]")
        page.wait_for_selector("#console-preview")
        return "pending" not in page.inner_text("#console-preview")

    wait_until(rtp_shown, timeout=90, interval=1, message="the RTP was not computed")
    assert "%" in page.inner_text("#console-preview")
    table.refresh_from_db()
    assert table.rule_set_id == rule_set.pk, "previewing activates nothing"
    screenshot("16-change-rules-rtp-preview")
    _confirm(page, "weekend rules approved by the casino manager")
    page.wait_for_selector(".messagelist .success")
    assert "theoretical RTP" in page.inner_text(".messagelist")
    table.refresh_from_db()
    assert table.rule_set_id == new_version.pk
