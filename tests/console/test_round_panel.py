"""The round page as staff read it: face-down cards as card backs (never "None"), events as
readable lines (not JSON), money by currency, and buttons that follow the round's state when
the panel refreshes."""

import re

import pytest

from casino.api import roles
from casino.money import money_text
from tables import selectors, services
from tables.models import Round
from tests.console.helpers import ACTOR, DEVICE, play_to_settlement, round_with_bet, staff
from tests.factories import UserFactory, funded_player, live_table

pytestmark = pytest.mark.django_db


def _panel(client, rnd) -> str:
    return client.get(f"/admin/tables/round/{rnd.pk}/panel/").content.decode()


def test_face_down_cards_are_card_backs_and_events_are_readable_lines():
    _, rnd, _ = round_with_bet("online_8deck", close=True)
    for card in ("2H", "3C", "4D", "5S", "6H"):
        rnd.refresh_from_db()
        if None in selectors.round_public_state(rnd)["dealer"]["cards"]:
            break
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    rnd = Round.objects.get(pk=rnd.pk)
    assert None in selectors.round_public_state(rnd)["dealer"]["cards"], "a hole card lies down"
    client, _ = staff(roles.PIT_BOSS)
    page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    felt = page[page.index('class="console-felt"') : page.index("<h3>Void</h3>")]
    assert 'console-card-back" title="face down"' in felt
    assert "None" not in felt
    events = page[page.index("<h3>Events") :]
    assert "Bet " in events and "on box 1: 10.00\xa0EUR" in events
    assert "Betting closed" in events and "Card 2H dealt to box 1" in events
    assert "Card a face-down card dealt to the dealer" in events
    assert '{"type"' not in events and "&quot;type&quot;" not in events


def test_a_settled_rounds_refreshed_panel_has_no_void_button():
    table = live_table("crown", card_source="server_shoe")
    client, _ = staff(roles.PIT_BOSS)
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    assert 'data-action="void-request"' in _panel(client, rnd)
    # the page itself carries its buttons once (the panel's copy is for refreshes)
    page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert page.count('data-action="void-request"') == 1
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    services.round_settle(round_id=rnd.pk)  # no bets: settled as the worker would
    rnd.refresh_from_db()
    assert rnd.phase == Round.Phase.SETTLED
    panel = _panel(client, rnd)
    tools = re.search(r"<ul hidden data-object-tools>(.*?)</ul>", panel, re.S).group(1)
    assert "data-action" not in tools
    settled = play_to_settlement(table, funded_player())
    # the shoe is random: a double or a split adds to the 10.00 staked
    (bet,) = settled.bets.all()
    assert bet.staked_total >= 1000
    stakes = money_text(bet.staked_total, "EUR")
    assert f"Settled: stakes {stakes}" in _panel(client, settled)


def test_a_void_request_is_a_line_and_brings_its_decision_buttons_to_another_supervisor():
    _, rnd, _ = round_with_bet()
    supervisor, _ = staff(roles.FLOOR_SUPERVISOR)
    assert 'data-action="void-approve"' not in _panel(supervisor, rnd)
    services.void_request(
        actor=ACTOR, user=UserFactory(roles=[roles.PIT_BOSS]), round_id=rnd.pk, reason="misdeal"
    )
    panel = _panel(supervisor, rnd)
    assert "Void requested: “misdeal”; the round is on hold" in panel
    assert 'data-action="void-approve"' in panel and 'data-action="void-request"' not in panel


def test_the_round_page_shows_its_limits_in_money():
    _, rnd, _ = round_with_bet(min_bet=250, max_bet=100_000)
    client, _ = staff(roles.PIT_BOSS)
    page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert "2.50\xa0EUR - 1,000.00\xa0EUR" in page and '"max_bet"' not in page
