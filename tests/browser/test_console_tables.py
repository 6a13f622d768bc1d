"""The pit console in a real browser: a table created from the console (its RTP checked first)
plays a round while its page follows the round (no stale "Request void" once it settles); a
void request holds a round until it expires."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from casino.api import roles
from casino.money import money_text
from conftest import wait_until
from ledger.models import Account
from tables import services
from tables.errors import BettingClosed, RoundHeld
from tables.models import Pit, Round, Table, VoidRequest
from tests.browser.conftest import admin_login
from tests.console.helpers import (
    ACTOR,
    DEVICE,
    play_to_settlement,
    round_with_bet,
    traditional_round_by_hand,
)
from tests.factories import CasinoFactory, UserFactory, funded_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def test_a_pit_boss_creates_a_table_in_the_console_and_a_round_plays_on_it(
    page, live_server, screenshot
):
    UserFactory(username="boss", roles=[roles.PIT_BOSS])
    casino = CasinoFactory()
    pit = Pit.objects.create(casino=casino, code="east", name="East pit")
    rule_set, payouts = services.preset_versions_ensure(actor=ACTOR, preset="crown")
    admin_login(page, live_server, "boss", PASSWORD)

    # 1. the table list's "Add table": the form, its RTP checked before anything is created
    page.goto(f"{live_server.url}/admin/tables/table/")
    page.click(".object-tools a.addlink")
    page.wait_for_selector("#id_code")
    page.fill("#id_code", "east-crown")
    page.fill("#id_name", "East Crown")
    page.select_option("#id_casino", value=str(casino.pk))
    page.select_option("#id_pit", value=str(pit.pk))
    page.select_option("#id_rule_set", value=str(rule_set.pk))
    page.select_option("#id_payout_schedule", value=str(payouts.pk))
    page.select_option("#id_card_source", value="server_shoe")
    page.fill("#id_min_bet", "500")
    page.fill("#id_max_bet", "50000")
    page.fill("#id_reason", "a new crown table for the east pit")
    page.click("input[name=_preview]")
    preview = page.inner_text("#console-preview")
    assert "Theoretical RTP" in preview and "5.00\u00a0EUR - 500.00\u00a0EUR" in preview
    assert not Table.objects.filter(code="east-crown").exists()
    screenshot("console-table-create-rtp-preview")
    page.fill("#id_reason", "a new crown table for the east pit")
    page.click("input[name=_go]")
    page.wait_for_selector(".messagelist .success")
    assert "created (closed)" in page.inner_text(".messagelist")
    table = Table.objects.get(code="east-crown")
    assert (table.pit, table.min_bet, table.card_source) == (pit, 500, "server_shoe")
    screenshot("console-table-created")

    # 2. opened from its page
    page.click("button[data-action=open]")
    page.wait_for_selector(".messagelist .success")
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN

    # 3. a round on it: its page offers "Request void" while it plays...
    player = funded_player(50_000)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=ACTOR, round_id=rnd.pk, player=player, box=1, stake=1_000)
    page.goto(f"{live_server.url}/admin/tables/round/{rnd.pk}/change/")
    assert page.locator(".object-tools a[data-action=void-request]").count() == 1
    assert "on box 1: 10.00\u00a0EUR" in page.inner_text(".console-events")
    screenshot("console-new-table-round-open")
    # ...and once it settled, the refreshed panel shows it settled, the button has gone and
    # the page reloaded once so the record below the panel is current too
    settled = play_to_settlement(table, player, rnd=rnd)
    assert settled.phase == Round.Phase.SETTLED
    expect(page.locator("#round-phase")).to_have_text("settled", timeout=30_000)
    expect(page.locator(".object-tools [data-action=void-request]")).to_have_count(0)
    expect(page.locator(".field-phase .readonly")).to_have_text("Settled")
    # the shoe is random: a double or a split adds to the 10.00 staked
    (bet,) = settled.bets.all()
    stakes = money_text(bet.staked_total, "EUR")
    assert f"Settled: stakes {stakes}" in page.inner_text(".console-events")
    assert "None" not in page.inner_text(".console-felt")
    screenshot("console-new-table-round-settled")
    # on a narrow screen the panels stay inside the page (a wide table scrolls in its card)
    page.set_viewport_size({"width": 700, "height": 900})
    overflow = page.evaluate(
        """() => [...document.querySelectorAll('.console-card')]
            .filter(c => c.getBoundingClientRect().right > window.innerWidth + 1)
            .map(c => c.querySelector('h3')?.innerText)"""
    )
    assert overflow == []
    screenshot("console-round-panel-narrow")
    page.set_viewport_size({"width": 1400, "height": 900})

    # 4. the floor shows the table in its pit with the round settled
    page.goto(f"{live_server.url}/admin/tables/table/floor/")
    row = page.locator('tbody[data-pit="East pit"] tr[data-table="east-crown"]')
    row.wait_for()
    assert "settled" in row.inner_text() and stakes in row.inner_text()  # the shift's handle


@pytest.mark.worker
def test_a_void_request_holds_the_round_until_it_expires(
    page, live_server, celery_worker, settings, screenshot
):
    settings.TABLES_VOID_REQUEST_EXPIRES_S = 8  # the ETA the expiry task is sent with
    UserFactory(username="boss", roles=[roles.PIT_BOSS])
    _, rnd, player = round_with_bet(code="hold", betting_seconds=600)
    wallet = Account.objects.get(player=player, kind=Account.Kind.WALLET)
    balance = wallet.balance
    admin_login(page, live_server, "boss", PASSWORD)
    page.goto(f"{live_server.url}/admin/tables/round/{rnd.pk}/change/")
    page.click(".object-tools a[data-action=void-request]")
    page.fill("#id_reason", "card exposed")
    page.check("#id_confirm")
    page.click("input[name=_go]")
    page.wait_for_selector(".messagelist .success")

    # held: the page says so, no bet or close-betting button, the floor shows the request ageing
    assert "on hold for a void request" in page.inner_text("#round-held")
    assert page.locator(".object-tools [data-action=close-betting]").count() == 0
    screenshot("console-void-holding")
    request = VoidRequest.objects.get(round=rnd)
    assert request.status == "requested"
    with pytest.raises((RoundHeld, BettingClosed)):  # betting is frozen while held
        services.bet_place(actor=ACTOR, round_id=rnd.pk, player=funded_player(), box=3, stake=500)
    page.goto(f"{live_server.url}/admin/tables/table/floor/")
    assert "void requested by boss" in page.inner_text('#floor-table tr[data-table="hold"]')
    screenshot("console-void-holding-floor")

    # expired by the worker at its time: the round carries on, its money unchanged
    page.goto(f"{live_server.url}/admin/tables/round/{rnd.pk}/change/")
    wait_until(
        lambda: VoidRequest.objects.get(pk=request.pk).status == "expired",
        timeout=60,
        message="not expired:\n" + "".join(celery_worker.output[-30:]),
    )
    page.wait_for_function(
        "() => document.querySelector('#void-status')?.innerText.includes('expired')"
        " && !document.querySelector('#round-held')"
        " && document.querySelector('.object-tools [data-action=void-request]')"
    )
    assert "Void request expired: the round carries on" in page.inner_text(".console-events")
    screenshot("console-void-expired")
    rnd.refresh_from_db()
    wallet.refresh_from_db()
    assert (rnd.phase, rnd.held_since, wallet.balance) == ("open", None, balance)
    page.goto(f"{live_server.url}/admin/tables/table/floor/")
    assert "void requested" not in page.inner_text('#floor-table tr[data-table="hold"]')


def test_the_round_page_follows_a_forced_fifth_card(page, live_server, screenshot):
    """Traditional (§7): a four-card hand of hard 11 or less gets its fifth card without a
    decision. The pit boss's page, refreshing itself, says the next card is forced while it is
    due, then marks the dealt card and its event line."""
    UserFactory(username="boss", roles=[roles.PIT_BOSS])
    rnd, card, decide = traditional_round_by_hand(code="banker")
    card("2S")
    card("7H")
    decide("stake", 500)
    card("3C")
    card("9D")
    decide("twist")
    card("AC")  # 2 3 A: the box's own twist, not forced
    admin_login(page, live_server, "boss", PASSWORD)
    page.goto(f"{live_server.url}/admin/tables/round/{rnd.pk}/change/")
    expect(page.locator("#next-card")).to_have_count(0)  # box 1 decides
    assert page.locator(".console-card-forced").count() == 0
    decide("twist")
    card("4C")  # 2 3 A 4: four cards, hard 10
    # the panel refreshes by itself (every 2 s): the fifth card is due and forced
    expect(page.locator("#next-card")).to_contain_text(
        "forced: dealt by the rules, no decision", timeout=20_000
    )
    assert page.inner_text("#next-card").startswith("Next card: box 1 forced")
    screenshot("console-forced-card-due")
    card("KC")
    forced = page.locator(".console-felt .console-card-forced")
    expect(forced).to_have_count(1, timeout=20_000)
    expect(forced).to_have_text("KCF")  # the card and its "F" mark
    assert forced.get_attribute("title") == "dealt by the rules, no decision"
    expect(page.locator("#next-card")).to_have_count(0)  # the banker decides now
    events = page.locator('.console-events tr[data-event="card_dealt"]')
    expect(events.filter(has_text="(forced by the rules)")).to_have_count(1)
    assert "Card KC dealt to box 1" in events.filter(has_text="(forced by the rules)").inner_text()
    assert "(forced" not in events.filter(has_text="Card AC").inner_text()
    screenshot("console-forced-card-dealt")
