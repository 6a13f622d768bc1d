"""The void lifecycle in the pit console: the approve form's preview (reason, requester, age,
every stake returned and every decided outcome that stands, money by currency exponent),
reject and cancel buttons, the held round on its page and on the floor; forced draws shown."""

from datetime import timedelta

import pytest
from django.utils import timezone

from casino.api import roles
from casino.console.selectors import floor_overview
from casino.money import money_text
from tables import services
from tables.models import Round, VoidRequest
from tests.console.helpers import (
    ACTOR,
    DEVICE,
    act,
    messages_of,
    round_with_bet,
    staff,
    traditional_round_by_hand,
)
from tests.factories import funded_player, live_table

pytestmark = pytest.mark.django_db


def _url(rnd, action: str) -> str:
    return f"/admin/tables/round/{rnd.pk}/do/{action}/"


def _crown_21_and_an_open_hand():
    """Crown, box 1 has 5 6 K = 21 (decided at once, stands at 1:1), box 2 J 6 to play."""
    table = live_table("crown")
    a, b = funded_player(), funded_player()
    rnd = services.round_open(actor=DEVICE, table_id=table.pk)
    services.bet_place(actor=ACTOR, round_id=rnd.pk, player=a, box=1, stake=1000)
    services.bet_place(actor=ACTOR, round_id=rnd.pk, player=b, box=2, stake=2500)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)
    for card in ["5S", "JC", "9H", "6C", "6D"]:
        services.card_post(actor=DEVICE, round_id=rnd.pk, card=card)
    services.decision_make(actor=ACTOR, round_id=rnd.pk, player=a, action="hit")
    services.card_post(actor=DEVICE, round_id=rnd.pk, card="KD")
    return table, Round.objects.get(pk=rnd.pk), a, b


def test_money_is_shown_by_the_currency_exponent():
    assert money_text(123456, "EUR") == "1,234.56\xa0EUR"
    assert money_text(1234, "JPY") == "1,234\xa0JPY"
    assert money_text(1234567, "BHD") == "1,234.567\xa0BHD"


def test_the_approve_form_previews_every_stake_returned_and_every_outcome_standing():
    _table, rnd, a, b = _crown_21_and_an_open_hand()
    boss_client, boss = staff(roles.PIT_BOSS)
    act(boss_client, _url(rnd, "void-request"), reason="shoe dropped on the felt")
    supervisor_client, _ = staff(roles.FLOOR_SUPERVISOR)
    page = supervisor_client.get(_url(rnd, "void-approve")).content.decode()
    preview = page.split('id="console-preview"')[1].split("<form")[0]
    assert "shoe dropped on the felt" in preview
    assert boss.username in preview and "ago" in preview and "Expires" in preview
    bet_a = rnd.bets.get(player=a).ref
    bet_b = rnd.bets.get(player=b).ref
    assert f"Returned: box 2, player {b.pk} ({bet_b})" in preview
    assert "25.00\xa0EUR" in preview  # box 2's stake comes back, in euros, not cents
    assert f"Stands: box 1, player {a.pk} ({bet_a}): win" in preview
    assert "stake 10.00\xa0EUR, pays 20.00\xa0EUR" in preview  # the crown 21 at 1:1
    assert "Show theoretical RTP" not in page  # (the rules form's button)
    assert Round.objects.get(pk=rnd.pk).phase == "playing"  # a preview changes nothing

    approved = act(supervisor_client, _url(rnd, "void-approve"), reason="seen on camera")
    assert any("voided" in m for m in messages_of(approved))
    lines = Round.objects.get(pk=rnd.pk).settlement["lines"]
    assert sorted((x["bet_id"], x["paid"]) for x in lines) == sorted([(bet_a, 2000), (bet_b, 2500)])


def test_reject_and_cancel_buttons_and_the_held_round_on_its_page_and_the_floor():
    _table, rnd, _a, b = _crown_21_and_an_open_hand()
    boss_client, boss = staff(roles.PIT_BOSS)
    supervisor_client, supervisor = staff(roles.FLOOR_SUPERVISOR)
    act(boss_client, _url(rnd, "void-request"), reason="misdeal")
    page = boss_client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert 'data-action="void-cancel"' in page and 'data-action="void-reject"' not in page
    assert 'data-action="void-request"' not in page  # one open request per round
    assert 'id="round-held"' in page and "on hold for a void request" in page
    page = supervisor_client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert 'data-action="void-reject"' in page and 'data-action="void-approve"' in page
    assert 'data-action="void-cancel"' not in page

    # The floor: the held round's alert, with its age, stays until the request is decided.
    later = timezone.now() + timedelta(minutes=4)
    alerts = [a.text for row in floor_overview(now=later).rows for a in row.alerts]
    held = [t for t in alerts if "on hold" in t]
    assert len(held) == 1 and f"Round #{rnd.number} on hold" in held[0]
    assert boss.username in held[0]
    assert "4\xa0minutes ago" in held[0]

    reject_page = supervisor_client.get(_url(rnd, "void-reject")).content.decode()
    assert "misdeal" in reject_page and boss.username in reject_page
    rejected = act(supervisor_client, _url(rnd, "void-reject"), reason="cards were right")
    assert any("rejected" in m for m in messages_of(rejected))
    assert VoidRequest.objects.get(round=rnd).status == "rejected"
    page = supervisor_client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert 'id="round-held"' not in page
    assert f"rejected by {supervisor.username}" in page and "cards were right" in page
    assert not [a for row in floor_overview().rows for a in row.alerts if "on hold" in a.text]

    # A second request, cancelled by its requester; the round plays on.
    act(boss_client, _url(rnd, "void-request"), reason="second look")
    cancelled = act(boss_client, _url(rnd, "void-cancel"), reason="fine on camera")
    assert any("cancelled" in m for m in messages_of(cancelled))
    services.decision_make(actor=ACTOR, round_id=rnd.pk, player=b, action="stand")


def test_the_round_panel_marks_forced_cards():
    rnd, card, decide = traditional_round_by_hand()
    card("2S")
    card("7H")
    decide("stake", 500)
    card("3C")
    card("9D")
    decide("twist")
    card("AC")
    decide("twist")
    card("4C")  # four cards, hard 10: the fifth is forced
    client, _ = staff(roles.PIT_BOSS)
    panel = client.get(f"/admin/tables/round/{rnd.pk}/panel/").content.decode()
    assert 'id="next-card"' in panel and "forced: dealt by the rules, no decision" in panel
    assert "Next card: <strong>box 1</strong>" in panel  # the hand, named once
    assert panel.count('title="dealt by the rules, no decision"') == 1  # the note, no card yet
    card("KC")
    panel = client.get(f"/admin/tables/round/{rnd.pk}/panel/").content.decode()
    assert panel.count("console-card-forced") == 1  # the fifth card, and no next card
    assert 'title="dealt by the rules, no decision">KC<sup' in panel
    assert panel.count("(forced by the rules)") == 1
    assert "Card KC dealt to box 1 (forced by the rules)" in panel  # its event line


def test_a_hold_during_betting_freezes_it_on_the_page():
    _table, rnd, _player = round_with_bet()
    client, _ = staff(roles.PIT_BOSS)
    page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert 'data-action="close-betting"' in page and "Betting closes at " in page
    done = act(client, _url(rnd, "void-request"), reason="wrong limits")
    assert any("on hold" in m for m in messages_of(done)), messages_of(done)
    page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert 'data-action="close-betting"' not in page and "Betting closes at " not in page
    assert "Betting is frozen while the round is on hold" in page
